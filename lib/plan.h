/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Internal to the policy module: policy.c compiles the decision tables
 * and answers queries, plan.c derives the Landlock plan from the tables.
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

#endif
