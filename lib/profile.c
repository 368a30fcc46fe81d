/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loader: YAML tree -> functionalities, applications and protected paths.
 * Every rejection points at the offending node. This part picks the kind
 * of each document and commits a file's documents to the library; the
 * kinds are parsed in profile-func.c, profile-app.c and profile-layer.c.
 */
#include "profile-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"

static int parse_document(struct loader *ld, const struct fbac_ydoc *d)
{
	static const char *const kinds[] = { "functionality", "application",
					     "protected", "settings" };
	const struct fbac_ynode *doc = d->root, *kind = NULL;
	int r;

	if (!doc || (doc->kind == FBAC_Y_SCALAR && doc->plain && doc->len == 0))
		return fbac_diag_at(ld->diag, &d->start, -EINVAL,
				    "empty document");
	if ((r = ld_expect(ld, doc, FBAC_Y_MAP, "a document")) < 0)
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
		const struct fbac_ynode *k = ld_key_node(doc, kinds[i]);

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
		return ld_parse_functionality(ld, doc);
	if (streq(kind->value, "application"))
		return ld_parse_application(ld, doc);
	if (streq(kind->value, "settings"))
		return ld_parse_settings(ld, doc);
	return ld_parse_protected(ld, doc);
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

static int commit(struct fbac_library *lib, struct pending *p, unsigned layer)
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
			    &lib->cap_protected, lib->n_protected + p->n_prot,
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
	struct loader ld = {
		.lib = lib, .arena = lib->arena, .diag = diag, .all = all
	};
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
			     const struct fbac_parsed *p, struct fbac_diag *diag)
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
			     const char *buf, size_t len, struct fbac_diag *diag)
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
