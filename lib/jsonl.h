/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading the event lines fbac-run writes (--log, the denial log): one
 * flat JSON object a line, members whose values are strings, numbers,
 * true, false or null, no nesting. 'fbac log' reads one member back
 * (fbac_jsonl_get), fbac learn every member in order (fbac_jsonl_next
 * and fbac_jsonl_value, lib/propose-obs.c): one parser for both.
 */
#ifndef FBAC_JSONL_H
#define FBAC_JSONL_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"

/* A reader of one line; its fields are the parser's. */
struct fbac_jsonl {
	const char *start, *p, *end;
	struct fbac_diag *diag; /* "column N: what" of the first error */
	bool strict;		/* \u0000 and non-ASCII \u escapes refused */
	bool after_value;
};

/*
 * Start reading the object in line (len bytes, need not be
 * NUL-terminated). strict refuses the \u escapes fbac-run never writes
 * (\u0000 and beyond ASCII), else they read as '?'. Return: 0, or
 * -EINVAL with "column N: expected '{'" in diag (which may be NULL).
 */
int fbac_jsonl_open(struct fbac_jsonl *j, const char *line, size_t len,
		    bool strict, struct fbac_diag *diag);

/*
 * The next member's name into name (size bytes, NUL-terminated), leaving
 * the reader at its value. Return: 1 (a member: read its value next), 0
 * (the object ended, and nothing follows it), or -EINVAL (not a flat
 * object, or a name of size bytes or more; the column in diag).
 */
int fbac_jsonl_next(struct fbac_jsonl *j, char *name, size_t size);

/*
 * The value of the member fbac_jsonl_next() just named: a string decoded
 * (\" \\ \/ \n \t \r \b \f and \u00XX), or a number, true, false or null
 * as written, into out (size bytes, NUL-terminated; out NULL: checked and
 * skipped). string_only refuses a value that is not a string. Return: 0,
 * -EINVAL, or -ENAMETOOLONG (it does not fit), the column in diag.
 */
int fbac_jsonl_value(struct fbac_jsonl *j, char *out, size_t size,
		     bool string_only);

/* Record "column N: what" at the reader's position. Return: -EINVAL. */
int fbac_jsonl_error(struct fbac_jsonl *j, const char *what);

/*
 * The value of member key of the object in line (the first, when it is
 * repeated) into out, as fbac_jsonl_value() reads it, \u escapes beyond
 * ASCII as '?'. Return: 0, -ENOENT (no such member), -EINVAL (the line is
 * not a flat JSON object, or a member name is longer than FBAC_MAX_NAME)
 * or -ENAMETOOLONG (the value does not fit).
 */
int fbac_jsonl_get(const char *line, size_t len, const char *key, char *out,
		   size_t size);

#endif
