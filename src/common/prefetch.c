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
#include <unistd.h>

#include "fbac-limits.h"

struct prefetched {
	char *path;
	struct fbac_parsed parsed;
	int err; /* -ENOMEM, or 0 when parsed holds the result */
	bool done;
};

struct prefetch {
	struct prefetched *v;
	size_t n, cap;
	size_t next;   /* the next file a worker takes (atomic) */
	size_t cursor; /* where the loader's next lookup starts */
};

struct worker {
	struct prefetch *pf;
	struct fbac_arena *arena;
	pthread_t thread;
	bool started;
};

static int add_file(struct prefetch *pf, const char *path)
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
	pf->v[pf->n] = (struct prefetched){ .path = strdup(path) };
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

	if (depth > FBAC_MAX_DIR_DEPTH)
		return 0;
	n = scandir(dir, &list, visible, alphasort);
	if (n < 0)
		return 0;
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
				r = add_file(pf, path);
		}
		free(list[i]);
	}
	free(list);
	return r == -E2BIG ? 0 : r;
}

static void *work(void *arg)
{
	struct worker *w = arg;
	struct prefetch *pf = w->pf;

	for (;;) {
		size_t i = __atomic_fetch_add(&pf->next, 1, __ATOMIC_RELAXED);

		if (i >= pf->n)
			return NULL;
		pf->v[i].err = fbac_profile_parse_file(w->arena, pf->v[i].path,
						       &pf->v[i].parsed);
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

int prefetch_dir(struct fbac_library *lib, const char *dir,
		 struct prefetch **out)
{
	_cleanup_(prefetch_freep) struct prefetch *pf = calloc(1, sizeof(*pf));
	struct worker w[FBAC_MAX_LOAD_THREADS] = { 0 };
	size_t n_workers;
	int r;

	*out = NULL;
	if (!pf)
		return -ENOMEM;
	if ((r = collect(pf, dir, 0)) < 0)
		return r;
	if (pf->n == 0)
		return 0;
	n_workers = workers_wanted(pf->n);
	if (n_workers > FBAC_MAX_LOAD_THREADS - lib->n_adopted)
		n_workers = FBAC_MAX_LOAD_THREADS - lib->n_adopted;
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
	if (w[0].arena)
		work(&w[0]);
	for (size_t i = 1; i < n_workers; i++)
		if (w[i].started)
			pthread_join(w[i].thread, NULL);
	*out = TAKE_PTR(pf);
	return 0;
}

const struct fbac_parsed *prefetch_get(struct prefetch *pf, const char *path)
{
	if (!pf)
		return NULL;
	/* The loader asks in the order the files were found. */
	for (size_t k = 0; k < pf->n; k++) {
		size_t i = (pf->cursor + k) % pf->n;
		struct prefetched *p = &pf->v[i];

		if (!strcmp(p->path, path)) {
			pf->cursor = i + 1;
			return __atomic_load_n(&p->done, __ATOMIC_ACQUIRE) &&
					       p->err == 0 ?
				       &p->parsed :
				       NULL;
		}
	}
	return NULL;
}

struct prefetch *prefetch_free(struct prefetch *pf)
{
	if (pf) {
		for (size_t i = 0; i < pf->n; i++)
			free(pf->v[i].path);
		free(pf->v);
		free(pf);
	}
	return NULL;
}
