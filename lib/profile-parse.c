/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The profile parser's shared checks: node kinds, names, keys (unknown,
 * duplicate is yaml-tree.c's, required), booleans, metadata, lists of
 * scalars, include lists and privilege names.
 */
#include "profile-int.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "fbac-limits.h"
#include "spell.h"

/*
 * A problem after which the rest can still be checked (an unknown key, an
 * unknown privilege: left out). With a list, keep it, clear the diagnostic
 * and go on (return 0); otherwise stop there (return r).
 */
int ld_soft(struct loader *ld, int r)
{
	if (!ld->all || r == -ENOMEM)
		return r;
	if ((r = fbac_diags_add(ld->all, ld->diag)) < 0)
		return r;
	fbac_diag_clear(ld->diag);
	ld->n_soft++;
	return 0;
}

int ld_expect(struct loader *ld, const struct fbac_ynode *n,
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
int ld_expect_text(struct loader *ld, const struct fbac_ynode *n,
		   const char *what)
{
	int r = ld_expect(ld, n, FBAC_Y_SCALAR, what);

	if (r < 0)
		return r;
	if (n->len == 0)
		return fbac_diag_at(ld->diag, &n->mark, -EINVAL,
				    "%s must not be empty", what);
	return 0;
}

bool ld_name_ok(const char *s, bool upper_first)
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

bool ld_app_name_ok(const char *s)
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

int ld_functionality_name(struct loader *ld, const struct fbac_ynode *n,
			  const char *what)
{
	int r = ld_expect_text(ld, n, what);

	if (r < 0)
		return r;
	if (!ld_name_ok(n->value, true))
		return fbac_diag_at(
			ld->diag, &n->mark, -EINVAL,
			"invalid functionality name '%s' (expected Capitalised_Words of letters, digits and '_', at most %d bytes)",
			n->value, FBAC_MAX_NAME);
	return 0;
}

int ld_parse_bool(struct loader *ld, const struct fbac_ynode *n,
		  const char *what, bool *ret)
{
	int r = ld_expect(ld, n, FBAC_Y_SCALAR, what);

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
int ld_parse_metadata(struct loader *ld, const struct fbac_ynode *n,
		      enum fbac_metadata *ret, struct fbac_mark *mark)
{
	int r = ld_expect(ld, n, FBAC_Y_SCALAR, "'metadata'");

	if (r < 0)
		return r;
	if (n->plain && streq(n->value, "visible"))
		*ret = FBAC_META_VISIBLE;
	else if (n->plain && streq(n->value, "mediated"))
		*ret = FBAC_META_MEDIATED;
	else
		return fbac_diag_at(
			ld->diag, &n->mark, -EINVAL,
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

int ld_check_keys(struct loader *ld, const struct fbac_ynode *map,
		  const char *where, const char *const *allowed)
{
	for (size_t i = 0; i < map->n; i++) {
		bool found = false;

		for (size_t k = 0; allowed[k] && !found; k++)
			found = streq(map->keys[i]->value, allowed[k]);
		if (!found) {
			int r = ld_soft(ld, unknown_key(ld, map->keys[i], where,
							allowed));
			if (r < 0)
				return r;
		}
	}
	return 0;
}

const struct fbac_ynode *ld_key_node(const struct fbac_ynode *map,
				     const char *key)
{
	for (size_t i = 0; i < map->n; i++)
		if (streq(map->keys[i]->value, key))
			return map->keys[i];
	return NULL;
}

int ld_required(struct loader *ld, const struct fbac_ynode *map, const char *key,
		const char *where, const struct fbac_ynode **ret)
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
int ld_scalar_list(struct loader *ld, const struct fbac_ynode *n,
		   const char *what, const struct fbac_ynode ***ret,
		   size_t *ret_n)
{
	const struct fbac_ynode **v;
	int r;

	if (n->kind == FBAC_Y_SCALAR) {
		if ((r = ld_expect_text(ld, n, what)) < 0)
			return r;
		v = fbac_arena_alloc(ld->arena, sizeof(*v));
		if (!v)
			return -ENOMEM;
		v[0] = n;
		*ret = v;
		*ret_n = 1;
		return 0;
	}
	if ((r = ld_expect(ld, n, FBAC_Y_SEQ, what)) < 0)
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
		if ((r = ld_expect_text(ld, n->items[i], what)) < 0)
			return r;
		v[i] = n->items[i];
	}
	*ret = v;
	*ret_n = n->n;
	return 0;
}

/* includes / functionalities: [Name, Name: {arg: value}] */
/* An include's name: a misspelt one is left out (return 1) with a "did
 * you mean" when a functionality loaded so far is close. */
static int include_name(struct loader *ld, const struct fbac_ynode *n)
{
	const char *close;
	int r = ld_expect_text(ld, n, "an include");

	if (r < 0 || ld_name_ok(n->value, true))
		return r;
	close = fbac_library_closest(ld->lib, n->value);
	if (close)
		r = fbac_diag_at(
			ld->diag, &n->mark, -EINVAL,
			"invalid functionality name '%s' (did you mean '%s'?)",
			n->value, close);
	else
		r = ld_functionality_name(ld, n, "an include");
	r = ld_soft(ld, r);
	return r < 0 ? r : 1;
}

int ld_parse_includes(struct loader *ld, const struct fbac_ynode *n,
		      const char *what, struct fbac_include **ret, size_t *ret_n)
{
	struct fbac_include *v;
	size_t k = 0;
	int r;

	if ((r = ld_expect(ld, n, FBAC_Y_SEQ, what)) < 0)
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
		if ((r = ld_expect(ld, args, FBAC_Y_MAP, "the arguments")) < 0)
			return r;
		v[i].arg_names = fbac_arena_array(ld->arena, args->n,
						  sizeof(char *));
		v[i].arg_values = fbac_arena_array(ld->arena, args->n,
						   sizeof(void *));
		v[i].arg_marks = fbac_arena_array(ld->arena, args->n,
						  sizeof(struct fbac_mark));
		if (args->n &&
		    (!v[i].arg_names || !v[i].arg_values || !v[i].arg_marks))
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

int ld_op_name(struct loader *ld, const struct fbac_ynode *n, enum fbac_op *ret)
{
	int r = ld_expect_text(ld, n, "an operation");

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
			return fbac_diag_at(
				ld->diag, &n->mark, -EINVAL,
				"unknown privilege '%s' (did you mean '%s'?)",
				n->value, close);
		return fbac_diag_at(
			ld->diag, &n->mark, -EINVAL,
			"unknown privilege '%s' (see fbac-profile(5) for the vocabulary)",
			n->value);
	}
	return 0;
}
