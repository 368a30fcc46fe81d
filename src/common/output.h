/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages for people: errors with positions, warnings, JSON strings. */
#ifndef FBAC_OUTPUT_H
#define FBAC_OUTPUT_H

#include <stdio.h>

#include "diag.h"
#include "macro.h"

extern const char *program_name_short;

/* "fbac: message" on stderr; returns r so callers can propagate. */
int log_error(int r, const char *fmt, ...) _printf_(2, 3);
/* A library diagnostic: "file:line:col: message" (prefixed with the
 * program name when it has no position); returns r. */
int log_diag(int r, const struct fbac_diag *d);
/*
 * A problem found in the profiles: log_diag for the first
 * FBAC_MAX_PROBLEMS of a run, then only counted (log_problems_unshown()
 * says how many were not printed). Returns r.
 */
int log_problem(int r, const struct fbac_diag *d);
size_t log_problems_unshown(void);
/* Count n problems found but never printed. */
void log_problems_held_back(size_t n);
/* A JSON string literal of s (with quotes) on f. */
void json_string(FILE *f, const char *s);

#endif
