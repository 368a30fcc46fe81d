/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "hint.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suggest.h"

/* One parameter of a functionality the stack resolved, and its values. */
struct candidate {
	const struct fbac_functionality *f;
	size_t param;
	unsigned depth;
	bool ok;     /* verified: the stack with it allows the query */
	size_t size; /* rules of that stack */
	char value[FBAC_MAX_HINT_VALUE];
};

struct walk {
	const struct fbac_query *q;
	const char *fill_dir;
	struct candidate *c;
	size_t n;
	bool overflow;
};

/* Append item to a comma-separated list unless it is there. */
static bool add_item(char *list, size_t size, const char *item)
{
	size_t len = strlen(list), il = strlen(item);

	for (const char *p = list; *p;) {
		const char *end = strchr(p, ',');
		size_t l = end ? (size_t)(end - p) : strlen(p);

		if (l == il && !strncmp(p, item, l))
			return true;
		p += l + (end ? 1 : 0);
	}
	if (len + il + 2 > size)
		return false;
	snprintf(list + len, size - len, "%s%s", len ? "," : "", item);
	return true;
}

static void visit(struct walk *w, const struct fbac_rnode *node,
		  unsigned depth)
{
	for (size_t i = 0; node->f && i < node->f->n_params; i++) {
		const struct fbac_param *p = &node->f->params[i];
		const struct fbac_value *val = &node->values[i];
		char buf[FBAC_MAX_PATH];
		struct candidate *c = NULL;

		if (!fbac_suggest_value(w->q, p->type, w->fill_dir, buf,
					sizeof(buf)))
			continue;
		for (size_t k = 0; k < w->n; k++)
			if (w->c[k].f == node->f && w->c[k].param == i)
				c = &w->c[k];
		if (!c) {
			if (w->n >= FBAC_MAX_HINT_TRIES) {
				w->overflow = true;
				continue;
			}
			c = &w->c[w->n++];
			*c = (struct candidate){ .f = node->f, .param = i };
		}
		if (depth > c->depth)
			c->depth = depth;
		/* A single path is replaced; a list keeps what it had. */
		if (!fbac_ptype_is_list(p->type))
			continue;
		for (size_t k = 0; val && k < val->n; k++)
			if (!add_item(c->value, sizeof(c->value), val->items[k]))
				c->f = NULL; /* too long to suggest */
	}
	for (size_t i = 0; i < node->n_children; i++)
		if (!node->children[i]->repeated)
			visit(w, node->children[i], depth + 1);
}

static int by_depth(const void *x, const void *y)
{
	const struct candidate *a = x, *b = y;

	if (a->depth != b->depth)
		return a->depth > b->depth ? -1 : 1;
	return strcmp(a->f ? a->f->name : "", b->f ? b->f->name : "");
}

static int by_size(const void *x, const void *y)
{
	const struct candidate *a = x, *b = y;

	bool ra = a->ok && !fbac_ptype_is_list(a->f->params[a->param].type);
	bool rb = b->ok && !fbac_ptype_is_list(b->f->params[b->param].type);

	if (a->ok != b->ok)
		return a->ok ? -1 : 1;
	/* Adding to a list keeps what the policy had; a single path is
	 * replaced (a browser's profile moved), so it comes last. */
	if (ra != rb)
		return ra ? 1 : -1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return by_depth(x, y);
}

/* Whether the stack from in plus def allows q (a define that sets
 * nothing, or a value the type refuses, is simply no hint). */
static int allows_with(const struct fbac_stack_input *in,
		       const struct fbac_define *def,
		       const struct fbac_query *q, size_t *size)
{
	_cleanup_free_ struct fbac_define *defs = NULL;
	struct fbac_stack_input si = *in;
	struct fbac_stack st = { .n = 0 };
	struct fbac_diag d = { 0 };
	struct fbac_verdict v;
	int r;

	size_t n = 0;

	defs = calloc(in->n_defines + 1, sizeof(*defs));
	if (!defs)
		return -ENOMEM;
	/* def replaces a define of the same parameter: the first one found
	 * would win, and def already holds its values. */
	for (size_t i = 0; i < in->n_defines; i++)
		if (!in->defines[i].func || !streq(in->defines[i].func, def->func) ||
		    !streq(in->defines[i].param, def->param))
			defs[n++] = in->defines[i];
	defs[n++] = *def;
	si.defines = defs;
	si.n_defines = n;
	si.compile_flags |= FBAC_COMPILE_NO_GAPS;
	r = fbac_stack_build(&si, &st, &d);
	fbac_diag_clear(&d);
	if (r == 0)
		r = !fbac_stack_query(&st, q, &v);
	/* What the stack grants then, in operations on patterns: the
	 * smaller, the more precise (read-only rather than read-write). */
	*size = 0;
	for (size_t i = 0; i < st.n; i++) {
		const struct fbac_policy *p = st.entries[i].policy;

		for (size_t k = 0; k < p->n_prules; k++)
			*size += (size_t)__builtin_popcount(p->prules[k].ops);
		*size += p->n_net + p->n_abstract;
	}
	fbac_stack_clear(&st);
	return r == -ENOMEM ? r : r > 0;
}

const struct fbac_resolved_protected *
fbac_hint_protected(const struct fbac_stack *st, const struct fbac_query *q)
{
	if (fbac_op_info(q->op)->kind != FBAC_KIND_PATH || !q->path ||
	    q->path[0] != '/')
		return NULL;
	for (size_t i = 0; i < st->n; i++) {
		const struct fbac_policy *p = st->entries[i].policy;

		for (size_t k = 0; k < p->n_protected; k++) {
			const struct fbac_resolved_protected *pp =
				&p->protected[k];
			size_t l = strlen(pp->path);

			if (!strncmp(q->path, pp->path, l) &&
			    (q->path[l] == 0 || q->path[l] == '/' ||
			     streq(pp->path, "/")) &&
			    !(pp->allow & FBAC_OP_BIT(q->op)))
				return pp;
		}
	}
	return NULL;
}

int fbac_hint_defines(const struct fbac_stack_input *in,
		      const struct fbac_query *q, const char *fill_dir,
		      struct fbac_define_hint *out, size_t max, size_t *ret_n)
{
	_cleanup_free_ struct candidate *cands = NULL;
	struct fbac_stack_input si = *in;
	struct fbac_stack st = { .n = 0 };
	struct fbac_diag d = { 0 };
	struct fbac_verdict v = { 0 };
	struct walk w = { .q = q, .fill_dir = fill_dir };
	const struct fbac_stack_entry *denier;
	size_t n = 0;
	int r;

	*ret_n = 0;
	cands = calloc(FBAC_MAX_HINT_TRIES, sizeof(*cands));
	if (!cands)
		return -ENOMEM;
	w.c = cands;
	si.compile_flags |= FBAC_COMPILE_NO_GAPS;
	r = fbac_stack_build(&si, &st, &d);
	fbac_diag_clear(&d);
	if (r < 0) {
		fbac_stack_clear(&st);
		return r == -ENOMEM ? r : 0;
	}
	denier = fbac_stack_query(&st, q, &v);
	if (!denier || fbac_hint_blocked(&v) || fbac_hint_protected(&st, q)) {
		fbac_stack_clear(&st);
		return 0;
	}
	/* Defines never reach the administrator's layer. */
	for (size_t i = 0; i < st.n; i++) {
		const struct fbac_stack_entry *e = &st.entries[i];

		if (e->layer && e->layer->kind == FBAC_LAYER_ADMIN)
			continue;
		if (e->policy->res && e->policy->res->root)
			visit(&w, e->policy->res->root, 0);
	}
	fbac_stack_clear(&st);
	if (w.n)
		qsort(cands, w.n, sizeof(*cands), by_depth);
	for (size_t i = 0; i < w.n; i++) {
		struct candidate *c = &cands[i];
		const struct fbac_param *p;
		char item[FBAC_MAX_PATH];
		struct fbac_define def;

		if (!c->f)
			continue;
		p = &c->f->params[c->param];
		if (!fbac_suggest_value(q, p->type, fill_dir, item, sizeof(item)))
			continue;
		if (!fbac_ptype_is_list(p->type))
			c->value[0] = 0;
		if (!add_item(c->value, sizeof(c->value), item))
			continue;
		def = (struct fbac_define){ .func = c->f->name,
					    .param = p->name,
					    .value = c->value };
		r = allows_with(in, &def, q, &c->size);
		if (r < 0)
			return r;
		if (!r)
			continue;
		c->ok = true;
		n++;
	}
	/* Those that keep what the policy had, then the most precise: the
	 * smallest stack, then the deepest include. */
	if (w.n)
		qsort(cands, w.n, sizeof(*cands), by_size);
	n = 0;
	for (size_t i = 0; i < w.n && n < max && cands[i].ok; i++) {
		out[n].f = cands[i].f;
		out[n].param = cands[i].f->params[cands[i].param].name;
		snprintf(out[n].value, sizeof(out[n].value), "%s",
			 cands[i].value);
		n++;
	}
	*ret_n = n;
	return 0;
}
