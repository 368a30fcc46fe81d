/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a compiled policy's narrow read rules read anything the policy
 * refuses (test-policy and test-scache): fbac-run lets a read-only open
 * they allow continue without asking the policy (sup-open.c), so they
 * must never. Each rule's object, and what lies below a tree two levels
 * down, is read as the rule reads. Return: how many reads the policy
 * refuses, each named with diag().
 */
#ifndef FBAC_NARROW_CHECK_H
#define FBAC_NARROW_CHECK_H

#include <stdio.h>
#include <string.h>

#include "fbac-limits.h"
#include "policy.h"
#include "tap.h"

static inline bool narrow_reads_as(const struct fbac_policy *p, enum fbac_op op,
				   const char *path)
{
	struct fbac_verdict v;

	return fbac_policy_check_path(p, op, path, &v) == 0 && v.allowed;
}

static inline size_t narrow_refused_reads(const struct fbac_policy *p,
					  const char *name)
{
	static const char *const below[] = { "", "/a", "/a/b.txt" };
	char path[FBAC_MAX_PATH];
	size_t bad = 0;

	for (size_t i = 0; i < p->ll.n_narrow; i++) {
		const struct fbac_ll_path *n = &p->ll.narrow[i];

		for (size_t k = 0; k < 3; k++) {
			/* A rule on one object grants nothing below it. */
			if (k && (n->literal_only & n->access &
				  (FBAC_LL_FS_READ_FILE | FBAC_LL_FS_READ_DIR)))
				break;
			snprintf(path, sizeof(path), "%s%s",
				 strcmp(n->path, "/") ? n->path : "", below[k]);
			if ((n->access & FBAC_LL_FS_READ_FILE) &&
			    !narrow_reads_as(p, FBAC_OP_FILE_READ, path)) {
				diag("%s: narrow '%s' reads file '%s'", name,
				     n->path, path);
				bad++;
			}
			if ((n->access & FBAC_LL_FS_READ_DIR) && k < 2 &&
			    !narrow_reads_as(p, FBAC_OP_DIR_READ, path)) {
				diag("%s: narrow '%s' lists '%s'", name,
				     n->path, path);
				bad++;
			}
		}
	}
	return bad;
}

#endif
