/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "env.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fbac-limits.h"
#include "macro.h"
#include "path.h"

static int set(struct fbac_env *env, struct fbac_arena *a, const char *name,
	       const char *value)
{
	char norm[FBAC_MAX_PATH];
	const char *why;

	/* Path-like values are normalised so that rules compare equal. */
	if (value[0] == '/') {
		if (fbac_path_normalize(value, norm, sizeof(norm), &why) < 0)
			return -EINVAL;
		value = norm;
	}
	for (size_t i = 0; i < env->n; i++)
		if (streq(env->names[i], name)) {
			env->values[i] = fbac_arena_strdup(a, value);
			return env->values[i] ? 0 : -ENOMEM;
		}
	if (env->n >= FBAC_MAX_ENV_VARS)
		return -E2BIG;
	env->names[env->n] = name;
	env->values[env->n] = fbac_arena_strdup(a, value);
	if (!env->values[env->n])
		return -ENOMEM;
	env->n++;
	return 0;
}

static int set_dir(struct fbac_env *env, struct fbac_arena *a,
		   const char *name, const char *given, const char *home,
		   const char *fallback)
{
	char buf[FBAC_MAX_PATH];

	/* An unusable value (with "..") is ignored, as XDG says of relative
	 * ones: the default applies. */
	if (given && given[0] == '/') {
		int r = set(env, a, name, given);

		if (r != -EINVAL)
			return r;
	}
	if (snprintf(buf, sizeof(buf), "%s/%s", home, fallback) >=
	    (int)sizeof(buf))
		return -ENAMETOOLONG;
	return set(env, a, name, buf);
}

/*
 * Parse user-dirs.dirs: lines XDG_NAME_DIR="$HOME/sub" or "/abs". Lines
 * that do not have this shape are ignored, as xdg-user-dir(1) does.
 */
static int user_dirs(struct fbac_env *env, struct fbac_arena *a,
		     const char *text, const char *home)
{
	static const char *const names[] = {
		"XDG_DESKTOP_DIR",   "XDG_DOWNLOAD_DIR", "XDG_DOCUMENTS_DIR",
		"XDG_MUSIC_DIR",     "XDG_PICTURES_DIR", "XDG_VIDEOS_DIR",
		"XDG_TEMPLATES_DIR", "XDG_PUBLICSHARE_DIR",
	};
	const char *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char val[FBAC_MAX_PATH];

		for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
			size_t nl = strlen(names[i]);
			const char *v = line + nl + 2, *q;
			size_t vl;
			int w, r;

			if (len < nl + 3 || strncmp(line, names[i], nl) ||
			    line[nl] != '=' || line[nl + 1] != '"')
				continue;
			q = memchr(v, '"', len - nl - 2);
			if (!q)
				continue;
			vl = (size_t)(q - v);
			if (vl >= 5 && !strncmp(v, "$HOME", 5) &&
			    (vl == 5 || v[5] == '/'))
				w = snprintf(val, sizeof(val), "%s%.*s", home,
					     (int)(vl - 5), v + 5);
			else if (vl > 0 && v[0] == '/')
				w = snprintf(val, sizeof(val), "%.*s", (int)vl,
					     v);
			else
				continue;
			if (w < 0 || (size_t)w >= sizeof(val) ||
			    memchr(val, '$', strlen(val)))
				continue;
			/* xdg-user-dirs writes "$HOME/" for a disabled
			 * directory: granting it would grant the whole home. */
			{
				char dn[FBAC_MAX_PATH], hn[FBAC_MAX_PATH];
				const char *why;

				if (fbac_path_normalize(val, dn, sizeof(dn), &why) ||
				    fbac_path_normalize(home, hn, sizeof(hn), &why) ||
				    fbac_path_is_under(hn, dn))
					continue;
			}
			r = set(env, a, names[i], val);
			if (r < 0 && r != -EINVAL)
				return r;
		}
		line = end ? end + 1 : NULL;
	}
	return 0;
}

int fbac_env_init(struct fbac_env *env, struct fbac_arena *arena,
		  const struct fbac_env_input *in)
{
	char buf[64];
	const char *cfg;
	int r;

	memset(env, 0, sizeof(*env));
	if (!in->home || in->home[0] != '/' || !in->user)
		return -EINVAL;
	if ((r = set(env, arena, "HOME", in->home)) < 0)
		return r;
	snprintf(buf, sizeof(buf), "%u", in->uid);
	if ((r = set(env, arena, "UID", buf)) < 0)
		return r;
	if ((r = set(env, arena, "USER", in->user)) < 0)
		return r;
	if ((r = set_dir(env, arena, "XDG_CONFIG_HOME", in->xdg_config_home,
			 in->home, ".config")) < 0 ||
	    (r = set_dir(env, arena, "XDG_DATA_HOME", in->xdg_data_home,
			 in->home, ".local/share")) < 0 ||
	    (r = set_dir(env, arena, "XDG_CACHE_HOME", in->xdg_cache_home,
			 in->home, ".cache")) < 0 ||
	    (r = set_dir(env, arena, "XDG_STATE_HOME", in->xdg_state_home,
			 in->home, ".local/state")) < 0)
		return r;
	snprintf(buf, sizeof(buf), "/run/user/%u", in->uid);
	cfg = in->xdg_runtime_dir && in->xdg_runtime_dir[0] == '/' ?
		      in->xdg_runtime_dir :
		      buf;
	if ((r = set(env, arena, "XDG_RUNTIME_DIR", cfg)) < 0 ||
	    (r = set(env, arena, "RUNTIME_DIR", cfg)) < 0)
		return r;
	if ((r = set_dir(env, arena, "XDG_DESKTOP_DIR", NULL, in->home,
			 "Desktop")) < 0 ||
	    (r = set_dir(env, arena, "XDG_DOWNLOAD_DIR", NULL, in->home,
			 "Downloads")) < 0 ||
	    (r = set_dir(env, arena, "XDG_DOCUMENTS_DIR", NULL, in->home,
			 "Documents")) < 0 ||
	    (r = set_dir(env, arena, "XDG_MUSIC_DIR", NULL, in->home,
			 "Music")) < 0 ||
	    (r = set_dir(env, arena, "XDG_PICTURES_DIR", NULL, in->home,
			 "Pictures")) < 0 ||
	    (r = set_dir(env, arena, "XDG_VIDEOS_DIR", NULL, in->home,
			 "Videos")) < 0 ||
	    (r = set_dir(env, arena, "XDG_TEMPLATES_DIR", NULL, in->home,
			 "Templates")) < 0 ||
	    (r = set_dir(env, arena, "XDG_PUBLICSHARE_DIR", NULL, in->home,
			 "Public")) < 0)
		return r;
	if (in->user_dirs)
		return user_dirs(env, arena, in->user_dirs, in->home);
	return 0;
}

const char *fbac_env_get(const struct fbac_env *env, const char *name,
			 size_t len)
{
	for (size_t i = 0; i < env->n; i++)
		if (strlen(env->names[i]) == len &&
		    !strncmp(env->names[i], name, len))
			return env->values[i];
	return NULL;
}
