/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Resolution: the walk over the grants and their includes (frames,
 * memoised by arguments, cycles and depth refused), the metadata choice,
 * the protected paths, and "-D" bookkeeping. The phases it calls are in
 * resolve-expand.c, resolve-param.c and resolve-rules.c.
 */
#include "resolve-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "path.h"

/* Whether two frames of the same functionality got the same arguments. */
static bool same_values(const struct fbac_functionality *f,
			const struct fbac_value *a, const struct fbac_value *b)
{
	for (size_t i = 0; i < f->n_params; i++) {
		if (a[i].n != b[i].n)
			return false;
		for (size_t k = 0; k < a[i].n; k++)
			if (strcmp(a[i].items[k], b[i].items[k]))
				return false;
	}
	return true;
}

static int resolve_frame(struct resolver *rs, struct frame *fr);

static int include(struct resolver *rs, const struct frame *parent,
		   const struct fbac_include *inc, bool top)
{
	struct frame fr = { .f = inc->target,
			    .parent = parent,
			    .inc = inc,
			    .top = top,
			    .depth = parent->depth + 1 };
	struct fbac_rnode *node;
	int r;

	/* Missing arguments are reported by eval_param, after -D had its say. */
	if ((r = fbac_check_include(rs->in->lib, inc, false, rs->diag)) < 0)
		return r;
	for (const struct frame *p = parent; p; p = p->parent)
		if (p->f == inc->target)
			return fbac_diag_at(rs->diag, &inc->mark, -ELOOP,
					    "include cycle through '%s'",
					    inc->name);
	if (fr.depth > FBAC_MAX_INCLUDE_DEPTH)
		return fbac_diag_at(rs->diag, &inc->mark, -E2BIG,
				    "includes nested deeper than %d levels",
				    FBAC_MAX_INCLUDE_DEPTH);
	if (++rs->frames > FBAC_MAX_EXPANSIONS)
		return fbac_diag_at(rs->diag, &inc->mark, -E2BIG,
				    "more than %d functionalities resolved",
				    FBAC_MAX_EXPANSIONS);
	node = fbac_arena_alloc(rs->a, sizeof(*node));
	fr.state = fbac_arena_alloc(rs->a, fr.f->n_params + 1);
	if (!node || !fr.state)
		return -ENOMEM;
	node->f = fr.f;
	node->name = fr.f->name;
	node->at = inc->mark;
	node->values = fbac_arena_array(rs->a, fr.f->n_params + 1,
					sizeof(*node->values));
	if (!node->values)
		return -ENOMEM;
	fr.node = node;
	fr.chain = parent->chain ? fbac_arena_printf(rs->a, "%s > %s",
						     parent->chain, fr.f->name) :
				   fr.f->name;
	if (!fr.chain)
		return -ENOMEM;
	r = fbac_arena_grow(rs->a, (void **)&parent->node->children,
			    &parent->node->cap_children,
			    parent->node->n_children + 1, sizeof(node));
	if (r < 0)
		return r;
	parent->node->children[parent->node->n_children++] = node;
	return resolve_frame(rs, &fr);
}

/* A functionality's own choice: mediated wins, the first visible stays. */
static void frame_metadata(struct resolver *rs, const struct frame *fr)
{
	struct fbac_resolved *o = rs->out;

	if (fr->f->metadata == FBAC_META_UNSET ||
	    o->metadata == FBAC_META_MEDIATED ||
	    (o->metadata == FBAC_META_VISIBLE &&
	     fr->f->metadata == FBAC_META_VISIBLE))
		return;
	o->metadata = fr->f->metadata;
	o->metadata_why = fr->chain;
	o->metadata_mark = fr->f->metadata_mark;
}

/*
 * The application's own 'metadata', then "-D metadata=", then a layer's
 * settings ban, each over what came before.
 */
static int root_metadata(struct resolver *rs, bool *used)
{
	static const struct fbac_mark cli = { "<command line>", 0, 0 };
	const struct fbac_resolve_input *in = rs->in;
	const struct fbac_library *lib = in->lib;
	struct fbac_resolved *o = rs->out;

	if (in->app && in->app->metadata != FBAC_META_UNSET) {
		o->metadata = in->app->metadata;
		o->metadata_why = in->root_name ? in->root_name : in->app->name;
		o->metadata_mark = in->app->metadata_mark;
	}
	for (size_t i = 0; i < in->n_defines; i++) {
		const struct fbac_define *d = &in->defines[i];

		if (d->func || !streq(d->param, "metadata"))
			continue;
		if (streq(d->value, "visible"))
			o->metadata = FBAC_META_VISIBLE;
		else if (streq(d->value, "mediated"))
			o->metadata = FBAC_META_MEDIATED;
		else
			return fbac_diag_at(
				rs->diag, &cli, -EINVAL,
				"'-D metadata=%s': expected visible or mediated",
				d->value);
		o->metadata_why = fbac_arena_printf(rs->a, "-D metadata=%s",
						    d->value);
		if (!o->metadata_why)
			return -ENOMEM;
		o->metadata_mark = cli;
		used[i] = true;
	}
	if (lib->metadata_banned) {
		o->metadata = FBAC_META_MEDIATED;
		o->metadata_why = fbac_arena_printf(
			rs->a, "the settings of layer %s",
			lib->layers[lib->metadata_ban_layer].name);
		if (!o->metadata_why)
			return -ENOMEM;
		o->metadata_mark = lib->metadata_ban_mark;
	}
	return 0;
}

static int resolve_frame(struct resolver *rs, struct frame *fr)
{
	int r;

	/* Every parameter is evaluated, so unused ones are checked too. */
	for (size_t i = 0; i < fr->f->n_params; i++)
		if ((r = rs_eval_param(rs, fr, i, &fr->f->params[i].mark)) < 0)
			return r;
	for (size_t i = 0; i < rs->n_memo; i++)
		if (rs->memo[i].f == fr->f &&
		    same_values(fr->f, rs->memo[i].values, fr->node->values)) {
			fr->node->repeated = true;
			return 0;
		}
	r = fbac_arena_grow(rs->a, (void **)&rs->memo, &rs->cap_memo,
			    rs->n_memo + 1, sizeof(*rs->memo));
	if (r < 0)
		return r;
	rs->memo[rs->n_memo++] = (struct memo){ fr->f, fr->node->values };
	frame_metadata(rs, fr);

	for (size_t i = 0; i < fr->f->n_includes; i++)
		if ((r = include(rs, fr, &fr->f->includes[i], false)) < 0)
			return r;
	return rs_privileges(rs, fr, fr->f->privs, fr->f->n_privs,
			     rs->in->layer);
}

static int protected_paths(struct resolver *rs)
{
	const struct fbac_library *lib = rs->in->lib;
	char norm[FBAC_MAX_PATH];
	const char *why;
	int r;

	rs->out->protected = fbac_arena_array(rs->a, lib->n_protected + 1,
					      sizeof(*rs->out->protected));
	if (!rs->out->protected)
		return -ENOMEM;
	for (size_t i = 0; i < lib->n_protected; i++) {
		struct strs s = { 0 };

		/* The administrator's entries never follow the caller's
		 * environment: it could move what they protect. */
		if (lib->layers[lib->protected[i].layer].kind ==
			    FBAC_LAYER_ADMIN &&
		    rs->in->trusted_env)
			rs->env = rs->in->trusted_env;
		r = rs_expand(rs, NULL, lib->protected[i].path, &s);
		rs->env = rs->in->env;
		if (r < 0)
			return r;
		for (size_t k = 0; k < s.n; k++) {
			struct fbac_resolved_protected *p;

			r = fbac_path_normalize(s.v[k], norm, sizeof(norm),
						&why);
			if (r == 0 && fbac_has_wildcard(norm)) {
				why = "protected paths cannot have wildcards";
				r = -EINVAL;
			}
			if (r < 0)
				return fbac_diag_at(rs->diag,
						    &lib->protected[i].mark,
						    -EINVAL, "path '%s': %s",
						    s.v[k], why);
			if (k > 0) {
				/* Only reachable through a list variable: none exist. */
				return -EINVAL;
			}
			p = &rs->out->protected[rs->out->n_protected++];
			p->path = fbac_arena_strdup(rs->a, norm);
			p->allow = lib->protected[i].allow;
			p->reason = lib->protected[i].reason;
			p->mark = lib->protected[i].mark;
			if (!p->path)
				return -ENOMEM;
		}
	}
	return 0;
}

struct fbac_resolved *fbac_resolved_free(struct fbac_resolved *r)
{
	if (r) {
		fbac_arena_free(r->arena);
		free(r);
	}
	return NULL;
}

int fbac_resolve(const struct fbac_resolve_input *in,
		 struct fbac_resolved **ret, struct fbac_diag *diag)
{
	_cleanup_(fbac_resolved_freep) struct fbac_resolved *out = NULL;
	_cleanup_free_ bool *used = NULL;
	struct resolver rs = { .in = in, .env = in->env, .diag = diag };
	struct frame root = { 0 };
	const struct fbac_include *grants = in->app ? in->app->grants :
						      in->grants;
	size_t n_grants = in->app ? in->app->n_grants : in->n_grants;
	int r;

	if (!in->lib->linked || in->env->n == 0)
		return -EINVAL;
	out = calloc(1, sizeof(*out));
	if (!out)
		return -ENOMEM;
	out->arena = fbac_arena_new();
	used = calloc(in->n_defines + 1, sizeof(*used));
	if (used && in->define_used)
		memcpy(used, in->define_used, in->n_defines * sizeof(*used));
	if (!out->arena || !used)
		return -ENOMEM;
	rs.out = out;
	rs.a = out->arena;
	rs.define_used = used;

	out->root = fbac_arena_alloc(rs.a, sizeof(*out->root));
	if (!out->root)
		return -ENOMEM;
	/* Without a root name, chains start at the granted functionality. */
	out->root->name = in->root_name ? in->root_name : "";
	if (in->app)
		out->root->at = in->app->mark;
	root.node = out->root;
	root.chain = in->root_name;

	for (size_t i = 0; i < n_grants; i++)
		if ((r = include(&rs, &root, &grants[i], true)) < 0)
			return r;
	if (in->app && (r = rs_privileges(&rs, &root, in->app->privs,
					  in->app->n_privs, in->layer)) < 0)
		return r;
	if (in->app &&
	    (r = rs_executables(&rs, in->app->name, in->app->executables,
				in->app->exe_marks, in->app->n_executables,
				in->layer)) < 0)
		return r;
	if (!in->app && in->n_executables &&
	    (r = rs_executables(&rs, in->root_name ? in->root_name : "--as",
				in->executables, NULL, in->n_executables,
				in->layer)) < 0)
		return r;
	if (!in->app && in->n_lookups &&
	    (r = rs_lookups(&rs, in->root_name ? in->root_name : "--as", in,
			    in->layer)) < 0)
		return r;
	if ((r = root_metadata(&rs, used)) < 0)
		return r;
	if (in->define_used) {
		memcpy(in->define_used, used, in->n_defines * sizeof(*used));
		goto protected;
	}
	for (size_t i = 0; i < in->n_defines; i++)
		if (!used[i])
			return fbac_define_unused(&in->defines[i], diag);

      protected:
	if ((r = protected_paths(&rs)) < 0)
		return r;
	*ret = TAKE_PTR(out);
	return 0;
}

int fbac_define_unused(const struct fbac_define *d, struct fbac_diag *diag)
{
	static const struct fbac_mark cli = { "<command line>", 0, 0 };

	return fbac_diag_at(
		diag, &cli, -EINVAL,
		"'-D %s%s%s=%s' sets nothing: no granted functionality%s%s has a parameter '%s'",
		d->func ? d->func : "", d->func ? "." : "", d->param, d->value,
		d->func ? " named " : "", d->func ? d->func : "", d->param);
}

int fbac_define_parse(char *arg, const char *default_func,
		      struct fbac_define *ret)
{
	char *eq = strchr(arg, '='), *dot;

	if (!eq || eq == arg)
		return -EINVAL;
	*eq = 0;
	dot = strchr(arg, '.');
	if (dot) {
		*dot = 0;
		if (!*arg || !dot[1])
			return -EINVAL;
		ret->func = arg;
		ret->param = dot + 1;
	} else {
		ret->func = default_func;
		ret->param = arg;
	}
	ret->value = eq + 1;
	return 0;
}
