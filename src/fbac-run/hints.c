/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The "-D FUNC.param=VALUE" of a denial line: rebuilt from what the
 * program's stack was built from (sup.h, struct hint_input) and the
 * library, read at the first denial that asks.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "call-parts.h"
#include "hint.h"
#include "macro.h"

size_t hint_defines(const struct sup *s, const struct fbac_library *lib,
		    const struct fbac_query *q, const char *fill_dir,
		    struct fbac_define_hint *out, size_t max)
{
	const struct hint_input *h = s->hint;
	/* On the heap: a worker thread (call_run_slow) has a small stack. */
	_cleanup_free_ struct fbac_include *grants = NULL;
	struct fbac_stack_input si = { 0 };
	char real[PATH_MAX];
	const char *exes[2];
	size_t n = 0;

	if (!h || !lib || h->n_as > FBAC_MAX_LIST)
		return 0;
	grants = calloc(h->n_as + 1, sizeof(*grants));
	if (!grants)
		return 0;
	for (size_t i = 0; i < h->n_as; i++) {
		grants[i] = (struct fbac_include){
			.name = h->as[i],
			.mark = { "<command line>", 0, 0 },
			.target = fbac_library_find(lib, h->as[i]),
		};
		if (!grants[i].target)
			return 0;
	}
	exes[0] = h->exe;
	exes[1] = realpath(h->exe, real) && strcmp(real, h->exe) ? real : NULL;
	si = (struct fbac_stack_input){
		.lib = lib, .env = s->env, .trusted_env = h->trusted_env,
		.program = h->exe, .grants = grants, .n_grants = h->n_as,
		.executables = exes, .n_executables = exes[1] ? 2 : 1,
		.defines = h->defs, .n_defines = h->n_defs,
		.compile_flags = FBAC_COMPILE_NO_GAPS,
	};
	if (fbac_hint_defines(&si, q, fill_dir, out, max, &n) < 0)
		return 0;
	/* The stack may have been found by the canonical path. */
	if (!n && exes[1]) {
		si.program = real;
		if (fbac_hint_defines(&si, q, fill_dir, out, max, &n) < 0)
			return 0;
	}
	return n;
}
