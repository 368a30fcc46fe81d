/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "layers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache.h"
#include "checksum.h"
#include "fbac-limits.h"
#include "output.h"

#ifndef FBAC_DATADIR
#define FBAC_DATADIR "/usr/local/share/fbac"
#endif
#ifndef FBAC_SYSCONFDIR
#define FBAC_SYSCONFDIR "/etc/fbac"
#endif
#ifndef FBAC_BINDIR
#define FBAC_BINDIR "/usr/local/bin"
#endif

static int report(struct layers *l, int r, const struct fbac_diag *d)
{
	log_problem(r, d);
	l->errors++;
	return r;
}

/* Every problem of a list, then the count of those it could not keep. */
static void report_all(struct layers *l, struct fbac_diags *all)
{
	for (size_t i = 0; i < all->n; i++)
		report(l, -EINVAL, &all->v[i]);
	/* Beyond what the list keeps: counted, never shown. */
	l->errors += (unsigned)all->dropped;
	log_problems_held_back(all->dropped);
	fbac_diags_free(all);
}

static bool has_yaml_suffix(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && streq(name + n - 5, ".yaml");
}

/* The administrator's files must be root's alone: anyone else who can
 * write them could widen what the mandatory layer allows. */
static int check_trusted(struct layers *l, const char *path)
{
	struct fbac_diag d = { 0 };
	struct fbac_mark m = { path, 0, 0 };
	struct stat st;

	if (stat(path, &st) < 0)
		return report(l, -errno,
			      (fbac_diag_at(&d, &m, -errno,
					    "cannot stat administrator's layer: %s",
					    strerror(errno)),
			       &d));
	if (st.st_uid != 0)
		return report(l, -EPERM,
			      (fbac_diag_at(&d, &m, -EPERM,
					    "refusing administrator's layer: owned by uid %u, not root",
					    (unsigned)st.st_uid),
			       &d));
	if (st.st_mode & (S_IWGRP | S_IWOTH))
		return report(l, -EPERM,
			      (fbac_diag_at(&d, &m, -EPERM,
					    "refusing administrator's layer: writable by group or others (mode %04o)",
					    (unsigned)(st.st_mode & 07777)),
			       &d));
	return 0;
}

static int load_file(struct layers *l, const char *path, bool trusted)
{
	const struct fbac_parsed *parsed;
	struct fbac_parsed own;
	struct fbac_diags all = { 0 };
	int r;

	if (trusted && (r = check_trusted(l, path)) < 0)
		return r == -ENOMEM ? r : 0; /* reported and counted */
	/* Parsed ahead unless it is the administrator's (checked first). */
	parsed = trusted ? NULL : prefetch_get(l->prefetch, path);
	if (!parsed) {
		if ((r = fbac_profile_parse_file(l->lib->arena, path, &own)) < 0)
			return r;
		parsed = &own;
	}
	/* Every problem of the file, not only its first. */
	r = fbac_profile_load_parsed_all(l->lib, parsed, &all);
	if (r == -ENOMEM) {
		fbac_diags_free(&all);
		return r;
	}
	if (r < 0 && !all.n && !all.dropped) {
		struct fbac_diag d = { 0 };
		struct fbac_mark m = { path, 0, 0 };

		/* A refusal without a diagnostic is never silent. */
		fbac_diag_at(&d, &m, r, "cannot load: %s", strerror(-r));
		report(l, r, &d);
	} else if (r < 0) {
		report_all(l, &all);
	} else {
		l->files++;
	}
	fbac_diags_free(&all);
	return 0;
}

static int filter(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

static int load_dir(struct layers *l, const char *dir, bool trusted,
		    unsigned depth)
{
	struct dirent **list = NULL;
	struct fbac_diag d = { 0 };
	struct fbac_mark m = { dir, 0, 0 };
	int n, r = 0;

	if (trusted && (r = check_trusted(l, dir)) < 0)
		return r == -ENOMEM ? r : 0;
	if (depth > FBAC_MAX_DIR_DEPTH)
		return report(l, -E2BIG,
			      (fbac_diag_at(&d, &m, -E2BIG,
					    "directories nested deeper than %d levels",
					    FBAC_MAX_DIR_DEPTH),
			       &d)) == -ENOMEM ?
			       -ENOMEM :
			       0;
	n = scandir(dir, &list, filter, alphasort);
	if (n < 0) {
		fbac_diag_at(&d, &m, -errno, "cannot read directory: %s",
			     strerror(errno));
		report(l, -errno, &d);
		return 0;
	}
	for (int i = 0; i < n; i++) {
		char path[PATH_MAX];
		struct stat st;

		if (r >= 0 &&
		    snprintf(path, sizeof(path), "%s/%s", dir,
			     list[i]->d_name) < (int)sizeof(path) &&
		    stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				r = load_dir(l, path, trusted, depth + 1);
			else if (has_yaml_suffix(list[i]->d_name))
				r = load_file(l, path, trusted);
		}
		free(list[i]);
	}
	free(list);
	return r;
}

static int load_layer(struct layers *l, enum fbac_layer_kind kind,
		      const char *name, const char *dir, bool required)
{
	struct fbac_diag d = { 0 };
	struct fbac_mark m = { dir, 0, 0 };
	struct stat st;
	int r;

	if (stat(dir, &st) < 0) {
		if (errno == ENOENT && !required)
			return 0;
		fbac_diag_at(&d, &m, -errno, "cannot open %s layer: %s", name,
			     strerror(errno));
		return report(l, -errno, &d) == -ENOMEM ? -ENOMEM : 0;
	}
	r = fbac_library_add_layer(l->lib, kind, name, dir);
	if (r < 0) {
		fbac_diag_at(&d, &m, r, "more than %d layers",
			     FBAC_MAX_LAYERS);
		return report(l, r, &d) == -ENOMEM ? -ENOMEM : 0;
	}
	if (S_ISDIR(st.st_mode)) {
		const char *const *walked;
		size_t n;

		/* The library directory: as prefetch found it, not walked again. */
		if (kind != FBAC_LAYER_ADMIN &&
		    (walked = prefetch_walk(l->prefetch, dir, &n))) {
			for (size_t i = 0; i < n; i++)
				if ((r = load_file(l, walked[i], false)) < 0)
					return r;
			return 0;
		}
		return load_dir(l, dir, kind == FBAC_LAYER_ADMIN, 0);
	}
	return load_file(l, dir, kind == FBAC_LAYER_ADMIN);
}

static char *read_small(const char *path)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char *buf;
	size_t n;

	if (!f)
		return NULL;
	buf = malloc(65536);
	if (!buf)
		return NULL;
	n = fread(buf, 1, 65535, f);
	buf[n] = 0;
	return buf;
}

static const char *abs_env(const char *name)
{
	const char *v = getenv(name);

	return v && v[0] == '/' ? v : NULL;
}

static int build_envs(struct layers *l)
{
	_cleanup_free_ char *dirs = NULL;
	struct passwd *pw = getpwuid(getuid());
	const char *pw_home = pw && pw->pw_dir && pw->pw_dir[0] == '/' ?
				      pw->pw_dir :
				      "/nonexistent";
	char uidbuf[32], path[PATH_MAX];
	struct fbac_env_input in = { 0 }, tin = { 0 };
	int r;

	snprintf(uidbuf, sizeof(uidbuf), "%u", (unsigned)getuid());
	/* The caller's own layers follow the caller's environment... */
	in.home = abs_env("HOME") ? abs_env("HOME") : pw_home;
	in.user = pw ? pw->pw_name : uidbuf;
	in.uid = (unsigned)getuid();
	in.xdg_config_home = abs_env("XDG_CONFIG_HOME");
	in.xdg_data_home = abs_env("XDG_DATA_HOME");
	in.xdg_cache_home = abs_env("XDG_CACHE_HOME");
	in.xdg_state_home = abs_env("XDG_STATE_HOME");
	in.xdg_runtime_dir = abs_env("XDG_RUNTIME_DIR");
	snprintf(path, sizeof(path), "%s/user-dirs.dirs",
		 in.xdg_config_home ? in.xdg_config_home : "");
	if (!in.xdg_config_home)
		snprintf(path, sizeof(path), "%s/.config/user-dirs.dirs",
			 in.home);
	dirs = read_small(path);
	in.user_dirs = dirs;
	if ((r = fbac_env_init(&l->env, l->arena, &in)) < 0)
		return log_error(r, "cannot set up variables: home '%s' is not usable",
				 in.home);
	/* ...the administrator's layer only what the caller cannot change. */
	tin.home = pw_home;
	tin.user = in.user;
	tin.uid = in.uid;
	if ((r = fbac_env_init(&l->trusted_env, l->arena, &tin)) < 0)
		return log_error(r, "cannot set up variables for the administrator's layer");
	return 0;
}

/* One cache file per library directory, named by a hash of its name. */
static void library_cache_path(struct layers *l, const char *datadir)
{
	char name[64];

	snprintf(name, sizeof(name), "library-%016llx.cache",
		 (unsigned long long)fbac_checksum(datadir, strlen(datadir)));
	if (cache_path(&l->env, name, l->cache_path, sizeof(l->cache_path)) <
	    0)
		l->cache_path[0] = 0;
}

static bool already_loaded(const struct fbac_library *lib, const char *path)
{
	char want[PATH_MAX], have[PATH_MAX];

	if (!realpath(path, want))
		return false;
	for (unsigned i = 0; i < lib->n_layers; i++) {
		size_t n;

		if (!lib->layers[i].dir || !realpath(lib->layers[i].dir, have))
			continue;
		n = strlen(have);
		if (!strncmp(want, have, n) && (want[n] == 0 || want[n] == '/'))
			return true;
	}
	return false;
}

/* Whether dir looks like a library: protected paths and functionalities. */
static bool holds_library(const char *dir)
{
	char path[PATH_MAX];
	struct stat st;

	return snprintf(path, sizeof(path), "%s/protected.yaml", dir) <
		       (int)sizeof(path) &&
	       stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	       snprintf(path, sizeof(path), "%s/functionalities", dir) <
		       (int)sizeof(path) &&
	       stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * The library layer: FBAC_DATADIR; else, for a program that is not the
 * installed one (its directory is not BINDIR), the profiles/ of the tree
 * it was built in, beside its build directory, when that holds a
 * library; else the installed library. Return: the directory, in buf
 * when found from our executable.
 */
static const char *library_dir(char *buf, size_t size)
{
	const char *env = getenv("FBAC_DATADIR");
	char exe[PATH_MAX], *slash;
	ssize_t n;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return FBAC_DATADIR;
	exe[n] = 0;
	/* The executable's directory, then the tree above it. */
	if (!(slash = strrchr(exe, '/')) || slash == exe)
		return FBAC_DATADIR;
	*slash = 0;
	if (streq(exe, FBAC_BINDIR) || !(slash = strrchr(exe, '/')))
		return FBAC_DATADIR;
	*slash = 0;
	if (snprintf(buf, size, "%s/profiles", exe) >= (int)size ||
	    !holds_library(buf))
		return FBAC_DATADIR;
	return buf;
}

/* A missing library is said once, with what to do, before anything is
 * read: every command needs it. */
static int check_library(const char *datadir)
{
	const char *named = getenv("FBAC_DATADIR");
	struct stat st;
	int e;

	if (stat(datadir, &st) == 0)
		return 0;
	e = errno;
	if (named && *named)
		return log_error(-e, "missing library '%s' (%s), named by FBAC_DATADIR: set it to a library directory, such as profiles/ in fbac's source tree, or unset it",
				 datadir, strerror(e));
	return log_error(-e, "missing library '%s' (%s): install it with 'make install' in fbac's source tree, or set FBAC_DATADIR to a library directory, such as that tree's profiles/",
			 datadir, strerror(e));
}

static int add_dir(struct layers *l, enum fbac_layer_kind kind,
		   const char *name, const char *dir, bool required)
{
	struct layer_dir *d;

	if (l->n_dirs >= FBAC_MAX_LAYERS)
		return log_error(-E2BIG, "more than %d layers", FBAC_MAX_LAYERS);
	d = &l->dirs[l->n_dirs];
	d->kind = kind;
	d->required = required;
	d->name = fbac_arena_strdup(l->arena, name);
	d->dir = fbac_arena_strdup(l->arena, dir);
	if (!d->name || !d->dir)
		return log_error(-ENOMEM, "out of memory");
	l->n_dirs++;
	return 0;
}

int layers_begin(const struct layers_options *o, struct layers *out)
{
	*out = (struct layers){ 0 };
	struct layers l = { 0 };
	const char *sysadmin = FBAC_SYSCONFDIR;
	char databuf[PATH_MAX];
	const char *datadir = library_dir(databuf, sizeof(databuf));
	const char *admindir = getenv("FBAC_ADMIN_DIR");
	const char *userdir = getenv("FBAC_USER_DIR");
	char userbuf[PATH_MAX];
	int r;

	l.lib = fbac_library_new();
	l.arena = fbac_arena_new();
	if (!l.lib || !l.arena) {
		layers_free(&l);
		return log_error(-ENOMEM, "out of memory");
	}
	if ((r = build_envs(&l)) < 0)
		goto fail;
	if (o->env_ready)
		o->env_ready(o->env_ready_ctx, &l);
	if (!userdir) {
		snprintf(userbuf, sizeof(userbuf), "%s/fbac",
			 fbac_env_get(&l.env, "XDG_CONFIG_HOME", 15));
		userdir = userbuf;
	}
	/*
	 * FBAC_ADMIN_DIR adds an administrator's layer (it must exist and be
	 * root's); it never replaces the system's, so the caller's
	 * environment cannot remove the mandatory layer.
	 */
	if ((r = check_library(datadir)) < 0)
		goto fail;
	if (o->cache)
		library_cache_path(&l, datadir);
	if ((r = add_dir(&l, FBAC_LAYER_LIBRARY, "library", datadir, true)) < 0 ||
	    (r = add_dir(&l, FBAC_LAYER_ADMIN, "admin", sysadmin, false)) < 0 ||
	    (admindir && *admindir && strcmp(admindir, sysadmin) &&
	     (r = add_dir(&l, FBAC_LAYER_ADMIN, "admin", admindir, true)) < 0) ||
	    (r = add_dir(&l, FBAC_LAYER_USER, "user", userdir, false)) < 0)
		goto fail;
	for (size_t i = 0; i < o->n_extra; i++)
		if ((r = add_dir(&l, FBAC_LAYER_EXTRA, o->extra_dirs[i],
				 o->extra_dirs[i], true)) < 0)
			goto fail;
	*out = l;
	return 0;
fail:
	layers_free(&l);
	return r == -ENOMEM ? r : -EINVAL;
}

int layers_finish(const struct layers_options *o, struct layers *l)
{
	struct fbac_diags all = { 0 };
	int r;

	if ((r = prefetch_dir(l->lib, l->dirs[0].dir,
			      l->cache_path[0] ? l->cache_path : NULL,
			      &l->prefetch)) < 0)
		return r;
	for (size_t i = 0; i < l->n_dirs; i++)
		if ((r = load_layer(l, l->dirs[i].kind, l->dirs[i].name,
				    l->dirs[i].dir, l->dirs[i].required)) < 0)
			return r;
	for (size_t i = 0; i < o->n_check; i++) {
		if (already_loaded(l->lib, o->check_paths[i]))
			continue;
		if ((r = load_layer(l, FBAC_LAYER_EXTRA, o->check_paths[i],
				    o->check_paths[i], true)) < 0)
			return r;
	}
	r = fbac_library_link_all(l->lib, &all);
	if (r == -ENOMEM) {
		fbac_diags_free(&all);
		return r;
	}
	report_all(l, &all);
	return l->errors ? -EINVAL : 0;
}

int layers_load(const struct layers_options *o, struct layers *out)
{
	int r = layers_begin(o, out);

	if (r < 0)
		return r;
	r = layers_finish(o, out);
	/* Only running out of memory stops loading; the rest is counted. */
	if (r < 0 && r != -EINVAL) {
		layers_free(out);
		return r == -ENOMEM ? r : -EINVAL;
	}
	return r;
}

void layers_free(struct layers *l)
{
	l->prefetch = prefetch_free(l->prefetch);
	l->lib = fbac_library_free(l->lib);
	l->arena = fbac_arena_free(l->arena);
}

int layers_env(struct layers *out)
{
	int r;

	*out = (struct layers){ 0 };
	out->arena = fbac_arena_new();
	if (!out->arena)
		return log_error(-ENOMEM, "out of memory");
	if ((r = build_envs(out)) < 0) {
		layers_free(out);
		return r;
	}
	return 0;
}
