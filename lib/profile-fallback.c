/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An application's 'sandbox_fallback' (fbac-profile(5)): one option or a
 * non-empty list of at most FBAC_MAX_FALLBACK_ARGS of them, each "-x" or
 * "--name[=value]", printable, no spaces, at most FBAC_MAX_FALLBACK_ARG
 * bytes. fbac-run adds them after the program's name (fallback.c).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "arena.h"
#include "diag.h"
#include "fbac-limits.h"
#include "profile.h"
#include "yaml-tree.h"

static bool option_ok(const struct fbac_ynode *n)
{
	const char *s = n->value;
	size_t l = n->len;

	if (n->kind != FBAC_Y_SCALAR || l < 2 || l > FBAC_MAX_FALLBACK_ARG ||
	    s[0] != '-' || strlen(s) != l || !strcmp(s, "--"))
		return false;
	for (size_t k = 0; k < l; k++)
		if ((unsigned char)s[k] <= ' ' || s[k] == 0x7f)
			return false;
	return true;
}

int fbac_app_sandbox_fallback(const struct fbac_ynode *doc,
			      struct fbac_arena *arena, struct fbac_diag *diag,
			      struct fbac_application *a)
{
	const struct fbac_ynode *v = fbac_ymap_get(doc, "sandbox_fallback");
	const struct fbac_ynode *const *items;
	size_t n;

	if (!v)
		return 0;
	if (v->kind == FBAC_Y_SCALAR) {
		items = (const struct fbac_ynode *const *)&v;
		n = 1;
	} else if (v->kind == FBAC_Y_SEQ) {
		items = (const struct fbac_ynode *const *)v->items;
		n = v->n;
	} else {
		return fbac_diag_at(diag, &v->mark, -EINVAL,
				    "'sandbox_fallback' must be an option or a list of them, not %s",
				    fbac_ynode_kind_name(v->kind));
	}
	if (n == 0)
		return fbac_diag_at(diag, &v->mark, -EINVAL,
				    "'sandbox_fallback' must not be an empty list");
	if (n > FBAC_MAX_FALLBACK_ARGS)
		return fbac_diag_at(diag, &v->mark, -E2BIG,
				    "'sandbox_fallback' has more than %d options",
				    FBAC_MAX_FALLBACK_ARGS);
	a->sandbox_fallback = fbac_arena_array(arena, n, sizeof(char *));
	if (!a->sandbox_fallback)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct fbac_ynode *o = items[i];

		if (!option_ok(o))
			return fbac_diag_at(
				diag, &o->mark, -EINVAL,
				"'sandbox_fallback': '%s' is not an option (expected '-x' or '--name[=value]', printable, no spaces, at most %d bytes)",
				o->kind == FBAC_Y_SCALAR ?
					o->value :
					fbac_ynode_kind_name(o->kind),
				FBAC_MAX_FALLBACK_ARG);
		a->sandbox_fallback[i] = items[i]->value;
	}
	a->n_sandbox_fallback = n;
	return 0;
}
