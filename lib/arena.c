/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "arena.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARENA_CHUNK (64 * 1024)
#define ARENA_ALIGN (_Alignof(max_align_t))

struct chunk {
	struct chunk *next;
	size_t size, used;
	_Alignas(max_align_t) unsigned char data[];
};

struct fbac_arena {
	struct chunk *head;
	size_t total;
};

struct fbac_arena *fbac_arena_new(void)
{
	return calloc(1, sizeof(struct fbac_arena));
}

struct fbac_arena *fbac_arena_free(struct fbac_arena *a)
{
	if (!a)
		return NULL;
	for (struct chunk *c = a->head, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	free(a);
	return NULL;
}

/* size bytes, not zeroed. */
static void *arena_take(struct fbac_arena *a, size_t size)
{
	size_t need = (size + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
	struct chunk *c = a->head;

	if (need < size)
		return NULL;
	if (!c || c->size - c->used < need) {
		size_t sz = need > ARENA_CHUNK ? need : ARENA_CHUNK;

		if (sz > SIZE_MAX - sizeof(*c))
			return NULL;
		c = malloc(sizeof(*c) + sz);
		if (!c)
			return NULL;
		c->size = sz;
		c->used = 0;
		/* Big one-off blocks go behind the head so the head keeps its room. */
		if (a->head && sz > ARENA_CHUNK) {
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
	}
	void *p = c->data + c->used;
	c->used += need;
	a->total += need;
	return p;
}

void *fbac_arena_alloc(struct fbac_arena *a, size_t size)
{
	void *p = arena_take(a, size);

	if (p)
		memset(p, 0, size);
	return p;
}

void *fbac_arena_array(struct fbac_arena *a, size_t n, size_t size)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return fbac_arena_alloc(a, n * size);
}

char *fbac_arena_strndup(struct fbac_arena *a, const char *s, size_t n)
{
	/* Every byte written below: no zeroing first (strings are most of
	 * what a stack cache decodes). */
	char *p = arena_take(a, n + 1);

	if (p) {
		memcpy(p, s, n);
		p[n] = 0;
	}
	return p;
}

char *fbac_arena_strdup(struct fbac_arena *a, const char *s)
{
	return fbac_arena_strndup(a, s, strlen(s));
}

char *fbac_arena_vprintf(struct fbac_arena *a, const char *fmt, va_list ap)
{
	va_list again;
	int n;
	char *p;

	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, again);
	va_end(again);
	if (n < 0)
		return NULL;
	p = fbac_arena_alloc(a, (size_t)n + 1);
	if (!p)
		return NULL;
	vsnprintf(p, (size_t)n + 1, fmt, ap);
	return p;
}

char *fbac_arena_printf(struct fbac_arena *a, const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = fbac_arena_vprintf(a, fmt, ap);
	va_end(ap);
	return p;
}

int fbac_arena_grow(struct fbac_arena *a, void **array, size_t *capacity,
		    size_t need, size_t size)
{
	size_t cap = *capacity ? *capacity : 8;
	void *n;

	if (need <= *capacity)
		return 0;
	while (cap < need) {
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	n = fbac_arena_array(a, cap, size);
	if (!n)
		return -ENOMEM;
	if (*array)
		memcpy(n, *array, *capacity * size);
	*array = n;
	*capacity = cap;
	return 0;
}

size_t fbac_arena_used(const struct fbac_arena *a)
{
	return a->total;
}
