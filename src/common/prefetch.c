/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "prefetch.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fbac-limits.h"
#include "cache.h"
#include "ycache.h"

_Static_assert(CACHE_KEY_WORDS == FBAC_YCACHE_KEY_WORDS, "one key for both");

/* A file's documents, from the cache or parsed here; only a file parsed
 * here has a struct fbac_parsed (big: it can hold a diagnostic). */
struct prefetched {
	char *path;
	struct fbac_file_id id;
	const char *name; /* cached: the cache's copy of path (marks name it) */
	struct fbac_ydoc *docs;
	size_t n_docs;
	struct fbac_parsed *parsed;
	int err; /* -ENOMEM, or 0 when the documents or parsed are set */
	bool done, cached;
};

struct prefetch {
	struct prefetched *v;
	size_t n, cap;
	size_t next;   /* the next file a worker takes (atomic) */
	size_t cursor; /* where the loader's next lookup starts */
	char *dir;     /* what was walked */
	char *cache;   /* the cache file, or NULL */
	uint64_t key[CACHE_KEY_WORDS];
	/* prefetch_store_start/finish */
	struct cache_tmp tmp;
	bool storing, encoding;
	pthread_t encoder;
	void *encoded;
	size_t encoded_len;
	int encode_err;
	uint64_t now_ns; /* when the cache is written (see racy) */
	const char **paths; /* the files found, in order (v[i].path) */
	bool partial;  /* the walk met a problem: the loader walks again */
	struct prefetch_stats stats;
	struct fbac_parsed cached; /* what prefetch_get gives for a cached file */
};

struct worker {
	struct prefetch *pf;
	struct fbac_arena *arena;
	pthread_t thread;
	bool started;
};

static struct fbac_file_id file_id(const struct stat *st)
{
	return (struct fbac_file_id){
		.dev = st->st_dev,
		.ino = st->st_ino,
		.size = (uint64_t)st->st_size,
		.mtime_ns = cache_ns(&st->st_mtim),
		.ctime_ns = cache_ns(&st->st_ctim),
	};
}

static int add_file(struct prefetch *pf, const char *path,
		    const struct stat *st)
{
	if (pf->n == pf->cap) {
		size_t cap = pf->cap ? pf->cap * 2 : 64;
		struct prefetched *v;

		if (cap > FBAC_MAX_FILES)
			return -E2BIG;
		v = realloc(pf->v, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		pf->v = v;
		pf->cap = cap;
	}
	pf->v[pf->n] = (struct prefetched){ .path = strdup(path),
					    .id = file_id(st) };
	if (!pf->v[pf->n].path)
		return -ENOMEM;
	pf->n++;
	return 0;
}

static int visible(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

/* The loader's walk (layers.c load_dir): sorted, no dot files, bounded
 * depth, files named *.yaml. Errors end the walk quietly. */
static int collect(struct prefetch *pf, const char *dir, unsigned depth)
{
	struct dirent **list = NULL;
	int n, r = 0;

	if (depth > FBAC_MAX_DIR_DEPTH) {
		pf->partial = true;
		return 0;
	}
	n = scandir(dir, &list, visible, alphasort);
	if (n < 0) {
		pf->partial = true;
		return 0;
	}
	for (int i = 0; i < n; i++) {
		const char *name = list[i]->d_name;
		size_t len = strlen(name);
		char path[PATH_MAX];
		struct stat st;

		if (r >= 0 &&
		    snprintf(path, sizeof(path), "%s/%s", dir, name) <
			    (int)sizeof(path) &&
		    stat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				r = collect(pf, path, depth + 1);
			else if (len > 5 && !strcmp(name + len - 5, ".yaml"))
				r = add_file(pf, path, &st);
		}
		free(list[i]);
	}
	free(list);
	if (r == -E2BIG) {
		pf->partial = true;
		return 0;
	}
	return r;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct prefetch *pf = w->pf;

	for (;;) {
		size_t i = __atomic_fetch_add(&pf->next, 1, __ATOMIC_RELAXED);

		if (i >= pf->n)
			return NULL;
		if (pf->v[i].cached)
			continue;
		pf->v[i].parsed = fbac_arena_alloc(w->arena,
						   sizeof(*pf->v[i].parsed));
		pf->v[i].err = !pf->v[i].parsed ?
				       -ENOMEM :
				       fbac_profile_parse_file(w->arena,
							       pf->v[i].path,
							       pf->v[i].parsed);
		__atomic_store_n(&pf->v[i].done, true, __ATOMIC_RELEASE);
	}
}

static size_t workers_wanted(size_t files)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t n = cpus < 1 ? 1 : (size_t)cpus;

	if (n > FBAC_MAX_LOAD_THREADS)
		n = FBAC_MAX_LOAD_THREADS;
	/* A thread is worth its start only with a few files to parse. */
	if (n > files / 4 + 1)
		n = files / 4 + 1;
	return n;
}

static void *arena_alloc(void *arena, size_t size)
{
	return fbac_arena_alloc(arena, size);
}

/* Take every cached file whose identity is still the file's. */
static void use_cache(struct prefetch *pf, struct fbac_library *lib,
		      const uint64_t *key, const char *path)
{
	struct fbac_ycache_file *files;
	struct fbac_arena *arena = fbac_arena_new();
	size_t len = 0, n, at = 0;
	void *buf = NULL;

	if (!arena)
		return;
	if (cache_read(path, FBAC_MAX_CACHE_SIZE, arena_alloc, arena, &buf,
		       &len) < 0 ||
	    fbac_ycache_decode(arena, key, buf, len, &files, &n) < 0 ||
	    fbac_library_adopt(lib, arena) < 0) {
		fbac_arena_free(arena);
		return;
	}
	pf->stats.cache_entries = n;
	for (size_t k = 0; k < n; k++)
		for (size_t j = 0; j < pf->n; j++) {
			struct prefetched *p = &pf->v[(at + j) % pf->n];

			if (strcmp(p->path, files[k].path))
				continue;
			at = (at + j + 1) % pf->n;
			if (!memcmp(&p->id, &files[k].id, sizeof(p->id))) {
				p->name = files[k].path;
				p->docs = files[k].docs;
				p->n_docs = files[k].n_docs;
				p->cached = p->done = true;
				pf->stats.from_cache++;
			}
			break;
		}
}

/* A file parsed here (not taken from the cache) without error. */
static bool parsed_here(const struct prefetched *p)
{
	return !p->cached && p->done && p->err == 0 && p->parsed->err == 0;
}

/* See cache_racy(): a file parsed again until it is older. */
static bool racy(const struct prefetch *pf, const struct fbac_file_id *id)
{
	return id->mtime_ns + CACHE_RACY_NS > pf->now_ns ||
	       id->ctime_ns + CACHE_RACY_NS > pf->now_ns;
}

/* What parsed, as a cache file (cache_write's encoder). */
static int encode_cache(void *ctx, void **buf, size_t *len)
{
	struct prefetch *pf = ctx;
	_cleanup_free_ struct fbac_ycache_file *files = NULL;
	size_t n = 0;

	files = calloc(pf->n ? pf->n : 1, sizeof(*files));
	if (!files)
		return -ENOMEM;
	for (size_t i = 0; i < pf->n; i++) {
		const struct prefetched *p = &pf->v[i];

		if (p->cached)
			files[n++] = (struct fbac_ycache_file){
				p->path, p->id, p->docs, p->n_docs
			};
		else if (parsed_here(p) && !racy(pf, &p->id))
			files[n++] = (struct fbac_ycache_file){
				p->path, p->id, p->parsed->docs,
				p->parsed->n_docs
			};
	}
	return fbac_ycache_encode(pf->key, files, n, buf, len);
}

static void *encoder(void *arg)
{
	struct prefetch *pf = arg;

	pf->encode_err = encode_cache(pf, &pf->encoded, &pf->encoded_len);
	return NULL;
}

void prefetch_store_start(struct prefetch *pf)
{
	struct timespec now;
	size_t parsed = 0;

	if (!pf || !pf->cache)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	pf->now_ns = cache_ns(&now);
	for (size_t i = 0; i < pf->n; i++)
		parsed += parsed_here(&pf->v[i]);
	/* Rewritten when something parsed anew or the cache held more; not
	 * encoded at all when it cannot be written. */
	if ((!parsed && pf->stats.cache_entries == pf->stats.from_cache) ||
	    cache_begin(pf->cache, &pf->tmp) < 0)
		return;
	pf->storing = true;
	pf->encoding = pthread_create(&pf->encoder, NULL, encoder, pf) == 0;
	if (!pf->encoding)
		encoder(pf);
}

void prefetch_store_finish(struct prefetch *pf)
{
	if (!pf || !pf->storing)
		return;
	if (pf->encoding)
		pthread_join(pf->encoder, NULL);
	pf->encoding = pf->storing = false;
	if (pf->encode_err < 0)
		cache_abort(&pf->tmp);
	else
		pf->stats.cache_written = cache_commit(&pf->tmp, pf->encoded,
						       pf->encoded_len) == 0;
	free(pf->encoded);
	pf->encoded = NULL;
}

int prefetch_dir(struct fbac_library *lib, const char *dir,
		 const char *cache, struct prefetch **out)
{
	_cleanup_(prefetch_freep) struct prefetch *pf = calloc(1, sizeof(*pf));
	struct worker w[FBAC_MAX_LOAD_THREADS] = { 0 };
	size_t n_workers;
	int r;

	*out = NULL;
	if (!pf)
		return -ENOMEM;
	pf->dir = strdup(dir);
	if (!pf->dir)
		return -ENOMEM;
	if ((r = collect(pf, dir, 0)) < 0)
		return r;
	pf->stats.files = pf->n;
	if (pf->n == 0)
		return 0;
	pf->paths = malloc(pf->n * sizeof(*pf->paths));
	if (!pf->paths)
		return -ENOMEM;
	for (size_t i = 0; i < pf->n; i++)
		pf->paths[i] = pf->v[i].path;
	if (cache && cache_key(pf->key) == 0 && !(pf->cache = strdup(cache)))
		return -ENOMEM;
	if (pf->cache)
		use_cache(pf, lib, pf->key, pf->cache);
	n_workers = workers_wanted(pf->n - pf->stats.from_cache);
	if (n_workers > FBAC_MAX_LOAD_THREADS - lib->n_adopted)
		n_workers = FBAC_MAX_LOAD_THREADS - lib->n_adopted;
	if (pf->stats.from_cache == pf->n)
		n_workers = 0;
	for (size_t i = 0; i < n_workers; i++) {
		w[i].pf = pf;
		w[i].arena = fbac_arena_new();
		if (!w[i].arena || fbac_library_adopt(lib, w[i].arena) < 0) {
			fbac_arena_free(w[i].arena);
			w[i].arena = NULL;
			break;
		}
		/* The first worker is this thread. */
		if (i > 0)
			w[i].started = pthread_create(&w[i].thread, NULL, work,
						      &w[i]) == 0;
	}
	if (n_workers && w[0].arena)
		work(&w[0]);
	for (size_t i = 1; i < n_workers; i++)
		if (w[i].started)
			pthread_join(w[i].thread, NULL);
	*out = TAKE_PTR(pf);
	return 0;
}

struct prefetch_stats prefetch_stats(const struct prefetch *pf)
{
	return pf ? pf->stats : (struct prefetch_stats){ 0 };
}

const struct fbac_parsed *prefetch_get(struct prefetch *pf, const char *path)
{
	if (!pf)
		return NULL;
	/* The loader asks in the order the files were found. */
	for (size_t k = 0; k < pf->n; k++) {
		size_t i = (pf->cursor + k) % pf->n;
		struct prefetched *p = &pf->v[i];

		if (strcmp(p->path, path))
			continue;
		pf->cursor = i + 1;
		if (!__atomic_load_n(&p->done, __ATOMIC_ACQUIRE) || p->err)
			return NULL;
		if (!p->cached)
			return p->parsed;
		pf->cached.name = p->name;
		pf->cached.docs = p->docs;
		pf->cached.n_docs = p->n_docs;
		pf->cached.err = 0;
		return &pf->cached;
	}
	return NULL;
}

const char *const *prefetch_walk(const struct prefetch *pf, const char *dir,
				 size_t *n)
{
	if (!pf || pf->partial || strcmp(pf->dir, dir))
		return NULL;
	*n = pf->n;
	return pf->paths;
}

struct prefetch *prefetch_free(struct prefetch *pf)
{
	if (pf) {
		prefetch_store_finish(pf);
		free(pf->dir);
		free(pf->cache);
		free(pf->paths);
		for (size_t i = 0; i < pf->n; i++)
			free(pf->v[i].path);
		free(pf->v);
		free(pf);
	}
	return NULL;
}
