/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The profile language's abstract syntax: functionalities, application
 * policies and protected paths, loaded from YAML into a library that
 * spans the policy layers. Values stay unevaluated (YAML nodes with their
 * positions) until resolve.c binds parameters.
 */
#ifndef FBAC_PROFILE_H
#define FBAC_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"
#include "ops.h"
#include "yaml-tree.h"

enum fbac_ptype {
	FBAC_PT_PATH,
	FBAC_PT_PATHS,
	FBAC_PT_PORTS,
	FBAC_PT_HOSTS,
	FBAC_PT_STRING,
	FBAC_PT_BOOL,
};

/* The type's name as profiles spell it ("path", "ports", ...). */
const char *fbac_ptype_name(enum fbac_ptype t);
/* Whether values of the type are lists (expand to several items). */
bool fbac_ptype_is_list(enum fbac_ptype t);

struct fbac_param {
	const char *name;
	enum fbac_ptype type;
	const struct fbac_ynode *def; /* NULL: required */
	const char *ask, *description;
	struct fbac_mark mark;
};

struct fbac_functionality;

/*
 * Whether the stat family answers in the kernel (visible) or is decided
 * as file_getattr by the supervisor (mediated). UNSET: the document says
 * nothing; a policy where nothing says visible is mediated.
 */
enum fbac_metadata {
	FBAC_META_UNSET,
	FBAC_META_VISIBLE,
	FBAC_META_MEDIATED,
};

/* "visible" or "mediated". */
const char *fbac_metadata_name(enum fbac_metadata m);

/* An include, or a functionality granted by an application policy. */
struct fbac_include {
	const char *name;
	struct fbac_mark mark;
	const char **arg_names;
	struct fbac_mark *arg_marks; /* of the names */
	const struct fbac_ynode **arg_values;
	size_t n_args;
	const struct fbac_functionality *target; /* set by fbac_library_link */
};

enum fbac_priv_kind {
	FBAC_PRIV_PATH,
	FBAC_PRIV_NET,
	FBAC_PRIV_SIGNAL,
};

enum fbac_proto {
	FBAC_PROTO_TCP,
	FBAC_PROTO_UDP,
};

/* One privilege entry of a functionality or application, unevaluated. */
struct fbac_priv {
	enum fbac_priv_kind kind;
	uint32_t ops; /* FBAC_OP_BIT()s */
	bool deny;
	struct fbac_mark mark;
	/* FBAC_PRIV_PATH: patterns */
	const struct fbac_ynode **values;
	size_t n_values;
	/* FBAC_PRIV_NET */
	const struct fbac_ynode *protocol, *ports, *hosts; /* hosts may be NULL */
};

struct fbac_functionality {
	const char *name, *category, *description;
	bool high_level;
	enum fbac_metadata metadata;
	struct fbac_mark metadata_mark;
	struct fbac_param *params;
	size_t n_params;
	struct fbac_include *includes;
	size_t n_includes;
	struct fbac_priv *privs;
	size_t n_privs;
	struct fbac_mark mark;
	unsigned layer;
};

struct fbac_application {
	const char *name, *description;
	enum fbac_metadata metadata;
	struct fbac_mark metadata_mark;
	const char **executables; /* normalised absolute paths */
	struct fbac_mark *exe_marks;
	size_t n_executables;
	struct fbac_include *grants;
	size_t n_grants;
	struct fbac_priv *privs;
	size_t n_privs;
	/* 'sandbox_fallback': options fbac-run adds after the program's name
	 * because the program's own sandbox cannot start inside fbac-run's
	 * (each starts with '-'); NULL when the key is absent. */
	const char **sandbox_fallback;
	size_t n_sandbox_fallback;
	struct fbac_mark mark;
	unsigned layer;
};

/*
 * A user's saved parameter values for one program ('fbac set'): the
 * functionalities with their arguments, used by 'fbac-run --as' where
 * the command line sets nothing. Values, not a policy: they grant
 * nothing on their own.
 */
struct fbac_settings {
	const char *program; /* application name or executable name */
	struct fbac_include *values;
	size_t n_values;
	struct fbac_mark mark;
	unsigned layer;
};

struct fbac_protected {
	const struct fbac_ynode *path;
	uint32_t allow; /* operations broad rules may still grant */
	const char *reason;
	struct fbac_mark mark;
	unsigned layer;
};

enum fbac_layer_kind {
	FBAC_LAYER_LIBRARY,
	FBAC_LAYER_ADMIN,
	FBAC_LAYER_USER,
	FBAC_LAYER_EXTRA,
	FBAC_LAYER_COMMAND_LINE,
};

struct fbac_layer {
	enum fbac_layer_kind kind;
	const char *name; /* "library", "admin", "user", or the directory */
	const char *dir;
};

struct fbac_library {
	struct fbac_arena *arena;
	struct fbac_layer layers[FBAC_MAX_LAYERS];
	unsigned n_layers;
	struct fbac_functionality **funcs; /* sorted by name after link */
	size_t n_funcs, cap_funcs;
	struct fbac_application **apps;
	size_t n_apps, cap_apps;
	struct fbac_protected *protected;
	size_t n_protected, cap_protected;
	/* The first 'settings' document that says 'metadata: mediated':
	 * every program is mediated (an administrator's ban on visible). */
	bool metadata_banned;
	struct fbac_mark metadata_ban_mark;
	unsigned metadata_ban_layer;
	struct fbac_settings **settings;
	size_t n_settings, cap_settings;
	size_t n_files;
	bool linked;
	/* Arenas files were parsed into elsewhere (fbac_library_adopt). */
	struct fbac_arena *adopted[FBAC_MAX_LOAD_THREADS];
	size_t n_adopted;
};

/* A new, empty library, or NULL without memory. */
struct fbac_library *fbac_library_new(void);
/* Free a library and what it adopted (NULL-safe); returns NULL. */
struct fbac_library *fbac_library_free(struct fbac_library *lib);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct fbac_library *, fbac_library_free)

/*
 * Start a new layer; later loads go into it. dir may be NULL.
 * Return: the layer index, or -E2BIG.
 */
int fbac_library_add_layer(struct fbac_library *lib, enum fbac_layer_kind kind,
			   const char *name, const char *dir);

/*
 * Parse one profile text into the current layer (layer 0 is created when
 * there is none). On failure nothing of the text is added.
 * Return: 0, -EINVAL/-E2BIG with diag set, or -ENOMEM.
 */
int fbac_profile_load_buffer(struct fbac_library *lib, const char *name,
			     const char *buf, size_t len,
			     struct fbac_diag *diag);

/* Read and load one file (a regular file of at most FBAC_MAX_FILE_SIZE). */
int fbac_profile_load_file(struct fbac_library *lib, const char *path,
			   struct fbac_diag *diag);

/*
 * Loading in two steps, so that files can be parsed side by side: a file
 * read and parsed as YAML into an arena of its own (any thread; one arena
 * per thread), then added to a library in the order of the layers.
 * A file that cannot be read or parsed is a result too (err and diag):
 * adding it reports the failure where loading it in one step would.
 */
struct fbac_parsed {
	const char *name;
	struct fbac_ydoc *docs;
	size_t n_docs;
	int err; /* 0, or -errno with diag set */
	struct fbac_diag diag;
};

/* Return: 0 (out->err tells whether it parsed), or -ENOMEM. */
int fbac_profile_parse_file(struct fbac_arena *arena, const char *path,
			    struct fbac_parsed *out);
int fbac_profile_parse_buffer(struct fbac_arena *arena, const char *name,
			      const char *buf, size_t len,
			      struct fbac_parsed *out);

/*
 * Add a parsed file to the current layer, as fbac_profile_load_buffer. The
 * library keeps pointers into the arena p was parsed into: it must be the
 * library's own or adopted by it. Return: as fbac_profile_load_buffer.
 */
int fbac_profile_load_parsed(struct fbac_library *lib,
			     const struct fbac_parsed *p,
			     struct fbac_diag *diag);

/*
 * fbac_profile_load_parsed, reporting every problem of the file into all
 * (in the order found) rather than the first: after an unknown key or an
 * unknown privilege (with a "did you mean" when a name in scope is close),
 * which are left out, parsing goes on, and a file whose only problems were
 * of that kind is added anyway (so that what it includes and what includes
 * it are checked too) and -EINVAL returned. Other problems stop the file
 * as before: nothing of it is added. Return: as fbac_profile_load_parsed.
 */
int fbac_profile_load_parsed_all(struct fbac_library *lib,
				 const struct fbac_parsed *p,
				 struct fbac_diags *all);

/*
 * The library takes arena (freed with it). Return: 0, or -E2BIG beyond
 * FBAC_MAX_LOAD_THREADS arenas (the caller keeps it then).
 */
int fbac_library_adopt(struct fbac_library *lib, struct fbac_arena *arena);

/*
 * Sort, refuse duplicate functionality names and duplicate application
 * names within a layer, and resolve include names (an unknown name stays
 * unresolved for fbac_check_include to report). Further loads are
 * refused after a successful link. Return: 0 or -EINVAL with diag set.
 */
int fbac_library_link(struct fbac_library *lib, struct fbac_diag *diag);

/*
 * fbac_library_link, every duplicate reported into all: the library is
 * linked anyway (the first of two equal names wins) so that the rest can
 * be checked, and -EINVAL returned when there was a duplicate. Return: 0,
 * -EINVAL, -ENOMEM.
 */
int fbac_library_link_all(struct fbac_library *lib, struct fbac_diags *all);

const struct fbac_functionality *
fbac_library_find(const struct fbac_library *lib, const char *name);

/* The application policy of a layer by name or executable path, or NULL. */
const struct fbac_application *
fbac_library_find_app(const struct fbac_library *lib, unsigned layer,
		      const char *name_or_exe);

/* lib/profile-fallback.c: the key 'sandbox_fallback' of the application
 * document doc into a (nothing when absent). Return: 0, or -errno with
 * diag set at the value's line and column. */
int fbac_app_sandbox_fallback(const struct fbac_ynode *doc,
			      struct fbac_arena *arena, struct fbac_diag *diag,
			      struct fbac_application *a);

/* The saved settings for program (the last layer's), or NULL. */
const struct fbac_settings *
fbac_library_find_settings(const struct fbac_library *lib,
			   const char *program);

/*
 * Static checks of one functionality or application that need the whole
 * library: include arguments name parameters of the target, required
 * arguments present, no include cycle. Return: 0 or -EINVAL with diag.
 */
int fbac_check_functionality(const struct fbac_library *lib,
			     const struct fbac_functionality *f,
			     struct fbac_diag *diag);
int fbac_check_application(const struct fbac_library *lib,
			   const struct fbac_application *a,
			   struct fbac_diag *diag);
/*
 * Check the arguments of one include against its target's parameters:
 * each names a parameter, and (when require_all) every required one is
 * given; an unknown target names the closest functionality of lib (may be
 * NULL) as "did you mean". Return: 0 or -EINVAL with diag set.
 */
int fbac_check_include(const struct fbac_library *lib,
		       const struct fbac_include *inc, bool require_all,
		       struct fbac_diag *diag);

/* The functionality of lib whose name is closest to name (a misspelling,
 * other letter case), or NULL when none is close. */
const char *fbac_library_closest(const struct fbac_library *lib,
				 const char *name);

#endif
