/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading one member of a flat JSON object on one line: the event lines
 * fbac-run writes (--log, the denial log) as 'fbac log' reads them back.
 * Only what those lines hold: string and number members, no nesting.
 */
#ifndef FBAC_JSONL_H
#define FBAC_JSONL_H

#include <stddef.h>

/*
 * The value of member key of the object in line (len bytes, need not be
 * NUL-terminated), a string decoded (\" \\ \/ \n \t \r \b \f and \u00XX;
 * other \u escapes as '?') or a number as written, into out (size bytes,
 * NUL-terminated). Return: 0, -ENOENT (no such member), -EINVAL (the line
 * is not a flat JSON object of strings and numbers, or a member name is
 * longer than FBAC_MAX_NAME) or
 * -ENAMETOOLONG (the value does not fit).
 */
int fbac_jsonl_get(const char *line, size_t len, const char *key, char *out,
		   size_t size);

#endif
