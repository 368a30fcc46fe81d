/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Writing and reading the binary caches (ycache.c, scache.c): native byte
 * order (each cache's header checks it), strings as u32 length, bytes,
 * NUL. The writer grows a malloc'd buffer up to FBAC_MAX_CACHE_SIZE and
 * keeps its first error; the reader never reads past its end and keeps a
 * sticky "bad" flag, so a decoder checks once after a group of reads.
 */
#ifndef FBAC_BLOB_H
#define FBAC_BLOB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fbac_blob_out {
	unsigned char *p; /* malloc'd; the caller frees it */
	size_t len, cap;
	int err; /* 0, -E2BIG or -ENOMEM: the first error */
};

/* Append n bytes, a little-endian integer, or a length and its string;
 * a failure is kept in o->err and later puts do nothing. */
void fbac_blob_put(struct fbac_blob_out *o, const void *v, size_t n);
void fbac_blob_put_u8(struct fbac_blob_out *o, uint8_t v);
void fbac_blob_put_u32(struct fbac_blob_out *o, uint32_t v);
void fbac_blob_put_u64(struct fbac_blob_out *o, uint64_t v);
void fbac_blob_put_str(struct fbac_blob_out *o, const char *s, size_t len);

struct fbac_blob_in {
	const unsigned char *p, *end;
	bool bad;
};

/* n bytes, or NULL (and bad) when fewer are left. */
const unsigned char *fbac_blob_take(struct fbac_blob_in *i, size_t n);
uint8_t fbac_blob_get_u8(struct fbac_blob_in *i);
uint32_t fbac_blob_get_u32(struct fbac_blob_in *i);
uint64_t fbac_blob_get_u64(struct fbac_blob_in *i);
/* A string of at most max bytes without NUL, NUL-terminated in place: it
 * points into the input. NULL (and bad) otherwise. */
const char *fbac_blob_get_str(struct fbac_blob_in *i, size_t max, size_t *len);

/*
 * A cache file's header of hdr bytes ends with the payload's length and
 * checksum (u64 each); the payload follows it. fbac_blob_seal sets both
 * to match buf (len bytes): -EINVAL when len < hdr. fbac_blob_sealed:
 * whether they match.
 */
int fbac_blob_seal(void *buf, size_t len, size_t hdr);
bool fbac_blob_sealed(const void *buf, size_t len, size_t hdr);

/* Pointer -> index (what an encoder numbered already), open addressing. */
struct fbac_ptr_index {
	const void **keys;
	uint32_t *values;
	size_t cap, n;
};

/* Return: 0 or -ENOMEM. */
int fbac_ptr_index_put(struct fbac_ptr_index *m, const void *key, uint32_t v);
bool fbac_ptr_index_get(const struct fbac_ptr_index *m, const void *key,
			uint32_t *v);
void fbac_ptr_index_free(struct fbac_ptr_index *m);

#endif
