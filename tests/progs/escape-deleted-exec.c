/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 18: exec by descriptor, of files that may not be run.
 *  a. a copy of a program made in the work directory (no execute there),
 *     made executable, opened, unlinked, then run with
 *     execveat(fd, "", AT_EMPTY_PATH) and execve("/proc/self/fd/N");
 *  b. a descriptor of ~/bin/prog-D (readable, denied execute) run with
 *     execveat(fd, "", AT_EMPTY_PATH);
 *  c. descriptor races: a thread swaps descriptor 100 (dup2) between
 *     ~/bin/prog-A (may run) and, in turn, prog-D and the deleted copy,
 *     while execveat(100, "", AT_EMPTY_PATH) is called. The check must be
 *     on the file the kernel executes, not on what fd 100 was a moment ago.
 * A run of anything but prog-A is an escape.
 */
#include <pthread.h>
#include <sys/wait.h>

#include "escape-common.h"

static char *argv_[] = { "del-prog", NULL };
static char *envp_[] = { "MARKER_QUIET=1", NULL };

static int run_fd(const char *label, int fd, bool via_proc)
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		esc_setup_error("fork: %m");
	if (pid == 0) {
		char p[64];

		if (via_proc) {
			ESC_FMT(p, "/proc/self/fd/%d", fd);
			execve(p, argv_, envp_);
		} else
			syscall(SYS_execveat, fd, "", argv_, envp_, AT_EMPTY_PATH);
		esc_out("[deleted-exec] %s: %s (held)\n", label,
			strerror(errno));
		_exit(77);
	}
	waitpid(pid, &st, 0);
	if (WIFEXITED(st) && (WEXITSTATUS(st) == MARKER_OTHER ||
			      WEXITSTATUS(st) == MARKER_DENIED)) {
		esc_escape("%s: a program that may not be run ran", label);
		return 1;
	}
	if (WIFEXITED(st) && WEXITSTATUS(st) == MARKER_ALLOWED)
		esc_control("%s: prog-A ran", label);
	return 0;
}

struct swap {
	int a, b;
	atomic_int stop;
};

static void *swapper(void *p)
{
	struct swap *s = p;

	while (!atomic_load(&s->stop)) {
		dup2(s->b, 100);
		for (volatile int i = 0; i < 100; i++)
			;
		dup2(s->a, 100);
		for (volatile int i = 0; i < 100; i++)
			;
	}
	return NULL;
}

static void race(const char *label, int a, int b, double seconds)
{
	struct swap s = { .a = a, .b = b };
	unsigned long tries = 0, allowed = 0, refused = 0;
	int before = atomic_load(&esc_escaped);
	double end = esc_now() + seconds;

	if (dup2(a, 100) < 0)
		esc_setup_error("dup2: %m");
	while (esc_now() < end && atomic_load(&esc_escaped) == before) {
		int st;
		pid_t pid = fork();

		if (pid < 0)
			esc_setup_error("fork: %m");
		if (pid == 0) {
			pthread_t t;

			if (pthread_create(&t, NULL, swapper, &s))
				_exit(78);
			for (volatile int i = 0; i < 5000; i++)
				;
			syscall(SYS_execveat, 100, "", argv_, envp_, AT_EMPTY_PATH);
			_exit(77);
		}
		tries++;
		waitpid(pid, &st, 0);
		if (WIFEXITED(st) && WEXITSTATUS(st) == MARKER_ALLOWED)
			allowed++;
		else if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
			refused++;
		else if (WIFEXITED(st) && (WEXITSTATUS(st) == MARKER_OTHER ||
					   WEXITSTATUS(st) == MARKER_DENIED))
			esc_escape("%s: execveat(100) ran the other program (attempt %lu)",
				   label, tries);
	}
	esc_say("%s: %lu attempts, prog-A ran %lu times, %lu refused", label,
		tries, allowed, refused);
	if (allowed)
		esc_control("%s: prog-A ran by descriptor", label);
}

int main(void)
{
	char src[PATH_MAX], copy[PATH_MAX], pa[PATH_MAX], pd[PATH_MAX];
	char buf[65536];
	int in, out, del, fa, fdd;
	ssize_t n;

	esc_init("deleted-exec", "run deleted copies and denied programs by descriptor");
	ESC_FMT(src, "%s/noexec-prog", esc_work);
	ESC_FMT(copy, "%s/del-prog", esc_work);
	ESC_FMT(pa, "%s/prog-A", esc_bin);
	ESC_FMT(pd, "%s/prog-D", esc_bin);

	in = open(src, O_RDONLY | O_CLOEXEC);
	unlink(copy);
	out = open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (in < 0 || out < 0)
		esc_setup_error("cannot copy %s to %s: %m", src, copy);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			esc_setup_error("write: %m");
	close(in);
	close(out);
	(void)chmod(copy, 0755);
	del = open(copy, O_RDONLY);
	if (del < 0)
		esc_setup_error("cannot reopen the copy: %m");
	if (unlink(copy) < 0)
		esc_setup_error("unlink: %m");
	esc_control("copied a program into the work directory and deleted it (fd %d)", del);

	run_fd("execveat(deleted copy, AT_EMPTY_PATH)", del, false);
	run_fd("execve(/proc/self/fd/N of the deleted copy)", del, true);

	fa = open(pa, O_RDONLY);
	fdd = open(pd, O_RDONLY);
	if (fa < 0 || fdd < 0)
		esc_setup_error("cannot open prog-A and prog-D for reading: %m");
	esc_control("opened ~/bin/prog-A and ~/bin/prog-D for reading");
	run_fd("execveat(prog-D, AT_EMPTY_PATH)", fdd, false);
	run_fd("execveat(prog-A, AT_EMPTY_PATH)", fa, false);

	race("descriptor race prog-A/prog-D", fa, fdd, esc_seconds / 2);
	race("descriptor race prog-A/deleted copy", fa, del, esc_seconds / 2);
	return esc_finish();
}
