/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stack.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "vcache.h"

void fbac_stack_clear(struct fbac_stack *s)
{
	for (size_t i = 0; i < s->n; i++)
		s->entries[i].policy = fbac_policy_free(s->entries[i].policy);
	s->n = 0;
	fbac_vcache_free(s->vcache);
	s->vcache = NULL;
}

int fbac_stack_cache_verdicts(struct fbac_stack *s)
{
	if (!s->vcache)
		s->vcache = fbac_vcache_new();
	return s->vcache ? 0 : -ENOMEM;
}

static const struct fbac_application *
find_app(const struct fbac_library *lib, unsigned layer, const char *program)
{
	const struct fbac_application *app;

	app = fbac_library_find_app(lib, layer, program);
	if (!app && strchr(program, '/')) {
		/* A path not listed: the name after the last '/'. */
		app = fbac_library_find_app(lib, layer,
					    strrchr(program, '/') + 1);
	}
	return app;
}

size_t fbac_stack_layers(const struct fbac_library *lib, const char *program,
			 const struct fbac_application **apps, int *replaced)
{
	bool user = false;
	size_t n = 0;

	*replaced = -1;
	for (unsigned i = 0; i < lib->n_layers; i++) {
		apps[i] = program ? find_app(lib, i, program) : NULL;
		if (apps[i] && lib->layers[i].kind == FBAC_LAYER_USER)
			user = true;
	}
	/*
	 * The shipped policy is a default: the user's own policy for the
	 * program takes its place (it may grant more), while the
	 * administrator's stays the ceiling for both.
	 */
	for (unsigned i = 0; user && i < lib->n_layers; i++)
		if (apps[i] && lib->layers[i].kind == FBAC_LAYER_LIBRARY) {
			apps[i] = NULL;
			if (*replaced < 0)
				*replaced = (int)i;
		}
	for (unsigned i = 0; i < lib->n_layers; i++)
		n += apps[i] != NULL;
	return n;
}

/* The application's 'sandbox_fallback', copied into res: the compiled
 * policy outlives the library (and is cached without it). */
static int copy_fallback(struct fbac_resolved *res,
			 const struct fbac_application *app)
{
	if (!app || !app->n_sandbox_fallback)
		return 0;
	res->sandbox_fallback = fbac_arena_array(
		res->arena, app->n_sandbox_fallback, sizeof(char *));
	if (!res->sandbox_fallback)
		return -ENOMEM;
	for (size_t i = 0; i < app->n_sandbox_fallback; i++)
		if (!(res->sandbox_fallback[i] = fbac_arena_strdup(
			      res->arena, app->sandbox_fallback[i])))
			return -ENOMEM;
	res->n_sandbox_fallback = app->n_sandbox_fallback;
	return 0;
}

/* fallback_of: the application whose 'sandbox_fallback' the entry
 * carries (its own, or under --as the program's policy that --as
 * replaces: the program's own sandbox fails inside fbac-run whatever
 * it is run as). */
static int add(struct fbac_stack *s, const struct fbac_resolve_input *ri,
	       const struct fbac_application *fallback_of,
	       const struct fbac_layer *layer, const char *name,
	       const char *replaces, unsigned flags, struct fbac_diag *diag)
{
	struct fbac_resolved *res = NULL;
	struct fbac_policy *pol = NULL;
	int r;

	r = fbac_resolve(ri, &res, diag);
	if (r < 0)
		return r;
	if ((r = copy_fallback(res, fallback_of)) < 0) {
		fbac_resolved_free(res);
		return r;
	}
	r = fbac_policy_compile_flags(&res, ri->root_name, flags, &pol, diag);
	if (r < 0)
		return r;
	s->entries[s->n++] = (struct fbac_stack_entry){
		layer, name, pol,
		layer ? layer->kind : FBAC_LAYER_COMMAND_LINE, replaces
	};
	return 0;
}

/* The program's policy in force below the administrator's layer (the
 * user's own when there is one: fbac_stack_layers), or NULL. */
static const struct fbac_application *
discretionary_app(const struct fbac_library *lib,
		  const struct fbac_application *const *apps)
{
	const struct fbac_application *app = NULL;

	for (unsigned i = 0; i < lib->n_layers; i++)
		if (apps[i] && lib->layers[i].kind != FBAC_LAYER_ADMIN)
			app = apps[i];
	return app;
}

int fbac_stack_build(const struct fbac_stack_input *in, struct fbac_stack *ret,
		     struct fbac_diag *diag)
{
	struct fbac_stack s = { .n = 0 };
	const struct fbac_library *lib = in->lib;
	_cleanup_free_ bool *used = NULL;
	const struct fbac_application *apps[FBAC_MAX_LAYERS];
	int replaced = -1, r = 0;

	/* A define must set something in some layer, not in every one. */
	used = calloc(in->n_defines + 1, sizeof(*used));
	if (!used)
		return -ENOMEM;
	if (lib->n_layers > FBAC_MAX_LAYERS)
		return -E2BIG;
	fbac_stack_layers(lib, in->program, apps, &replaced);

	for (unsigned i = 0; i < lib->n_layers; i++) {
		const struct fbac_layer *l = &lib->layers[i];
		bool admin = l->kind == FBAC_LAYER_ADMIN;
		const struct fbac_application *app = apps[i];
		struct fbac_resolve_input ri = { .lib = lib, .layer = i,
						 .trusted_env = in->trusted_env };

		if (!app || ((in->n_grants || in->empty_grants) && !admin))
			continue;
		ri.env = admin ? in->trusted_env : in->env;
		ri.app = app;
		ri.root_name = app->name;
		if (!admin) {
			ri.defines = in->defines;
			ri.n_defines = in->n_defines;
			ri.define_used = used;
		}
		if ((r = add(&s, &ri, app, l, l->name,
			     l->kind == FBAC_LAYER_USER && replaced >= 0 ?
				     lib->layers[replaced].name :
				     NULL,
			     in->compile_flags, diag)) < 0)
			goto fail;
	}
	if (in->n_grants || in->empty_grants) {
		struct fbac_resolve_input ri = {
			.lib = lib,
			.env = in->env,
			.root_name = "--as",
			.grants = in->grants,
			.n_grants = in->n_grants,
			.executables = in->executables,
			.n_executables = in->n_executables,
			.lookups = in->lookups,
			.lookup_ops = in->lookup_ops,
			.n_lookups = in->n_lookups,
			.defines = in->defines,
			.n_defines = in->n_defines,
			.define_used = used,
			.trusted_env = in->trusted_env,
			.layer = lib->n_layers,
		};
		if ((r = add(&s, &ri, discretionary_app(lib, apps), NULL,
			     "command line", NULL, in->compile_flags, diag)) < 0)
			goto fail;
	}
	for (size_t i = 0; s.n && i < in->n_defines; i++)
		if (!used[i]) {
			r = fbac_define_unused(&in->defines[i], diag);
			goto fail;
		}
	if (s.n == 0) {
		r = fbac_diag_at(diag, NULL, -ENOENT,
				 "no application policy names '%s'",
				 in->program ? in->program : "");
		goto fail;
	}
	*ret = s;
	return 0;
fail:
	fbac_stack_clear(&s);
	return r;
}

uint32_t fbac_stack_path_ops(const struct fbac_stack *s, const char *path)
{
	uint32_t ops = 0;

	for (unsigned op = 0; op < FBAC_OP_COUNT; op++) {
		struct fbac_verdict v;

		if (fbac_op_info(op)->kind != FBAC_KIND_PATH)
			continue;
		if (!fbac_stack_check_path(s, (enum fbac_op)op, path, &v))
			ops |= FBAC_OP_BIT(op);
	}
	return ops;
}

static bool policy_uniform_below(const struct fbac_policy *p, const char *dir)
{
	size_t dl = strlen(dir);

	for (size_t i = 0; i < p->n_prules; i++) {
		const struct fbac_prule *r = &p->prules[i];
		bool tree = fbac_prule_is_tree(r);
		char pre[FBAC_MAX_PATH];

		snprintf(pre, sizeof(pre), "%.*s", r->plen, r->pattern);
		/* A rule inside the subtree tells its parts apart. */
		if (fbac_path_is_under(pre, dir) && strlen(pre) > dl)
			return false;
		/* A wildcard above it may match some depths and not others. */
		if (!r->literal && !tree && fbac_path_is_under(dir, pre))
			return false;
	}
	for (size_t i = 0; i < p->n_protected; i++)
		if (fbac_path_is_under(p->protected[i].path, dir) &&
		    strlen(p->protected[i].path) > dl)
			return false;
	return true;
}

bool fbac_stack_uniform_below(const struct fbac_stack *s, const char *dir)
{
	for (size_t i = 0; i < s->n; i++)
		if (!policy_uniform_below(s->entries[i].policy, dir))
			return false;
	return true;
}

static const struct fbac_stack_entry *query(const struct fbac_stack *s,
					    const struct fbac_query *q,
					    struct fbac_verdict *v)
{
	for (size_t i = 0; i < s->n; i++) {
		if (fbac_policy_query(s->entries[i].policy, q, v) < 0 ||
		    !v->allowed)
			return &s->entries[i];
	}
	return NULL;
}

const struct fbac_stack_entry *fbac_stack_query(const struct fbac_stack *s,
						const struct fbac_query *q,
						struct fbac_verdict *v)
{
	const struct fbac_op_info *oi = fbac_op_info(q->op);
	const struct fbac_stack_entry *e;
	size_t len;
	int i;

	/* Remembered: the verdicts of absolute paths (not of abstract
	 * sockets, "@name", nor of addresses). */
	if (!s->vcache || !s->n || !oi || oi->kind != FBAC_KIND_PATH ||
	    !q->path || q->path[0] != '/')
		return query(s, q, v);
	len = strlen(q->path);
	if (fbac_vcache_get(s->vcache, q->op, q->path, len, &i, v))
		return i < 0 ? NULL : &s->entries[i];
	e = query(s, q, v);
	fbac_vcache_put(s->vcache, q->op, q->path, len,
			e ? (int)(e - s->entries) : -1, v);
	return e;
}

const struct fbac_stack_entry *
fbac_stack_check_path(const struct fbac_stack *s, enum fbac_op op,
		      const char *path, struct fbac_verdict *v)
{
	struct fbac_query q = { .op = op, .path = path };

	return fbac_stack_query(s, &q, v);
}

enum fbac_metadata fbac_stack_metadata(const struct fbac_stack *s,
				       const struct fbac_stack_entry **why)
{
	const struct fbac_stack_entry *visible = NULL;

	for (size_t i = 0; i < s->n; i++) {
		const struct fbac_resolved *res = s->entries[i].policy->res;

		if (res->metadata == FBAC_META_MEDIATED) {
			if (why)
				*why = &s->entries[i];
			return FBAC_META_MEDIATED;
		}
		if (res->metadata == FBAC_META_VISIBLE && !visible)
			visible = &s->entries[i];
	}
	if (why)
		*why = visible;
	return visible ? FBAC_META_VISIBLE : FBAC_META_MEDIATED;
}
