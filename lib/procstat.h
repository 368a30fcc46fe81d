/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The fields of a process's /proc/PID/stat and /proc/PID/status that
 * fbac-run reads (its parent, its start, its flags, its seccomp filters),
 * parsed from text the caller read: the kernel's format, strictly.
 */
#ifndef FBAC_PROCSTAT_H
#define FBAC_PROCSTAT_H

#include <stddef.h>

struct fbac_proc_stat {
	int pid, ppid, session;
	unsigned long tty_nr;	  /* the controlling terminal, 0 for none */
	unsigned long flags;	  /* PF_* (field 9) */
	unsigned long long start; /* clock ticks after boot (field 22) */
	char state;
};

/* The kernel's PF_EXITING: the process has begun to exit (set before its
 * children are re-parented). */
#define FBAC_PF_EXITING 0x4UL

/*
 * Parse the len bytes of /proc/PID/stat at buf ("pid (comm) state ppid
 * ..."; comm may hold anything, the last ')' ends it). Return: 0, or
 * -EBADMSG when a field up to the start time is missing or not a number.
 */
int fbac_proc_stat_parse(const char *buf, size_t len,
			 struct fbac_proc_stat *out);

/*
 * The value of the "Seccomp_filters:" line of the len bytes of
 * /proc/PID/status at buf. Return: the count (>= 0), -ENOENT when the
 * line is absent (a kernel before 5.9), or -EBADMSG when it is not a
 * number.
 */
int fbac_proc_status_seccomp_filters(const char *buf, size_t len);

#endif
