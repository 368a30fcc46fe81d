/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Refusals that no path rule decides, told like the others: the calls
 * fbac refuses to every program (notified for that only), and what the
 * kernel's Landlock rules would refuse out of the supervisor's sight
 * (sup-refused.c).
 */
#ifndef FBAC_RUN_SUP_REFUSED_H
#define FBAC_RUN_SUP_REFUSED_H

#include "sup.h"

/* The operation of an event about a system call refused as such: its
 * "object" is the call's name. */
#define SUP_OP_SYSCALL FBAC_OP_COUNT

/*
 * Log the refusal of the call itself: one denial line ("denied syscall
 * 'ptrace' for perl[12]: REASON") and one event; quiet: the event only
 * (the program goes on without it, as with io_uring).
 */
void refuse_syscall(struct call *c, const char *reason, bool quiet);

/*
 * The program (pid, running exe) was killed by SIGSYS, as the filter
 * kills the system calls of another architecture (nobody can answer
 * them): its line and event, at exit.
 */
void events_killed(struct sup *s, pid_t pid, const char *exe);

/*
 * A call the filter notifies only to refuse it (filter_refused()):
 * answered with its errno, after its line and event; in complain and
 * learn modes too, as the filter refuses it in every mode. Return: false
 * (nothing done) for any other call.
 */
bool handle_refused(struct call *c);

/*
 * ftruncate: the kernel's Landlock rules decide it by the right the file
 * was opened with, out of the supervisor's sight. The supervisor makes
 * the call on its copy of the descriptor (the same open file, the same
 * right) and tells a refusal (EACCES) with the policy's answer for the
 * file's path. Return: false for any other call.
 */
bool handle_ftruncate(struct call *c);

/*
 * kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo and
 * pidfd_send_signal: where Landlock's signal scope will refuse the signal
 * (a process outside the sandbox, a policy that does not grant
 * ipc_signal), the policy's line and event; the call then continues, and
 * the kernel decides. Return: false for any other call.
 */
bool handle_signal(struct call *c);

#endif
