// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench-openstat N FILE...: the open/stat microbenchmark of
 * bench/bench-run.sh. N times open(2)+close(2), then N times stat(2), going
 * round the FILEs; prints
 *   open+close_us=X.XXX stat_us=X.XXX
 * the mean cost of one operation in microseconds. Exit 1 if any call
 * fails (the numbers would mean nothing: check the policy), 64 on a usage
 * error.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	double t0, t1, t2;
	long n;
	int nf;

	if (argc < 3 || (n = atol(argv[1])) < 1) {
		fprintf(stderr, "usage: bench-openstat N FILE...\n");
		return 64;
	}
	nf = argc - 2;
	t0 = now_us();
	for (long i = 0; i < n; i++) {
		const char *f = argv[2 + i % nf];
		int fd = open(f, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			perror(f);
			return 1;
		}
		close(fd);
	}
	t1 = now_us();
	for (long i = 0; i < n; i++) {
		const char *f = argv[2 + i % nf];
		struct stat st;

		if (stat(f, &st) < 0) {
			perror(f);
			return 1;
		}
	}
	t2 = now_us();
	printf("open+close_us=%.3f stat_us=%.3f\n", (t1 - t0) / (double)n,
	       (t2 - t1) / (double)n);
	return 0;
}
