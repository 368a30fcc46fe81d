/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A bump allocator. Everything loaded from profiles, and everything in a
 * compiled policy, lives in one arena that is released as a whole: this
 * gives every string and node exactly one owner.
 */
#ifndef FBAC_ARENA_H
#define FBAC_ARENA_H

#include <stdarg.h>
#include <stddef.h>

#include "macro.h"

struct fbac_arena;

/* A new, empty arena, or NULL without memory. */
struct fbac_arena *fbac_arena_new(void);
/* Free the arena and all it holds (NULL-safe); returns NULL. */
struct fbac_arena *fbac_arena_free(struct fbac_arena *a);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct fbac_arena *, fbac_arena_free)

/* Zeroed memory aligned for any type, or NULL when out of memory. */
void *fbac_arena_alloc(struct fbac_arena *a, size_t size);
/* As fbac_arena_alloc for n elements of size, NULL on overflow too. */
void *fbac_arena_array(struct fbac_arena *a, size_t n, size_t size);
char *fbac_arena_strndup(struct fbac_arena *a, const char *s, size_t n);
char *fbac_arena_strdup(struct fbac_arena *a, const char *s);
char *fbac_arena_printf(struct fbac_arena *a, const char *fmt, ...)
	_printf_(2, 3);
char *fbac_arena_vprintf(struct fbac_arena *a, const char *fmt, va_list ap)
	_printf_(2, 0);

/*
 * Grow an arena-owned array to hold at least need elements. *capacity is
 * updated; the old block is abandoned to the arena. Return: 0 or -ENOMEM.
 */
int fbac_arena_grow(struct fbac_arena *a, void **array, size_t *capacity,
		    size_t need, size_t size);

/* Bytes handed out so far (for benchmarks and memory budgets). */
size_t fbac_arena_used(const struct fbac_arena *a);

#endif
