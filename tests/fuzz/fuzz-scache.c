/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the compiled-stack cache (lib/scache.c): the input
 * as a cache blob, resealed so that the checksum does not stop the
 * mutations at the door. It must decode (and compile) or be refused,
 * without crashing, leaking or reading out of bounds, and a refusal
 * returns no entry.
 *
 * `make fuzz` runs it; seeds come from tests/fuzz/corpus/scache/ (blobs
 * written under the key "fuzz").
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "scache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fbac_stack st = { .n = 0 };
	struct fbac_diag d = { 0 };
	unsigned char *copy = malloc(size ? size : 1);
	int r;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	(void)fbac_scache_seal(copy, size);
	r = fbac_scache_decode("fuzz", 4, copy, size, 0, &st, &d);
	if (r > 0 || (r < 0 && st.n))
		abort();
	fbac_stack_clear(&st);
	free(copy);
	return 0;
}
