// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * threads-open THREADS ROUNDS ALLOWED DENIED EXPECT: THREADS threads,
 * released together, each open and read ALLOWED (whose content must start
 * with EXPECT) and try to open DENIED (which must fail with EACCES),
 * ROUNDS times. Prints the counts:
 *   allowed_ok=N allowed_bad=N denied_eacces=N denied_other=N denied_opened=N
 * Exit 0 when every allowed open read EXPECT and every denied one failed
 * with EACCES; 1 otherwise.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_THREADS 64

static const char *allowed, *denied, *expect;
static int rounds;
static pthread_barrier_t start;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long allowed_ok, allowed_bad, denied_eacces, denied_other, denied_opened;

static void *worker(void *arg)
{
	long aok = 0, abad = 0, deacces = 0, dother = 0, dopened = 0;
	size_t elen = strlen(expect);

	(void)arg;
	pthread_barrier_wait(&start);
	for (int i = 0; i < rounds; i++) {
		char buf[256];
		ssize_t n;
		int fd = open(allowed, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			abad++;
		} else {
			n = read(fd, buf, sizeof(buf));
			if (n >= (ssize_t)elen && !memcmp(buf, expect, elen))
				aok++;
			else
				abad++;
			close(fd);
		}
		fd = open(denied, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			dopened++;
			close(fd);
		} else if (errno == EACCES) {
			deacces++;
		} else {
			dother++;
		}
	}
	pthread_mutex_lock(&lock);
	allowed_ok += aok;
	allowed_bad += abad;
	denied_eacces += deacces;
	denied_other += dother;
	denied_opened += dopened;
	pthread_mutex_unlock(&lock);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[MAX_THREADS];
	int n;

	if (argc != 6) {
		fprintf(stderr, "usage: threads-open THREADS ROUNDS ALLOWED DENIED EXPECT\n");
		return 64;
	}
	n = atoi(argv[1]);
	rounds = atoi(argv[2]);
	allowed = argv[3];
	denied = argv[4];
	expect = argv[5];
	if (n < 1 || n > MAX_THREADS || rounds < 1)
		return 64;
	pthread_barrier_init(&start, NULL, (unsigned)n);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, NULL)) {
			fprintf(stderr, "threads-open: pthread_create failed\n");
			return 1;
		}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("allowed_ok=%ld allowed_bad=%ld denied_eacces=%ld denied_other=%ld denied_opened=%ld\n",
	       allowed_ok, allowed_bad, denied_eacces, denied_other,
	       denied_opened);
	return allowed_ok == (long)n * rounds && denied_eacces == (long)n * rounds ?
		       0 :
		       1;
}
