/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac-run --learn: the log the run is recorded in, and the proposal
 * made from it when the program has exited (fbac learn). */
#ifndef FBAC_RUN_LEARN_H
#define FBAC_RUN_LEARN_H

#include <stdbool.h>
#include <stddef.h>

/* A new empty log file of ours, its path in buf. Return: 0 or -errno
 * (printed). */
int learn_temp_log(char *buf, size_t size);

/*
 * Run fbac learn (the fbac next to this fbac-run, else the one in PATH)
 * on the log, for the program exe, with the extra layers, writing to
 * output (NULL: review on a terminal, or print) or saving (yes).
 * Return: 0, or -1 when it failed (it printed why).
 */
int learn_propose(const char *log, const char *exe, const char *const *dirs,
		  size_t n_dirs, const char *output, bool yes);

#endif
