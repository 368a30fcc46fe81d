/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing profile text into an mdoc page. Profiles may hold anything YAML
 * can: backslashes, a leading dot that roff would take for a request,
 * words that mdoc would take for macros, quotes, UTF-8. These helpers are
 * the only place where such text reaches the page.
 */
#ifndef FBAC_ROFF_H
#define FBAC_ROFF_H

#include <stdbool.h>
#include <stdio.h>

#include "yaml-tree.h"

/*
 * s as text lines of their own, trimmed and wrapped, with a full stop
 * appended when sentence is set and s does not end a sentence already.
 * Nothing is written for an empty s.
 */
void roff_line(FILE *f, const char *s, bool sentence);

/*
 * s as one quoted macro argument, preceded by a space: never a macro name
 * nor a delimiter to mdoc, whatever it holds. code: every '-' is a minus
 * (for option-like and pattern text that people copy).
 */
void roff_arg(FILE *f, const char *s, bool code);

/*
 * A YAML value as one quoted macro argument, as written: a scalar as it
 * is, a sequence as "[a, b]", a mapping as "{k: v}".
 */
void roff_yaml_arg(FILE *f, const struct fbac_ynode *n);

/*
 * Inside a literal display (.Bd -literal), where a line is safe once it
 * starts with \&: s, and a YAML value in flow form, escaped.
 */
void roff_code(FILE *f, const char *s);
void roff_yaml(FILE *f, const struct fbac_ynode *n);

/* The length of the longest scalar in a YAML value, before escaping. */
size_t roff_yaml_widest(const struct fbac_ynode *n);

#endif
