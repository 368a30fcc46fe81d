// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * open-many [--wait FILE] PATH...: open each PATH read-only and print one
 * line per PATH: "PATH ok BYTES" (bytes read), "PATH dir ENTRIES" (a
 * directory, entries listed), or "PATH ENAME". --wait FILE pauses, before
 * the paths after it, until FILE exists (the test changes the tree then).
 * --stat: the paths after it are stat(2)ed instead, "PATH size BYTES" or
 * "PATH ENAME"; --open: opened again. --repeat N PATH: PATH opened and
 * closed N times with no line (a run past FBAC_WATCH_AFTER, for the
 * tests of the supervisor's watches).
 * For tests/fastpath.bats, which compares these lines between the kernel
 * fast path and the supervisor alone.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *ename(int e)
{
	const char *n = strerrorname_np(e);

	return n ? n : "E?";
}

static void wait_for(const char *file)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	for (int i = 0; i < 3000 && access(file, F_OK) < 0; i++)
		nanosleep(&ts, NULL);
}

int main(int argc, char **argv)
{
	/* A line at a time: a test waits for the lines before a --wait. */
	bool stat_only = false;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 1; i < argc; i++) {
		const char *path = argv[i];
		struct stat st;
		char buf[4096];
		long total = 0;
		ssize_t n;
		int fd;

		if (!strcmp(path, "--wait") && i + 1 < argc) {
			wait_for(argv[++i]);
			continue;
		}
		if (!strcmp(path, "--repeat") && i + 2 < argc) {
			long times = strtol(argv[i + 1], NULL, 10);

			for (long k = 0; k < times; k++) {
				fd = open(argv[i + 2], O_RDONLY | O_CLOEXEC);
				if (fd >= 0)
					close(fd);
			}
			i += 2;
			continue;
		}
		if (!strcmp(path, "--stat") || !strcmp(path, "--open")) {
			stat_only = path[2] == 's';
			continue;
		}
		if (stat_only) {
			if (stat(path, &st) < 0)
				printf("%s %s\n", path, ename(errno));
			else
				printf("%s size %lld\n", path,
				       (long long)st.st_size);
			continue;
		}
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			printf("%s %s\n", path, ename(errno));
			continue;
		}
		if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
			DIR *d = fdopendir(fd);
			long entries = 0;

			while (d && readdir(d))
				entries++;
			printf("%s dir %ld\n", path, d ? entries : -1);
			if (d)
				closedir(d);
			else
				close(fd);
			continue;
		}
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			total += n;
		if (n < 0)
			printf("%s read %s\n", path, ename(errno));
		else
			printf("%s ok %ld\n", path, total);
		close(fd);
	}
	return 0;
}
