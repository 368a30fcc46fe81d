/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A registered nested run's fbac-run (nested.h): it stays the parent of
 * what it runs, a child subreaper, so that every process of the nested
 * run is its descendant, orphans included, which is how the outer
 * supervisor tells them (call-nest.c). It forwards the supervised signals
 * to the program and follows its job control as a supervised run does
 * (jobs.c), waits until it has no child left, says so to the outer
 * supervisor (FBAC_IOC_NEST_DONE), and exits with the program's status.
 * It runs nothing itself and decides nothing: no supervisor of its own.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "jobs.h"
#include "launch.h"
#include "nest-abi.h"
#include "nested.h"
#include "output.h"

/* Reap what has exited: the program (its status in *status) and orphans
 * re-parented to us. Return: false once no child is left. */
static bool reap(pid_t child, int *status, bool *child_done)
{
	for (;;) {
		int st;
		pid_t w = waitpid(-1, &st, WNOHANG);

		if (w == child) {
			*status = st;
			*child_done = true;
		} else if (w == 0) {
			return true;
		} else if (w < 0 && errno != EINTR) {
			return errno != ECHILD;
		}
	}
}

/* Serve signals until no child is left. Return: the program's status. */
static int follow(pid_t child, int sfd)
{
	bool child_done = false;
	int status = EXIT_FBAC << 8;

	for (;;) {
		struct signalfd_siginfo si;
		ssize_t n = read(sfd, &si, sizeof(si));

		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(si)) {
			log_error(-errno, "cannot read the signals: %m");
			/* Never leave what we run unwaited: wait blocking. */
			while (waitpid(-1, &status, 0) > 0 || errno == EINTR)
				;
			return child_done ? status : EXIT_FBAC << 8;
		}
		if (si.ssi_signo != SIGCHLD) {
			if (!child_done)
				kill(child, (int)si.ssi_signo);
			continue;
		}
		/*
		 * The program stopped: so do we, for our parent to see. Unlike
		 * a supervised run we keep SIGTSTP's disposition as we got it:
		 * the terminal's ^Z stops us with the rest of the process group
		 * in the kernel, as every kill() of ours is a call the outer
		 * supervisor answers, and it stops too (its program stopped),
		 * so a stop of ours by kill() could come after fg and last.
		 * Hence jobs_check() is told SIGTSTP is ours to leave alone.
		 */
		if (!child_done)
			jobs_check(child, true);
		if (!reap(child, &status, &child_done))
			return status;
	}
}

int nested_parent(const struct nested_run *n, struct nested_prep *p, int memfd,
		  const sigset_t *saved_mask)
{
	/* Not SIGTSTP: see follow(). */
	static const int ours[] = { SIGINT, SIGQUIT, SIGPIPE };
	sigset_t mask, all;
	int sfd, status, r;
	pid_t pid;

	supervised_signals(&mask);
	all = mask;
	for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
		sigaddset(&all, ours[i]);
	sigprocmask(SIG_BLOCK, &all, NULL);
	/* Orphans of the nested run come to us, and stay our descendants. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		log_error(-errno,
			  "warning: nested run: cannot be a child subreaper: %m");
	sfd = signalfd(-1, &mask, SFD_CLOEXEC);
	fflush(NULL);
	pid = sfd < 0 ? -1 : fork();
	if (pid == 0) {
		close(sfd);
		sigprocmask(SIG_SETMASK, saved_mask, NULL);
		r = nested_enter(n, p);
		_exit(r == -ENOENT ? EXIT_NOT_FOUND :
		      r == -EACCES ? EXIT_CANNOT_EXEC :
				     EXIT_FBAC);
	}
	nested_prep_free(p);
	if (pid < 0) {
		r = log_error(-errno, "cannot start the nested run: %m");
		status = EXIT_FBAC << 8;
	} else {
		/* The terminal's ^C and ^\\ reach the program, not us. */
		for (size_t i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
			signal(ours[i], SIG_IGN);
		sigprocmask(SIG_SETMASK, &mask, NULL);
		if ((r = drop_capabilities()) < 0) {
			errno = -r;
			log_error(r,
				  "warning: nested run: cannot drop capabilities: %m");
		}
		status = follow(pid, sfd);
	}
	if (sfd >= 0)
		close(sfd);
	if (ioctl(memfd, FBAC_IOC_NEST_DONE, 0) < 0)
		log_error(-errno,
			  "warning: nested run: the outer supervisor was not told it ended: %m");
	close(memfd);
	return launch_exit_status(status);
}
