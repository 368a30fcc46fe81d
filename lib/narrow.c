/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The narrow plan of a compiled policy (see struct fbac_landlock_plan),
 * the last part of the Landlock plan (plan.c).
 */
#include "plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "path.h"
#include "sort.h"

#define NARROW_READ (FBAC_LL_FS_READ_FILE | FBAC_LL_FS_READ_DIR)
/* The operations whose denial or protection is a hole in a narrow rule. */
#define NARROW_OPS                                                             \
	(FBAC_OP_BIT(FBAC_OP_FILE_READ) | FBAC_OP_BIT(FBAC_OP_DIR_READ) |        \
	 FBAC_OP_BIT(FBAC_OP_FILE_WRITE) | FBAC_OP_BIT(FBAC_OP_FILE_APPEND))

/*
 * Pseudo file systems: their inodes come and go, or name "self". The
 * terminals of /dev/pts are the exception: a rule on the devpts root
 * covers every terminal made later.
 */
static bool narrow_excluded(const char *prefix)
{
	static const char *const roots[] = { "/proc", "/sys", "/dev" };

	if (fbac_path_is_under(prefix, "/dev/pts"))
		return false;
	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++)
		if (fbac_path_is_under(prefix, roots[i]))
			return true;
	return false;
}

/* The narrow rights of a rule: reading, and writing where it grants
 * file_write itself (file_append alone is narrower than the kernel's). */
static uint64_t narrow_rights(const struct fbac_prule *pr)
{
	uint64_t acc = pr->llfs & NARROW_READ;

	if (pr->ops & FBAC_OP_BIT(FBAC_OP_FILE_WRITE))
		acc |= FBAC_LL_FS_WRITE_FILE;
	return acc;
}

static int add_narrow(struct fbac_policy *p, size_t *cap, const char *path,
		      uint64_t access, bool literal)
{
	struct fbac_landlock_plan *ll = &p->ll;
	int r;

	r = fbac_arena_grow(p->arena, (void **)&ll->narrow, cap,
			    ll->n_narrow + 1, sizeof(*ll->narrow));
	if (r < 0)
		return r;
	ll->narrow[ll->n_narrow++] =
		(struct fbac_ll_path){ path, access, literal ? access : 0 };
	return 0;
}

int narrow_plan(struct fbac_policy *p)
{
	struct fbac_landlock_plan *ll = &p->ll;
	size_t cap = 0, o = 0;
	int r;

	for (size_t i = 0; i < p->n_prules; i++) {
		const struct fbac_prule *pr = &p->prules[i];
		uint64_t acc = narrow_rights(pr);
		const char **holes;
		size_t n_holes;
		bool simple;
		char *dir;

		if (pr->deny || !acc)
			continue;
		dir = fbac_arena_strndup(p->arena, pr->pattern,
					 pr->literal ? strlen(pr->pattern) :
						       pr->plen);
		if (!dir)
			return -ENOMEM;
		/* "/pre" of "/pre*": the directory the pattern lists. */
		if (!pr->literal && !fbac_prule_is_tree(pr)) {
			if (pr->pattern[pr->plen] != '/' &&
			    !(pr->plen == 1 && pr->pattern[0] == '/'))
				continue;
			if (!last_component_glob(pr->pattern, pr->plen))
				continue;
		}
		if (narrow_excluded(dir) || streq(dir, "/proc/self"))
			continue;
		if ((r = holes_below(p, dir, NARROW_OPS, true, &holes, &n_holes,
				     &simple)) < 0)
			return r;
		if (!simple)
			continue;
		if (pr->literal) {
			/* A literal rule grants the object itself: it must not
			 * be a carve-out, and grants nothing below. */
			if (n_holes)
				continue;
			r = add_narrow(p, &cap, dir, acc, true);
		} else if (!fbac_prule_is_tree(pr)) {
			r = push_expand(p, &ll->narrow_expand,
					&ll->n_narrow_expand, dir, pr->pattern,
					holes, n_holes, acc);
		} else if (n_holes) {
			r = push_expand(p, &ll->narrow_expand,
					&ll->n_narrow_expand, dir, NULL, holes,
					n_holes, acc);
		} else {
			r = add_narrow(p, &cap, dir, acc, false);
		}
		if (r < 0)
			return r;
	}
	/* One rule per path: the kernel takes the union anyway. */
	if (ll->n_narrow)
		fbac_sort_nearly(ll->narrow, ll->n_narrow, sizeof(*ll->narrow),
				 cmp_llpath);
	for (size_t i = 0; i < ll->n_narrow; i++) {
		struct fbac_ll_path *last = o ? &ll->narrow[o - 1] : NULL;
		const struct fbac_ll_path *cur = &ll->narrow[i];

		if (last && streq(last->path, cur->path)) {
			/* Literal-only while no tree rule grants it as well. */
			last->literal_only =
				(last->literal_only &
				 (cur->literal_only | ~cur->access)) |
				(cur->literal_only & ~last->access);
			last->access |= cur->access;
		} else {
			ll->narrow[o++] = *cur;
		}
	}
	ll->n_narrow = o;
	return 0;
}
