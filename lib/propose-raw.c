/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Learning: what no functionality covers, as a person would write it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "macro.h"
#include "path.h"
#include "propose-int.h"

struct rawent {
	char *pattern;
	char *parent; /* of the path it came from */
	uint32_t ops;
	size_t covers;
};

static int cmp_raw(const void *x, const void *y)
{
	const struct fbac_prop_raw *a = x, *b = y;

	if (!a->pattern != !b->pattern)
		return a->pattern ? -1 : 1;
	if (a->pattern)
		return strcmp(a->pattern, b->pattern);
	if (a->net_op != b->net_op)
		return a->net_op < b->net_op ? -1 : 1;
	return a->port - b->port;
}

/* What no functionality covers, as a person would write it. */
int raw_privileges(struct ctx *c, const bool *left,
			  struct fbac_proposal *p)
{
	_cleanup_free_ struct rawent *e = calloc(c->n + 1, sizeof(*e));
	size_t n = 0, cap = 0;
	char pat[FBAC_MAX_PATH], dir[FBAC_MAX_PATH];
	int r;

	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		const struct fbac_obs *o = &c->obs[i];
		size_t j;

		if (!left[i] || fbac_op_info(o->q.op)->kind != FBAC_KIND_PATH)
			continue;
		if ((r = fbac_generalize_path(o->q.path, FBAC_OP_BIT(o->q.op),
					      pat, sizeof(pat))) < 0)
			return r;
		for (j = 0; j < n; j++)
			if (streq(e[j].pattern, pat))
				break;
		if (j == n) {
			parent_of(o->q.path, dir, sizeof(dir));
			e[n].pattern = fbac_arena_strdup(c->a, pat);
			e[n].parent = fbac_arena_strdup(c->a, o->q.path[0] == '/' ? dir : "");
			if (!e[n].pattern || !e[n].parent)
				return -ENOMEM;
			n++;
		}
		e[j].ops |= FBAC_OP_BIT(o->q.op);
		/* A file it makes or writes, it reads back another time. */
		if (e[j].ops & (FBAC_OP_BIT(FBAC_OP_FILE_CREATE) |
				FBAC_OP_BIT(FBAC_OP_FILE_WRITE)))
			e[j].ops |= FBAC_OP_BIT(FBAC_OP_FILE_READ) |
				    FBAC_OP_BIT(FBAC_OP_FILE_GETATTR);
		e[j].covers++;
	}
	/* A folder's many files: the folder. */
	for (size_t i = 0; i < n; i++) {
		size_t same = 0;

		if (!e[i].parent[0] || sensitive_dir(c, e[i].parent) ||
		    !strncmp(e[i].parent, "/proc/", 6) ||
		    !strncmp(e[i].parent, "/sys/", 5) || strchr(e[i].parent, '*'))
			continue;
		bool dir_too = false;

		for (size_t j = 0; j < n; j++) {
			same += e[j].parent[0] && streq(e[j].parent, e[i].parent);
			dir_too |= e[j].ops && streq(e[j].pattern, e[i].parent);
		}
		/* Three files, or the folder itself and something in it. */
		if (same < 3 && !(dir_too && same >= 1))
			continue;
		snprintf(pat, sizeof(pat), "%s/**", e[i].parent);
		for (size_t j = 0; j < n; j++)
			if (j != i && e[j].ops &&
			    ((e[j].parent[0] && streq(e[j].parent, e[i].parent)) ||
			     streq(e[j].pattern, e[i].parent))) {
				e[i].ops |= e[j].ops;
				e[i].covers += e[j].covers;
				e[j].parent = (char *)"";
				e[j].ops = 0;
			}
		if (!(e[i].pattern = fbac_arena_strdup(c->a, pat)))
			return -ENOMEM;
		e[i].parent = (char *)"";
	}
	for (size_t i = 0; i < n; i++) {
		if (!e[i].ops)
			continue;
		if ((r = fbac_arena_grow(c->a, (void **)&p->raw, &cap, p->n_raw + 1,
					 sizeof(*p->raw))) < 0)
			return r;
		p->raw[p->n_raw++] = (struct fbac_prop_raw){
			.ops = e[i].ops, .pattern = e[i].pattern, .covers = e[i].covers };
	}
	for (size_t i = 0; i < c->n; i++) {
		const struct fbac_obs *o = &c->obs[i];
		size_t j;

		if (!left[i] || fbac_op_info(o->q.op)->kind != FBAC_KIND_NET)
			continue;
		/* Ephemeral ports (a listening socket bound to port 0, or
		 * to one the kernel chose) are left out. */
		if (o->q.port == 0 ||
		    (o->q.op == FBAC_OP_NETWORK_INCOMING && o->q.port >= 32768))
			continue;
		for (j = 0; j < p->n_raw; j++)
			if (!p->raw[j].pattern && p->raw[j].net_op == o->q.op &&
			    p->raw[j].proto == o->q.proto && p->raw[j].port == o->q.port)
				break;
		if (j == p->n_raw) {
			if ((r = fbac_arena_grow(c->a, (void **)&p->raw, &cap,
						 p->n_raw + 1, sizeof(*p->raw))) < 0)
				return r;
			p->raw[p->n_raw++] = (struct fbac_prop_raw){
				.net_op = o->q.op, .proto = o->q.proto,
				.port = o->q.port };
		}
		p->raw[j].covers++;
	}
	if (p->n_raw)
		qsort(p->raw, p->n_raw, sizeof(*p->raw), cmp_raw);
	return 0;
}

