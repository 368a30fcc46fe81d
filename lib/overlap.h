/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How much of what one compiled policy grants another also grants: the
 * measure behind fbac compare (a learned proposal against a shipped
 * policy). The unit is a grant, one operation of one allow rule; it is
 * shared when the other policy allows that operation on an object the
 * rule names (its pattern with each wildcard made one letter "x"; a
 * network rule's every port range at its lowest port and every host at
 * its address).
 */
#ifndef FBAC_OVERLAP_H
#define FBAC_OVERLAP_H

#include "ops.h"
#include "policy.h"

struct fbac_overlap {
	unsigned grants[FBAC_OP_COUNT]; /* of the first policy */
	unsigned shared[FBAC_OP_COUNT]; /* of those, the second allows */
};

/*
 * Count the grants of a and those of them b allows, per operation. Rules
 * naming the same pattern count once per operation.
 * Return: 0, or -ENOMEM.
 */
int fbac_policy_overlap(const struct fbac_policy *a,
			const struct fbac_policy *b, struct fbac_overlap *out);

/* The sample object of a path pattern (wildcards made "x") in buf.
 * Return: 0, or -ENAMETOOLONG. */
int fbac_pattern_sample(const char *pattern, char *buf, size_t size);

#endif
