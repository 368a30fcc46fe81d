// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * fstat-fd FD...: fstat() (glibc: newfstatat(fd, "", AT_EMPTY_PATH)) and
 * statx(fd, "", AT_EMPTY_PATH) each descriptor, which the program already
 * holds; print "fd N: TYPE size S" per descriptor, to stderr (stdout may
 * be one of them). Errors: "fstat-fd: fd N: CALL: ENAME", exit 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *type(mode_t m)
{
	return S_ISREG(m) ? "regular" : S_ISDIR(m) ? "directory" :
	       S_ISFIFO(m) ? "fifo" : S_ISCHR(m) ? "chardev" :
	       S_ISSOCK(m) ? "socket" : "other";
}

int main(int argc, char **argv)
{
	int rc = 0;

	for (int i = 1; i < argc; i++) {
		int fd = atoi(argv[i]);
		struct stat st;
		struct statx sx;

		if (fstat(fd, &st) < 0) {
			fprintf(stderr, "fstat-fd: fd %d: fstat: %s\n", fd,
				strerrorname_np(errno));
			rc = 1;
			continue;
		}
		if (statx(fd, "", AT_EMPTY_PATH, STATX_BASIC_STATS, &sx) < 0) {
			fprintf(stderr, "fstat-fd: fd %d: statx: %s\n", fd,
				strerrorname_np(errno));
			rc = 1;
			continue;
		}
		if (sx.stx_ino != st.st_ino) {
			fprintf(stderr, "fstat-fd: fd %d: fstat and statx disagree\n", fd);
			rc = 1;
			continue;
		}
		fprintf(stderr, "fd %d: %s size %lld\n", fd, type(st.st_mode),
			(long long)st.st_size);
	}
	return rc;
}
