/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for lib/wrap.c: the input as a desktop entry to
 * rewrite (the output must be recognised as fbac's copy and rewrite
 * again), as a wrapper to parse back, and as an option of a wrapper
 * formatted and parsed back.
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
	/* The input as one option: what is formatted parses back. */
	{
		char *opt = strndup(in, size), *text = NULL;
		const char *opts[2] = { "--as", opt };

		if (!opt)
			abort();
		r = fbac_wrapper_format("/usr/bin/fbac-run", "/usr/bin/less", opts, 2,
					NULL, &text);
		if (r == 0) {
			if (fbac_wrapper_parse(text, strlen(text), &w) != 0 ||
			    strcmp(w.program, "/usr/bin/less"))
				abort();
			free(text);
		} else if (r != -EINVAL && r != -E2BIG && r != -ENOMEM) {
			abort();
		}
		free(opt);
	}
	r = fbac_wrapper_parse(in, size, &w);
	if (r != 0 && r != -ENOMSG && r != -EINVAL && r != -E2BIG)
		abort();
	if (r == 0 && (w.program[0] != '/' || w.fbac_run[0] != '/'))
		abort();
	return 0;
}
