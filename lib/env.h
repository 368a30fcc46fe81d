/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Built-in variables of the profile language ($HOME, $UID, $XDG_*...).
 * The caller gathers the inputs (password database, environment, the
 * user-dirs.dirs text); this module only derives the values, so that the
 * administrator's layer can be resolved from trusted inputs alone.
 */
#ifndef FBAC_ENV_H
#define FBAC_ENV_H

#include <stddef.h>

#include "arena.h"
#include "fbac-limits.h"

struct fbac_env {
	const char *names[FBAC_MAX_ENV_VARS];
	const char *values[FBAC_MAX_ENV_VARS];
	size_t n;
};

struct fbac_env_input {
	const char *home; /* from the password database */
	const char *user;
	unsigned uid;
	/* From the environment; NULL (or relative, which XDG says to ignore)
	 * means the default under home. */
	const char *xdg_config_home, *xdg_data_home, *xdg_cache_home,
		*xdg_state_home, *xdg_runtime_dir;
	const char *user_dirs; /* text of user-dirs.dirs, or NULL */
};

/* Return: 0, -EINVAL when home is not an absolute path, or -ENOMEM. */
int fbac_env_init(struct fbac_env *env, struct fbac_arena *arena,
		  const struct fbac_env_input *in);

/* The value of a variable name of len bytes, or NULL. */
const char *fbac_env_get(const struct fbac_env *env, const char *name,
			 size_t len);

#endif
