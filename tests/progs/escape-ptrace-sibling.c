/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 15: ptrace a sibling in the sandbox to inject. A forked child
 * keeps opening the decoy by a name in its memory and reports whatever it
 * reads over a pipe. The parent attaches to it (PTRACE_SEIZE, ATTACH, and
 * PTRACE_TRACEME from the child's side) and pokes the name into the
 * secret's (one byte, PTRACE_POKEDATA). Tracing is refused in the sandbox;
 * where it is not, the sibling reads the secret.
 */
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/wait.h>

#include "escape-common.h"

static char path[PATH_MAX];

static void opener(int out, bool traceme)
{
	double end = esc_now() + esc_seconds + 1;

	if (traceme) {
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL) < 0)
			esc_out("[ptrace-sibling] child: PTRACE_TRACEME: %s (held)\n",
				strerror(errno));
		else
			raise(SIGSTOP);
	}
	while (esc_now() < end) {
		char buf[512];
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n;

		if (fd < 0) {
			usleep(1000);
			continue;
		}
		n = read(fd, buf, sizeof(buf));
		close(fd);
		if (esc_is_stolen(buf, n)) {
			(void)!write(out, buf, (size_t)n);
			_exit(0);
		}
		usleep(1000);
	}
	_exit(1);
}

static long poke(pid_t pid, size_t at, char c)
{
	uintptr_t word = (uintptr_t)&path[at] & ~(uintptr_t)7;
	long v;

	errno = 0;
	v = ptrace(PTRACE_PEEKDATA, pid, (void *)word, NULL);
	if (errno)
		return -1;
	((char *)&v)[(uintptr_t)&path[at] - word] = c;
	return ptrace(PTRACE_POKEDATA, pid, (void *)word, (void *)v);
}

static void attempt(const char *how, size_t at)
{
	int pfd[2], st;
	pid_t pid;
	bool traceme = !strcmp(how, "PTRACE_TRACEME");
	char buf[512];
	ssize_t n;
	long r;

	if (pipe(pfd) < 0)
		esc_setup_error("pipe: %m");
	pid = fork();
	if (pid < 0)
		esc_setup_error("fork: %m");
	if (pid == 0) {
		close(pfd[0]);
		opener(pfd[1], traceme);
	}
	close(pfd[1]);
	usleep(50000);
	if (traceme)
		r = waitpid(pid, &st, WUNTRACED) == pid && WIFSTOPPED(st) ? 0 : -1;
	else if (!strcmp(how, "PTRACE_SEIZE"))
		r = ptrace(PTRACE_SEIZE, pid, NULL, NULL) == 0 &&
				    ptrace(PTRACE_INTERRUPT, pid, NULL, NULL) == 0 &&
				    waitpid(pid, &st, 0) == pid ?
			    0 :
			    -1;
	else
		r = ptrace(PTRACE_ATTACH, pid, NULL, NULL) == 0 &&
				    waitpid(pid, &st, 0) == pid ?
			    0 :
			    -1;
	if (r < 0) {
		esc_say("%s of the sibling: %s (held)", how,
			traceme ? "it did not stop for us" : strerror(errno));
	} else if (poke(pid, at, esc_secret_alt[at]) < 0) {
		esc_say("%s: attached, but PTRACE_POKEDATA failed: %m", how);
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
	} else {
		esc_say("%s: attached and rewrote the sibling's path", how);
		ptrace(PTRACE_DETACH, pid, NULL, NULL);
	}
	n = read(pfd[0], buf, sizeof(buf));
	close(pfd[0]);
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	if (esc_is_stolen(buf, n))
		esc_leak(how, buf, n);
}

int main(void)
{
	size_t at;

	esc_init("ptrace-sibling", "ptrace a sibling in the sandbox and rewrite the path it opens");
	at = esc_diff_at(esc_decoy, esc_secret_alt);
	ESC_FMT(path, "%s", esc_decoy);
	esc_say("the sibling opens '%s'; the secret is one byte away", path);
	attempt("PTRACE_SEIZE", at);
	attempt("PTRACE_ATTACH", at);
	attempt("PTRACE_TRACEME", at);
	return esc_finish();
}
