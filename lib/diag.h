/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Diagnostics: a position in a profile and a message. Library functions
 * fill a struct fbac_diag and return a negative errno; programs print it
 * as "file:line:col: message".
 */
#ifndef FBAC_DIAG_H
#define FBAC_DIAG_H

#include "fbac-limits.h"
#include "macro.h"

/* A position in a profile file; line and col count from 1 (0: unknown). */
struct fbac_mark {
	const char *file;
	unsigned line, col;
};

struct fbac_diag {
	char file[FBAC_MAX_PATH];
	unsigned line, col;
	char msg[FBAC_MAX_DIAG];
};

/*
 * Record a diagnostic at mark (which may be NULL) and return err, so that
 * callers can write "return fbac_diag_at(d, m, -EINVAL, ...)". A NULL diag
 * is allowed. Only the first diagnostic is kept until fbac_diag_clear().
 */
int fbac_diag_at(struct fbac_diag *d, const struct fbac_mark *mark, int err,
		 const char *fmt, ...) _printf_(4, 5);
void fbac_diag_clear(struct fbac_diag *d);
/* Whether a diagnostic has been recorded. */
int fbac_diag_isset(const struct fbac_diag *d);
/* Format as "file:line:col: msg" (or without the position parts it lacks). */
int fbac_diag_format(const struct fbac_diag *d, char *buf, size_t size);

/*
 * Several diagnostics, in the order found (fbac check reports them all).
 * At most FBAC_MAX_PROBLEMS are kept; the ones beyond are only counted in
 * `dropped`, for the caller to say how many it cannot show.
 */
struct fbac_diags {
	struct fbac_diag *v;
	size_t n, dropped;
};

/* Append a copy of d. Return: 0, -ENOMEM. */
int fbac_diags_add(struct fbac_diags *l, const struct fbac_diag *d);
void fbac_diags_free(struct fbac_diags *l);

#endif
