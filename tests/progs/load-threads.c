// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Many threads opening and reading files at once, for tests/load.bats.
 *
 *   load-threads -w DIR FILES
 *	(run unconfined) write DIR/f000 ... : FILES files of a few KiB whose
 *	content follows from their name, so that a reader can check it.
 *   load-threads DIR FILES THREADS ROUNDS [DENIED...]
 *	start THREADS threads and release them together once all exist; each
 *	ROUNDS times: stat(2) a file of DIR, open(2) it, read it to the end,
 *	compare with what -w wrote, fstat(2) and close it, then the same by
 *	openat(2) relative to DIR. Every 100th thread also tries to open each
 *	DENIED path, which must fail with EACCES. Prints
 *	  threads=N started=N ok=N bad=N opens=N denied_eacces=N
 *	  denied_other=N denied_opened=N
 *	and the first few problems on stderr. Exit 0 when every thread was
 *	started and every check passed, 1 otherwise, 64 on a usage error.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_THREADS 4096
#define FILE_LINES 200

static const char *dir;
static int nfiles, rounds, ndenied, dirfd_all = -1;
static char **denied;
static pthread_barrier_t start;
static atomic_long ok, bad, opens, denied_eacces, denied_other, denied_opened;
static atomic_int problems;

__attribute__((format(printf, 1, 2)))
static void problem(const char *fmt, ...)
{
	va_list ap;

	atomic_fetch_add(&bad, 1);
	if (atomic_fetch_add(&problems, 1) >= 10)
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The content of file number n, in buf (size: see content_size). */
static size_t content(int n, char *buf, size_t size)
{
	size_t len = 0;

	for (int l = 0; l < FILE_LINES; l++) {
		int w = snprintf(buf + len, size - len,
				 "f%03d line %03d: the quick brown fox\n", n, l);

		if (w < 0 || (size_t)w >= size - len)
			return 0;
		len += (size_t)w;
	}
	return len;
}

static int write_files(void)
{
	static char buf[FILE_LINES * 64];

	for (int n = 0; n < nfiles; n++) {
		char path[PATH_MAX];
		size_t len = content(n, buf, sizeof(buf));
		FILE *f;

		snprintf(path, sizeof(path), "%s/f%03d", dir, n);
		f = fopen(path, "w");
		if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
			perror(path);
			return 1;
		}
	}
	return 0;
}

/* Read fd to the end and compare with file n; 0 when equal. */
static int check_fd(int fd, int n, const char *how)
{
	char want[FILE_LINES * 64], got[FILE_LINES * 64 + 1];
	size_t wlen = content(n, want, sizeof(want)), glen = 0;
	struct stat st;
	ssize_t r;

	while ((r = read(fd, got + glen, sizeof(got) - glen)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			problem("%s f%03d: read: %s", how, n, strerror(errno));
			return -1;
		}
		glen += (size_t)r;
		if (glen == sizeof(got))
			break;
	}
	if (glen != wlen || memcmp(got, want, wlen)) {
		problem("%s f%03d: read %zu bytes, not the %zu expected", how, n,
			glen, wlen);
		return -1;
	}
	if (fstat(fd, &st) < 0 || st.st_size != (off_t)wlen) {
		problem("%s f%03d: fstat: %s", how, n, strerror(errno));
		return -1;
	}
	return 0;
}

static void *worker(void *arg)
{
	long idx = (long)arg;
	int n = (int)(idx % nfiles), failed = 0;
	char path[PATH_MAX], name[16];

	snprintf(name, sizeof(name), "f%03d", n);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	pthread_barrier_wait(&start);
	for (int i = 0; i < rounds; i++) {
		struct stat st;
		int fd;

		if (stat(path, &st) < 0) {
			problem("stat %s: %s", path, strerror(errno));
			failed = 1;
		}
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			problem("open %s: %s", path, strerror(errno));
			failed = 1;
		} else {
			atomic_fetch_add(&opens, 1);
			failed |= check_fd(fd, n, "open") < 0;
			close(fd);
		}
		fd = openat(dirfd_all, name, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			problem("openat %s: %s", name, strerror(errno));
			failed = 1;
		} else {
			atomic_fetch_add(&opens, 1);
			failed |= check_fd(fd, n, "openat") < 0;
			close(fd);
		}
	}
	if (idx % 100 == 0) {
		for (int d = 0; d < ndenied; d++) {
			int fd = open(denied[d], O_RDONLY | O_CLOEXEC);

			if (fd >= 0) {
				atomic_fetch_add(&denied_opened, 1);
				problem("open %s: succeeded, must be denied",
					denied[d]);
				close(fd);
			} else if (errno == EACCES) {
				atomic_fetch_add(&denied_eacces, 1);
			} else {
				atomic_fetch_add(&denied_other, 1);
				problem("open %s: %s, not EACCES", denied[d],
					strerror(errno));
			}
		}
	}
	if (!failed)
		atomic_fetch_add(&ok, 1);
	return NULL;
}

int main(int argc, char **argv)
{
	static pthread_t t[MAX_THREADS];
	pthread_attr_t attr;
	int nthreads, started = 0, r;
	long want_denied;

	if (argc == 4 && !strcmp(argv[1], "-w")) {
		dir = argv[2];
		nfiles = atoi(argv[3]);
		return nfiles < 1 || nfiles > 999 ? 64 : write_files();
	}
	if (argc < 5) {
		fprintf(stderr, "usage: load-threads -w DIR FILES\n"
				"       load-threads DIR FILES THREADS ROUNDS [DENIED...]\n");
		return 64;
	}
	dir = argv[1];
	nfiles = atoi(argv[2]);
	nthreads = atoi(argv[3]);
	rounds = atoi(argv[4]);
	denied = argv + 5;
	ndenied = argc - 5;
	if (nfiles < 1 || nfiles > 999 || nthreads < 1 ||
	    nthreads > MAX_THREADS || rounds < 1)
		return 64;
	dirfd_all = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd_all < 0) {
		perror(dir);
		return 1;
	}
	/* Small stacks: 1000 threads must fit any machine. */
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 128 * 1024);
	/* Everybody, main included, waits at the barrier: it opens only
	 * once every thread exists, so all of them run at the same time. */
	pthread_barrier_init(&start, NULL, (unsigned)nthreads + 1);
	for (long i = 0; i < nthreads; i++) {
		r = pthread_create(&t[i], &attr, worker, (void *)i);
		if (r) {
			fprintf(stderr, "load-threads: thread %ld: %s\n", i,
				strerror(r));
			/* The barrier would wait for ever: give up now. */
			printf("threads=%d started=%d\n", nthreads, started);
			fflush(stdout);
			_exit(1);
		}
		started++;
	}
	pthread_barrier_wait(&start);
	for (int i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
	printf("threads=%d started=%d ok=%ld bad=%ld opens=%ld denied_eacces=%ld denied_other=%ld denied_opened=%ld\n",
	       nthreads, started, atomic_load(&ok), atomic_load(&bad),
	       atomic_load(&opens), atomic_load(&denied_eacces),
	       atomic_load(&denied_other), atomic_load(&denied_opened));
	want_denied = (long)((nthreads + 99) / 100) * ndenied;
	return started == nthreads && atomic_load(&ok) == nthreads &&
			       atomic_load(&bad) == 0 &&
			       atomic_load(&opens) == 2L * nthreads * rounds &&
			       atomic_load(&denied_eacces) == want_denied ?
		       0 :
		       1;
}
