/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The verdicts of a stack's path queries, remembered: a supervised
 * program asks about the same few paths again and again (its libraries,
 * its configuration, the files a loop reopens), and the walk of the
 * compiled policy (a binary search of the rules and of the protected
 * paths at each level of the path) is a large part of the user-space
 * work per call. A cached answer is the one the stack gave: the denying
 * entry's index and the verdict, whose pointers are into the stack's
 * compiled policies. So a cache is for one stack, which must not change
 * while the cache lives (fbac_stack_cache_verdicts(): until
 * fbac_stack_clear()). Safe for concurrent use by several threads.
 */
#ifndef FBAC_VCACHE_H
#define FBAC_VCACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "policy.h"

struct fbac_vcache;

/* A new empty cache, or NULL (out of memory). */
struct fbac_vcache *fbac_vcache_new(void);

/* Free a cache (NULL-safe). */
void fbac_vcache_free(struct fbac_vcache *c);

/*
 * Look up (op, path): true with the denying entry's index (-1: none) in
 * *denier and the verdict in *v when the answer is cached. path is
 * len bytes long (strlen).
 */
bool fbac_vcache_get(struct fbac_vcache *c, enum fbac_op op, const char *path,
		     size_t len, int *denier, struct fbac_verdict *v);

/* Remember the answer to (op, path); paths too long for a slot are not
 * kept (they are asked again). */
void fbac_vcache_put(struct fbac_vcache *c, enum fbac_op op, const char *path,
		     size_t len, int denier, const struct fbac_verdict *v);

#endif
