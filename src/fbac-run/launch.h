/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Starting the confined program and handing its listener to us. */
#ifndef FBAC_RUN_LAUNCH_H
#define FBAC_RUN_LAUNCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "filter.h"
#include "landlock.h"
#include "stack.h"

/* fbac-run's exit statuses besides the program's own (fbac-run(1), EXIT
 * STATUS), as a shell gives them. */
enum {
	EXIT_FBAC = 125,
	EXIT_CANNOT_EXEC = 126,
	EXIT_NOT_FOUND = 127,
};

struct launch {
	const char *exe;   /* absolute path to execute */
	char **argv;
	/* The program's own exact layers (landlock_prepare), -1: none. */
	const int *rulesets;
	size_t n_rulesets;
	const struct filter_prog *filter; /* built, loaded by the child */
	/* The signal state fbac-run started with, restored in the child:
	 * the mask, and which signals were ignored (bit n-1 for signal n;
	 * the rest start with their default action, as after any exec). */
	sigset_t saved_mask;
	uint64_t saved_ignored;
	/* Signals whose disposition we changed: those we ignore ourselves
	 * (launch_ignore_signals) and the C library's own, which it handles
	 * once we start threads. The child resets them (to saved_ignored's
	 * word) before it unblocks anything; the exec resets the rest. */
	uint64_t changed_here;
	/* out */
	void *child_stack; /* its memory stack until it execs (launch_done unmaps it) */
	pid_t pid;
	int pidfd;
	int listener;
	int exec_err_fd;   /* read end: an errno if exec failed */
	/* private: the listener's number comes on sync_pipe[0]; what the
	 * child reads of us (it shares our memory until it execs) */
	int sync_pipe[2];
	struct launch_child {
		pid_t parent;
		int syncw, errw;
	} child;
};

#define LAUNCH_INIT                                                            \
	{ .pidfd = -1, .listener = -1, .exec_err_fd = -1,                      \
	  .sync_pipe = { -1, -1 } }

/* Drop every capability, for good (bounding and ambient sets too).
 * Return: 0 or -errno. */
int drop_capabilities(void);
/* Whether we hold CAP_DAC_OVERRIDE or CAP_DAC_READ_SEARCH (root), which
 * drop_capabilities() takes away. */
bool holds_dac_override(void);

/*
 * Record the signal state the program is to start with. Called first
 * thing: the C library changes the disposition of its own signals
 * (SIGCANCEL, SIGSETXID) when we start a thread, and we ignore some.
 */
void launch_save_signals(struct launch *l);

/* Ignore SIGINT, SIGQUIT, SIGPIPE and SIGTSTP for ourselves (the
 * terminal's ^C, ^\\ and ^Z go to the whole process group already; we
 * stop once the program has, jobs.c), not for the program. */
void launch_ignore_signals(struct launch *l);

/* Start the child (sharing our memory until it execs: see launch.c).
 * It sets itself up meanwhile; its exec then waits for our answer.
 * Return: 0 or -errno (logged). */
int launch_start(struct launch *l);

/* Take the child's listener once it has loaded its filter, and make
 * ourselves non-dumpable. Return: 0 or -errno (logged; launch_done then
 * kills the child). */
int launch_take(struct launch *l);

/* After the child exec'd or failed: its exec errno, or 0. */
int launch_exec_error(struct launch *l);

/* The exit status a shell would give for the program's wait status:
 * its own, or 128 + the signal that killed it; EXIT_FBAC otherwise. */
int launch_exit_status(int wait_status);

/* Release what launch_start kept, once the child exec'd or was reaped;
 * a child whose listener was never taken is killed and reaped. */
void launch_done(struct launch *l);

#endif
