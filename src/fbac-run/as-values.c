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

static int encode_marker(void *ctx, void **buf, size_t *len)
{
	(void)ctx;
	*buf = strdup("shown\n");
	*len = 6;
	return *buf ? 0 : -ENOMEM;
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
	if (!show)
		return 0;
	params_print(out, prefix, p);
	if (p->n_lines)
		fprintf(out, "%sinferred in %.1f ms; keep a value with 'fbac set %s TYPE.PARAM=VALUE'\n",
			prefix, ip->ms, p->program);
	fflush(out);
	if (marker_path(l, sc, path, sizeof(path)) == 0)
		(void)cache_write(path, encode_marker, NULL);
	return 0;
}
