/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Loading the policy layers from disk (library, administrator, user,
 * -P directories) and gathering the built-in variables, reporting every
 * problem found on the way.
 */
#ifndef FBAC_LAYERS_H
#define FBAC_LAYERS_H

#include <stdbool.h>

#include "env.h"
#include "prefetch.h"
#include "profile.h"

struct layers;

struct layers_options {
	const char *const *extra_dirs; /* -P */
	size_t n_extra;
	/* Further files or directories to load (fbac check), each as its own
	 * layer unless it already lies in a loaded layer. */
	const char *const *check_paths;
	size_t n_check;
	/* Keep the library layer's parsed files in the user's cache and
	 * parse only what changed (fbac-run). */
	bool cache;
	/* Called once the variables are known, before any file is read
	 * (fbac-run starts its seccomp filter there: it needs the cache
	 * directory). */
	void (*env_ready)(void *ctx, const struct layers *l);
	void *env_ready_ctx;
};

/* A layer to load, in the order of loading. */
struct layer_dir {
	enum fbac_layer_kind kind;
	const char *name, *dir;
	bool required; /* a missing one is an error */
};

struct layers {
	struct fbac_library *lib;
	struct fbac_arena *arena;
	struct fbac_env env, trusted_env;
	unsigned errors; /* problems reported while loading */
	size_t files;
	/* The library layer, parsed ahead (or cached); kept for
	 * prefetch_store until layers_free. */
	struct prefetch *prefetch;
	char cache_path[4096];	       /* "" without a cache */
	/* What layers_begin found to load (the library's first). */
	struct layer_dir dirs[FBAC_MAX_LAYERS];
	size_t n_dirs;
};

/*
 * Load and link every layer. Each problem is printed and counted; the
 * library holds what loaded cleanly. Return: 0 when there were no
 * problems, -EINVAL when some were reported (out->lib is NULL when not
 * even the variables could be set up), -ENOMEM (out->lib NULL).
 */
int layers_load(const struct layers_options *o, struct layers *out);

/*
 * layers_load in two steps: layers_begin sets up the variables and finds
 * the layers to load (out->dirs), reading no policy file; layers_finish
 * loads and links them (fbac-run skips it when its compiled stack is
 * cached, or does it later, for suggestions). Return: as layers_load;
 * after layers_finish fails with anything but -EINVAL, only layers_free
 * is left to call.
 */
int layers_begin(const struct layers_options *o, struct layers *out);
int layers_finish(const struct layers_options *o, struct layers *l);
void layers_free(struct layers *l);

/* Only the variables (env, trusted_env), for a command that reads no
 * policy (fbac log); layers_free releases them. Return: 0 or -errno
 * (logged). */
int layers_env(struct layers *out);

#endif
