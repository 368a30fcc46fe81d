/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compiled stack of a run, cached under every input it was built
 * from ($XDG_CACHE_HOME/fbac/stack-HASH.cache): a start whose inputs are
 * all unchanged skips reading, linking and resolving the policy layers.
 */
#ifndef FBAC_RUN_STACK_CACHE_H
#define FBAC_RUN_STACK_CACHE_H

#include <stdbool.h>

#include "blob.h"
#include "inference.h"
#include "layers.h"
#include "resolve.h"
#include "stack.h"

struct stack_cache {
	struct fbac_blob_out key; /* the inputs, spelt out */
	/* The program and the --as list alone (the first-run marker). */
	struct fbac_blob_out seen_key;
	bool usable;		  /* every input was read: the key is whole */
	bool racy;		  /* an input changed within the last second */
	char path[4096];	  /* "" without a cache */
	bool from_cache, written;
};

/*
 * Spell out every input of the stack: this fbac-run executable, the
 * variables (the caller's and the trusted ones), every layer directory
 * walked as the loader walks it with the identity of each entry (device,
 * inode, size, times, mode, owner), the program (as named and canonical),
 * --as and -D, and what was inferred from the program for --as (ip, NULL
 * without --as). Return: 0 (sc->usable false when something could not be
 * read, so that nothing is cached) or -ENOMEM.
 */
int stack_cache_key(struct stack_cache *sc, const struct layers *l,
		    const char *exe, const char *const *as, size_t n_as,
		    const struct fbac_define *defs, size_t n_defs,
		    const struct infer_program *ip);

/* The stack cached under the key into *st, compiled with flags
 * (FBAC_COMPILE_*). Return: 0, or -errno (no usable cache: build the
 * stack). */
int stack_cache_load(struct stack_cache *sc, unsigned flags,
		     struct fbac_stack *st);

/* Cache st under the key, unless the key is not whole or an input is
 * racy; keeps at most FBAC_MAX_STACK_CACHES of them (oldest go). */
void stack_cache_store(struct stack_cache *sc, const struct fbac_stack *st);

void stack_cache_done(struct stack_cache *sc);

#endif
