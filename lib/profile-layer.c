/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The documents of a layer beside its policies: the protected paths, the
 * layer's settings ('metadata: mediated'), and the values fbac set saved
 * for a program.
 */
#include "profile-int.h"

#include <errno.h>
#include <string.h>

#include "fbac-limits.h"
#include "path.h"

/* 'settings: PROGRAM': values saved with fbac set for that program. */
static int parse_program_settings(struct loader *ld,
				  const struct fbac_ynode *doc)
{
	static const char *const keys[] = { "fbac", "settings",
					    "functionalities", NULL };
	struct fbac_settings *s;
	const struct fbac_ynode *v;
	int r;

	if ((r = ld_check_keys(ld, doc, "settings", keys)) < 0)
		return r;
	s = fbac_arena_alloc(ld->arena, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->layer = ld->layer;
	v = fbac_ymap_get(doc, "settings");
	if ((r = ld_expect_text(ld, v, "'settings'")) < 0)
		return r;
	if (!ld_app_name_ok(v->value))
		return fbac_diag_at(
			ld->diag, &v->mark, -EINVAL,
			"invalid program name '%s' (expected lower case letters, digits and '._+-')",
			v->value);
	s->program = v->value;
	s->mark = v->mark;
	if ((r = ld_required(ld, doc, "functionalities", "settings", &v)) < 0)
		return r;
	if ((r = ld_parse_includes(ld, v, "'functionalities'", &s->values,
				   &s->n_values)) < 0)
		return r;
	r = fbac_arena_grow(ld->arena, (void **)&ld->p.sets, &ld->p.cap_sets,
			    ld->p.n_sets + 1, sizeof(s));
	if (r < 0)
		return r;
	ld->p.sets[ld->p.n_sets++] = s;
	return 0;
}

int ld_parse_protected(struct loader *ld, const struct fbac_ynode *doc)
{
	static const char *const keys[] = { "fbac", "protected", NULL };
	static const char *const item_keys[] = { "path", "reason", "allow",
						 NULL };
	const struct fbac_ynode *list = fbac_ymap_get(doc, "protected");
	int r;

	if ((r = ld_check_keys(ld, doc, "a protected-paths document", keys)) < 0)
		return r;
	if ((r = ld_expect(ld, list, FBAC_Y_SEQ, "'protected'")) < 0)
		return r;
	for (size_t i = 0; i < list->n; i++) {
		const struct fbac_ynode *it = list->items[i], *path = NULL,
					*reason = NULL, *v;
		struct fbac_protected *p;

		if ((r = ld_expect(ld, it, FBAC_Y_MAP, "a protected path")) < 0)
			return r;
		if ((r = ld_check_keys(ld, it, "a protected path", item_keys)) <
		    0)
			return r;
		if ((r = ld_required(ld, it, "path", "a protected path",
				     &path)) < 0)
			return r;
		if ((r = ld_expect_text(ld, path, "'path'")) < 0)
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
		if ((r = ld_required(ld, it, "reason", "a protected path",
				     &reason)) < 0)
			return r;
		if ((r = ld_expect_text(ld, reason, "'reason'")) < 0)
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

			if ((r = ld_scalar_list(ld, v, "'allow'", &names,
						&n_names)) < 0)
				return r;
			for (size_t k = 0; k < n_names; k++) {
				if ((r = ld_op_name(ld, names[k], &op)) < 0) {
					if ((r = ld_soft(ld, r)) < 0)
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
static int parse_layer_settings(struct loader *ld, const struct fbac_ynode *doc)
{
	static const char *const keys[] = { "fbac", "settings", NULL };
	static const char *const item_keys[] = { "metadata", NULL };
	const struct fbac_ynode *map = fbac_ymap_get(doc, "settings"), *v;
	enum fbac_metadata m;
	struct fbac_mark mark;
	int r;

	if ((r = ld_check_keys(ld, doc, "a settings document", keys)) < 0)
		return r;
	if ((r = ld_expect(ld, map, FBAC_Y_MAP, "'settings'")) < 0)
		return r;
	if ((r = ld_check_keys(ld, map, "'settings'", item_keys)) < 0)
		return r;
	if (!(v = fbac_ymap_get(map, "metadata")))
		return 0;
	if ((r = ld_parse_metadata(ld, v, &m, &mark)) < 0)
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
int ld_parse_settings(struct loader *ld, const struct fbac_ynode *doc)
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
