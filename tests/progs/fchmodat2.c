// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fchmodat2 PATH MODE [FLAGS]: the raw fchmodat2 system call (452, Linux
 * 6.6; the C library's fchmodat uses it only for AT_SYMLINK_NOFOLLOW), on
 * PATH from the working directory with FLAGS, a number (AT_SYMLINK_NOFOLLOW
 * is 256, AT_EMPTY_PATH 4096). With AT_EMPTY_PATH, on an O_PATH descriptor
 * of PATH and the name "". MODE is octal. Prints "ok" or the error's name
 * ("EACCES"); exits 0 either way, 64 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NR_FCHMODAT2 452
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif

int main(int argc, char **argv)
{
	long mode, flags = 0, r;
	int dirfd = AT_FDCWD;
	const char *name;
	char *end;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: fchmodat2 PATH MODE [FLAGS]\n");
		return 64;
	}
	name = argv[1];
	mode = strtol(argv[2], &end, 8);
	if (*end)
		return 64;
	if (argc == 4) {
		flags = strtol(argv[3], &end, 0);
		if (*end)
			return 64;
	}
	if (flags & AT_EMPTY_PATH) {
		dirfd = open(argv[1], O_PATH | O_CLOEXEC);
		if (dirfd < 0) {
			printf("open %s\n", strerrorname_np(errno));
			return 0;
		}
		name = "";
	}
	r = syscall(NR_FCHMODAT2, dirfd, name, mode, flags);
	printf("%s\n", r == 0 ? "ok" : strerrorname_np(errno));
	return 0;
}
