// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * syscall-nr NR...: make each raw system call NR with every argument 0 and
 * print "NR ok" or "NR ENAME" per line. For the filter's treatment of
 * numbers newer than its table (tests/run.bats): with null arguments the
 * calls that exist fail (EFAULT, EBADF, ...) rather than act.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		long nr = strtol(argv[i], NULL, 10);
		long r = syscall(nr, 0L, 0L, 0L, 0L, 0L, 0L);
		const char *e = r < 0 ? strerrorname_np(errno) : NULL;

		printf("%ld %s\n", nr, r >= 0 ? "ok" : e ? e : "E?");
	}
	return 0;
}
