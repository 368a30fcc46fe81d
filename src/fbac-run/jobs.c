/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Job control. The shell that started us waits for us, not for the
 * program: when the program stops (^Z, a read from the terminal in the
 * background), we must stop too, with the same signal, or the shell never
 * gets its prompt back. The program cannot stop us itself: its kill(0,
 * SIGTSTP) (vim, less, an interactive shell's suspend) reaches only the
 * processes of its Landlock domain, and a program that made a process
 * group of its own is alone in it anyway. So, as sudo does: when the
 * program stops, we take the terminal back for our process group if it
 * had taken it, and stop ourselves with its signal. When the shell
 * continues us (fg, bg), we give the terminal back to the program's
 * process group if we are in the foreground, and continue it.
 *
 * Stopping stops every thread of ours, the receivers included. The
 * program is stopped then, and so is every process of its process group
 * when the terminal's ^Z stopped them; a process of the sandbox that
 * runs elsewhere (a daemon it started in a session of its own) waits in
 * its next supervised call until we are continued.
 */
#include "jobs.h"

#include <signal.h>
#include <stdbool.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

/* Our controlling terminal among our standard descriptors, or -1. */
static int controlling_tty(void)
{
	pid_t sid = getsid(0);

	for (int fd = 0; fd <= 2; fd++)
		if (isatty(fd) && tcgetsid(fd) == sid)
			return fd;
	return -1;
}

/* tcsetpgrp as a background process may: SIGTTOU blocked meanwhile. */
static void give_terminal(int tty, pid_t pgrp)
{
	sigset_t ttou, old;

	sigemptyset(&ttou);
	sigaddset(&ttou, SIGTTOU);
	pthread_sigmask(SIG_BLOCK, &ttou, &old);
	(void)tcsetpgrp(tty, pgrp);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

static void follow_stop(pid_t child, int sig, bool tstp_ignored)
{
	int tty = controlling_tty();
	pid_t self = getpgrp(), pgrp = getpgid(child);
	bool took = false;

	/* It read or wrote the terminal from a process group of its own
	 * while ours has it: we are in the foreground, so is it now (as
	 * sudo does; it could have taken the terminal itself). */
	if ((sig == SIGTTIN || sig == SIGTTOU) && tty >= 0 && pgrp > 0 &&
	    pgrp != self && tcgetpgrp(tty) == self) {
		give_terminal(tty, pgrp);
		killpg(pgrp, SIGCONT);
		return;
	}
	/* The program made the terminal its own process group's: ours
	 * again, so that our shell finds it as it gave it to us. */
	if (tty >= 0 && pgrp > 0 && pgrp != self && tcgetpgrp(tty) == pgrp) {
		give_terminal(tty, self);
		took = true;
	}
	/* Our thread takes it (it is not blocked here): we stop on the way
	 * out of kill(), and go on once continued. We ignore SIGTSTP (the
	 * terminal's ^Z reaches the program too, and a program that draws
	 * the screen must restore it before our shell prints its prompt),
	 * so it takes its default action for this one signal, unless we
	 * were started with it ignored. The kernel discards it in an
	 * orphaned process group. Either way, the program is then
	 * continued at once, as the kernel would have left it running. */
	if (sig == SIGTSTP && !tstp_ignored)
		signal(SIGTSTP, SIG_DFL);
	kill(getpid(), sig);
	if (sig == SIGTSTP && !tstp_ignored)
		signal(SIGTSTP, SIG_IGN);
	if (took && tcgetpgrp(tty) == self)
		give_terminal(tty, pgrp);
	/* Our process group's SIGCONT reached the program too, unless it
	 * has a group of its own or only we were continued. */
	if (pgrp > 0 && pgrp != self)
		killpg(pgrp, SIGCONT);
	else
		kill(child, SIGCONT);
}

void jobs_check(pid_t child, bool tstp_ignored)
{
	siginfo_t si = { 0 };

	/* Reported once per stop, and only while it lasts: a stop that our
	 * process group's SIGCONT already ended is not seen here. */
	if (waitid(P_PID, (id_t)child, &si, WSTOPPED | WNOHANG) < 0 ||
	    si.si_pid != child || si.si_code != CLD_STOPPED)
		return;
	switch (si.si_status) {
	case SIGTSTP:
	case SIGTTIN:
	case SIGTTOU:
	case SIGSTOP:
		follow_stop(child, si.si_status, tstp_ignored);
		return;
	default:
		return;
	}
}
