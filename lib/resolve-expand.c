/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The expansion phase of resolution: a scalar's '~', '$VARIABLE',
 * '$parameter' and '$$' substituted into one string, or one per element
 * of a list parameter. See docs/profile-language.md.
 */
#include "resolve-int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fbac-limits.h"
#include "spell.h"

int rs_strs_add(struct resolver *rs, struct strs *s, const char *str,
		const struct fbac_mark *mark)
{
	static const struct fbac_mark none = { NULL, 0, 0 };
	int r;

	if (s->n >= FBAC_MAX_LIST * 4)
		return -E2BIG;
	r = fbac_arena_grow(rs->a, (void **)&s->v, &s->cap, s->n + 1,
			    sizeof(char *));
	if (r == 0)
		r = fbac_arena_grow(rs->a, (void **)&s->m, &s->mcap, s->n + 1,
				    sizeof(*s->m));
	if (r < 0)
		return r;
	s->m[s->n] = mark ? *mark : none;
	s->v[s->n++] = str;
	return 0;
}

/* The position of byte off inside a scalar, when it is on one line. */
static struct fbac_mark mark_at(const struct fbac_ynode *n, size_t off)
{
	struct fbac_mark m = n->mark;

	if (!memchr(n->value, '\n', n->len))
		m.col += (unsigned)off + (n->plain ? 0 : 1);
	return m;
}

static bool is_name_char(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

static int param_index(const struct fbac_functionality *f, const char *name,
		       size_t len)
{
	for (size_t i = 0; f && i < f->n_params; i++)
		if (strlen(f->params[i].name) == len &&
		    !strncmp(f->params[i].name, name, len))
			return (int)i;
	return -1;
}

/* One piece of a scalar: literal text, or the items of a value. */
struct piece {
	const char *text; /* literal (len bytes) when items is NULL */
	size_t len;
	const char **items;
	size_t n;
	bool list;
};

/* A scalar cut into pieces, with the one list piece it may have. */
struct pieces {
	struct piece pc[FBAC_MAX_VALUE_PIECES];
	size_t np, lists, list_at;
};

/* A variable reference of scalar n: '$name' or '${name}' at start. */
struct ref {
	const struct fbac_ynode *n;
	const char *name;
	size_t nl, start;
};

static int too_many(struct resolver *rs, const struct fbac_ynode *n)
{
	return fbac_diag_at(rs->diag, &n->mark, -E2BIG,
			    "too many variable references in one value");
}

/* Add a literal piece; -E2BIG when there are FBAC_MAX_VALUE_PIECES already. */
static int push_text(struct pieces *p, const char *text, size_t len)
{
	if (p->np == FBAC_MAX_VALUE_PIECES)
		return -E2BIG;
	p->pc[p->np++] = (struct piece){ .text = text, .len = len };
	return 0;
}

/* A built-in variable ('$HOME'): its value, or the unknown name. */
static int expand_variable(struct resolver *rs, const struct ref *ref,
			   struct pieces *p)
{
	const char *v = fbac_env_get(rs->env, ref->name, ref->nl);
	struct fbac_mark m;
	const char *close = NULL;
	unsigned best = UINT_MAX;
	char word[FBAC_MAX_NAME + 1];

	if (v)
		return push_text(p, v, strlen(v));
	m = mark_at(ref->n, ref->start);
	snprintf(word, sizeof(word), "%.*s", (int)ref->nl, ref->name);
	for (size_t k = 0; k < rs->env->n; k++)
		if (fbac_spell_better(word, rs->env->names[k], &best))
			close = rs->env->names[k];
	if (close)
		return fbac_diag_at(
			rs->diag, &m, -EINVAL,
			"unknown variable '$%.*s' (did you mean '$%s'?)",
			(int)ref->nl, ref->name, close);
	return fbac_diag_at(rs->diag, &m, -EINVAL, "unknown variable '$%.*s'",
			    (int)ref->nl, ref->name);
}

static int unknown_param(struct resolver *rs, const struct frame *fr,
			 const struct ref *ref, const struct fbac_mark *m)
{
	const char *close = NULL;
	unsigned best = UINT_MAX;
	char word[FBAC_MAX_NAME + 1];

	snprintf(word, sizeof(word), "%.*s", (int)ref->nl, ref->name);
	for (size_t k = 0; fr && fr->f && k < fr->f->n_params; k++)
		if (fbac_spell_better(word, fr->f->params[k].name, &best))
			close = fr->f->params[k].name;
	return fbac_diag_at(rs->diag, m, -EINVAL,
			    "unknown parameter '$%.*s'%s%s%s%s%s%s",
			    (int)ref->nl, ref->name, fr && fr->f ? " of '" : "",
			    fr && fr->f ? fr->f->name : "",
			    fr && fr->f ? "'" : "",
			    close ? " (did you mean '$" : "",
			    close ? close : "", close ? "'?)" : "");
}

/* A parameter of frame fr ('$dir'): its value, evaluated first. */
static int expand_param(struct resolver *rs, const struct frame *fr,
			const struct ref *ref, struct pieces *p)
{
	int idx = fr ? param_index(fr->f, ref->name, ref->nl) : -1;
	struct fbac_mark m = mark_at(ref->n, ref->start);
	const struct fbac_value *val;
	int r;

	if (idx < 0)
		return unknown_param(rs, fr, ref, &m);
	if ((r = rs_eval_param(rs, fr, (size_t)idx, &m)) < 0)
		return r;
	val = &fr->node->values[idx];
	if (!fbac_ptype_is_list(val->type)) {
		p->pc[p->np++] = (struct piece){ .text = val->items[0],
						 .len = strlen(val->items[0]) };
		return 0;
	}
	p->pc[p->np] = (struct piece){ .items = val->items,
				       .n = val->n,
				       .list = true };
	if (p->lists++)
		return fbac_diag_at(
			rs->diag, &m, -EINVAL,
			"at most one list parameter can be used in one value");
	p->list_at = p->np++;
	return 0;
}

/*
 * The reference at s[*i] (a '$' that is not '$$'), into p; *i moves past
 * it. Return: 0 or -errno, with a diagnostic.
 */
static int expand_ref(struct resolver *rs, const struct frame *fr,
		      const struct fbac_ynode *n, size_t *i, struct pieces *p)
{
	const char *s = n->value;
	struct ref ref = { .n = n, .start = *i };
	bool brace = s[*i + 1] == '{';

	ref.name = s + *i + 1 + brace;
	for (ref.nl = 0; is_name_char(ref.name[ref.nl], ref.nl == 0); ref.nl++)
		;
	if (ref.nl == 0 || (brace && ref.name[ref.nl] != '}')) {
		struct fbac_mark m = mark_at(n, ref.start);
		return fbac_diag_at(
			rs->diag, &m, -EINVAL,
			"invalid variable reference (write '$name', '${name}', or '$$' for a dollar sign)");
	}
	*i = (size_t)(ref.name - s) + ref.nl + brace;
	if (p->np == FBAC_MAX_VALUE_PIECES)
		return too_many(rs, n);
	if (isupper((unsigned char)ref.name[0]))
		return expand_variable(rs, &ref, p);
	return expand_param(rs, fr, &ref, p);
}

/* Cut scalar n into pieces: literal text, '~', '$$' and references. */
static int cut_pieces(struct resolver *rs, const struct frame *fr,
		      const struct fbac_ynode *n, struct pieces *p)
{
	const char *s = n->value;
	size_t i = 0, lit = 0;
	int r;

	if (s[0] == '~' && (s[1] == '/' || s[1] == 0)) {
		const char *home = fbac_env_get(rs->env, "HOME", 4);

		p->pc[p->np++] = (struct piece){ .text = home,
						 .len = strlen(home) };
		i = lit = 1;
	} else if (s[0] == '~') {
		struct fbac_mark m = mark_at(n, 0);
		return fbac_diag_at(rs->diag, &m, -EINVAL,
				    "'~user' is not supported; write the path");
	}
	while (s[i]) {
		if (s[i] != '$') {
			i++;
			continue;
		}
		if (i > lit && push_text(p, s + lit, i - lit) < 0)
			return too_many(rs, n);
		if (s[i + 1] == '$') {
			if (push_text(p, "$", 1) < 0)
				return too_many(rs, n);
			i += 2;
		} else if ((r = expand_ref(rs, fr, n, &i, p)) < 0) {
			return r;
		}
		lit = i;
	}
	if (i > lit && push_text(p, s + lit, i - lit) < 0)
		return too_many(rs, n);
	return 0;
}

/* Join the pieces: one string per element of the list piece (just one
 * without a list), appended to out. */
static int join_pieces(struct resolver *rs, const struct fbac_ynode *n,
		       const struct pieces *p, struct strs *out)
{
	size_t count = p->lists ? p->pc[p->list_at].n : 1;
	char buf[FBAC_MAX_PATH];
	int r;

	for (size_t e = 0; e < count; e++) {
		const char *copy;
		size_t o = 0;

		for (size_t k = 0; k < p->np; k++) {
			const char *t = p->pc[k].text;
			size_t len = p->pc[k].len;

			if (p->pc[k].list) {
				t = p->pc[k].items[e];
				len = strlen(t);
			}
			if (o + len >= sizeof(buf))
				return fbac_diag_at(
					rs->diag, &n->mark, -E2BIG,
					"value longer than %d bytes after substitution",
					FBAC_MAX_PATH - 1);
			memcpy(buf + o, t, len);
			o += len;
		}
		buf[o] = 0;
		copy = fbac_arena_strdup(rs->a, buf);
		if (!copy)
			return -ENOMEM;
		if ((r = rs_strs_add(rs, out, copy, &n->mark)) < 0)
			return fbac_diag_at(rs->diag, &n->mark, r,
					    "value expands to too many items");
	}
	return 0;
}

int rs_expand(struct resolver *rs, const struct frame *fr,
	      const struct fbac_ynode *n, struct strs *out)
{
	struct pieces p;
	int r;

	p.np = p.lists = p.list_at = 0;
	if ((r = cut_pieces(rs, fr, n, &p)) < 0)
		return r;
	return join_pieces(rs, n, &p, out);
}

int rs_expand_node(struct resolver *rs, const struct frame *fr,
		   const struct fbac_ynode *n, struct strs *out)
{
	int r;

	if (n->kind == FBAC_Y_SCALAR)
		return rs_expand(rs, fr, n, out);
	if (n->kind != FBAC_Y_SEQ)
		return fbac_diag_at(rs->diag, &n->mark, -EINVAL,
				    "expected a scalar or a sequence");
	for (size_t i = 0; i < n->n; i++) {
		if (n->items[i]->kind != FBAC_Y_SCALAR)
			return fbac_diag_at(rs->diag, &n->items[i]->mark,
					    -EINVAL, "expected a scalar, not %s",
					    fbac_ynode_kind_name(
						    n->items[i]->kind));
		if ((r = rs_expand(rs, fr, n->items[i], out)) < 0)
			return r;
	}
	return 0;
}
