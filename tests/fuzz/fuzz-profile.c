/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the profile parser: any byte string must be either
 * loaded or refused with a diagnostic, without crashing, leaking or
 * reading out of bounds. `make fuzz` runs it; seeds come from
 * tests/fuzz/corpus/profile/, profiles/ and tests/fixtures/.
 *
 * A loaded input is then linked and statically checked, so that the whole
 * path from bytes to a checked library is covered; a refusal must come
 * with a diagnostic (the contract of fbac_profile_load_buffer()).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fbac_diag diag; /* large: keep it off the stack */
	char text[FBAC_MAX_DIAG + FBAC_MAX_PATH + 64];
	struct fbac_library *lib;
	int r;

	lib = fbac_library_new();
	if (!lib)
		return 0;

	memset(&diag, 0, sizeof(diag));
	r = fbac_profile_load_buffer(lib, "fuzz.yaml", (const char *)data,
				     size, &diag);
	if (r < 0) {
		/* A refusal must say why, and the message must format. */
		if ((r == -EINVAL || r == -E2BIG) && !fbac_diag_isset(&diag))
			__builtin_trap();
		fbac_diag_format(&diag, text, sizeof(text));
		goto out;
	}

	fbac_diag_clear(&diag);
	if (fbac_library_link(lib, &diag) < 0) {
		fbac_diag_format(&diag, text, sizeof(text));
		goto out;
	}
	for (size_t i = 0; i < lib->n_funcs; i++) {
		fbac_diag_clear(&diag);
		(void)fbac_check_functionality(lib, lib->funcs[i], &diag);
	}
	for (size_t i = 0; i < lib->n_apps; i++) {
		fbac_diag_clear(&diag);
		(void)fbac_check_application(lib, lib->apps[i], &diag);
	}
	/* Loads after a successful link are refused, not merged. */
	fbac_diag_clear(&diag);
	(void)fbac_profile_load_buffer(lib, "again.yaml", (const char *)data,
				       size, &diag);

out:
	lib = fbac_library_free(lib);
	return 0;
}
