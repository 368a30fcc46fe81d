/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The child: die with us, close what it inherited, no_new_privs, no
 * capabilities, the policy's own Landlock layers, the seccomp filter;
 * then it says which descriptor is its listener and execs. The exec is
 * itself notified: it waits in the kernel, the child's memory and
 * descriptors untouched, until we have taken the listener (pidfd_getfd)
 * and answered. So the child never needs a notified call (sendmsg would
 * be) to hand the listener over, and no round trip to be told to go.
 *
 * The child shares our memory until it execs (CLONE_VM, on a stack of its
 * own), so that starting it copies no page tables and its exec has no
 * copy of ours to tear down. It therefore runs on raw system calls only:
 * no allocation, no lock, no errno (that is our thread's), no handler of
 * ours (every signal stays blocked until the dispositions we changed are
 * reset).
 */
#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/close_range.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "filter.h"
#include "landlock.h"
#include "output.h"

#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5) /* 5.19 */
#endif

extern char **environ;

/* The kernel's struct sigaction (x86-64 layout, no restorer needed to
 * set SIG_IGN or SIG_DFL). */
struct kernel_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

void launch_save_signals(struct launch *l)
{
	l->saved_ignored = 0;
	for (int sig = 1; sig <= 64; sig++) {
		struct kernel_sigaction ka = { 0 };

		if (syscall(SYS_rt_sigaction, sig, NULL, &ka, 8) == 0 &&
		    ka.handler == SIG_IGN)
			l->saved_ignored |= 1ULL << (sig - 1);
	}
	sigprocmask(SIG_BLOCK, NULL, &l->saved_mask);
	/* glibc's SIGCANCEL and SIGSETXID (the first two real-time
	 * signals), handled for its threads: no handler of ours may run in
	 * the child, which shares our memory and thread pointer. */
	l->changed_here = (1ULL << 31) | (1ULL << 32);
}

void launch_ignore_signals(struct launch *l)
{
	static const int ours[] = { SIGINT, SIGQUIT, SIGPIPE, SIGTSTP };

	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++) {
		signal(ours[i], SIG_IGN);
		l->changed_here |= 1ULL << (ours[i] - 1);
	}
}

/* Code the child runs: the sanitizers keep per-thread state (ours). */
#define CHILD_CODE __attribute__((no_sanitize("address", "undefined")))

/* A system call that returns -errno and leaves errno alone. */
CHILD_CODE static long raw(long nr, long a, long b, long c, long d, long e)
{
#ifdef __x86_64__
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
#else
	/* Elsewhere through the C library: errno is then written on failure
	 * (ours, shared): the child fails at once after such a call. */
	long ret = syscall(nr, a, b, c, d, e);

	return ret < 0 ? -errno : ret;
#endif
}

CHILD_CODE static void child_exit(int status)
{
	for (;;)
		raw(SYS_exit_group, status, 0, 0, 0, 0);
}

CHILD_CODE static void child_fail(int errpipe, long err, int status)
{
	int e = (int)-err;

	raw(SYS_write, errpipe, (long)&e, sizeof(e), 0, 0);
	child_exit(status);
}

/*
 * Empty the ambient and bounding sets. Dropping from the bounding set
 * takes CAP_SETPCAP: without it (any user but root) the set cannot
 * change, and no_new_privs already keeps an exec from gaining what it
 * holds, so it is not asked capability by capability.
 */
static int drop_bounding(void)
{
	cap_flag_value_t setpcap = CAP_CLEAR;
	cap_t cur;

	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    errno != EINVAL)
		return -errno;
	cur = cap_get_proc();
	if (!cur)
		return -errno;
	if (cap_get_flag(cur, CAP_SETPCAP, CAP_EFFECTIVE, &setpcap) < 0)
		setpcap = CAP_SET; /* an old libcap: try, as before */
	cap_free(cur);
	if (setpcap != CAP_SET)
		return 0;
	for (unsigned long v = 0;; v++)
		if (prctl(PR_CAPBSET_DROP, v, 0, 0, 0) < 0) {
			if (errno == EINVAL)
				return 0; /* past the last capability */
			return -errno;
		}
}

bool holds_dac_override(void)
{
	cap_flag_value_t over = CAP_CLEAR, search = CAP_CLEAR;
	cap_t cur = cap_get_proc();

	if (!cur)
		return false;
	(void)cap_get_flag(cur, CAP_DAC_OVERRIDE, CAP_EFFECTIVE, &over);
	(void)cap_get_flag(cur, CAP_DAC_READ_SEARCH, CAP_EFFECTIVE, &search);
	cap_free(cur);
	return over == CAP_SET || search == CAP_SET;
}

int drop_capabilities(void)
{
	cap_t none;
	int r;

	/* Root keeps its uid but loses every capability, for good. */
	if ((r = drop_bounding()) < 0)
		return r;
	none = cap_init();
	if (!none)
		return -ENOMEM;
	r = cap_set_proc(none) < 0 ? -errno : 0;
	cap_free(none);
	return r;
}

/*
 * The child inherits what drop_capabilities() left (main() calls it
 * before the launch, in every mode): it only checks, in one system call,
 * that no capability is left to hand to the program.
 */
CHILD_CODE static long check_no_capabilities(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct caps[2] = { { 0 } };
	long r = raw(SYS_capget, (long)&h, (long)caps, 0, 0, 0);

	if (r < 0)
		return r;
	for (int i = 0; i < 2; i++)
		if (caps[i].effective || caps[i].permitted ||
		    caps[i].inheritable)
			return -EPERM;
	return 0;
}

CHILD_CODE static int child(void *arg)
{
	const struct launch *l = arg;
	const struct launch_child *a = &l->child;
	struct sock_fprog prog = { .len = l->filter->len,
				   .filter = l->filter->insns };
	uint64_t mask;
	long listener, r;

	if ((r = raw(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0)) < 0 ||
	    raw(SYS_getppid, 0, 0, 0, 0, 0) != a->parent)
		child_exit(125);
	/* The program gets the signal state fbac-run was started with, not
	 * the one the supervisor and the C library set up for themselves.
	 * The exec gives every handled signal its default action; what is
	 * ignored stays so. So the signals ignored when we started are
	 * ignored again, and those whose disposition we or the C library
	 * changed get back their default action, all before the mask is
	 * restored: no handler of ours ever runs here. */
	for (int sig = 1; sig <= 64; sig++) {
		uint64_t bit = 1ULL << (sig - 1);
		struct kernel_sigaction ka = {
			.handler = (l->saved_ignored & bit) ? SIG_IGN : SIG_DFL,
		};

		if (!((l->saved_ignored | l->changed_here) & bit) ||
		    sig == SIGKILL || sig == SIGSTOP)
			continue;
		if ((r = raw(SYS_rt_sigaction, sig, (long)&ka, 0, 8, 0)) < 0)
			child_fail(a->errw, r, 125);
	}
	__builtin_memcpy(&mask, &l->saved_mask, sizeof(mask));
	if ((r = raw(SYS_rt_sigprocmask, SIG_SETMASK, (long)&mask, 0, 8, 0)) < 0)
		child_fail(a->errw, r, 125);
	/* Nothing inherited beyond stdio may reach the program. */
	if ((r = raw(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC, 0, 0)) < 0)
		child_fail(a->errw, r, 125);
	if ((r = raw(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) < 0)
		child_fail(a->errw, r, 125);
	if ((r = check_no_capabilities()) < 0)
		child_fail(a->errw, r, 125);
	for (size_t i = 0; i < l->n_rulesets; i++)
		if (l->rulesets[i] >= 0 &&
		    (r = raw(SYS_landlock_restrict_self, l->rulesets[i], 0, 0, 0,
			     0)) < 0)
			child_fail(a->errw, r, 125);
	/* With WAIT_KILLABLE_RECV, once the supervisor has received a call,
	 * only a fatal signal interrupts the program's wait, so the answer
	 * we write into its memory (a stat buffer) can never land after it
	 * has moved on and reused that memory. Before 5.19: without. */
	listener = raw(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
		       SECCOMP_FILTER_FLAG_NEW_LISTENER |
			       SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV,
		       (long)&prog, 0, 0);
	if (listener == -EINVAL)
		listener = raw(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			       SECCOMP_FILTER_FLAG_NEW_LISTENER, (long)&prog, 0,
			       0);
	if (listener < 0)
		child_fail(a->errw, listener, 125);
	/* From here on, the only notified call is the exec: it waits until
	 * the parent has taken the listener and decided. The listener is
	 * close-on-exec (the kernel makes it so), so the program never holds
	 * it; should the parent fail meanwhile, it kills us. */
	{
		int fd = (int)listener;

		if (raw(SYS_write, a->syncw, (long)&fd, sizeof(fd), 0, 0) !=
		    sizeof(fd))
			child_exit(125);
	}
	r = raw(SYS_execve, (long)l->exe, (long)l->argv, (long)environ, 0, 0);
	child_fail(a->errw, r, r == -ENOENT ? 127 : 126);
	return 0;
}

/* Enough for child() and the kernel's signal frames, which it never gets:
 * every signal is blocked until it execs or exits. */
#define CHILD_STACK (64 * 1024)

int launch_start(struct launch *l)
{
	int errp[2] = { -1, -1 }, r = 0;
	sigset_t all, old;
	pid_t pid;

	if (!l->filter || !l->filter->insns)
		return log_error(-EINVAL, "no seccomp filter to load");
	if (pipe2(l->sync_pipe, O_CLOEXEC) < 0 || pipe2(errp, O_CLOEXEC) < 0) {
		r = log_error(-errno, "cannot create pipes: %m");
		goto out;
	}
	l->child_stack = mmap(NULL, CHILD_STACK, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (l->child_stack == MAP_FAILED) {
		l->child_stack = NULL;
		r = log_error(-errno, "cannot map the child's stack: %m");
		goto out;
	}
	/* What the child reads lives in *l, which outlives it: we return at
	 * once, while it is still setting itself up. */
	l->child = (struct launch_child){ getpid(), l->sync_pipe[1], errp[1] };
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = clone(child, (char *)l->child_stack + CHILD_STACK,
		    CLONE_VM | CLONE_PIDFD | SIGCHLD, l, &l->pidfd);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		r = log_error(-errno, "cannot start the child: %m");
		goto out;
	}
	l->pid = pid;
	l->exec_err_fd = TAKE_FD(errp[0]);
out:
	if (l->sync_pipe[1] >= 0)
		close(l->sync_pipe[1]);
	l->sync_pipe[1] = -1;
	if (errp[1] >= 0)
		close(errp[1]);
	if (errp[0] >= 0)
		close(errp[0]);
	return r;
}

int launch_take(struct launch *l)
{
	int fd = -1;

	if (read(l->sync_pipe[0], &fd, sizeof(fd)) != sizeof(fd)) {
		/* The child failed before its filter: it said why on errp. */
		int err = 0;

		if (read(l->exec_err_fd, &err, sizeof(err)) == sizeof(err))
			errno = err;
		else
			errno = EIO;
		return log_error(-errno, "cannot set up the sandbox: %m");
	}
	l->listener = (int)syscall(SYS_pidfd_getfd, l->pidfd, fd, 0);
	if (l->listener < 0)
		return log_error(-errno, "cannot take the child's seccomp listener: %m");
	/* The supervisor's memory is not for the program to read (the
	 * program runs no code before its exec is answered). */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	return 0;
}

int launch_exec_error(struct launch *l)
{
	int err = 0;

	if (l->exec_err_fd < 0)
		return 0;
	/* End of file: it exec'd (the pipe closes on exec), or it is gone. */
	if (read(l->exec_err_fd, &err, sizeof(err)) != sizeof(err))
		err = 0;
	close(l->exec_err_fd);
	l->exec_err_fd = -1;
	return err;
}

void launch_done(struct launch *l)
{
	if (l->pid > 0 && l->listener < 0) {
		/* Never served: its exec waits for an answer that will not
		 * come, or it failed before. */
		kill(l->pid, SIGKILL);
		waitpid(l->pid, NULL, 0);
		l->pid = 0;
	}
	if (l->exec_err_fd >= 0) {
		close(l->exec_err_fd);
		l->exec_err_fd = -1;
	}
	if (l->sync_pipe[0] >= 0) {
		close(l->sync_pipe[0]);
		l->sync_pipe[0] = -1;
	}
	if (l->pidfd >= 0) {
		close(l->pidfd);
		l->pidfd = -1;
	}
	/* Only once the child no longer runs on it: it exec'd or is reaped. */
	if (l->child_stack) {
		munmap(l->child_stack, CHILD_STACK);
		l->child_stack = NULL;
	}
}

int launch_exit_status(int wait_status)
{
	if (WIFEXITED(wait_status))
		return WEXITSTATUS(wait_status);
	if (WIFSIGNALED(wait_status))
		return 128 + WTERMSIG(wait_status);
	return EXIT_FBAC;
}
