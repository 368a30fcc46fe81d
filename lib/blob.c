/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "blob.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "checksum.h"
#include "fbac-limits.h"

void fbac_blob_put(struct fbac_blob_out *o, const void *v, size_t n)
{
	if (o->err)
		return;
	if (n > FBAC_MAX_CACHE_SIZE || o->len + n > FBAC_MAX_CACHE_SIZE) {
		o->err = -E2BIG;
		return;
	}
	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 65536;
		unsigned char *p;

		while (cap < o->len + n)
			cap *= 2;
		p = realloc(o->p, cap);
		if (!p) {
			o->err = -ENOMEM;
			return;
		}
		o->p = p;
		o->cap = cap;
	}
	if (n)
		memcpy(o->p + o->len, v, n);
	o->len += n;
}

void fbac_blob_put_u8(struct fbac_blob_out *o, uint8_t v)
{
	fbac_blob_put(o, &v, 1);
}

void fbac_blob_put_u32(struct fbac_blob_out *o, uint32_t v)
{
	fbac_blob_put(o, &v, 4);
}

void fbac_blob_put_u64(struct fbac_blob_out *o, uint64_t v)
{
	fbac_blob_put(o, &v, 8);
}

void fbac_blob_put_str(struct fbac_blob_out *o, const char *s, size_t len)
{
	if (len > UINT32_MAX - 1) {
		if (!o->err)
			o->err = -E2BIG;
		return;
	}
	fbac_blob_put_u32(o, (uint32_t)len);
	fbac_blob_put(o, s, len);
	fbac_blob_put_u8(o, 0);
}

const unsigned char *fbac_blob_take(struct fbac_blob_in *i, size_t n)
{
	const unsigned char *p = i->p;

	if (i->bad || (size_t)(i->end - i->p) < n) {
		i->bad = true;
		return NULL;
	}
	i->p += n;
	return p;
}

uint8_t fbac_blob_get_u8(struct fbac_blob_in *i)
{
	const unsigned char *p = fbac_blob_take(i, 1);

	return p ? *p : 0;
}

uint32_t fbac_blob_get_u32(struct fbac_blob_in *i)
{
	const unsigned char *p = fbac_blob_take(i, 4);
	uint32_t v = 0;

	if (p)
		memcpy(&v, p, 4);
	return v;
}

uint64_t fbac_blob_get_u64(struct fbac_blob_in *i)
{
	const unsigned char *p = fbac_blob_take(i, 8);
	uint64_t v = 0;

	if (p)
		memcpy(&v, p, 8);
	return v;
}

const char *fbac_blob_get_str(struct fbac_blob_in *i, size_t max, size_t *len)
{
	uint32_t n = fbac_blob_get_u32(i);
	const unsigned char *p;

	if (i->bad || n > max) {
		i->bad = true;
		return NULL;
	}
	p = fbac_blob_take(i, (size_t)n + 1);
	if (!p || p[n] != 0 || memchr(p, 0, n)) {
		i->bad = true;
		return NULL;
	}
	*len = n;
	return (const char *)p;
}

static size_t slot_of(const struct fbac_ptr_index *m, const void *key)
{
	size_t h = ((uintptr_t)key >> 4) * 0x9e3779b97f4a7c15ull;
	size_t i = h & (m->cap - 1);

	while (m->keys[i] && m->keys[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

int fbac_ptr_index_put(struct fbac_ptr_index *m, const void *key, uint32_t v)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap) {
		struct fbac_ptr_index g = { .cap = m->cap ? m->cap * 2 : 1024 };

		g.keys = calloc(g.cap, sizeof(*g.keys));
		g.values = calloc(g.cap, sizeof(*g.values));
		if (!g.keys || !g.values) {
			free(g.keys);
			free(g.values);
			return -ENOMEM;
		}
		for (size_t k = 0; k < m->cap; k++)
			if (m->keys[k]) {
				size_t s = slot_of(&g, m->keys[k]);

				g.keys[s] = m->keys[k];
				g.values[s] = m->values[k];
			}
		g.n = m->n;
		free(m->keys);
		free(m->values);
		*m = g;
	}
	i = slot_of(m, key);
	if (!m->keys[i])
		m->n++;
	m->keys[i] = key;
	m->values[i] = v;
	return 0;
}

bool fbac_ptr_index_get(const struct fbac_ptr_index *m, const void *key,
			uint32_t *v)
{
	size_t i;

	if (!m->cap)
		return false;
	i = slot_of(m, key);
	if (!m->keys[i])
		return false;
	*v = m->values[i];
	return true;
}

void fbac_ptr_index_free(struct fbac_ptr_index *m)
{
	free(m->keys);
	free(m->values);
	*m = (struct fbac_ptr_index){ 0 };
}

int fbac_blob_seal(void *buf, size_t len, size_t hdr)
{
	uint64_t v[2];

	if (hdr < sizeof(v) || len < hdr)
		return -EINVAL;
	v[0] = len - hdr;
	v[1] = fbac_checksum((const unsigned char *)buf + hdr, len - hdr);
	memcpy((unsigned char *)buf + hdr - sizeof(v), v, sizeof(v));
	return 0;
}

bool fbac_blob_sealed(const void *buf, size_t len, size_t hdr)
{
	uint64_t v[2];

	if (hdr < sizeof(v) || len < hdr)
		return false;
	memcpy(v, (const unsigned char *)buf + hdr - sizeof(v), sizeof(v));
	return v[0] == len - hdr &&
	       v[1] == fbac_checksum((const unsigned char *)buf + hdr, len - hdr);
}
