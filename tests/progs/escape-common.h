/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared by the attack programs of the escape suite (tests/escape.bats,
 * tests/progs/escape-*.c). Each attack runs inside `fbac-run` (or, to prove
 * it is real, unconfined) with HOME laid out by the suite:
 *
 *   ~/.ssh/id_rsa           the secret (random per test; never granted)
 *   ~/work/                 read-write work directory of the attacker
 *   ~/work/.a/.ssh/id_rsa   the decoy: an allowed file. Its path differs
 *                           from "~/work/../.ssh/id_rsa" (the secret) in
 *                           one byte, so a racing thread can flip between
 *                           the two with a single store.
 *   ~/bin/prog-A, prog-D    copies of escape-helper-marker: prog-A may run,
 *                           prog-D is denied execute (a carve-out)
 *   ~/work/noexec-prog      another copy, where nothing may be executed
 *
 * Protocol: an attack prints "ATTACK <name> START", what it tries, lines
 * "CONTROL ok: ..." for the allowed operations that must keep working,
 * "ESCAPE: ..." for every success, and "ATTACK <name> END: escaped|held".
 * Exit status: 0 the attack succeeded (the sandbox is weak), 1 it was held,
 * 2 the attack could not be carried out (a setup failure: never a pass).
 * Whatever an attack steals is also written to ~/work/loot-<name>, so the
 * suite can check the files the attacker can write as well as the output.
 *
 * ESC_SECONDS (default 2) bounds every loop.
 */
#ifndef FBAC_ESCAPE_COMMON_H
#define FBAC_ESCAPE_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#define ESC_UNUSED __attribute__((unused))
#define ESC_PRINTF(a, b) __attribute__((format(printf, a, b)))

static const char *esc_name ESC_UNUSED = "?";
static char esc_home[1024] ESC_UNUSED;
static char esc_secret[1024] ESC_UNUSED;	/* ~/.ssh/id_rsa */
static char esc_secret_alt[1024] ESC_UNUSED; /* ~/work/../.ssh/id_rsa */
static char esc_decoy[1024] ESC_UNUSED;	/* ~/work/.a/.ssh/id_rsa */
static char esc_work[1024] ESC_UNUSED;
static char esc_bin[1024] ESC_UNUSED;
static char esc_decoy_data[512] ESC_UNUSED;
static size_t esc_decoy_len ESC_UNUSED;
static atomic_int esc_escaped ESC_UNUSED;
static atomic_int esc_controls ESC_UNUSED;
static double esc_seconds ESC_UNUSED = 2.0;

/*
 * Print with one write(2): threads and children share stdout, and stdio's
 * dprintf may fstat the descriptor, which is a supervised call (an attack
 * that stalls the supervisor must still be able to report).
 */
static inline ESC_PRINTF(1, 2) void esc_out(const char *fmt, ...)
{
	char line[4608];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	(void)!write(STDOUT_FILENO, line, (size_t)n);
}

static inline ESC_PRINTF(1, 2) void esc_say(const char *fmt, ...)
{
	char line[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	esc_out("[%s] %s\n", esc_name, line);
}

/* snprintf that refuses to truncate (a cut path would test nothing). */
static inline ESC_PRINTF(3, 4) char *esc_fmt(char *out, size_t size,
					     const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size) {
		esc_out("[%s] SETUP-ERROR: path too long\n",
			esc_name);
		_exit(2);
	}
	return out;
}
#define ESC_FMT(buf, ...) esc_fmt(buf, sizeof(buf), __VA_ARGS__)

static inline double esc_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Exit 2: the attack could not be carried out. */
static inline ESC_PRINTF(1, 2) void esc_setup_error(const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	esc_out("[%s] SETUP-ERROR: %s\n", esc_name, line);
	esc_out("ATTACK %s END: setup-error\n", esc_name);
	_exit(2);
}

static inline ESC_PRINTF(1, 2) void esc_control(const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	atomic_fetch_add(&esc_controls, 1);
	esc_say("CONTROL ok: %s", line);
}

static inline ESC_PRINTF(1, 2) void esc_escape(const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	atomic_fetch_add(&esc_escaped, 1);
	esc_say("ESCAPE: %s", line);
}

/* Keep what was stolen where the attacker can write, as a real one would. */
static inline void esc_loot(const void *buf, size_t n)
{
	char path[PATH_MAX + 64];
	int fd;

	snprintf(path, sizeof(path), "%s/loot-%s", esc_work, esc_name);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
	if (fd >= 0) {
		(void)!write(fd, buf, n);
		close(fd);
	}
}

/* Data read from a file that is not the decoy's: stolen. */
static inline bool esc_is_stolen(const char *buf, ssize_t n)
{
	return n > 0 && !((size_t)n == esc_decoy_len &&
			  !memcmp(buf, esc_decoy_data, (size_t)n));
}

static inline void esc_leak(const char *how, const char *buf, ssize_t n)
{
	char shown[256];
	size_t k = 0;

	for (ssize_t i = 0; i < n && k + 1 < sizeof(shown); i++)
		shown[k++] = buf[i] == '\n' ? ' ' : buf[i];
	shown[k] = 0;
	esc_escape("%s: read %zd bytes that are not the decoy's: %s", how, n,
		   shown);
	esc_loot(buf, (size_t)n);
}

/* Read up to size bytes from fd (from its start when it is seekable). */
static inline ssize_t esc_read_fd(int fd, char *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size, 0);

	if (n < 0 && errno == ESPIPE)
		n = read(fd, buf, size);
	return n;
}

/*
 * Open path (relative to dirfd) with flags, read it, and report: an
 * escape if the data is not the decoy's. Return: the open's errno (0 when
 * it opened).
 */
static inline int esc_try_open(const char *label, int dirfd, const char *path,
			       int flags, bool quiet)
{
	char buf[512];
	int fd = openat(dirfd, path, flags | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0) {
		err = errno;
		if (!quiet)
			esc_say("%s: open '%s': %s (held)", label, path,
				strerror(err));
		return err;
	}
	n = esc_read_fd(fd, buf, sizeof(buf));
	err = n < 0 ? errno : 0;
	close(fd);
	if (esc_is_stolen(buf, n)) {
		esc_leak(label, buf, n);
		return 0;
	}
	if (!quiet)
		esc_say("%s: open '%s' gave a descriptor, read: %s", label,
			path, n < 0 ? strerror(err) : "the decoy or nothing");
	return 0;
}

static inline void esc_init(const char *name, const char *what)
{
	const char *home = getenv("HOME"), *s = getenv("ESC_SECONDS");
	int fd;
	ssize_t n;

	esc_name = name;
	setvbuf(stdout, NULL, _IONBF, 0);
	esc_out("ATTACK %s START: %s\n", name, what);
	if (!home || home[0] != '/')
		esc_setup_error("HOME is not set");
	if (s && atof(s) > 0)
		esc_seconds = atof(s);
	snprintf(esc_home, sizeof(esc_home), "%s", home);
	snprintf(esc_secret, sizeof(esc_secret), "%s/.ssh/id_rsa", home);
	snprintf(esc_secret_alt, sizeof(esc_secret_alt),
		 "%s/work/../.ssh/id_rsa", home);
	snprintf(esc_decoy, sizeof(esc_decoy), "%s/work/.a/.ssh/id_rsa", home);
	snprintf(esc_work, sizeof(esc_work), "%s/work", home);
	snprintf(esc_bin, sizeof(esc_bin), "%s/bin", home);
	/* The decoy must be readable: it is what every attack compares with,
	 * and proves that the sandbox serves allowed opens at all. */
	fd = open(esc_decoy, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		esc_setup_error("cannot read the decoy %s: %m", esc_decoy);
	n = read(fd, esc_decoy_data, sizeof(esc_decoy_data));
	close(fd);
	if (n <= 0)
		esc_setup_error("the decoy %s is empty", esc_decoy);
	esc_decoy_len = (size_t)n;
	esc_control("read the decoy %s (%zd bytes)", esc_decoy, n);
}

static inline int esc_finish(void)
{
	int e = atomic_load(&esc_escaped);

	if (e)
		esc_out("ATTACK %s END: escaped (%d successes)\n",
			esc_name, e);
	else
		esc_out("ATTACK %s END: held\n", esc_name);
	return e ? 0 : 1;
}

/* Flip one byte of a buffer between two values until *stop. */
struct esc_flip {
	volatile char *at;
	char a, b;
	atomic_int stop;
	unsigned long flips;
};

static inline void *esc_flipper(void *p)
{
	struct esc_flip *f = p;

	while (!atomic_load_explicit(&f->stop, memory_order_relaxed)) {
		*f->at = f->b;
		for (volatile int i = 0; i < 50; i++)
			;
		*f->at = f->a;
		for (volatile int i = 0; i < 50; i++)
			;
		f->flips++;
	}
	return NULL;
}

/* The index of the one byte where two equal-length strings differ. */
static inline size_t esc_diff_at(const char *x, const char *y)
{
	size_t i, at = (size_t)-1;

	if (strlen(x) != strlen(y))
		esc_setup_error("'%s' and '%s' differ in length", x, y);
	for (i = 0; x[i]; i++)
		if (x[i] != y[i]) {
			if (at != (size_t)-1)
				esc_setup_error("'%s' and '%s' differ in more than one byte",
						x, y);
			at = i;
		}
	if (at == (size_t)-1)
		esc_setup_error("'%s' and '%s' are equal", x, y);
	return at;
}

/* Exit statuses of escape-helper-marker copies. */
#define MARKER_DENIED 42  /* prog-D or noexec-prog ran: must never happen */
#define MARKER_ALLOWED 43 /* prog-A ran */
#define MARKER_OTHER 44

#endif
