/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for fbac learn's reading of fbac-run logs
 * (lib/propose-obs.c): every line of the input must be added or refused
 * with a diagnostic, never crash, leak or read out of bounds; what was
 * added must finish, and each path kept must be normalised, and must
 * generalise into a pattern no longer than itself.
 *
 * `make fuzz` runs it; seeds come from tests/fuzz/corpus/learnlog/.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "path.h"
#include "propose.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fbac_observations o;
	const char *s = (const char *)data, *end = s + size;
	char out[FBAC_MAX_PATH];

	if (fbac_obs_init(&o) < 0)
		return 0;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		size_t len = nl ? (size_t)(nl - s) : (size_t)(end - s);
		struct fbac_diag d = { 0 };
		int r = fbac_obs_add_line(&o, s, len, &d);

		if (r < 0 && r != -EINVAL && r != -E2BIG && r != -ENOMEM)
			abort();
		if (r == -EINVAL && !fbac_diag_isset(&d))
			abort(); /* every refusal says why */
		s += len + (nl != NULL);
	}
	if (fbac_obs_finish(&o) < 0)
		abort();
	for (size_t i = 0; i < o.n; i++) {
		const char *p = o.v[i].q.path;

		if (i && o.v[i - 1].q.op > o.v[i].q.op)
			abort(); /* sorted */
		if (!p || p[0] != '/')
			continue;
		if (!fbac_path_is_normal(p))
			abort();
		if (fbac_generalize_path(p, FBAC_OP_BIT(o.v[i].q.op), out,
					 sizeof(out)) < 0 ||
		    strlen(out) > strlen(p))
			abort();
	}
	fbac_obs_clear(&o);
	return 0;
}
