/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "stack-cache.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "checksum.h"
#include "fbac-limits.h"
#include "scache.h"

static void put_s(struct fbac_blob_out *o, const char *s)
{
	fbac_blob_put_str(o, s ? s : "", s ? strlen(s) : 0);
	fbac_blob_put_u8(o, s != NULL);
}

static void put_env(struct fbac_blob_out *o, const struct fbac_env *env)
{
	fbac_blob_put_u32(o, (uint32_t)env->n);
	for (size_t i = 0; i < env->n; i++) {
		put_s(o, env->names[i]);
		put_s(o, env->values[i]);
	}
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The visible names of d, sorted; NULL on error. */
static char **list_dir(DIR *d, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;
	struct dirent *e;

	*n = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		if (*n == cap) {
			char **w;

			cap = cap ? cap * 2 : 32;
			if (cap > FBAC_MAX_FILES ||
			    !(w = realloc(v, cap * sizeof(*v))))
				goto fail;
			v = w;
		}
		if (!(v[*n] = strdup(e->d_name)))
			goto fail;
		++*n;
	}
	if (*n)
		qsort(v, *n, sizeof(*v), cmp_name);
	return v ? v : calloc(1, sizeof(*v));
fail:
	while (*n)
		free(v[--*n]);
	free(v);
	return NULL;
}

/*
 * name (in the directory at) and, for a directory, all below it, as
 * layers.c load_dir walks (stat(2), no dot entries, FBAC_MAX_DIR_DEPTH
 * levels; the key's order is by name), each stat relative to its
 * directory: no path walked again from the root.
 */
static void walk(struct stack_cache *sc, int at, const char *name,
		 unsigned depth, uint64_t now_ns)
{
	struct fbac_blob_out *o = &sc->key;
	struct stat st;
	char **names;
	DIR *d;
	size_t n;
	int fd;

	if (fstatat(at, name, &st, 0) < 0) {
		fbac_blob_put_u8(o, 0);
		fbac_blob_put_u32(o, (uint32_t)errno);
		if (errno != ENOENT)
			sc->usable = false;
		return;
	}
	fbac_blob_put_u8(o, 1);
	fbac_blob_put_u64(o, st.st_dev);
	fbac_blob_put_u64(o, st.st_ino);
	fbac_blob_put_u64(o, (uint64_t)st.st_size);
	fbac_blob_put_u64(o, cache_ns(&st.st_mtim));
	fbac_blob_put_u64(o, cache_ns(&st.st_ctim));
	fbac_blob_put_u32(o, st.st_mode);
	fbac_blob_put_u32(o, st.st_uid);
	if (cache_racy(&st.st_mtim, &st.st_ctim, now_ns))
		sc->racy = true;
	if (!S_ISDIR(st.st_mode))
		return;
	if (depth > FBAC_MAX_DIR_DEPTH) {
		sc->usable = false;
		return;
	}
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = fd < 0 ? NULL : fdopendir(fd);
	names = d ? list_dir(d, &n) : NULL;
	if (!names) {
		if (d)
			closedir(d);
		else if (fd >= 0)
			close(fd);
		sc->usable = false;
		return;
	}
	fbac_blob_put_u32(o, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		put_s(o, names[i]);
		if (sc->usable)
			walk(sc, dirfd(d), names[i], depth + 1, now_ns);
		free(names[i]);
	}
	free(names);
	closedir(d);
}

int stack_cache_key(struct stack_cache *sc, const struct layers *l,
		    const char *exe, const char *const *as, size_t n_as,
		    const struct fbac_define *defs, size_t n_defs,
		    const struct infer_program *ip)
{
	struct fbac_blob_out *o = &sc->key;
	uint64_t self[CACHE_KEY_WORDS];
	char real[PATH_MAX], name[64];
	struct timespec now;

	*sc = (struct stack_cache){ .usable = true };
	clock_gettime(CLOCK_REALTIME, &now);
	put_s(o, "fbac-run stack 1");
	if (cache_key(self) < 0)
		sc->usable = false;
	for (int i = 0; i < CACHE_KEY_WORDS; i++)
		fbac_blob_put_u64(o, sc->usable ? self[i] : 0);
	fbac_blob_put_u32(o, (uint32_t)getuid());
	fbac_blob_put_u32(o, (uint32_t)geteuid());
	put_env(o, &l->env);
	put_env(o, &l->trusted_env);
	fbac_blob_put_u32(o, (uint32_t)l->n_dirs);
	for (size_t i = 0; i < l->n_dirs && sc->usable; i++) {
		fbac_blob_put_u32(o, (uint32_t)l->dirs[i].kind);
		fbac_blob_put_u8(o, l->dirs[i].required);
		put_s(o, l->dirs[i].name);
		put_s(o, l->dirs[i].dir);
		walk(sc, AT_FDCWD, l->dirs[i].dir, 0, cache_ns(&now));
	}
	put_s(o, exe);
	/* Inference resolved the same path a moment ago (ip->exe is exe). */
	if (ip)
		put_s(o, !ip->resolved ? NULL : ip->real[0] ? ip->real : exe);
	else
		put_s(o, realpath(exe, real) ? real : NULL);
	fbac_blob_put_u32(o, (uint32_t)n_as);
	for (size_t i = 0; i < n_as; i++)
		put_s(o, as[i]);
	put_s(&sc->seen_key, exe);
	for (size_t i = 0; i < n_as; i++)
		put_s(&sc->seen_key, as[i]);
	fbac_blob_put_u32(o, (uint32_t)n_defs);
	for (size_t i = 0; i < n_defs; i++) {
		put_s(o, defs[i].func);
		put_s(o, defs[i].param);
		put_s(o, defs[i].value);
	}
	fbac_blob_put_u8(o, ip != NULL);
	if (ip)
		infer_key(ip, o);
	if (o->err == -ENOMEM || sc->seen_key.err == -ENOMEM)
		return -ENOMEM;
	if (o->err || o->len > FBAC_MAX_SCACHE_KEY)
		sc->usable = false;
	if (!sc->usable)
		return 0;
	snprintf(name, sizeof(name), "stack-%016llx.cache",
		 (unsigned long long)fbac_checksum(o->p, o->len));
	if (cache_path(&l->env, name, sc->path, sizeof(sc->path)) < 0)
		sc->path[0] = 0;
	return 0;
}

static void *arena_alloc(void *arena, size_t size)
{
	return fbac_arena_alloc(arena, size);
}

int stack_cache_load(struct stack_cache *sc, unsigned flags,
		     struct fbac_stack *st)
{
	_cleanup_(fbac_arena_freep) struct fbac_arena *a = NULL;
	struct fbac_diag d = { 0 };
	void *buf;
	size_t len;
	int r;

	if (!sc->usable || !sc->path[0])
		return -ENOENT;
	if (!(a = fbac_arena_new()))
		return -ENOMEM;
	if ((r = cache_read(sc->path, FBAC_MAX_CACHE_SIZE, arena_alloc, a, &buf,
			    &len)) < 0)
		return r;
	if ((r = fbac_scache_decode(sc->key.p, sc->key.len, buf, len, flags, st,
				    &d)) < 0)
		return r;
	sc->from_cache = true;
	return 0;
}

struct encode_ctx {
	struct stack_cache *sc;
	const struct fbac_stack *st;
};

static int encode(void *ctx, void **buf, size_t *len)
{
	struct encode_ctx *e = ctx;

	return fbac_scache_encode(e->sc->key.p, e->sc->key.len, e->st, buf,
				  len);
}

static int is_stack_cache(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return !strncmp(e->d_name, "stack-", 6) && n > 12 &&
	       !strcmp(e->d_name + n - 6, ".cache");
}

/* Beyond FBAC_MAX_STACK_CACHES stacks (each program, each set of -D),
 * the ones used least recently go: a hit does not rewrite its file, so
 * by age of writing, which is close enough. */
static void evict(const char *path)
{
	char dir[4096];
	struct dirent **list = NULL;
	struct {
		char name[256];
		struct timespec t;
	} *old = NULL;
	int n, k = 0;
	const char *slash = strrchr(path, '/');

	if (!slash || (size_t)(slash - path) >= sizeof(dir))
		return;
	snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	n = scandir(dir, &list, is_stack_cache, alphasort);
	if (n <= FBAC_MAX_STACK_CACHES) {
		for (int i = 0; i < n; i++)
			free(list[i]);
		free(list);
		return;
	}
	old = calloc((size_t)n, sizeof(*old));
	for (int i = 0; i < n; i++) {
		char p[4096 + 256];
		struct stat st;

		snprintf(p, sizeof(p), "%s/%s", dir, list[i]->d_name);
		if (old && lstat(p, &st) == 0 && S_ISREG(st.st_mode)) {
			snprintf(old[k].name, sizeof(old[k].name), "%s",
				 list[i]->d_name);
			old[k++].t = st.st_mtim;
		}
		free(list[i]);
	}
	free(list);
	while (old && k > FBAC_MAX_STACK_CACHES) {
		int o = 0;
		char p[4096 + 256];

		for (int i = 1; i < k; i++)
			if (old[i].t.tv_sec < old[o].t.tv_sec ||
			    (old[i].t.tv_sec == old[o].t.tv_sec &&
			     old[i].t.tv_nsec < old[o].t.tv_nsec))
				o = i;
		snprintf(p, sizeof(p), "%s/%s", dir, old[o].name);
		(void)unlink(p);
		/* The values printed for it (as-values.c) go with it. */
		snprintf(p, sizeof(p), "%s/values-%.16s", dir, old[o].name + 6);
		(void)unlink(p);
		old[o] = old[--k];
	}
	free(old);
}

void stack_cache_store(struct stack_cache *sc, const struct fbac_stack *st)
{
	struct encode_ctx e = { sc, st };

	if (!sc->usable || sc->racy || !sc->path[0] || sc->from_cache)
		return;
	if (cache_write(sc->path, encode, &e) == 0) {
		sc->written = true;
		evict(sc->path);
	}
}

void stack_cache_done(struct stack_cache *sc)
{
	free(sc->key.p);
	sc->key = (struct fbac_blob_out){ 0 };
	free(sc->seen_key.p);
	sc->seen_key = (struct fbac_blob_out){ 0 };
}
