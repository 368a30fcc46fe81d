/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "suggest.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int fbac_policy_query(const struct fbac_policy *p, const struct fbac_query *q,
		      struct fbac_verdict *v)
{
	const struct fbac_op_info *oi = fbac_op_info(q->op);

	if (!oi)
		return -EINVAL;
	switch (oi->kind) {
	case FBAC_KIND_PATH:
		if (q->path && q->path[0] == '@')
			return fbac_policy_check_abstract(p, q->op, q->path, v);
		return fbac_policy_check_path(p, q->op, q->path, v);
	case FBAC_KIND_NET:
		return fbac_policy_check_net(p, q->op, q->proto, q->host,
					     q->port, v);
	case FBAC_KIND_SIGNAL:
		return fbac_policy_check_signal(p, v);
	}
	return -EINVAL;
}

const char *fbac_suggest_fill_dir(const struct fbac_query *q, char *buf,
				  size_t size)
{
	const char *slash;

	if (!q->path || q->path[0] != '/')
		return NULL;
	slash = strrchr(q->path, '/');
	snprintf(buf, size, "%.*s", (int)(slash == q->path ? 1 : slash - q->path),
		 q->path);
	return buf;
}

static int cmp_suggestion(const void *x, const void *y)
{
	const struct fbac_suggestion *a = x, *b = y;

	if (!a->fill != !b->fill)
		return a->fill ? 1 : -1;
	if (a->size != b->size)
		return a->size < b->size ? -1 : 1;
	return strcmp(a->f->name, b->f->name);
}

/* Whether f alone (with fill for its required paths) allows q. */
static int grants(const struct fbac_library *lib, const struct fbac_env *env,
		  const struct fbac_functionality *f, const char *fill,
		  const struct fbac_query *q, size_t *size)
{
	struct fbac_include inc = { .name = f->name, .target = f };
	struct fbac_resolve_input ri = {
		.lib = lib, .env = env, .root_name = NULL, .grants = &inc,
		.n_grants = 1, .placeholders = fill != NULL, .fill_path = fill,
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
		r = grants(lib, env, f, fill, q, &size);
		if (r < 0)
			return r;
		if (r)
			all[n++] = (struct fbac_suggestion){ f, fill, size };
	}
	if (n)
		qsort(all, n, sizeof(*all), cmp_suggestion);
	if (n > max)
		n = max;
	memcpy(out, all, n * sizeof(*all));
	*ret_n = n;
	return 0;
}
