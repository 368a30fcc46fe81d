/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "suggest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fbac_suggest_fill_dir(const struct fbac_query *q, char *buf,
				  size_t size)
{
	const char *slash;

	if (!q->path || q->path[0] != '/')
		return NULL;
	/* Never a folder of another process: /proc/PID (the program's own
	 * are /proc/self by then). */
	if (!strncmp(q->path, "/proc/", 6) && q->path[6] >= '0' &&
	    q->path[6] <= '9')
		return NULL;
	slash = strrchr(q->path, '/');
	snprintf(buf, size, "%.*s", (int)(slash == q->path ? 1 : slash - q->path),
		 q->path);
	return buf;
}

const char *fbac_suggest_value(const struct fbac_query *q, enum fbac_ptype t,
			       const char *fill_dir, char *buf, size_t size)
{
	bool net = fbac_op_info(q->op)->kind == FBAC_KIND_NET;

	switch (t) {
	case FBAC_PT_PORTS:
		if (!net || !q->port)
			return NULL;
		snprintf(buf, size, "%u", q->port);
		return buf;
	case FBAC_PT_HOSTS:
		if (!net || !q->host)
			return NULL;
		snprintf(buf, size, "%s", q->host);
		return buf;
	case FBAC_PT_PATH:
	case FBAC_PT_PATHS:
		if (net || !fill_dir)
			return NULL;
		snprintf(buf, size, "%s", fill_dir);
		return buf;
	case FBAC_PT_STRING:
	case FBAC_PT_BOOL:
		break;
	}
	return NULL;
}

/* No argument, then a required path filled, then a parameter set. */
static int rank(const struct fbac_suggestion *s)
{
	return s->param ? 2 : s->fill ? 1 : 0;
}

static int cmp_suggestion(const void *x, const void *y)
{
	const struct fbac_suggestion *a = x, *b = y;

	if (rank(a) != rank(b))
		return rank(a) - rank(b);
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return strcmp(a->f->name, b->f->name);
}

/* Whether f alone (with fill for its required paths) allows q. */
static int grants(const struct fbac_library *lib, const struct fbac_env *env,
		  const struct fbac_functionality *f, const char *fill,
		  const struct fbac_define *def, const struct fbac_query *q,
		  size_t *size)
{
	struct fbac_include inc = { .name = f->name, .target = f };
	struct fbac_resolve_input ri = {
		.lib = lib, .env = env, .root_name = NULL, .grants = &inc,
		.n_grants = 1, .placeholders = fill != NULL, .fill_path = fill,
		.defines = def, .n_defines = def ? 1 : 0,
	};
	struct fbac_resolved *res = NULL;
	struct fbac_policy *pol = NULL;
	struct fbac_verdict v;
	int r;

	r = fbac_resolve(&ri, &res, NULL);
	/* Only its answer is wanted, once per functionality and denial. */
	if (r == 0)
		r = fbac_policy_compile_flags(&res, f->name,
					      FBAC_COMPILE_NO_GAPS, &pol, NULL);
	if (r == 0)
		r = fbac_policy_query(pol, q, &v);
	if (r == 0) {
		*size = pol->n_prules + pol->n_net + pol->n_abstract;
		r = v.allowed;
	}
	fbac_policy_free(pol);
	return r == -ENOMEM ? r : (r > 0);
}

/* Whether f needs an argument it has no default for. */
static bool needs_args(const struct fbac_functionality *f)
{
	for (size_t i = 0; i < f->n_params; i++)
		if (!f->params[i].def)
			return true;
	return false;
}

static bool needs_fill(const struct fbac_functionality *f)
{
	bool any = false;

	for (size_t i = 0; i < f->n_params; i++) {
		if (f->params[i].def)
			continue;
		if (f->params[i].type != FBAC_PT_PATH &&
		    f->params[i].type != FBAC_PT_PATHS)
			return false; /* cannot guess other required values */
		any = true;
	}
	return any;
}

/*
 * A parameterised grant: f, which needs no argument, with its first
 * parameter of a type that can carry q's port, host or folder set to
 * it. Return: 1 (in *out), 0, or -ENOMEM.
 */
static int grants_with_param(const struct fbac_library *lib,
			     const struct fbac_env *env,
			     const struct fbac_functionality *f,
			     const struct fbac_query *q, const char *fill_dir,
			     struct fbac_suggestion *out)
{
	for (size_t i = 0; i < f->n_params; i++) {
		const struct fbac_param *p = &f->params[i];
		struct fbac_define def = { .param = p->name };
		size_t n_rules = 0;
		int r;

		def.value = fbac_suggest_value(q, p->type, fill_dir, out->value,
					       sizeof(out->value));
		if (!def.value)
			continue;
		r = grants(lib, env, f, NULL, &def, q, &n_rules);
		if (r <= 0)
			return r;
		out->f = f;
		out->param = p->name;
		out->size = n_rules;
		return 1;
	}
	return 0;
}

int fbac_suggest(const struct fbac_library *lib, const struct fbac_env *env,
		 const struct fbac_query *q, const char *fill_dir,
		 struct fbac_suggestion *out, size_t max, size_t *ret_n)
{
	_cleanup_free_ struct fbac_suggestion *all = NULL;
	size_t n = 0;

	all = calloc(lib->n_funcs + 1, sizeof(*all));
	if (!all)
		return -ENOMEM;
	for (size_t i = 0; i < lib->n_funcs; i++) {
		const struct fbac_functionality *f = lib->funcs[i];
		const char *fill = NULL;
		size_t size = 0;
		int r;

		if (needs_fill(f)) {
			if (!fill_dir)
				continue;
			fill = fill_dir;
		}
		r = grants(lib, env, f, fill, NULL, q, &size);
		if (r < 0)
			return r;
		if (r) {
			all[n].f = f;
			all[n].fill = fill;
			all[n++].size = size;
			continue;
		}
		if (needs_args(f))
			continue;
		r = grants_with_param(lib, env, f, q, fill_dir, &all[n]);
		if (r < 0)
			return r;
		n += r;
	}
	if (n)
		qsort(all, n, sizeof(*all), cmp_suggestion);
	if (n > max)
		n = max;
	memcpy(out, all, n * sizeof(*all));
	*ret_n = n;
	return 0;
}

size_t fbac_suggest_drop_params(struct fbac_suggestion *sug, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!sug[i].param)
			sug[k++] = sug[i];
	return k;
}
