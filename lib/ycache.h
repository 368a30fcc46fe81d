/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Parsed profile files as one binary blob, so that a later start can skip
 * libyaml (most of fbac-run's start-up) for files that have not changed.
 * Each file is stored with the identity it had when it was parsed; the
 * caller compares identities and uses only what still matches.
 *
 * Decoding trusts nothing: every length and index is bounded, nodes may
 * only refer to nodes stored before them (so the graph has no cycle), and
 * the structural rules of the YAML builder (scalar size, no NUL, scalar
 * and unique mapping keys, node and visit limits) are checked again.
 * Whoever can write the blob still decides the policy: the caller keeps
 * it where no confined program may write (protected.yaml).
 */
#ifndef FBAC_YCACHE_H
#define FBAC_YCACHE_H

#include <stddef.h>
#include <stdint.h>

#include "yaml-tree.h"

/* What a file was when it was parsed: any change to it changes ctime. */
struct fbac_file_id {
	uint64_t dev, ino, size, mtime_ns, ctime_ns;
};

/* Who wrote the blob (the caller's choice, e.g. its executable's id):
 * a blob written under another key is stale. */
#define FBAC_YCACHE_KEY_WORDS 4

/* A file that parsed (the cache holds no failures), as its documents. */
struct fbac_ycache_file {
	const char *path;
	struct fbac_file_id id;
	struct fbac_ydoc *docs;
	size_t n_docs;
};

/*
 * Encode files (their paths are the names the loader uses) into a
 * malloc'd buffer. Return: 0, -E2BIG beyond the
 * limits (FBAC_MAX_CACHE_SIZE, FBAC_MAX_FILES), or -ENOMEM.
 */
int fbac_ycache_encode(const uint64_t key[FBAC_YCACHE_KEY_WORDS],
		       const struct fbac_ycache_file *files, size_t n,
		       void **ret_buf, size_t *ret_len);

/*
 * Decode buf into arena: *ret_files (n_files) with their trees, marks
 * naming each file's path. Strings point into buf, which must outlive
 * the results (allocate it from the same arena). Return: 0, -ESTALE when buf was written by
 * another key or format, -EBADMSG when it is malformed in any way, or
 * -ENOMEM. Nothing is returned unless all of buf is valid.
 */
int fbac_ycache_decode(struct fbac_arena *arena,
		       const uint64_t key[FBAC_YCACHE_KEY_WORDS],
		       const void *buf, size_t len,
		       struct fbac_ycache_file **ret_files, size_t *n_files);

/*
 * Set the header's length and checksum to match buf (len bytes, at least
 * a header): how tests and the fuzzer reach the checks behind them.
 * Return: 0, or -EINVAL when len is shorter than a header.
 */
int fbac_ycache_seal(void *buf, size_t len);

#endif
