/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loader: YAML tree -> functionalities, applications and protected paths.
 * Every rejection points at the offending node.
 */
#include "profile.h"

#include <errno.h>
#include <limits.h>
#include <string.h>

#include "fbac-limits.h"
#include "path.h"
#include "spell.h"

static const char *const categories[] = {
	"system",	"files",	"network",  "desktop",	    "media",
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

/* What one text adds, committed to the library only when all of it parsed. */
struct pending {
	struct fbac_functionality **funcs;
	size_t n_funcs, cap_funcs;
	struct fbac_application **apps;
	size_t n_apps, cap_apps;
	struct fbac_protected *prot;
	size_t n_prot, cap_prot;
	bool metadata_banned;
	struct fbac_mark metadata_ban_mark;
	struct fbac_settings **sets;
	size_t n_sets, cap_sets;
};

struct loader {
	struct fbac_library *lib;
	struct fbac_arena *arena;
	struct fbac_diag *diag;
	struct pending p;
	unsigned layer;
	/* With a list, a problem after which the document still makes sense
	 * is kept there and parsing goes on (see soft()). */
	struct fbac_diags *all;
	unsigned n_soft;
};

/*
 * A problem after which the rest can still be checked (an unknown key, an
 * unknown privilege: left out). With a list, keep it, clear the diagnostic
 * and go on (return 0); otherwise stop there (return r).
 */
static int soft(struct loader *ld, int r)
{
	if (!ld->all || r == -ENOMEM)
		return r;
	if ((r = fbac_diags_add(ld->all, ld->diag)) < 0)
		return r;
	fbac_diag_clear(ld->diag);
	ld->n_soft++;
	return 0;
}

static int expect(struct loader *ld, const struct fbac_ynode *n,
		  enum fbac_ynode_kind kind, const char *what)
{
	if (n->kind != kind)
		return fbac_diag_at(ld->diag, &n->mark, -EINVAL,
				    "%s must be %s, not %s", what,
				    fbac_ynode_kind_name(kind),
				    fbac_ynode_kind_name(n->kind));
	return 0;
}

/* A non-empty scalar (an empty plain scalar is YAML's null). */
static int expect_text(struct loader *ld, const struct fbac_ynode *n,
		       const char *what)
{
	int r = expect(ld, n, FBAC_Y_SCALAR, what);

	if (r < 0)
		return r;
	if (n->len == 0)
		return fbac_diag_at(ld->diag, &n->mark, -EINVAL,
				    "%s must not be empty", what);
	return 0;
}

static bool name_ok(const char *s, bool upper_first)
{
	size_t n = strlen(s);

	if (n == 0 || n > FBAC_MAX_NAME)
		return false;
	if (upper_first ? !(s[0] >= 'A' && s[0] <= 'Z') :
			  !(s[0] >= 'a' && s[0] <= 'z'))
		return false;
	for (size_t i = 1; i < n; i++) {
		char c = s[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			  c == '_' || (upper_first && c >= 'A' && c <= 'Z');
		if (!ok)
			return false;
	}
	return true;
}

static bool app_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > FBAC_MAX_NAME)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
			  (i > 0 && strchr("._+-", c));
		if (!ok)
			return false;
	}
	return true;
}

static int functionality_name(struct loader *ld, const struct fbac_ynode *n,
			      const char *what)
{
	int r = expect_text(ld, n, what);

	if (r < 0)
		return r;
	if (!name_ok(n->value, true))
		return fbac_diag_at(
			ld->diag, &n->mark, -EINVAL,
			"invalid functionality name '%s' (expected Capitalised_Words of letters, digits and '_', at most %d bytes)",
			n->value, FBAC_MAX_NAME);
	return 0;
}

static int parse_bool(struct loader *ld, const struct fbac_ynode *n,
		      const char *what, bool *ret)
{
	int r = expect(ld, n, FBAC_Y_SCALAR, what);

	if (r < 0)
		return r;
	if (n->plain && streq(n->value, "true"))
		*ret = true;
	else if (n->plain && streq(n->value, "false"))
		*ret = false;
	else
		return fbac_diag_at(ld->diag, &n->mark, -EINVAL,
				    "%s must be true or false, not '%s'", what,
				    n->value);
	return 0;
}

const char *fbac_metadata_name(enum fbac_metadata m)
{
	return m == FBAC_META_VISIBLE ? "visible" : "mediated";
}

/* 'metadata: visible' or 'metadata: mediated'. */
static int parse_metadata(struct loader *ld, const struct fbac_ynode *n,
			  enum fbac_metadata *ret, struct fbac_mark *mark)
{
	int r = expect(ld, n, FBAC_Y_SCALAR, "'metadata'");

	if (r < 0)
		return r;
	if (n->plain && streq(n->value, "visible"))
		*ret = FBAC_META_VISIBLE;
	else if (n->plain && streq(n->value, "mediated"))
		*ret = FBAC_META_MEDIATED;
	else
		return fbac_diag_at(ld->diag, &n->mark, -EINVAL,
				    "'metadata' must be visible or mediated, not '%s'",
				    n->value);
	*mark = n->mark;
	return 0;
}

/* Report a key outside the allowed set, listing what is allowed. */
static int unknown_key(struct loader *ld, const struct fbac_ynode *key,
		       const char *where, const char *const *allowed)
{
	const char *close = fbac_spell_closest(key->value, allowed);
	char list[256] = "";
	size_t o = 0;

	if (close)
		return fbac_diag_at(ld->diag, &key->mark, -EINVAL,
				    "unknown key '%s' in %s (did you mean '%s'?)",
				    key->value, where, close);
	for (size_t i = 0; allowed[i]; i++) {
		int w = snprintf(list + o, sizeof(list) - o, "%s%s",
				 i ? ", " : "", allowed[i]);
		if (w < 0 || (size_t)w >= sizeof(list) - o)
			break;
		o += (size_t)w;
	}
	return fbac_diag_at(ld->diag, &key->mark, -EINVAL,
			    "unknown key '%s' in %s (expected %s)", key->value,
			    where, list);
}

static int check_keys(struct loader *ld, const struct fbac_ynode *map,
		      const char *where, const char *const *allowed)
{
	for (size_t i = 0; i < map->n; i++) {
		bool found = false;

		for (size_t k = 0; allowed[k] && !found; k++)
			found = streq(map->keys[i]->value, allowed[k]);
		if (!found) {
			int r = soft(ld, unknown_key(ld, map->keys[i], where,
						     allowed));
			if (r < 0)
				return r;
		}
	}
	return 0;
}

static const struct fbac_ynode *key_node(const struct fbac_ynode *map,
					 const char *key)
{
	for (size_t i = 0; i < map->n; i++)
		if (streq(map->keys[i]->value, key))
			return map->keys[i];
	return NULL;
}

static int required(struct loader *ld, const struct fbac_ynode *map,
		    const char *key, const char *where,
		    const struct fbac_ynode **ret)
{
	const struct fbac_ynode *v = fbac_ymap_get(map, key);

	if (!v)
		return fbac_diag_at(ld->diag, &map->mark, -EINVAL,
				    "%s lacks the required key '%s'", where,
				    key);
	*ret = v;
	return 0;
}

/* A scalar or a sequence of scalars, as an array of nodes. */
static int scalar_list(struct loader *ld, const struct fbac_ynode *n,
		       const char *what, const struct fbac_ynode ***ret,
		       size_t *ret_n)
{
	const struct fbac_ynode **v;
	int r;

	if (n->kind == FBAC_Y_SCALAR) {
		if ((r = expect_text(ld, n, what)) < 0)
			return r;
		v = fbac_arena_alloc(ld->arena, sizeof(*v));
		if (!v)
			return -ENOMEM;
		v[0] = n;
		*ret = v;
		*ret_n = 1;
		return 0;
	}
	if ((r = expect(ld, n, FBAC_Y_SEQ, what)) < 0)
		return r;
	if (n->n == 0)
		return fbac_diag_at(ld->diag, &n->mark, -EINVAL,
				    "%s must not be an empty list", what);
	if (n->n > FBAC_MAX_LIST)
		return fbac_diag_at(ld->diag, &n->mark, -E2BIG,
				    "%s has more than %d items", what,
				    FBAC_MAX_LIST);
	v = fbac_arena_array(ld->arena, n->n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n->n; i++) {
		if ((r = expect_text(ld, n->items[i], what)) < 0)
			return r;
		v[i] = n->items[i];
	}
	*ret = v;
	*ret_n = n->n;
	return 0;
}

/* parameters: {name: {type: T, default: V, ask: Q, description: D}} */
static int parse_params(struct loader *ld, const struct fbac_ynode *n,
			struct fbac_functionality *f)
{
	static const char *const keys[] = { "type", "default", "ask",
					    "description", NULL };
	int r;

	if ((r = expect(ld, n, FBAC_Y_MAP, "'parameters'")) < 0)
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

		if (!name_ok(k->value, false))
			return fbac_diag_at(
				ld->diag, &k->mark, -EINVAL,
				"invalid parameter name '%s' (expected lower_case letters, digits and '_')",
				k->value);
		if (streq(k->value, "metadata"))
			return fbac_diag_at(
				ld->diag, &k->mark, -EINVAL,
				"parameter name 'metadata' is reserved ('-D metadata=' sets the policy's metadata visibility)");
		if ((r = expect(ld, d, FBAC_Y_MAP, "a parameter definition")) <
		    0)
			return r;
		if ((r = check_keys(ld, d, "a parameter definition", keys)) < 0)
			return r;
		if ((r = required(ld, d, "type", "parameter definition", &t)) <
		    0)
			return r;
		if ((r = expect_text(ld, t, "'type'")) < 0)
			return r;
		for (size_t ti = 0; ti < ARRAY_SIZE(ptype_names) && !found;
		     ti++)
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
			return fbac_diag_at(ld->diag, &p->def->mark, -EINVAL,
					    "default of '%s' must be a scalar or a sequence",
					    p->name);
		if (p->def && !fbac_ptype_is_list(p->type) &&
		    p->def->kind != FBAC_Y_SCALAR)
			return fbac_diag_at(ld->diag, &p->def->mark, -EINVAL,
					    "default of %s parameter '%s' must be a scalar",
					    ptype_names[p->type], p->name);
		if ((t = fbac_ymap_get(d, "ask"))) {
			if ((r = expect_text(ld, t, "'ask'")) < 0)
				return r;
			p->ask = t->value;
		}
		if ((t = fbac_ymap_get(d, "description"))) {
			if ((r = expect_text(ld, t, "'description'")) < 0)
				return r;
			p->description = t->value;
		}
		f->n_params++;
	}
	return 0;
}

/* includes / functionalities: [Name, Name: {arg: value}] */
/* An include's name: a misspelt one is left out (return 1) with a "did
 * you mean" when a functionality loaded so far is close. */
static int include_name(struct loader *ld, const struct fbac_ynode *n)
{
	const char *close;
	int r = expect_text(ld, n, "an include");

	if (r < 0 || name_ok(n->value, true))
		return r;
	close = fbac_library_closest(ld->lib, n->value);
	if (close)
		r = fbac_diag_at(ld->diag, &n->mark, -EINVAL,
				 "invalid functionality name '%s' (did you mean '%s'?)",
				 n->value, close);
	else
		r = functionality_name(ld, n, "an include");
	r = soft(ld, r);
	return r < 0 ? r : 1;
}

static int parse_includes(struct loader *ld, const struct fbac_ynode *n,
			  const char *what, struct fbac_include **ret,
			  size_t *ret_n)
{
	struct fbac_include *v;
	size_t k = 0;
	int r;

	if ((r = expect(ld, n, FBAC_Y_SEQ, what)) < 0)
		return r;
	if (n->n > FBAC_MAX_LIST)
		return fbac_diag_at(ld->diag, &n->mark, -E2BIG,
				    "%s has more than %d items", what,
				    FBAC_MAX_LIST);
	v = fbac_arena_array(ld->arena, n->n, sizeof(*v));
	if (!v && n->n)
		return -ENOMEM;
	for (size_t i = 0; i < n->n; i++) {
		const struct fbac_ynode *it = n->items[i], *args;

		memset(&v[i], 0, sizeof(v[i]));
		if (it->kind == FBAC_Y_SCALAR) {
			if ((r = include_name(ld, it)) != 0) {
				if (r < 0)
					return r;
				continue; /* left out, reported */
			}
			v[i].name = it->value;
			v[i].mark = it->mark;
			continue;
		}
		if (it->kind != FBAC_Y_MAP || it->n != 1)
			return fbac_diag_at(
				ld->diag, &it->mark, -EINVAL,
				"an item of %s must be a name or 'Name: {arguments}'",
				what);
		if ((r = include_name(ld, it->keys[0])) != 0) {
			if (r < 0)
				return r;
			continue;
		}
		v[i].name = it->keys[0]->value;
		v[i].mark = it->keys[0]->mark;
		args = it->items[0];
		if (args->kind == FBAC_Y_SCALAR && args->plain && args->len == 0)
			continue; /* "Name:" with nothing after it */
		if ((r = expect(ld, args, FBAC_Y_MAP, "the arguments")) < 0)
			return r;
		v[i].arg_names = fbac_arena_array(ld->arena, args->n,
						  sizeof(char *));
		v[i].arg_values = fbac_arena_array(ld->arena, args->n,
						   sizeof(void *));
		v[i].arg_marks = fbac_arena_array(ld->arena, args->n,
						  sizeof(struct fbac_mark));
		if (args->n && (!v[i].arg_names || !v[i].arg_values ||
				!v[i].arg_marks))
			return -ENOMEM;
		for (size_t a = 0; a < args->n; a++) {
			const struct fbac_ynode *val = args->items[a];

			if (val->kind == FBAC_Y_MAP)
				return fbac_diag_at(
					ld->diag, &val->mark, -EINVAL,
					"argument '%s' must be a scalar or a sequence",
					args->keys[a]->value);
			v[i].arg_names[a] = args->keys[a]->value;
			v[i].arg_marks[a] = args->keys[a]->mark;
			v[i].arg_values[a] = val;
		}
		v[i].n_args = args->n;
	}
	/* Close the gaps of the names left out. */
	for (size_t i = 0; i < n->n; i++)
		if (v[i].name)
			v[k++] = v[i];
	*ret = v;
	*ret_n = k;
	return 0;
}

static int op_name(struct loader *ld, const struct fbac_ynode *n,
		   enum fbac_op *ret)
{
	int r = expect_text(ld, n, "an operation");

	if (r < 0)
		return r;
	if (fbac_op_from_name(n->value, ret) < 0) {
		const char *close = NULL;
		unsigned best = UINT_MAX;

		for (unsigned i = 0; i < FBAC_OP_COUNT; i++)
			if (fbac_spell_better(n->value,
					      fbac_op_info((enum fbac_op)i)->name,
					      &best))
				close = fbac_op_info((enum fbac_op)i)->name;
		if (close)
			return fbac_diag_at(ld->diag, &n->mark, -EINVAL,
					    "unknown privilege '%s' (did you mean '%s'?)",
					    n->value, close);
		return fbac_diag_at(
			ld->diag, &n->mark, -EINVAL,
			"unknown privilege '%s' (see fbac-profile(5) for the vocabulary)",
			n->value);
	}
	return 0;
}

static int parse_net(struct loader *ld, const struct fbac_ynode *v,
		     struct fbac_priv *p)
{
	static const char *const keys[] = { "protocol", "ports", "hosts",
					    NULL };
	int r;

	if ((r = expect(ld, v, FBAC_Y_MAP, "a network privilege")) < 0)
		return r;
	if ((r = check_keys(ld, v, "a network privilege", keys)) < 0)
		return r;
	if ((r = required(ld, v, "protocol", "a network privilege",
			  &p->protocol)) < 0)
		return r;
	if ((r = expect_text(ld, p->protocol, "'protocol'")) < 0)
		return r;
	if ((r = required(ld, v, "ports", "a network privilege", &p->ports)) <
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

static int parse_priv(struct loader *ld, const struct fbac_ynode *it,
		      bool deny, struct fbac_priv *p)
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
		if ((r = check_keys(ld, it, "a privilege", long_keys)) < 0)
			return r;
		if ((r = required(ld, it, "access", "a privilege", &acc)) < 0)
			return r;
		if ((r = required(ld, it, "paths", "a privilege", &paths)) < 0)
			return r;
		if ((r = scalar_list(ld, acc, "'access'", &names, &n_names)) <
		    0)
			return r;
		p->kind = FBAC_PRIV_PATH;
		for (size_t i = 0; i < n_names; i++) {
			if ((r = op_name(ld, names[i], &op)) < 0) {
				if ((r = soft(ld, r)) < 0)
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
		return scalar_list(ld, paths, "'paths'", &p->values,
				   &p->n_values);
	}
	if (it->n != 1)
		return fbac_diag_at(
			ld->diag, &it->mark, -EINVAL,
			"a privilege must have exactly one operation (or use 'access' and 'paths')");
	if ((r = op_name(ld, it->keys[0], &op)) < 0)
		return (r = soft(ld, r)) < 0 ? r : 1; /* 1: left out */
	p->ops = FBAC_OP_BIT(op);
	p->mark = it->keys[0]->mark;
	switch (fbac_op_info(op)->kind) {
	case FBAC_KIND_PATH:
		p->kind = FBAC_PRIV_PATH;
		return scalar_list(ld, it->items[0], "the paths", &p->values,
				   &p->n_values);
	case FBAC_KIND_NET:
		p->kind = FBAC_PRIV_NET;
		return parse_net(ld, it->items[0], p);
	case FBAC_KIND_SIGNAL:
		p->kind = FBAC_PRIV_SIGNAL;
		if ((r = expect_text(ld, it->items[0], "'ipc_signal'")) < 0)
			return r;
		if (!streq(it->items[0]->value, "any"))
			return fbac_diag_at(ld->diag, &it->items[0]->mark,
					    -EINVAL,
					    "'ipc_signal' takes the value 'any', not '%s'",
					    it->items[0]->value);
		if (deny)
			return fbac_diag_at(ld->diag, &it->keys[0]->mark,
					    -EINVAL,
					    "'ipc_signal' cannot be denied: it is not granted unless named");
		return 0;
	}
	return -EINVAL;
}

/* Append the entries of a privileges/denied list to *privs. */
static int parse_privs(struct loader *ld, const struct fbac_ynode *n,
		       bool deny, struct fbac_priv **privs, size_t *n_privs)
{
	struct fbac_priv *v;
	int r;

	if ((r = expect(ld, n, FBAC_Y_SEQ, deny ? "'denied'" : "'privileges'")) <
	    0)
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

	if ((r = required(ld, doc, "category", "a functionality", &v)) < 0)
		return r;
	if ((r = expect_text(ld, v, "'category'")) < 0)
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

	if ((r = required(ld, doc, "description", "a functionality", &v)) < 0)
		return r;
	if ((r = expect_text(ld, v, "'description'")) < 0)
		return r;
	if (strchr(v->value, '\n'))
		return fbac_diag_at(ld->diag, &v->mark, -EINVAL,
				    "'description' must be one line");
	f->description = v->value;
	return 0;
}

static int parse_functionality(struct loader *ld, const struct fbac_ynode *doc)
{
	static const char *const keys[] = {
		"fbac",	    "functionality", "category", "description",
		"high_level", "parameters",   "includes", "privileges",
		"denied",	    "metadata",	     NULL
	};
	struct fbac_functionality *f;
	const struct fbac_ynode *v = NULL;
	int r;

	if ((r = check_keys(ld, doc, "a functionality", keys)) < 0)
		return r;
	f = fbac_arena_alloc(ld->arena, sizeof(*f));
	if (!f)
		return -ENOMEM;
	f->layer = ld->layer;
	v = fbac_ymap_get(doc, "functionality");
	if ((r = functionality_name(ld, v, "'functionality'")) < 0)
		return r;
	f->name = v->value;
	f->mark = v->mark;

	/* Both only describe: a problem with either leaves the rest to
	 * check (with a list). */
	if ((r = func_category(ld, doc, f)) < 0 && (r = soft(ld, r)) < 0)
		return r;
	if (!f->category)
		f->category = categories[0]; /* reported */
	if ((r = func_description(ld, doc, f)) < 0 && (r = soft(ld, r)) < 0)
		return r;
	if (!f->description)
		f->description = ""; /* reported */

	if ((v = fbac_ymap_get(doc, "high_level")) &&
	    (r = parse_bool(ld, v, "'high_level'", &f->high_level)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "metadata")) &&
	    (r = parse_metadata(ld, v, &f->metadata, &f->metadata_mark)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "parameters")) &&
	    (r = parse_params(ld, v, f)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "includes")) &&
	    (r = parse_includes(ld, v, "'includes'", &f->includes,
				&f->n_includes)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "privileges")) &&
	    (r = parse_privs(ld, v, false, &f->privs, &f->n_privs)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "denied")) &&
	    (r = parse_privs(ld, v, true, &f->privs, &f->n_privs)) < 0)
		return r;

	r = fbac_arena_grow(ld->arena, (void **)&ld->p.funcs, &ld->p.cap_funcs,
			    ld->p.n_funcs + 1, sizeof(f));
	if (r < 0)
		return r;
	ld->p.funcs[ld->p.n_funcs++] = f;
	return 0;
}

static int parse_application(struct loader *ld, const struct fbac_ynode *doc)
{
	static const char *const keys[] = { "fbac", "application", "description",
					    "executables", "functionalities",
					    "privileges", "denied", "metadata",
					    "sandbox_fallback", NULL };
	struct fbac_application *a;
	const struct fbac_ynode *v = NULL, **exes = NULL;
	int r;

	if ((r = check_keys(ld, doc, "an application", keys)) < 0)
		return r;
	a = fbac_arena_alloc(ld->arena, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->layer = ld->layer;
	v = fbac_ymap_get(doc, "application");
	if ((r = expect_text(ld, v, "'application'")) < 0)
		return r;
	if (!app_name_ok(v->value))
		return fbac_diag_at(
			ld->diag, &v->mark, -EINVAL,
			"invalid application name '%s' (expected lower case letters, digits and '._+-')",
			v->value);
	a->name = v->value;
	a->mark = v->mark;
	if ((v = fbac_ymap_get(doc, "description"))) {
		if ((r = expect_text(ld, v, "'description'")) < 0)
			return r;
		a->description = v->value;
	}
	if (((v = fbac_ymap_get(doc, "metadata")) &&
	     (r = parse_metadata(ld, v, &a->metadata, &a->metadata_mark)) < 0) ||
	    (r = fbac_app_sandbox_fallback(doc, ld->arena, ld->diag, a)) < 0)
		return r;
	if ((r = required(ld, doc, "executables", "an application", &v)) < 0)
		return r;
	if ((r = scalar_list(ld, v, "'executables'", &exes,
			     &a->n_executables)) < 0)
		return r;
	a->exe_marks = fbac_arena_array(ld->arena, a->n_executables,
					sizeof(*a->exe_marks));
	if (!a->exe_marks)
		return -ENOMEM;
	if (a->n_executables > FBAC_MAX_EXECUTABLES)
		return fbac_diag_at(ld->diag, &v->mark, -E2BIG,
				    "more than %d executables",
				    FBAC_MAX_EXECUTABLES);
	a->executables = fbac_arena_array(ld->arena, a->n_executables,
					  sizeof(char *));
	if (!a->executables)
		return -ENOMEM;
	for (size_t i = 0; i < a->n_executables; i++) {
		char norm[FBAC_MAX_PATH];
		const char *why;

		if (fbac_path_normalize(exes[i]->value, norm, sizeof(norm),
					&why) < 0)
			return fbac_diag_at(ld->diag, &exes[i]->mark, -EINVAL,
					    "executable '%s': %s",
					    exes[i]->value, why);
		if (strpbrk(norm, "*?$"))
			return fbac_diag_at(
				ld->diag, &exes[i]->mark, -EINVAL,
				"executable '%s': wildcards and variables are not allowed here",
				exes[i]->value);
		a->executables[i] = fbac_arena_strdup(ld->arena, norm);
		if (!a->executables[i])
			return -ENOMEM;
		a->exe_marks[i] = exes[i]->mark;
	}
	if ((r = required(ld, doc, "functionalities", "an application", &v)) <
	    0)
		return r;
	if ((r = parse_includes(ld, v, "'functionalities'", &a->grants,
				&a->n_grants)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "privileges")) &&
	    (r = parse_privs(ld, v, false, &a->privs, &a->n_privs)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "denied")) &&
	    (r = parse_privs(ld, v, true, &a->privs, &a->n_privs)) < 0)
		return r;

	r = fbac_arena_grow(ld->arena, (void **)&ld->p.apps, &ld->p.cap_apps,
			    ld->p.n_apps + 1, sizeof(a));
	if (r < 0)
		return r;
	ld->p.apps[ld->p.n_apps++] = a;
	return 0;
}

/* 'settings: PROGRAM': values saved with fbac set for that program. */
static int parse_program_settings(struct loader *ld,
				  const struct fbac_ynode *doc)
{
	static const char *const keys[] = { "fbac", "settings",
					    "functionalities", NULL };
	struct fbac_settings *s;
	const struct fbac_ynode *v;
	int r;

	if ((r = check_keys(ld, doc, "settings", keys)) < 0)
		return r;
	s = fbac_arena_alloc(ld->arena, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->layer = ld->layer;
	v = fbac_ymap_get(doc, "settings");
	if ((r = expect_text(ld, v, "'settings'")) < 0)
		return r;
	if (!app_name_ok(v->value))
		return fbac_diag_at(
			ld->diag, &v->mark, -EINVAL,
			"invalid program name '%s' (expected lower case letters, digits and '._+-')",
			v->value);
	s->program = v->value;
	s->mark = v->mark;
	if ((r = required(ld, doc, "functionalities", "settings", &v)) < 0)
		return r;
	if ((r = parse_includes(ld, v, "'functionalities'", &s->values,
				&s->n_values)) < 0)
		return r;
	r = fbac_arena_grow(ld->arena, (void **)&ld->p.sets, &ld->p.cap_sets,
			    ld->p.n_sets + 1, sizeof(s));
	if (r < 0)
		return r;
	ld->p.sets[ld->p.n_sets++] = s;
	return 0;
}

static int parse_protected(struct loader *ld, const struct fbac_ynode *doc)
{
	static const char *const keys[] = { "fbac", "protected", NULL };
	static const char *const item_keys[] = { "path", "reason", "allow",
						 NULL };
	const struct fbac_ynode *list = fbac_ymap_get(doc, "protected");
	int r;

	if ((r = check_keys(ld, doc, "a protected-paths document", keys)) < 0)
		return r;
	if ((r = expect(ld, list, FBAC_Y_SEQ, "'protected'")) < 0)
		return r;
	for (size_t i = 0; i < list->n; i++) {
		const struct fbac_ynode *it = list->items[i], *path = NULL,
				       *reason = NULL, *v;
		struct fbac_protected *p;

		if ((r = expect(ld, it, FBAC_Y_MAP, "a protected path")) < 0)
			return r;
		if ((r = check_keys(ld, it, "a protected path", item_keys)) < 0)
			return r;
		if ((r = required(ld, it, "path", "a protected path", &path)) <
		    0)
			return r;
		if ((r = expect_text(ld, path, "'path'")) < 0)
			return r;
		/* Variables are checked when resolved; the rest now. */
		if (path->value[0] != '~' && !strchr(path->value, '$')) {
			char norm[FBAC_MAX_PATH];
			const char *why = "protected paths cannot have wildcards";

			if (fbac_path_normalize(path->value, norm, sizeof(norm),
						&why) < 0 ||
			    fbac_has_wildcard(norm))
				return fbac_diag_at(ld->diag, &path->mark,
						    -EINVAL, "path '%s': %s",
						    path->value, why);
		}
		if ((r = required(ld, it, "reason", "a protected path",
				  &reason)) < 0)
			return r;
		if ((r = expect_text(ld, reason, "'reason'")) < 0)
			return r;
		r = fbac_arena_grow(ld->arena, (void **)&ld->p.prot,
				    &ld->p.cap_prot, ld->p.n_prot + 1,
				    sizeof(*ld->p.prot));
		if (r < 0)
			return r;
		p = &ld->p.prot[ld->p.n_prot++];
		if ((v = fbac_ymap_get(it, "allow"))) {
			const struct fbac_ynode **names = NULL;
			size_t n_names = 0;
			enum fbac_op op;

			if ((r = scalar_list(ld, v, "'allow'", &names,
					     &n_names)) < 0)
				return r;
			for (size_t k = 0; k < n_names; k++) {
				if ((r = op_name(ld, names[k], &op)) < 0) {
					if ((r = soft(ld, r)) < 0)
						return r;
					continue; /* left out, reported */
				}
				if (fbac_op_info(op)->kind != FBAC_KIND_PATH)
					return fbac_diag_at(
						ld->diag, &names[k]->mark,
						-EINVAL,
						"'%s' is not a path operation",
						names[k]->value);
				p->allow |= FBAC_OP_BIT(op);
			}
		}
		p->path = path;
		p->reason = reason->value;
		p->mark = path->mark;
		p->layer = ld->layer;
	}
	return 0;
}

/*
 * A layer's settings: today only 'metadata: mediated', which makes every
 * program confined under this library mediated (the administrator's
 * layer forbids visible system-wide so). A layer cannot make metadata
 * visible for every program: that is each policy's choice.
 */
static int parse_layer_settings(struct loader *ld,
				const struct fbac_ynode *doc)
{
	static const char *const keys[] = { "fbac", "settings", NULL };
	static const char *const item_keys[] = { "metadata", NULL };
	const struct fbac_ynode *map = fbac_ymap_get(doc, "settings"), *v;
	enum fbac_metadata m;
	struct fbac_mark mark;
	int r;

	if ((r = check_keys(ld, doc, "a settings document", keys)) < 0)
		return r;
	if ((r = expect(ld, map, FBAC_Y_MAP, "'settings'")) < 0)
		return r;
	if ((r = check_keys(ld, map, "'settings'", item_keys)) < 0)
		return r;
	if (!(v = fbac_ymap_get(map, "metadata")))
		return 0;
	if ((r = parse_metadata(ld, v, &m, &mark)) < 0)
		return r;
	if (m != FBAC_META_MEDIATED)
		return fbac_diag_at(
			ld->diag, &v->mark, -EINVAL,
			"'settings' can only say 'metadata: mediated' (visible is each policy's choice)");
	if (!ld->p.metadata_banned) {
		ld->p.metadata_banned = true;
		ld->p.metadata_ban_mark = mark;
	}
	return 0;
}

/*
 * Two documents share the key 'settings': with a program's name, the
 * values fbac set saved for it; with a mapping, the layer's own settings.
 */
static int parse_settings(struct loader *ld, const struct fbac_ynode *doc)
{
	const struct fbac_ynode *v = fbac_ymap_get(doc, "settings");

	if (v && v->kind == FBAC_Y_MAP)
		return parse_layer_settings(ld, doc);
	if (v && v->kind != FBAC_Y_SCALAR)
		return fbac_diag_at(
			ld->diag, &v->mark, -EINVAL,
			"'settings' must be a program's name (values saved with fbac set) or a mapping (the layer's settings)");
	return parse_program_settings(ld, doc);
}

static int parse_document(struct loader *ld, const struct fbac_ydoc *d)
{
	static const char *const kinds[] = { "functionality", "application",
					     "protected", "settings" };
	const struct fbac_ynode *doc = d->root, *kind = NULL;
	int r;

	if (!doc || (doc->kind == FBAC_Y_SCALAR && doc->plain && doc->len == 0))
		return fbac_diag_at(ld->diag, &d->start, -EINVAL,
				    "empty document");
	if ((r = expect(ld, doc, FBAC_Y_MAP, "a document")) < 0)
		return r;
	if (doc->n == 0 || !streq(doc->keys[0]->value, "fbac"))
		return fbac_diag_at(ld->diag, &doc->mark, -EINVAL,
				    "a document must start with 'fbac: 1'");
	if (doc->items[0]->kind != FBAC_Y_SCALAR ||
	    !streq(doc->items[0]->value, "1"))
		return fbac_diag_at(
			ld->diag, &doc->items[0]->mark, -EINVAL,
			"unsupported language version '%s' (this fbac reads version 1)",
			doc->items[0]->kind == FBAC_Y_SCALAR ?
				doc->items[0]->value :
				"?");
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		const struct fbac_ynode *k = key_node(doc, kinds[i]);

		if (!k)
			continue;
		if (kind)
			return fbac_diag_at(
				ld->diag, &k->mark, -EINVAL,
				"a document cannot be both '%s' and '%s'",
				kind->value, k->value);
		kind = k;
	}
	if (!kind)
		return fbac_diag_at(
			ld->diag, &doc->mark, -EINVAL,
			"a document must have 'functionality', 'application', 'protected' or 'settings'");
	if (streq(kind->value, "functionality"))
		return parse_functionality(ld, doc);
	if (streq(kind->value, "application"))
		return parse_application(ld, doc);
	if (streq(kind->value, "settings"))
		return parse_settings(ld, doc);
	return parse_protected(ld, doc);
}

struct fbac_library *fbac_library_new(void)
{
	struct fbac_library *lib = calloc(1, sizeof(*lib));

	if (!lib)
		return NULL;
	lib->arena = fbac_arena_new();
	if (!lib->arena) {
		free(lib);
		return NULL;
	}
	return lib;
}

struct fbac_library *fbac_library_free(struct fbac_library *lib)
{
	if (lib) {
		for (size_t i = 0; i < lib->n_adopted; i++)
			fbac_arena_free(lib->adopted[i]);
		fbac_arena_free(lib->arena);
		free(lib);
	}
	return NULL;
}

int fbac_library_adopt(struct fbac_library *lib, struct fbac_arena *arena)
{
	if (lib->n_adopted >= FBAC_MAX_LOAD_THREADS)
		return -E2BIG;
	lib->adopted[lib->n_adopted++] = arena;
	return 0;
}

int fbac_library_add_layer(struct fbac_library *lib, enum fbac_layer_kind kind,
			   const char *name, const char *dir)
{
	struct fbac_layer *l;

	if (lib->n_layers >= FBAC_MAX_LAYERS)
		return -E2BIG;
	l = &lib->layers[lib->n_layers];
	l->kind = kind;
	l->name = fbac_arena_strdup(lib->arena, name);
	l->dir = dir ? fbac_arena_strdup(lib->arena, dir) : NULL;
	if (!l->name || (dir && !l->dir))
		return -ENOMEM;
	return (int)lib->n_layers++;
}

static int commit(struct fbac_library *lib, struct pending *p,
		  unsigned layer)
{
	int r;

	if (lib->n_funcs + p->n_funcs > FBAC_MAX_FUNCTIONALITIES ||
	    lib->n_apps + p->n_apps > FBAC_MAX_APPLICATIONS ||
	    lib->n_settings + p->n_sets > FBAC_MAX_APPLICATIONS)
		return -E2BIG;
	r = fbac_arena_grow(lib->arena, (void **)&lib->settings,
			    &lib->cap_settings, lib->n_settings + p->n_sets,
			    sizeof(void *));
	if (r < 0)
		return r;
	r = fbac_arena_grow(lib->arena, (void **)&lib->funcs, &lib->cap_funcs,
			    lib->n_funcs + p->n_funcs, sizeof(void *));
	if (r < 0)
		return r;
	r = fbac_arena_grow(lib->arena, (void **)&lib->apps, &lib->cap_apps,
			    lib->n_apps + p->n_apps, sizeof(void *));
	if (r < 0)
		return r;
	r = fbac_arena_grow(lib->arena, (void **)&lib->protected,
			    &lib->cap_protected,
			    lib->n_protected + p->n_prot,
			    sizeof(*lib->protected));
	if (r < 0)
		return r;
	if (p->n_funcs)
		memcpy(lib->funcs + lib->n_funcs, p->funcs,
		       p->n_funcs * sizeof(void *));
	if (p->n_apps)
		memcpy(lib->apps + lib->n_apps, p->apps,
		       p->n_apps * sizeof(void *));
	if (p->n_prot)
		memcpy(lib->protected + lib->n_protected, p->prot,
		       p->n_prot * sizeof(*p->prot));
	if (p->n_sets)
		memcpy(lib->settings + lib->n_settings, p->sets,
		       p->n_sets * sizeof(void *));
	lib->n_settings += p->n_sets;
	lib->n_funcs += p->n_funcs;
	lib->n_apps += p->n_apps;
	lib->n_protected += p->n_prot;
	if (p->metadata_banned && !lib->metadata_banned) {
		lib->metadata_banned = true;
		lib->metadata_ban_mark = p->metadata_ban_mark;
		lib->metadata_ban_layer = layer;
	}
	lib->n_files++;
	return 0;
}

int fbac_profile_parse_buffer(struct fbac_arena *arena, const char *name,
			      const char *buf, size_t len,
			      struct fbac_parsed *out)
{
	int r;

	*out = (struct fbac_parsed){ 0 };
	out->name = fbac_arena_strdup(arena, name);
	if (!out->name)
		return -ENOMEM;
	r = fbac_yaml_parse(arena, out->name, buf, len, &out->docs,
			    &out->n_docs, &out->diag);
	if (r == -ENOMEM)
		return r;
	out->err = r;
	return 0;
}

static int load_parsed(struct fbac_library *lib, const struct fbac_parsed *p,
		       struct fbac_diag *diag, struct fbac_diags *all)
{
	struct loader ld = { .lib = lib, .arena = lib->arena, .diag = diag,
			     .all = all };
	int r;

	if (lib->linked)
		return -EBUSY;
	if (lib->n_files >= FBAC_MAX_FILES) {
		struct fbac_mark m = { p->name, 0, 0 };
		return fbac_diag_at(diag, &m, -E2BIG,
				    "more than %d profile files",
				    FBAC_MAX_FILES);
	}
	if (lib->n_layers == 0 &&
	    (r = fbac_library_add_layer(lib, FBAC_LAYER_EXTRA, "profiles",
					NULL)) < 0)
		return r;
	ld.layer = lib->n_layers - 1;
	if (p->err < 0) {
		if (diag)
			*diag = p->diag;
		return p->err;
	}
	for (size_t i = 0; i < p->n_docs; i++)
		if ((r = parse_document(&ld, &p->docs[i])) < 0)
			return r;
	r = commit(lib, &ld.p, ld.layer);
	if (r == -E2BIG) {
		struct fbac_mark m = { p->name, 0, 0 };
		return fbac_diag_at(diag, &m, r,
				    "more than %d functionalities or applications",
				    FBAC_MAX_FUNCTIONALITIES);
	}
	/* Added, so that what includes it is checked too, but not clean. */
	return r < 0 ? r : ld.n_soft ? -EINVAL : 0;
}

int fbac_profile_load_parsed(struct fbac_library *lib,
			     const struct fbac_parsed *p,
			     struct fbac_diag *diag)
{
	return load_parsed(lib, p, diag, NULL);
}

int fbac_profile_load_parsed_all(struct fbac_library *lib,
				 const struct fbac_parsed *p,
				 struct fbac_diags *all)
{
	struct fbac_diag d = { 0 };
	int r = load_parsed(lib, p, &d, all);

	if (r < 0 && r != -ENOMEM && fbac_diag_isset(&d) &&
	    fbac_diags_add(all, &d) < 0)
		return -ENOMEM;
	return r;
}

int fbac_profile_load_buffer(struct fbac_library *lib, const char *name,
			     const char *buf, size_t len,
			     struct fbac_diag *diag)
{
	struct fbac_parsed p;
	int r;

	if (lib->linked)
		return -EBUSY;
	r = fbac_profile_parse_buffer(lib->arena, name, buf, len, &p);
	if (r < 0)
		return r;
	return fbac_profile_load_parsed(lib, &p, diag);
}
