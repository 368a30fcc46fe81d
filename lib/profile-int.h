/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/profile internals shared by the parser's parts: the checks every
 * document kind uses (profile-parse.c), functionalities with their
 * parameters and privileges (profile-func.c), application policies
 * (profile-app.c), the documents of a layer (profile-layer.c), and the
 * loader that picks the kind and commits a file (profile.c). Not an
 * interface. Every ld_ function returns 0 or -errno with a diagnostic
 * that points at the node, unless it says otherwise.
 */
#ifndef FBAC_PROFILE_INT_H
#define FBAC_PROFILE_INT_H

#include "profile.h"

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
	 * is kept there and parsing goes on (see ld_soft()). */
	struct fbac_diags *all;
	unsigned n_soft;
};

/* A problem after which the rest can be checked: kept (0) with a list. */
int ld_soft(struct loader *ld, int r);
/* Node n is of the given kind ("WHAT must be KIND, not KIND"). */
int ld_expect(struct loader *ld, const struct fbac_ynode *n,
	      enum fbac_ynode_kind kind, const char *what);
/* A non-empty scalar (an empty plain scalar is YAML's null). */
int ld_expect_text(struct loader *ld, const struct fbac_ynode *n,
		   const char *what);
/* A functionality's (upper_first) or a parameter's name is well formed. */
bool ld_name_ok(const char *s, bool upper_first);
/* A program's name: lower case letters, digits and '._+-'. */
bool ld_app_name_ok(const char *s);
/* A well-formed functionality name in scalar n. */
int ld_functionality_name(struct loader *ld, const struct fbac_ynode *n,
			  const char *what);
/* 'true' or 'false' into *ret. */
int ld_parse_bool(struct loader *ld, const struct fbac_ynode *n,
		  const char *what, bool *ret);
/* 'metadata: visible' or 'metadata: mediated'. */
int ld_parse_metadata(struct loader *ld, const struct fbac_ynode *n,
		      enum fbac_metadata *ret, struct fbac_mark *mark);
/* Every key of map is in allowed (NULL-terminated); soft errors. */
int ld_check_keys(struct loader *ld, const struct fbac_ynode *map,
		  const char *where, const char *const *allowed);
/* The key node named key in map, or NULL. */
const struct fbac_ynode *ld_key_node(const struct fbac_ynode *map,
				     const char *key);
/* The value of key in map, which where must have. */
int ld_required(struct loader *ld, const struct fbac_ynode *map, const char *key,
		const char *where, const struct fbac_ynode **ret);
/* A scalar or a sequence of scalars, as an array of nodes. */
int ld_scalar_list(struct loader *ld, const struct fbac_ynode *n,
		   const char *what, const struct fbac_ynode ***ret,
		   size_t *ret_n);
/* includes / functionalities: [Name, Name: {arg: value}]. */
int ld_parse_includes(struct loader *ld, const struct fbac_ynode *n,
		      const char *what, struct fbac_include **ret,
		      size_t *ret_n);
/* A privilege's name into *ret, with "did you mean". */
int ld_op_name(struct loader *ld, const struct fbac_ynode *n, enum fbac_op *ret);
/* Append the entries of a privileges/denied list to *privs. */
int ld_parse_privs(struct loader *ld, const struct fbac_ynode *n, bool deny,
		   struct fbac_priv **privs, size_t *n_privs);

/* The document kinds, into ld->p. */
int ld_parse_functionality(struct loader *ld, const struct fbac_ynode *doc);
int ld_parse_application(struct loader *ld, const struct fbac_ynode *doc);
int ld_parse_protected(struct loader *ld, const struct fbac_ynode *doc);
int ld_parse_settings(struct loader *ld, const struct fbac_ynode *doc);

#endif
