/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether two compiled Landlock plans' rule lists are the same, entry by
 * entry and in order: the paths (narrow or not) and the listings, with
 * every field (test-policy and test-scache).
 */
#ifndef FBAC_LL_EQUAL_H
#define FBAC_LL_EQUAL_H

#include <stdbool.h>
#include <string.h>

#include "policy.h"

static inline bool ll_str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static inline bool ll_paths_eq(const struct fbac_ll_path *a, size_t na,
			       const struct fbac_ll_path *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (!ll_str_eq(a[i].path, b[i].path) ||
		    a[i].access != b[i].access ||
		    a[i].literal_only != b[i].literal_only)
			return false;
	return true;
}

static inline bool ll_expands_eq(const struct fbac_ll_expand *a, size_t na,
				 const struct fbac_ll_expand *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++) {
		if (!ll_str_eq(a[i].dir, b[i].dir) ||
		    !ll_str_eq(a[i].glob, b[i].glob) ||
		    a[i].access != b[i].access || a[i].trees != b[i].trees ||
		    a[i].n_holes != b[i].n_holes)
			return false;
		for (size_t k = 0; k < a[i].n_holes; k++)
			if (!ll_str_eq(a[i].holes[k], b[i].holes[k]))
				return false;
	}
	return true;
}

#endif
