// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * rename-exchange A B: swap A and B atomically with
 * renameat2(RENAME_EXCHANGE). Prints "exchanged", or
 * "rename-exchange: ENAME (text)" and exits 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: rename-exchange A B\n");
		return 64;
	}
	if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2],
		    RENAME_EXCHANGE) < 0) {
		int e = errno;
		const char *n = strerrorname_np(e);

		fprintf(stderr, "rename-exchange: %s (%s)\n", n ? n : "E?",
			strerror(e));
		return 1;
	}
	printf("exchanged\n");
	return 0;
}
