/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac-run --as: the parameter values of the granted functionalities
 * (params.h), and telling the user where they came from on the first run
 * of a program, with -v and with --check.
 */
#ifndef FBAC_RUN_AS_VALUES_H
#define FBAC_RUN_AS_VALUES_H

#include <stdbool.h>
#include <stdio.h>

#include "layers.h"
#include "params.h"
#include "stack-cache.h"

/* Whether this run must print the values: no run with the same inputs
 * (the stack cache key) printed them yet. */
bool as_values_unseen(const struct layers *l, const struct stack_cache *sc);

/*
 * Fill p for the --as grants (the library loaded); print the values to
 * out when show, and remember that they were shown. Return: 0, or -errno
 * (printed).
 */
int as_values_fill(const struct layers *l, const char *const *as,
		   size_t n_as, const struct fbac_define *defs, size_t n_defs,
		   const struct infer_program *ip, bool show, FILE *out,
		   const char *prefix, const struct stack_cache *sc,
		   struct params *p);

/*
 * Print the values kept when the cached stack was compiled (with a
 * compiled stack from the cache, no library is read). Return: 0, or
 * -ENOENT when none are kept.
 */
int as_values_print_cached(const struct layers *l,
			   const struct stack_cache *sc,
			   const struct infer_program *ip, FILE *out,
			   const char *prefix);

#endif
