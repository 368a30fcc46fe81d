/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/procstat.c: the fields of /proc/PID/stat and /proc/PID/status that
 * fbac-run reads, from the kernel's text (and this process's own).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "procstat.h"
#include "tap.h"

#define STAT_TAIL                                                              \
	" 4096 17 3 0 0 5 2 0 0 20 -5 1 0 987654321 1 2 3 4 5 6 7 8 9 10 11 "  \
	"12 13 14 15 16\n"

static void test_stat(void)
{
	/* A comm with spaces and parentheses: the last ')' ends it. */
	static const char line[] =
		"1234 (a) b (c)) S 77 1234 55 34816 1234" STAT_TAIL;
	struct fbac_proc_stat st;

	is_int(fbac_proc_stat_parse(line, strlen(line), &st), 0, "parses");
	is_int(st.pid, 1234, "pid");
	is_int(st.ppid, 77, "ppid");
	is_int(st.session, 55, "session");
	ok(st.tty_nr == 34816, "tty_nr");
	ok(st.flags == 4096, "flags (field 9)");
	ok(st.start == 987654321ULL, "start time (field 22)");
	ok(st.state == 'S', "state");
}

static void stat_bad(const char *line, const char *what)
{
	struct fbac_proc_stat st;

	is_int(fbac_proc_stat_parse(line, strlen(line), &st), -EBADMSG, what);
}

static void test_stat_bad(void)
{
	stat_bad("", "empty");
	stat_bad("12 (x", "no ')'");
	stat_bad("12 (x) S", "no fields");
	stat_bad("12 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18",
		 "cut before the start time");
	stat_bad("12 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 1x",
		 "a partial number");
	stat_bad("x (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19",
		 "no pid");
	stat_bad("12 (x) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 "
		 "99999999999999999999999",
		 "a number past 64 bits");
}

static void test_self(void)
{
	char buf[4096];
	struct fbac_proc_stat st;
	ssize_t n;
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);

	n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	if (fd >= 0)
		close(fd);
	ok(n > 0, "read /proc/self/stat");
	is_int(fbac_proc_stat_parse(buf, n > 0 ? (size_t)n : 0, &st), 0,
	       "our own stat parses");
	is_int(st.pid, (int)getpid(), "our pid");
	is_int(st.ppid, (int)getppid(), "our parent");
	ok(st.start > 0, "a start time");
	fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
	n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;
	if (fd >= 0)
		close(fd);
	ok(n > 0 && fbac_proc_status_seccomp_filters(buf, (size_t)n) >= 0,
	   "our own Seccomp_filters line");
}

static void test_status(void)
{
	static const char s[] = "Name:\tcat\nSeccomp:\t2\nSeccomp_filters:\t3\n"
				"Speculation_Store_Bypass:\tthread vulnerable\n";
	static const char last[] = "Name:\tcat\nSeccomp_filters:\t12";
	static const char none[] = "Name:\tcat\nSeccomp:\t0\n";
	static const char bad[] = "Seccomp_filters:\t3x\n";
	static const char empty[] = "Seccomp_filters:\t\n";

	is_int(fbac_proc_status_seccomp_filters(s, strlen(s)), 3, "the count");
	is_int(fbac_proc_status_seccomp_filters(last, strlen(last)), 12,
	       "on the last line, without a newline");
	is_int(fbac_proc_status_seccomp_filters(none, strlen(none)), -ENOENT,
	       "absent (an older kernel)");
	is_int(fbac_proc_status_seccomp_filters(bad, strlen(bad)), -EBADMSG,
	       "a partial number");
	is_int(fbac_proc_status_seccomp_filters(empty, strlen(empty)), -EBADMSG,
	       "no number");
}

int main(void)
{
	plan_no_plan();
	test_stat();
	test_stat_bad();
	test_self();
	test_status();
	return done_testing();
}
