/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Functionality documents: category, description, parameters, includes,
 * and the privileges and denied lists (which application policies use
 * too).
 */
#include "profile-int.h"

#include <errno.h>
#include <string.h>

#include "fbac-limits.h"
#include "path.h"

static const char *const categories[] = {
	"system",      "files",	       "network",  "desktop",	   "media",
	"development", "interpreters", "security", "applications",
};

static const char *const ptype_names[] = {
	[FBAC_PT_PATH] = "path",     [FBAC_PT_PATHS] = "paths",
	[FBAC_PT_PORTS] = "ports",   [FBAC_PT_HOSTS] = "hosts",
	[FBAC_PT_STRING] = "string", [FBAC_PT_BOOL] = "bool",
};

const char *fbac_ptype_name(enum fbac_ptype t)
{
	return ptype_names[t];
}

bool fbac_ptype_is_list(enum fbac_ptype t)
{
	return t == FBAC_PT_PATHS || t == FBAC_PT_PORTS || t == FBAC_PT_HOSTS;
}

/* parameters: {name: {type: T, default: V, ask: Q, description: D}} */
static int parse_params(struct loader *ld, const struct fbac_ynode *n,
			struct fbac_functionality *f)
{
	static const char *const keys[] = { "type", "default", "ask",
					    "description", NULL };
	int r;

	if ((r = ld_expect(ld, n, FBAC_Y_MAP, "'parameters'")) < 0)
		return r;
	if (n->n > FBAC_MAX_PARAMS)
		return fbac_diag_at(ld->diag, &n->mark, -E2BIG,
				    "more than %d parameters", FBAC_MAX_PARAMS);
	f->params = fbac_arena_array(ld->arena, n->n, sizeof(*f->params));
	if (!f->params && n->n)
		return -ENOMEM;
	for (size_t i = 0; i < n->n; i++) {
		const struct fbac_ynode *k = n->keys[i], *d = n->items[i],
					*t = NULL;
		struct fbac_param *p = &f->params[f->n_params];
		bool found = false;

		if (!ld_name_ok(k->value, false))
			return fbac_diag_at(
				ld->diag, &k->mark, -EINVAL,
				"invalid parameter name '%s' (expected lower_case letters, digits and '_')",
				k->value);
		if (streq(k->value, "metadata"))
			return fbac_diag_at(
				ld->diag, &k->mark, -EINVAL,
				"parameter name 'metadata' is reserved ('-D metadata=' sets the policy's metadata visibility)");
		if ((r = ld_expect(ld, d, FBAC_Y_MAP,
				   "a parameter definition")) < 0)
			return r;
		if ((r = ld_check_keys(ld, d, "a parameter definition", keys)) <
		    0)
			return r;
		if ((r = ld_required(ld, d, "type", "parameter definition",
				     &t)) < 0)
			return r;
		if ((r = ld_expect_text(ld, t, "'type'")) < 0)
			return r;
		for (size_t ti = 0; ti < ARRAY_SIZE(ptype_names) && !found; ti++)
			if (streq(t->value, ptype_names[ti])) {
				p->type = (enum fbac_ptype)ti;
				found = true;
			}
		if (!found)
			return fbac_diag_at(
				ld->diag, &t->mark, -EINVAL,
				"unknown parameter type '%s' (expected path, paths, ports, hosts, string or bool)",
				t->value);
		p->name = k->value;
		p->mark = k->mark;
		p->def = fbac_ymap_get(d, "default");
		if (p->def && p->def->kind == FBAC_Y_MAP)
			return fbac_diag_at(
				ld->diag, &p->def->mark, -EINVAL,
				"default of '%s' must be a scalar or a sequence",
				p->name);
		if (p->def && !fbac_ptype_is_list(p->type) &&
		    p->def->kind != FBAC_Y_SCALAR)
			return fbac_diag_at(
				ld->diag, &p->def->mark, -EINVAL,
				"default of %s parameter '%s' must be a scalar",
				ptype_names[p->type], p->name);
		if ((t = fbac_ymap_get(d, "ask"))) {
			if ((r = ld_expect_text(ld, t, "'ask'")) < 0)
				return r;
			p->ask = t->value;
		}
		if ((t = fbac_ymap_get(d, "description"))) {
			if ((r = ld_expect_text(ld, t, "'description'")) < 0)
				return r;
			p->description = t->value;
		}
		f->n_params++;
	}
	return 0;
}

static int parse_net(struct loader *ld, const struct fbac_ynode *v,
		     struct fbac_priv *p)
{
	static const char *const keys[] = { "protocol", "ports", "hosts", NULL };
	int r;

	if ((r = ld_expect(ld, v, FBAC_Y_MAP, "a network privilege")) < 0)
		return r;
	if ((r = ld_check_keys(ld, v, "a network privilege", keys)) < 0)
		return r;
	if ((r = ld_required(ld, v, "protocol", "a network privilege",
			     &p->protocol)) < 0)
		return r;
	if ((r = ld_expect_text(ld, p->protocol, "'protocol'")) < 0)
		return r;
	if ((r = ld_required(ld, v, "ports", "a network privilege", &p->ports)) <
	    0)
		return r;
	if (p->ports->kind == FBAC_Y_MAP)
		return fbac_diag_at(ld->diag, &p->ports->mark, -EINVAL,
				    "'ports' must be a scalar or a sequence");
	p->hosts = fbac_ymap_get(v, "hosts");
	if (p->hosts && p->hosts->kind == FBAC_Y_MAP)
		return fbac_diag_at(ld->diag, &p->hosts->mark, -EINVAL,
				    "'hosts' must be a scalar or a sequence");
	return 0;
}

static int parse_priv(struct loader *ld, const struct fbac_ynode *it, bool deny,
		      struct fbac_priv *p)
{
	static const char *const long_keys[] = { "access", "paths", NULL };
	const struct fbac_ynode *acc = NULL, *paths = NULL, **names = NULL;
	size_t n_names = 0;
	enum fbac_op op;
	int r;

	p->deny = deny;
	p->mark = it->mark;
	if (it->kind != FBAC_Y_MAP)
		return fbac_diag_at(
			ld->diag, &it->mark, -EINVAL,
			"a privilege must be a mapping such as 'file_read: /path'");
	if (fbac_ymap_get(it, "access") || fbac_ymap_get(it, "paths")) {
		if ((r = ld_check_keys(ld, it, "a privilege", long_keys)) < 0)
			return r;
		if ((r = ld_required(ld, it, "access", "a privilege", &acc)) < 0)
			return r;
		if ((r = ld_required(ld, it, "paths", "a privilege", &paths)) < 0)
			return r;
		if ((r = ld_scalar_list(ld, acc, "'access'", &names, &n_names)) <
		    0)
			return r;
		p->kind = FBAC_PRIV_PATH;
		for (size_t i = 0; i < n_names; i++) {
			if ((r = ld_op_name(ld, names[i], &op)) < 0) {
				if ((r = ld_soft(ld, r)) < 0)
					return r;
				continue; /* left out, reported */
			}
			if (fbac_op_info(op)->kind != FBAC_KIND_PATH)
				return fbac_diag_at(
					ld->diag, &names[i]->mark, -EINVAL,
					"'%s' does not take paths; write it as its own entry",
					names[i]->value);
			p->ops |= FBAC_OP_BIT(op);
		}
		return ld_scalar_list(ld, paths, "'paths'", &p->values,
				      &p->n_values);
	}
	if (it->n != 1)
		return fbac_diag_at(
			ld->diag, &it->mark, -EINVAL,
			"a privilege must have exactly one operation (or use 'access' and 'paths')");
	if ((r = ld_op_name(ld, it->keys[0], &op)) < 0)
		return (r = ld_soft(ld, r)) < 0 ? r : 1; /* 1: left out */
	p->ops = FBAC_OP_BIT(op);
	p->mark = it->keys[0]->mark;
	switch (fbac_op_info(op)->kind) {
	case FBAC_KIND_PATH:
		p->kind = FBAC_PRIV_PATH;
		return ld_scalar_list(ld, it->items[0], "the paths", &p->values,
				      &p->n_values);
	case FBAC_KIND_NET:
		p->kind = FBAC_PRIV_NET;
		return parse_net(ld, it->items[0], p);
	case FBAC_KIND_SIGNAL:
		p->kind = FBAC_PRIV_SIGNAL;
		if ((r = ld_expect_text(ld, it->items[0], "'ipc_signal'")) < 0)
			return r;
		if (!streq(it->items[0]->value, "any"))
			return fbac_diag_at(
				ld->diag, &it->items[0]->mark, -EINVAL,
				"'ipc_signal' takes the value 'any', not '%s'",
				it->items[0]->value);
		if (deny)
			return fbac_diag_at(
				ld->diag, &it->keys[0]->mark, -EINVAL,
				"'ipc_signal' cannot be denied: it is not granted unless named");
		return 0;
	}
	return -EINVAL;
}

/* Append the entries of a privileges/denied list to *privs. */
int ld_parse_privs(struct loader *ld, const struct fbac_ynode *n, bool deny,
		   struct fbac_priv **privs, size_t *n_privs)
{
	struct fbac_priv *v;
	int r;

	if ((r = ld_expect(ld, n, FBAC_Y_SEQ,
			   deny ? "'denied'" : "'privileges'")) < 0)
		return r;
	if (n->n > FBAC_MAX_LIST)
		return fbac_diag_at(ld->diag, &n->mark, -E2BIG,
				    "more than %d privileges", FBAC_MAX_LIST);
	v = fbac_arena_array(ld->arena, *n_privs + n->n, sizeof(*v));
	if (!v && *n_privs + n->n)
		return -ENOMEM;
	if (*n_privs)
		memcpy(v, *privs, *n_privs * sizeof(*v));
	for (size_t i = 0, k = *n_privs; i < n->n; i++) {
		memset(&v[k], 0, sizeof(v[k]));
		if ((r = parse_priv(ld, n->items[i], deny, &v[k])) < 0)
			return r;
		if (r == 0)
			k++;
		if (i + 1 == n->n)
			*n_privs = k;
	}
	*privs = v;
	return 0;
}

static int func_category(struct loader *ld, const struct fbac_ynode *doc,
			 struct fbac_functionality *f)
{
	const struct fbac_ynode *v = NULL;
	int r;

	if ((r = ld_required(ld, doc, "category", "a functionality", &v)) < 0)
		return r;
	if ((r = ld_expect_text(ld, v, "'category'")) < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(categories) && !f->category; i++)
		if (streq(v->value, categories[i]))
			f->category = categories[i];
	if (!f->category)
		return fbac_diag_at(
			ld->diag, &v->mark, -EINVAL,
			"unknown category '%s' (expected system, files, network, desktop, media, development, interpreters, security or applications)",
			v->value);
	return 0;
}

static int func_description(struct loader *ld, const struct fbac_ynode *doc,
			    struct fbac_functionality *f)
{
	const struct fbac_ynode *v = NULL;
	int r;

	if ((r = ld_required(ld, doc, "description", "a functionality", &v)) < 0)
		return r;
	if ((r = ld_expect_text(ld, v, "'description'")) < 0)
		return r;
	if (strchr(v->value, '\n'))
		return fbac_diag_at(ld->diag, &v->mark, -EINVAL,
				    "'description' must be one line");
	f->description = v->value;
	return 0;
}

int ld_parse_functionality(struct loader *ld, const struct fbac_ynode *doc)
{
	static const char *const keys[] = {
		"fbac",	      "functionality", "category", "description",
		"high_level", "parameters",    "includes", "privileges",
		"denied",     "metadata",      NULL
	};
	struct fbac_functionality *f;
	const struct fbac_ynode *v = NULL;
	int r;

	if ((r = ld_check_keys(ld, doc, "a functionality", keys)) < 0)
		return r;
	f = fbac_arena_alloc(ld->arena, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->layer = ld->layer;
	v = fbac_ymap_get(doc, "functionality");
	if ((r = ld_functionality_name(ld, v, "'functionality'")) < 0)
		return r;
	f->name = v->value;
	f->mark = v->mark;

	/* Both only describe: a problem with either leaves the rest to
	 * check (with a list). */
	if ((r = func_category(ld, doc, f)) < 0 && (r = ld_soft(ld, r)) < 0)
		return r;
	if (!f->category)
		f->category = categories[0]; /* reported */
	if ((r = func_description(ld, doc, f)) < 0 && (r = ld_soft(ld, r)) < 0)
		return r;
	if (!f->description)
		f->description = ""; /* reported */

	if ((v = fbac_ymap_get(doc, "high_level")) &&
	    (r = ld_parse_bool(ld, v, "'high_level'", &f->high_level)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "metadata")) &&
	    (r = ld_parse_metadata(ld, v, &f->metadata, &f->metadata_mark)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "parameters")) &&
	    (r = parse_params(ld, v, f)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "includes")) &&
	    (r = ld_parse_includes(ld, v, "'includes'", &f->includes,
				   &f->n_includes)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "privileges")) &&
	    (r = ld_parse_privs(ld, v, false, &f->privs, &f->n_privs)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "denied")) &&
	    (r = ld_parse_privs(ld, v, true, &f->privs, &f->n_privs)) < 0)
		return r;

	r = fbac_arena_grow(ld->arena, (void **)&ld->p.funcs, &ld->p.cap_funcs,
			    ld->p.n_funcs + 1, sizeof(f));
	if (r < 0)
		return r;
	ld->p.funcs[ld->p.n_funcs++] = f;
	return 0;
}
