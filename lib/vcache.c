/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "vcache.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"

struct slot {
	uint64_t hash;
	uint16_t len;
	uint8_t op;
	int8_t denier; /* the entry's index, -1: none */
	struct fbac_verdict v;
	char path[FBAC_VCACHE_PATH];
};

/*
 * Which slots are used is kept apart from them, so that a slot is first
 * touched by the verdict written there: calloc() leaves the slots' pages
 * unmade, and a lookup that read a slot first would map the zero page,
 * which the verdict's write must then replace, a second fault whose TLB
 * flush interrupts the other CPU (~0.2 ms of the supervisor's time over a
 * python3 start-up's 95 opens). Made at once instead, the 33 pages would
 * cost every start-up ~50 us.
 */
struct fbac_vcache {
	pthread_mutex_t lock;
	uint64_t used[FBAC_VCACHE_SLOTS / 64];
	struct slot slots[FBAC_VCACHE_SLOTS];
};

_Static_assert(FBAC_VCACHE_SLOTS % 64 == 0,
	       "FBAC_VCACHE_SLOTS is a multiple of 64 (the used bits)");

/* Eight bytes at a time: a path is hashed on every lookup. */
static uint64_t hash_of(enum fbac_op op, const char *p, size_t len)
{
	const uint64_t k = 0x9e3779b97f4a7c15ull;
	uint64_t h = k ^ ((uint64_t)op << 56) ^ len, w;
	size_t i = 0;

	for (; i + 8 <= len; i += 8) {
		memcpy(&w, p + i, 8);
		h = (h ^ w) * k;
		h ^= h >> 29;
	}
	w = 0;
	memcpy(&w, p + i, len - i);
	/* Mixed down to the low bits that pick the slot (murmur3's end). */
	h ^= w;
	h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdull;
	h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

struct fbac_vcache *fbac_vcache_new(void)
{
	struct fbac_vcache *c = calloc(1, sizeof(*c));

	if (c && pthread_mutex_init(&c->lock, NULL)) {
		free(c);
		return NULL;
	}
	return c;
}

void fbac_vcache_free(struct fbac_vcache *c)
{
	if (!c)
		return;
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static size_t slot_of(uint64_t h)
{
	return (size_t)(h % FBAC_VCACHE_SLOTS);
}

static bool slot_used(const struct fbac_vcache *c, size_t i)
{
	return (c->used[i / 64] >> (i % 64)) & 1;
}

bool fbac_vcache_get(struct fbac_vcache *c, enum fbac_op op, const char *path,
		     size_t len, int *denier, struct fbac_verdict *v)
{
	uint64_t h;
	struct slot *s;
	size_t i;
	bool hit;

	if (len >= FBAC_VCACHE_PATH || (unsigned)op > UINT8_MAX)
		return false;
	h = hash_of(op, path, len);
	i = slot_of(h);
	s = &c->slots[i];
	pthread_mutex_lock(&c->lock);
	hit = slot_used(c, i) && s->hash == h && s->len == len && s->op == op &&
	      !memcmp(s->path, path, len);
	if (hit) {
		*denier = s->denier;
		*v = s->v;
	}
	pthread_mutex_unlock(&c->lock);
	return hit;
}

void fbac_vcache_put(struct fbac_vcache *c, enum fbac_op op, const char *path,
		     size_t len, int denier, const struct fbac_verdict *v)
{
	uint64_t h;
	struct slot *s;
	size_t i;

	if (len >= FBAC_VCACHE_PATH || (unsigned)op > UINT8_MAX ||
	    denier < -1 || denier > INT8_MAX)
		return;
	h = hash_of(op, path, len);
	i = slot_of(h);
	s = &c->slots[i];
	pthread_mutex_lock(&c->lock);
	s->hash = h;
	s->len = (uint16_t)len;
	s->op = (uint8_t)op;
	s->denier = (int8_t)denier;
	s->v = *v;
	memcpy(s->path, path, len);
	c->used[i / 64] |= 1ull << (i % 64);
	pthread_mutex_unlock(&c->lock);
}
