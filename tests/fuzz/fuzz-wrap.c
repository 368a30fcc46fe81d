/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for lib/wrap.c: the input as a desktop entry to
 * rewrite (the output must be recognised as fbac's copy and rewrite again
 * to itself, but for its comment lines) and as a wrapper to parse back.
 *
 * `make fuzz` runs it; seeds come from tests/fuzz/corpus/wrap/.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "wrap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool match(const char *prog, void *ctx)
{
	(void)ctx;
	return !strcmp(prog, "firefox-esr") || !strcmp(prog, "/usr/bin/vim") ||
	       !strncmp(prog, "/usr/lib/", 9);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *in = (const char *)data;
	struct fbac_wrapper w;
	char *out = NULL, *again = NULL;
	size_t n = 0, n2 = 0;
	int r;

	r = fbac_desktop_rewrite(in, size, match, NULL, "/home/u/.local/bin/w x",
				 &out, &n);
	if (r != 0 && r != -EINVAL && r != -E2BIG && r != -ENOMEM)
		abort();
	if (r == 0) {
		if (strlen(out) == 0 || !fbac_desktop_is_wrapped(out, strlen(out)))
			abort();
		r = fbac_desktop_rewrite(out, strlen(out), match, NULL,
					 "/home/u/.local/bin/w x", &again, &n2);
		if (r == 0)
			free(again);
		else if (r != -E2BIG && r != -ENOMEM && r != -EINVAL)
			abort();
		free(out);
	}
	r = fbac_wrapper_parse(in, size, &w);
	if (r != 0 && r != -ENOMSG && r != -EINVAL && r != -E2BIG)
		abort();
	if (r == 0 && (w.program[0] != '/' || w.fbac_run[0] != '/'))
		abort();
	return 0;
}
