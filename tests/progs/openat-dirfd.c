// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * openat-dirfd DIR NAME...: open the directory DIR, then openat() each
 * NAME relative to that descriptor and print one line per NAME:
 *   ok NAME: <the file's first line>
 *   err NAME: ENAME
 * DIR is "fd:N" (a descriptor the program inherited), "path:P" (opened
 * O_RDONLY|O_DIRECTORY) or "opath:P" (opened O_PATH|O_DIRECTORY).
 * Exit: 0 when DIR could be opened (whatever the NAMEs gave), 3 if not.
 */
#include <errno.h>
#include <fcntl.h>
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
	int dfd;

	if (argc < 3) {
		fprintf(stderr, "usage: openat-dirfd fd:N|path:P|opath:P NAME...\n");
		return 64;
	}
	if (!strncmp(argv[1], "fd:", 3))
		dfd = atoi(argv[1] + 3);
	else if (!strncmp(argv[1], "path:", 5))
		dfd = open(argv[1] + 5, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	else if (!strncmp(argv[1], "opath:", 6))
		dfd = open(argv[1] + 6, O_PATH | O_DIRECTORY | O_CLOEXEC);
	else
		return 64;
	if (dfd < 0) {
		printf("err open %s: %s\n", argv[1], ename(errno));
		return 3;
	}
	for (int i = 2; i < argc; i++) {
		char line[4096] = "";
		ssize_t n;
		int fd = openat(dfd, argv[i], O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			printf("err %s: %s\n", argv[i], ename(errno));
			continue;
		}
		n = read(fd, line, sizeof(line) - 1);
		if (n < 0) {
			printf("err read %s: %s\n", argv[i], ename(errno));
			close(fd);
			continue;
		}
		line[n] = 0;
		line[strcspn(line, "\n")] = 0;
		printf("ok %s: %s\n", argv[i], line);
		close(fd);
	}
	return 0;
}
