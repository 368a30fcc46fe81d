/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The child: die with us, close what it inherited, no_new_privs, no
 * capabilities, the policy's own Landlock layers, the seccomp filter;
 * then wait until we hold its listener, and exec. The parent takes the
 * listener with pidfd_getfd, so the child never needs a notified call
 * (sendmsg would be) between loading the filter and exec.
 */
#include "launch.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/close_range.h>
#include <signal.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "filter.h"
#include "landlock.h"
#include "output.h"

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
}

static void child_fail(int errpipe, int err, int status)
{
	(void)!write(errpipe, &err, sizeof(err));
	_exit(status);
}

int drop_capabilities(void)
{
	cap_t none;
	int r = 0;

	/* Root keeps its uid but loses every capability, for good. */
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    errno != EINVAL)
		return -errno;
	for (cap_value_t v = 0; v <= CAP_LAST_CAP; v++)
		if (prctl(PR_CAPBSET_READ, v, 0, 0, 0) > 0 &&
		    prctl(PR_CAPBSET_DROP, v, 0, 0, 0) < 0 && errno != EPERM)
			return -errno;
	none = cap_init();
	if (!none)
		return -ENOMEM;
	if (cap_set_proc(none) < 0)
		r = -errno;
	cap_free(none);
	return r;
}

static void child(struct launch *l, pid_t parent, int syncw, int gor,
		  int errw)
{
	int listener, r;
	char go;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(125);
	/* The program gets the signal state fbac-run was started with, not
	 * the one the supervisor and the C library set up for themselves.
	 * The raw call: glibc's sigaction refuses its own signals. */
	for (int sig = 1; sig <= 64; sig++) {
		struct kernel_sigaction ka = {
			.handler = (l->saved_ignored >> (sig - 1)) & 1 ? SIG_IGN :
									   SIG_DFL,
		};

		if (sig == SIGKILL || sig == SIGSTOP)
			continue;
		if (syscall(SYS_rt_sigaction, sig, &ka, NULL, 8) < 0)
			child_fail(errw, errno, 125);
	}
	if (sigprocmask(SIG_SETMASK, &l->saved_mask, NULL) < 0)
		child_fail(errw, errno, 125);
	/* Nothing inherited beyond stdio may reach the program. */
	if (syscall(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
		child_fail(errw, errno, 125);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		child_fail(errw, errno, 125);
	if ((r = drop_capabilities()) < 0)
		child_fail(errw, -r, 125);
	if ((r = landlock_restrict(l->rulesets, l->n_rulesets)) < 0)
		child_fail(errw, -r, 125);
	listener = filter_install(l->filter);
	if (listener < 0)
		child_fail(errw, -listener, 125);
	/* From here on: no notified syscall until the parent has it. */
	if (write(syncw, &listener, sizeof(listener)) != sizeof(listener))
		_exit(125);
	if (read(gor, &go, 1) != 1)
		_exit(125);
	close(listener);
	execve(l->exe, l->argv, environ);
	child_fail(errw, errno, errno == ENOENT ? 127 : 126);
}

int launch_start(struct launch *l)
{
	int syncp[2] = { -1, -1 }, gop[2] = { -1, -1 }, errp[2] = { -1, -1 };
	pid_t parent = getpid(), pid;
	sigset_t all, old;
	int fd = -1, pidfd = -1, r = 0;

	if (pipe2(syncp, O_CLOEXEC) < 0 || pipe2(gop, O_CLOEXEC) < 0 ||
	    pipe2(errp, O_CLOEXEC) < 0) {
		r = log_error(-errno, "cannot create pipes: %m");
		goto out;
	}
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid == 0)
		child(l, parent, syncp[1], gop[0], errp[1]);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0) {
		r = log_error(-errno, "cannot fork: %m");
		goto out;
	}
	l->pid = pid;
	close(syncp[1]);
	syncp[1] = -1;
	close(errp[1]);
	errp[1] = -1;
	if (read(syncp[0], &fd, sizeof(fd)) != sizeof(fd)) {
		/* The child failed before its filter: it said why on errp. */
		int err = 0;

		if (read(errp[0], &err, sizeof(err)) == sizeof(err))
			errno = err;
		else
			errno = EIO;
		r = log_error(-errno, "cannot set up the sandbox: %m");
		goto out;
	}
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		r = log_error(-errno, "cannot open the child's pidfd: %m");
		goto out;
	}
	l->listener = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	if (l->listener < 0) {
		r = log_error(-errno, "cannot take the child's seccomp listener: %m");
		goto out;
	}
	/* The supervisor's memory is not for the program to read. */
	prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
	if (write(gop[1], "g", 1) != 1) {
		r = log_error(-errno, "cannot start the child: %m");
		goto out;
	}
	l->exec_err_fd = errp[0];
	errp[0] = -1;
out:
	if (r < 0 && l->pid > 0) {
		kill(l->pid, SIGKILL);
		waitpid(l->pid, NULL, 0);
		l->pid = 0;
	}
	for (int i = 0; i < 2; i++) {
		if (syncp[i] >= 0)
			close(syncp[i]);
		if (gop[i] >= 0)
			close(gop[i]);
		if (errp[i] >= 0)
			close(errp[i]);
	}
	if (pidfd >= 0)
		close(pidfd);
	return r;
}

int launch_exec_error(struct launch *l)
{
	int err = 0;

	if (l->exec_err_fd < 0)
		return 0;
	if (read(l->exec_err_fd, &err, sizeof(err)) != sizeof(err))
		err = 0;
	close(l->exec_err_fd);
	l->exec_err_fd = -1;
	return err;
}
