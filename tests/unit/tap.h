/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A tiny header-only TAP producer for the unit tests (tests/run-all reads
 * its output). One test program is one translation unit, so the counters
 * are file-scope statics.
 *
 *	int main(void)
 *	{
 *		plan_no_plan();
 *		ok(1 + 1 == 2, "addition works for %d", 1);
 *		is_int(strlen("ab"), 2, "strlen");
 *		is_str(getenv("NOPE"), NULL, "unset variable");
 *		return done_testing();
 *	}
 *
 * ok(), is_int() and is_str() return whether the test passed and, when it
 * failed, print where and what they got as "# " diagnostics on stdout (so
 * that they stay next to their "not ok" line).
 */
#ifndef FBAC_TAP_H
#define FBAC_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned tap_run_ __attribute__((unused));
static unsigned tap_failed_ __attribute__((unused));

/* Print fmt/ap as diagnostics, "# " before every line. */
static inline void tap_vdiag_(const char *fmt, va_list ap)
	__attribute__((format(printf, 1, 0)));
static inline void tap_vdiag_(const char *fmt, va_list ap)
{
	char *msg = NULL;

	if (vasprintf(&msg, fmt, ap) < 0) {
		fputs("# (diag: out of memory)\n", stdout);
		return;
	}
	for (char *line = msg, *nl; line; line = nl) {
		nl = strchr(line, '\n');
		if (nl)
			*nl++ = '\0';
		printf("# %s\n", line);
	}
	free(msg);
	fflush(stdout);
}

static inline void diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vdiag_(fmt, ap);
	va_end(ap);
}

/* No "1..N" up front; done_testing() prints it at the end. */
static inline void plan_no_plan(void)
{
	/* A crash must not swallow the lines already produced. */
	setvbuf(stdout, NULL, _IOLBF, 0);
}

static inline bool tap_result_(bool pass, const char *file, int line,
			       const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));
static inline bool tap_result_(bool pass, const char *file, int line,
			       const char *fmt, va_list ap)
{
	tap_run_++;
	if (!pass)
		tap_failed_++;
	printf("%sok %u - ", pass ? "" : "not ", tap_run_);
	vprintf(fmt, ap);
	putchar('\n');
	if (!pass)
		printf("#   failed at %s:%d\n", file, line);
	fflush(stdout);
	return pass;
}

static inline bool tap_ok_(bool pass, const char *file, int line,
			   const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static inline bool tap_ok_(bool pass, const char *file, int line,
			   const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	pass = tap_result_(pass, file, line, fmt, ap);
	va_end(ap);
	return pass;
}

static inline bool tap_is_int_(long long got, long long want,
			       const char *name, const char *file, int line)
{
	if (!tap_ok_(got == want, file, line, "%s", name)) {
		diag("       got: %lld", got);
		diag("  expected: %lld", want);
		return false;
	}
	return true;
}

static inline bool tap_is_str_(const char *got, const char *want,
			       const char *name, const char *file, int line)
{
	bool pass = (got && want) ? strcmp(got, want) == 0 : got == want;

	if (!tap_ok_(pass, file, line, "%s", name)) {
		diag("       got: %s%s%s", got ? "'" : "", got ? got : "NULL",
		     got ? "'" : "");
		diag("  expected: %s%s%s", want ? "'" : "", want ? want : "NULL",
		     want ? "'" : "");
		return false;
	}
	return true;
}

/* ok(cond, fmt, ...): one test named by the printf-style fmt. */
#define ok(cond, ...) tap_ok_(!!(cond), __FILE__, __LINE__, __VA_ARGS__)
/* is_int(got, want, name): integers compared as long long. */
#define is_int(got, want, name)                                                \
	tap_is_int_((long long)(got), (long long)(want), (name), __FILE__,     \
		    __LINE__)
/* is_str(got, want, name): strings, either may be NULL. */
#define is_str(got, want, name)                                                \
	tap_is_str_((got), (want), (name), __FILE__, __LINE__)

/* skip(fmt, ...): a test that did not run, with the reason. */
static inline void skip(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void skip(const char *fmt, ...)
{
	va_list ap;

	tap_run_++;
	printf("ok %u # SKIP ", tap_run_);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* Print the plan; return the exit status for main(): 0 if all passed. */
static inline int done_testing(void)
{
	printf("1..%u\n", tap_run_);
	if (tap_failed_)
		printf("# failed %u of %u tests\n", tap_failed_, tap_run_);
	fflush(stdout);
	return tap_failed_ ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
