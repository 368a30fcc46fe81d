/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether two parsed files have the same documents: node by node, with
 * positions, values, styles and weights (test-ycache and fuzz-ycache).
 * Iterative: aliases can make a tree deeper than a stack.
 */
#ifndef FBAC_YTREE_EQUAL_H
#define FBAC_YTREE_EQUAL_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "yaml-tree.h"

static inline bool ynode_same(const struct fbac_ynode *a,
			      const struct fbac_ynode *b)
{
	if (!a || !b)
		return a == b;
	if (a->kind != b->kind || a->mark.line != b->mark.line ||
	    a->mark.col != b->mark.col || a->weight != b->weight ||
	    a->n != b->n)
		return false;
	if (a->kind == FBAC_Y_SCALAR)
		return a->len == b->len && a->plain == b->plain &&
		       memcmp(a->value, b->value, a->len) == 0 &&
		       b->value[b->len] == 0;
	return true;
}

static inline bool ytree_equal(const struct fbac_ynode *a,
			       const struct fbac_ynode *b)
{
	size_t cap = 64, n = 0;
	const struct fbac_ynode **st = malloc(cap * 2 * sizeof(*st));
	bool same = true;

	if (!st)
		abort();
	st[n * 2] = a;
	st[n * 2 + 1] = b;
	n++;
	while (n && same) {
		const struct fbac_ynode *x, *y;

		n--;
		x = st[n * 2];
		y = st[n * 2 + 1];
		same = ynode_same(x, y);
		if (!same || !x || x->kind == FBAC_Y_SCALAR)
			continue;
		if (n + 2 * x->n > cap) {
			while (n + 2 * x->n > cap)
				cap *= 2;
			st = realloc(st, cap * 2 * sizeof(*st));
			if (!st)
				abort();
		}
		for (size_t i = 0; i < x->n; i++) {
			st[n * 2] = x->items[i];
			st[n * 2 + 1] = y->items[i];
			n++;
			if (x->kind == FBAC_Y_MAP) {
				st[n * 2] = x->keys[i];
				st[n * 2 + 1] = y->keys[i];
				n++;
			}
		}
	}
	free(st);
	return same;
}

static inline bool ydocs_equal(const struct fbac_ydoc *a, size_t na,
			       const struct fbac_ydoc *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (a[i].start.line != b[i].start.line ||
		    a[i].start.col != b[i].start.col ||
		    !ytree_equal(a[i].root, b[i].root))
			return false;
	return true;
}

#endif
