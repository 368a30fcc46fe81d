// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * openf MODE PATH [TEXT]: open PATH with the flags MODE spells, then copy
 * the file to stdout (when opened for reading) and write TEXT (when given).
 * For tests/run.bats, where the shell cannot ask for exact open flags.
 *
 * MODE letters: r read, w write (both: O_RDWR), a O_APPEND, c O_CREAT,
 * t O_TRUNC, x O_EXCL, d O_DIRECTORY, p O_PATH, n O_NOFOLLOW.
 * Exit: 0 done; 1 open failed; 2 read or write failed. Errors are printed
 * as "openf: open PATH: ENAME (text)".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *ename(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

int main(int argc, char **argv)
{
	int flags = 0, fd;
	bool rd = false, wr = false;
	char buf[65536];
	ssize_t n;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: openf MODE PATH [TEXT]\n");
		return 64;
	}
	for (const char *m = argv[1]; *m; m++) {
		switch (*m) {
		case 'r': rd = true; break;
		case 'w': wr = true; break;
		case 'a': flags |= O_APPEND; break;
		case 'c': flags |= O_CREAT; break;
		case 't': flags |= O_TRUNC; break;
		case 'x': flags |= O_EXCL; break;
		case 'd': flags |= O_DIRECTORY; break;
		case 'p': flags |= O_PATH; break;
		case 'n': flags |= O_NOFOLLOW; break;
		default:
			fprintf(stderr, "openf: unknown mode letter '%c'\n", *m);
			return 64;
		}
	}
	flags |= rd && wr ? O_RDWR : wr ? O_WRONLY : O_RDONLY;
	fd = open(argv[2], flags | O_CLOEXEC, 0644);
	if (fd < 0) {
		int e = errno;

		fprintf(stderr, "openf: open %s: %s (%s)\n", argv[2], ename(e),
			strerror(e));
		return 1;
	}
	if (rd && !(flags & O_PATH)) {
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			if (write(1, buf, (size_t)n) != n)
				return 2;
		if (n < 0) {
			int e = errno;

			fprintf(stderr, "openf: read %s: %s (%s)\n", argv[2],
				ename(e), strerror(e));
			return 2;
		}
	}
	if (argc == 4) {
		size_t len = strlen(argv[3]);

		if (write(fd, argv[3], len) != (ssize_t)len) {
			int e = errno;

			fprintf(stderr, "openf: write %s: %s (%s)\n", argv[2],
				ename(e), strerror(e));
			return 2;
		}
	}
	close(fd);
	return 0;
}
