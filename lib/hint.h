/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The way forward from one denial, for the program that was refused: the
 * "-D FUNC.param=VALUE" that makes its own stack allow the operation (a
 * port, a host or a folder added to a parameter of a functionality it
 * already has), and why no hint can help when the refusal is a rule of
 * the policy's own 'denied:' list or a protected path.
 */
#ifndef FBAC_HINT_H
#define FBAC_HINT_H

#include "fbac-limits.h"
#include "stack.h"

struct fbac_define_hint {
	const struct fbac_functionality *f;
	const char *param;
	char value[FBAC_MAX_HINT_VALUE]; /* comma-separated, as -D takes it */
};

/*
 * Up to max defines, each of which alone, added to in->defines, makes the
 * stack built from in allow q: for every functionality of the stack's
 * discretionary layers with a parameter whose type carries q's port,
 * host or folder (fill_dir, may be NULL), that parameter's current values
 * plus q's (a single path replaced), at most FBAC_MAX_HINT_TRIES tried;
 * those that add to a list first, then the smallest resulting stack. Nothing for a path under a protected path of the
 * stack (fbac_hint_blocked() says why). Return: 0 and *ret_n, or -ENOMEM.
 */
int fbac_hint_defines(const struct fbac_stack_input *in,
		      const struct fbac_query *q, const char *fill_dir,
		      struct fbac_define_hint *out, size_t max, size_t *ret_n);

/*
 * The protected path of the stack's policies at or above q's path that
 * does not allow q's operation, or NULL (also for other queries). Only a
 * functionality that names it can grant q: never a folder given to a
 * parameter, which would expose everything the protection keeps.
 */
const struct fbac_resolved_protected *
fbac_hint_protected(const struct fbac_stack *st, const struct fbac_query *q);

/*
 * Whether the verdict v of a refusal leaves no functionality to suggest:
 * it was decided by a 'denied:' rule of the policy itself (a carve-out,
 * which beats any grant), or a protected path cut the grant off (only a
 * functionality naming that path could grant it).
 */
static inline bool fbac_hint_blocked(const struct fbac_verdict *v)
{
	return (v->deny_rule && v->origin) || v->protected;
}

#endif
