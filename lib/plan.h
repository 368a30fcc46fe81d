/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the policy module: policy.c compiles the decision tables
 * and answers queries, plan.c derives the Landlock plan from the tables,
 * narrow.c the narrow part of it.
 */
#ifndef FBAC_PLAN_H
#define FBAC_PLAN_H

#include <stddef.h>

#include "policy.h"

/*
 * Fill p->ll (the kernel rules and the narrow plan) and p->gaps from the
 * tables of p, which path_tables() made. Return: 0 or -errno.
 */
int fbac_policy_plan(struct fbac_policy *p);

/* Index of the first path rule whose literal prefix is path[0..len). */
size_t fbac_policy_lower_bound(const struct fbac_policy *p, const char *path,
			       size_t len);

/* Fill p->ll.narrow and p->ll.narrow_expand (narrow.c). */
int narrow_plan(struct fbac_policy *p);

/* What plan.c shares with narrow.c (see there). */
int cmp_llpath(const void *x, const void *y);
int push_expand(struct fbac_policy *p, struct fbac_ll_expand **v, size_t *n,
		const char *dir, const char *glob, const char **holes,
		size_t n_holes, uint64_t access);
bool last_component_glob(const char *pattern, size_t plen);
/* Leave out the expansions of ll that a tree rule of the same plan on
 * their directory or above gives all they would (plan-implied.c).
 * Return: how many. */
size_t plan_drop_implied(struct fbac_landlock_plan *ll);
int holes_below(struct fbac_policy *p, const char *dir, uint32_t bits,
		bool trees_ok, const char ***holes, size_t *n, bool *simple);

#endif
