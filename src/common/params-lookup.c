/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The folders a run may look up (stat, and list the working directory):
 * those above the paths named on the command line and above the working
 * directory. Nothing inside them: that stays the parameters' to grant.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fbac-limits.h"
#include "output.h"
#include "params-int.h"
#include "path.h"

static int add_lookup(struct params_ctx *c, const char *path, uint32_t ops)
{
	struct params *p = c->out;

	if (streq(path, "/") || params_protected(c, path))
		return 0;
	for (size_t i = 0; i < p->n_lookups; i++)
		if (streq(p->lookups[i], path)) {
			p->lookup_ops[i] |= ops;
			return 0;
		}
	if (p->n_lookups >= FBAC_MAX_DEFINES)
		return log_error(-E2BIG, "more than %d folders to look up",
				 FBAC_MAX_DEFINES);
	p->lookup_ops[p->n_lookups] = ops;
	p->lookups[p->n_lookups] = fbac_arena_strdup(p->arena, path);
	return p->lookups[p->n_lookups++] ? 0 : -ENOMEM;
}

/* Every folder above path (not path itself), from the top. */
static int add_above(struct params_ctx *c, const char *path)
{
	char buf[PATH_MAX];
	int r;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *s = strchr(buf + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = 0;
		r = add_lookup(c, buf, FBAC_OP_BIT(FBAC_OP_FILE_GETATTR));
		*s = '/';
		if (r < 0)
			return r;
	}
	return 0;
}

/* Programs stat the folders of the paths they are given and open their
 * working directory (to come back to it): granted to look up, nothing
 * more (what is inside stays the parameters' to grant). */
int params_lookups(struct params_ctx *c)
{
	const struct infer_program *ip = c->in->ip;
	int r;

	if (ip->disabled)
		return 0;
	if (ip->cwd[0] && !params_protected(c, ip->cwd)) {
		if ((r = add_above(c, ip->cwd)) < 0 ||
		    (r = add_lookup(c, ip->cwd,
				    FBAC_OP_BIT(FBAC_OP_FILE_GETATTR) |
					    FBAC_OP_BIT(FBAC_OP_DIR_READ))) < 0)
			return r;
	}
	for (size_t i = 0; i < ip->n_paths; i++)
		if (!params_protected(c, ip->paths[i].path) &&
		    (r = add_above(c, ip->paths[i].path)) < 0)
			return r;
	return 0;
}
