/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Job control: the program stops, so do we (see jobs.c). */
#ifndef FBAC_RUN_JOBS_H
#define FBAC_RUN_JOBS_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * If the program (our child) has stopped with SIGTSTP, SIGTTIN, SIGTTOU
 * or SIGSTOP, stop ourselves with the same signal, having taken the
 * terminal back for our process group if the program's held it; once
 * continued, give the terminal back if we are in the foreground and
 * continue the program. A SIGTTIN or SIGTTOU stop of a process group of
 * the program's own while ours has the terminal gives it the terminal
 * and continues it instead. Call on SIGCHLD, while the program is not
 * reaped. tstp_ignored: we were started with SIGTSTP ignored, and then
 * do not stop for it.
 */
void jobs_check(pid_t child, bool tstp_ignored);

#endif
