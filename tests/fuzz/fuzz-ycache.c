/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the parsed-profile cache (lib/ycache.c), two ways:
 *
 *   - the input as a cache blob, resealed so that the checksum does not
 *     stop the mutations at the door: it must decode or be refused, without
 *     crashing, leaking or reading out of bounds;
 *   - the input as a profile text: what parses must encode, and decode to
 *     the very tree it was parsed into (abort otherwise).
 *
 * `make fuzz` runs it; seeds come from tests/fuzz/corpus/ycache/ (blobs),
 * profiles/ and tests/fixtures/ (texts).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "ycache.h"
#include "../unit/ytree-equal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const uint64_t key[FBAC_YCACHE_KEY_WORDS] = { 0 };

static void as_blob(const uint8_t *data, size_t size)
{
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_ycache_file *files;
	unsigned char *copy = malloc(size ? size : 1);
	size_t n;
	int r;

	if (!a || !copy)
		abort();
	memcpy(copy, data, size);
	(void)fbac_ycache_seal(copy, size);
	r = fbac_ycache_decode(a, key, copy, size, &files, &n);
	if (r != 0 && r != -EBADMSG && r != -ESTALE && r != -ENOMEM)
		abort();
	free(copy);
	fbac_arena_free(a);
}

static void as_text(const uint8_t *data, size_t size)
{
	static struct fbac_parsed p; /* large: keep it off the stack */
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_ycache_file f, *out;
	void *buf = NULL;
	size_t len, n;

	if (!a)
		abort();
	if (fbac_profile_parse_buffer(a, "fuzz.yaml", (const char *)data, size,
				      &p) < 0 ||
	    p.err) {
		fbac_arena_free(a);
		return;
	}
	f = (struct fbac_ycache_file){ "fuzz.yaml", { 0 }, p.docs, p.n_docs };
	if (fbac_ycache_encode(key, &f, 1, &buf, &len) < 0)
		abort();
	if (fbac_ycache_decode(a, key, buf, len, &out, &n) != 0 || n != 1 ||
	    !ydocs_equal(p.docs, p.n_docs, out->docs, out->n_docs))
		abort();
	free(buf);
	fbac_arena_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	as_blob(data, size);
	as_text(data, size);
	return 0;
}
