/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "as-values.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "checksum.h"
#include "output.h"

/* One marker per program and --as list: the first run prints, later
 * ones with other arguments do not. */
static int marker_path(const struct layers *l, const struct stack_cache *sc,
		       char *out, size_t size)
{
	char name[64];

	snprintf(name, sizeof(name), "seen-%016llx",
		 (unsigned long long)fbac_checksum(sc->seen_key.p,
						   sc->seen_key.len));
	return cache_path(&l->env, name, out, size);
}

bool as_values_unseen(const struct layers *l, const struct stack_cache *sc)
{
	char path[4096];

	return marker_path(l, sc, path, sizeof(path)) == 0 &&
	       access(path, F_OK) < 0;
}

/* The lines printed for a compiled stack, kept beside it so that a run
 * from the cache prints them without reading the library. */
static int values_path(const struct layers *l, const struct stack_cache *sc,
		       char *out, size_t size)
{
	char name[64];

	snprintf(name, sizeof(name), "values-%016llx",
		 (unsigned long long)fbac_checksum(sc->key.p, sc->key.len));
	return cache_path(&l->env, name, out, size);
}

static void *alloc_plain(void *ctx, size_t size)
{
	(void)ctx;
	return malloc(size);
}

static int encode_marker(void *ctx, void **buf, size_t *len)
{
	(void)ctx;
	*buf = strdup("shown\n");
	*len = 6;
	return *buf ? 0 : -ENOMEM;
}

/* The values, and how to keep one (the same from the cache). */
static void print_lines(FILE *f, const char *prefix, const struct params *p)
{
	params_print(f, prefix, p);
	if (p->n_lines)
		fprintf(f, "%skeep a value with 'fbac set %s TYPE.PARAM=VALUE'\n",
			prefix, p->cmd);
}

static int encode_lines(void *ctx, void **buf, size_t *len)
{
	const struct params *p = ctx;
	FILE *f = open_memstream((char **)buf, len);

	if (!f)
		return -ENOMEM;
	print_lines(f, "", p);
	return fclose(f) == 0 ? 0 : -ENOMEM;
}

int as_values_print_cached(const struct layers *l,
			   const struct stack_cache *sc,
			   const struct infer_program *ip, FILE *out,
			   const char *prefix)
{
	_cleanup_free_ char *buf = NULL;
	char path[4096];
	size_t len;

	if (values_path(l, sc, path, sizeof(path)) < 0 ||
	    cache_read(path, 1 << 20, alloc_plain, NULL, (void **)&buf,
		       &len) < 0)
		return -ENOENT;
	for (char *line = buf, *nl; line < buf + len; line = nl + 1) {
		if (!(nl = memchr(line, '\n', (size_t)(buf + len - line))))
			break;
		fprintf(out, "%s%.*s\n", prefix, (int)(nl - line), line);
	}
	(void)ip;
	fflush(out);
	if (marker_path(l, sc, path, sizeof(path)) == 0)
		(void)cache_write(path, encode_marker, NULL);
	return 0;
}

int as_values_fill(const struct layers *l, const char *const *as,
		   size_t n_as, const struct fbac_define *defs, size_t n_defs,
		   const struct infer_program *ip, bool show, FILE *out,
		   const char *prefix, const struct stack_cache *sc,
		   struct params *p)
{
	struct params_input in = {
		.lib = l->lib, .env = &l->env, .trusted_env = &l->trusted_env,
		.as = as, .n_as = n_as, .defs = defs, .n_defs = n_defs,
		.ip = ip,
		.interactive = isatty(STDIN_FILENO),
	};
	char path[4096];
	int r = params_fill(&in, p);

	if (r < 0) {
		if (r == -ENOMEM)
			log_error(r, "out of memory");
		return r;
	}
	if (sc->usable && !p->asked && values_path(l, sc, path, sizeof(path)) == 0)
		(void)cache_write(path, encode_lines, p);
	if (!show)
		return 0;
	print_lines(out, prefix, p);
	fflush(out);
	if (marker_path(l, sc, path, sizeof(path)) == 0)
		(void)cache_write(path, encode_marker, NULL);
	return 0;
}
