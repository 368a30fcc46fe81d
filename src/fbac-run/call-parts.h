/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of the per-call toolkit (call.h) share among
 * themselves, and no handler uses: the events of a decision, the -D
 * hints of a denial line, the caller's controlling terminal.
 */
#ifndef FBAC_RUN_CALL_PARTS_H
#define FBAC_RUN_CALL_PARTS_H

#include <stddef.h>

#include "call.h"

/*
 * The caller's controlling terminal (sup-pty.c): own_tty() names it for
 * the caller's /dev/tty (-ENXIO without one); ctty_as_dev_tty() renames
 * an object that is it to /dev/tty, which decides exactly that.
 */
int own_tty(struct call *c, char *out, size_t size);
void ctty_as_dev_tty(struct call *c, struct resolved *out);

struct fbac_define_hint;
/* Up to max -D hints that make the program's stack allow q (hints.c);
 * lib may be NULL (none). Return: how many. */
size_t hint_defines(const struct sup *s, const struct fbac_library *lib,
		    const struct fbac_query *q, const char *fill_dir,
		    struct fbac_define_hint *out, size_t max);

/* Events: the JSON line and the human line of one decision (events.c). */
void event_log(struct call *c, const struct fbac_query *q, bool allowed,
	       const struct fbac_stack_entry *denier,
	       const struct fbac_verdict *v);

/*
 * Nested runs (call-nest.c), asked only while s->nested_runs: whether
 * every registration the caller is under allows q (only those that keep
 * metadata mediated, with mediated_only), its refusal logged with the
 * entry that refused, and in learn mode the allowance with outer's
 * verdict; the same without logging for a path.
 */
bool nest_decide(struct call *c, const struct fbac_query *q,
		 const struct fbac_verdict *outer, bool mediated_only);
bool nest_would_allow(struct call *c, enum fbac_op op, const char *path);

#endif
