/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The listings of the Landlock plan that a tree rule above already
 * implies, left out (plan.c, narrow.c): the kernel takes the union of the
 * rules on an object and on every directory above it, so a rule made
 * for each entry of a directory grants nothing more when a rule of the
 * same plan on that directory, or above it, gives those rights to the
 * whole tree. Version_Control_Client grants running /usr/bin/git-* and
 * everything of /usr/bin: listing /usr/bin (1400 names) for the first
 * was a third of its start-up, for rules that changed nothing.
 */
#include "plan.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"

/* The rights the rules of v (sorted by path) on dir and the directories
 * above it give to all below them. narrow: v is the narrow plan, whose
 * launcher makes no rule at all of one that names a directory alone
 * (landlock-expand.c); the kernel rules keep their tree rights. */
static uint64_t tree_rights_above(const struct fbac_ll_path *v, size_t n,
				  const char *dir, bool narrow)
{
	char up[FBAC_MAX_PATH];
	size_t len = strlen(dir);
	uint64_t acc = 0;

	if (!n || len >= sizeof(up) || dir[0] != '/')
		return 0;
	memcpy(up, dir, len + 1);
	for (;;) {
		const struct fbac_ll_path key = { .path = up };
		const struct fbac_ll_path *hit = bsearch(&key, v, n, sizeof(*v),
							 cmp_llpath);

		if (hit && !(narrow && hit->literal_only))
			acc |= hit->access & ~hit->literal_only;
		if (len == 1)
			return acc;
		while (len > 1 && up[len - 1] != '/')
			len--;
		if (len > 1)
			len--; /* its slash, but "/" */
		up[len] = '\0';
	}
}

/* Keep the expansions of v (*n) that the rules of paths do not imply;
 * extra: the rights a kernel rule must also give for an entry (what the
 * launcher adds to the program's: READ_FILE with EXECUTE, as the kernel
 * asks both of an exec). Return: how many were left out. */
static size_t drop_implied(struct fbac_ll_expand *v, size_t *n,
			   const struct fbac_ll_path *paths, size_t n_paths,
			   bool narrow, uint64_t extra)
{
	size_t o = 0, n0 = *n;

	for (size_t i = 0; i < n0; i++) {
		uint64_t want = v[i].access | extra;

		if (want & ~tree_rights_above(paths, n_paths, v[i].dir, narrow))
			v[o++] = v[i];
	}
	*n = o;
	return n0 - o;
}

size_t plan_drop_implied(struct fbac_landlock_plan *ll)
{
	return drop_implied(ll->expand, &ll->n_expand, ll->paths, ll->n_paths,
			    false, FBAC_LL_FS_READ_FILE) +
	       drop_implied(ll->narrow_expand, &ll->n_narrow_expand, ll->narrow,
			    ll->n_narrow, true, 0);
}
