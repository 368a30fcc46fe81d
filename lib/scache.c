/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Layout (native byte order, checked by the header's byte-order word):
 *   header: magic[8], u32 format, u32 byte-order mark,
 *           u64 payload length, u64 payload checksum
 *   payload: u32 key length, key bytes, u32 entries, then per entry:
 *     str layer name, str policy name, u8 layer kind, ostr replaced layer,
 *     u32 origins, origins: ostr chain, ostr file, u32 line col layer
 *     u32 rules, rules: u8 kind, u8 deny, u8 proto, u32 ops, ostr pattern,
 *       u32 ports, (u16 lo, u16 hi)[ports], u32 hosts (NONE: any host),
 *       str host[hosts], u32 origin (NONE: none)
 *     u32 protected, protected: str path, u32 allow, ostr reason,
 *       ostr file, u32 line col
 *     u32 metadata (enum fbac_metadata), ostr why, ostr file, u32 line col
 *     u32 sandbox_fallback options, str option[options]
 *   str: u32 length, bytes, NUL; ostr: u8 present, then str if present
 */
#include "scache.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "blob.h"
#include "fbac-limits.h"
#include "ops.h"
#include "resolve.h"

#define FORMAT 4 /* 2: layer kinds; 3: metadata visibility; 4: sandbox_fallback */
#define BOM 0x01020304u
#define NONE UINT32_MAX

static const char magic[8] = { 'F', 'B', 'A', 'C', 'S', 'T', 'K', '\n' };

struct header {
	char magic[8];
	uint32_t format, bom;
	uint64_t payload_len, checksum;
};
_Static_assert(offsetof(struct header, checksum) + 8 == sizeof(struct header) &&
		       offsetof(struct header, payload_len) + 8 ==
			       offsetof(struct header, checksum),
	       "the header ends with the payload's length and checksum");

#define ALL_OPS ((uint32_t)((UINT64_C(1) << FBAC_OP_COUNT) - 1))

/* ---------------------------------------------------------------- writing */

static void put_s(struct fbac_blob_out *o, const char *s)
{
	fbac_blob_put_str(o, s, strlen(s));
}

static void put_opt(struct fbac_blob_out *o, const char *s)
{
	fbac_blob_put_u8(o, s != NULL);
	if (s)
		put_s(o, s);
}

static void put_mark(struct fbac_blob_out *o, const struct fbac_mark *m)
{
	put_opt(o, m->file);
	fbac_blob_put_u32(o, m->line);
	fbac_blob_put_u32(o, m->col);
}

static int put_entry(struct fbac_blob_out *o, const struct fbac_stack_entry *e)
{
	const struct fbac_policy *p = e->policy;
	const struct fbac_resolved *res = p ? p->res : NULL;
	struct fbac_ptr_index idx = { 0 };
	const struct fbac_origin **origins = NULL;
	uint32_t n_origins = 0;
	int r = 0;

	if (!res)
		return -EINVAL;
	if (res->n_rules > FBAC_MAX_EXPANSIONS)
		return -E2BIG;
	put_s(o, e->layer_name ? e->layer_name : "");
	put_s(o, p->name ? p->name : "");
	fbac_blob_put_u8(o, (uint8_t)e->kind);
	put_opt(o, e->replaces);
	/* The origins, each once: most rules share theirs. */
	origins = calloc(res->n_rules + 1, sizeof(*origins));
	if (!origins)
		return -ENOMEM;
	for (size_t i = 0; i < res->n_rules; i++) {
		const struct fbac_origin *og = res->rules[i].origin;
		uint32_t k;

		if (og && !fbac_ptr_index_get(&idx, og, &k)) {
			if ((r = fbac_ptr_index_put(&idx, og, n_origins)) < 0)
				goto out;
			origins[n_origins++] = og;
		}
	}
	fbac_blob_put_u32(o, n_origins);
	for (uint32_t k = 0; k < n_origins; k++) {
		put_opt(o, origins[k]->chain);
		put_mark(o, &origins[k]->mark);
		fbac_blob_put_u32(o, origins[k]->layer);
	}
	fbac_blob_put_u32(o, (uint32_t)res->n_rules);
	for (size_t i = 0; i < res->n_rules; i++) {
		const struct fbac_rule *ru = &res->rules[i];
		uint32_t k = NONE;

		fbac_blob_put_u8(o, (uint8_t)ru->kind);
		fbac_blob_put_u8(o, ru->deny);
		fbac_blob_put_u8(o, (uint8_t)ru->proto);
		fbac_blob_put_u32(o, ru->ops);
		put_opt(o, ru->pattern);
		fbac_blob_put_u32(o, (uint32_t)ru->n_ports);
		for (size_t j = 0; j < ru->n_ports; j++) {
			fbac_blob_put(o, &ru->ports[j].lo, 2);
			fbac_blob_put(o, &ru->ports[j].hi, 2);
		}
		fbac_blob_put_u32(o, ru->hosts ? (uint32_t)ru->n_hosts : NONE);
		for (size_t j = 0; ru->hosts && j < ru->n_hosts; j++)
			put_s(o, ru->hosts[j]);
		if (ru->origin)
			(void)fbac_ptr_index_get(&idx, ru->origin, &k);
		fbac_blob_put_u32(o, k);
	}
	/* As compiled: sorted, each path once. */
	fbac_blob_put_u32(o, (uint32_t)p->n_protected);
	for (size_t i = 0; i < p->n_protected; i++) {
		const struct fbac_resolved_protected *pp = &p->protected[i];

		put_s(o, pp->path);
		fbac_blob_put_u32(o, pp->allow);
		put_opt(o, pp->reason);
		put_mark(o, &pp->mark);
	}
	fbac_blob_put_u32(o, (uint32_t)p->res->metadata);
	put_opt(o, p->res->metadata_why);
	put_mark(o, &p->res->metadata_mark);
	fbac_blob_put_u32(o, (uint32_t)p->res->n_sandbox_fallback);
	for (size_t i = 0; i < p->res->n_sandbox_fallback; i++)
		put_s(o, p->res->sandbox_fallback[i]);
out:
	fbac_ptr_index_free(&idx);
	free(origins);
	return r;
}

int fbac_scache_encode(const void *key, size_t key_len,
		       const struct fbac_stack *st, void **ret_buf,
		       size_t *ret_len)
{
	struct fbac_blob_out o = { 0 };
	struct header h = { .format = FORMAT, .bom = BOM };
	int r;

	*ret_buf = NULL;
	*ret_len = 0;
	if (key_len > FBAC_MAX_SCACHE_KEY || st->n > FBAC_MAX_LAYERS + 1)
		return -E2BIG;
	memcpy(h.magic, magic, sizeof(magic));
	fbac_blob_put(&o, &h, sizeof(h));
	fbac_blob_put_u32(&o, (uint32_t)key_len);
	fbac_blob_put(&o, key, key_len);
	fbac_blob_put_u32(&o, (uint32_t)st->n);
	for (size_t i = 0; i < st->n; i++)
		if ((r = put_entry(&o, &st->entries[i])) < 0) {
			free(o.p);
			return r;
		}
	if (o.err) {
		free(o.p);
		return o.err;
	}
	memcpy(o.p, &h, sizeof(h));
	(void)fbac_blob_seal(o.p, o.len, sizeof(h));
	*ret_buf = o.p;
	*ret_len = o.len;
	return 0;
}

/* ---------------------------------------------------------------- reading */

/* A string copied into the arena (the input is the caller's). */
static const char *get_s(struct fbac_blob_in *in, struct fbac_arena *a,
			 size_t max, int *err)
{
	size_t len = 0;
	const char *s = fbac_blob_get_str(in, max, &len);
	char *copy;

	if (!s)
		return NULL;
	copy = fbac_arena_strndup(a, s, len);
	if (!copy)
		*err = -ENOMEM;
	return copy;
}

/* An optional string: NULL when absent (and when bad: check in->bad). */
static const char *get_opt(struct fbac_blob_in *in, struct fbac_arena *a,
			   size_t max, int *err)
{
	uint8_t present = fbac_blob_get_u8(in);

	if (present > 1)
		in->bad = true;
	return present == 1 ? get_s(in, a, max, err) : NULL;
}

static void get_mark(struct fbac_blob_in *in, struct fbac_arena *a,
		     struct fbac_mark *m, int *err)
{
	m->file = get_opt(in, a, FBAC_MAX_PATH - 1, err);
	m->line = fbac_blob_get_u32(in);
	m->col = fbac_blob_get_u32(in);
}

/* Each count is bounded by its limit and by the bytes left (each element
 * takes at least min bytes). */
static bool count_ok(const struct fbac_blob_in *in, uint32_t n, size_t limit,
		     size_t min)
{
	return !in->bad && n <= limit && n <= (size_t)(in->end - in->p) / min;
}

static int get_rule(struct fbac_blob_in *in, struct fbac_arena *a,
		    struct fbac_origin *origins, uint32_t n_origins,
		    struct fbac_rule *ru)
{
	uint8_t kind = fbac_blob_get_u8(in), deny = fbac_blob_get_u8(in),
		proto = fbac_blob_get_u8(in);
	uint32_t n, k;
	int err = 0;

	ru->ops = fbac_blob_get_u32(in);
	ru->pattern = get_opt(in, a, FBAC_MAX_PATH - 1, &err);
	if (err)
		return err;
	if (in->bad || kind > FBAC_PRIV_SIGNAL || deny > 1 ||
	    proto > FBAC_PROTO_UDP || (ru->ops & ~ALL_OPS))
		return -EBADMSG;
	ru->kind = (enum fbac_priv_kind)kind;
	ru->deny = deny;
	ru->proto = (enum fbac_proto)proto;
	/* A path rule names an absolute path or an abstract socket. */
	if (ru->kind == FBAC_PRIV_PATH &&
	    (!ru->pattern || (ru->pattern[0] != '/' && ru->pattern[0] != '@')))
		return -EBADMSG;
	n = fbac_blob_get_u32(in);
	if (!count_ok(in, n, FBAC_MAX_LIST, 4))
		return -EBADMSG;
	if (n) {
		ru->ports = fbac_arena_array(a, n, sizeof(*ru->ports));
		if (!ru->ports)
			return -ENOMEM;
	}
	ru->n_ports = n;
	for (uint32_t j = 0; j < n; j++) {
		const unsigned char *p = fbac_blob_take(in, 4);

		if (!p)
			return -EBADMSG;
		memcpy(&ru->ports[j].lo, p, 2);
		memcpy(&ru->ports[j].hi, p + 2, 2);
		if (ru->ports[j].lo > ru->ports[j].hi)
			return -EBADMSG;
	}
	n = fbac_blob_get_u32(in);
	if (n != NONE) {
		if (!count_ok(in, n, FBAC_MAX_LIST, 5))
			return -EBADMSG;
		ru->hosts = fbac_arena_array(a, n + 1, sizeof(*ru->hosts));
		if (!ru->hosts)
			return -ENOMEM;
		ru->n_hosts = n;
		for (uint32_t j = 0; j < n; j++) {
			ru->hosts[j] = get_s(in, a, FBAC_MAX_STRING, &err);
			if (err)
				return err;
			if (!ru->hosts[j])
				return -EBADMSG;
		}
	}
	k = fbac_blob_get_u32(in);
	if (in->bad || (k != NONE && k >= n_origins))
		return -EBADMSG;
	ru->origin = k == NONE ? NULL : &origins[k];
	return 0;
}

static int get_entry(struct fbac_blob_in *in, struct fbac_stack *st,
		     unsigned flags, struct fbac_diag *diag)
{
	_cleanup_(fbac_resolved_freep) struct fbac_resolved *res = NULL;
	_cleanup_(fbac_policy_freep) struct fbac_policy *pol = NULL;
	struct fbac_origin *origins = NULL;
	const char *layer_name, *name, *replaces;
	enum fbac_layer_kind kind;
	struct fbac_arena *a;
	uint32_t n;
	int err = 0, r;

	res = calloc(1, sizeof(*res));
	if (!res || !(res->arena = fbac_arena_new()))
		return -ENOMEM;
	a = res->arena;
	layer_name = get_s(in, a, FBAC_MAX_PATH - 1, &err);
	name = get_s(in, a, FBAC_MAX_PATH - 1, &err);
	kind = (enum fbac_layer_kind)fbac_blob_get_u8(in);
	replaces = get_opt(in, a, FBAC_MAX_PATH - 1, &err);
	if (err)
		return err;
	if (!layer_name || !name || in->bad ||
	    kind > FBAC_LAYER_COMMAND_LINE)
		return -EBADMSG;
	/* What fbac show draws; fbac-run never looks below the root. */
	res->root = fbac_arena_alloc(a, sizeof(*res->root));
	if (!res->root)
		return -ENOMEM;
	res->root->name = name;

	n = fbac_blob_get_u32(in);
	if (!count_ok(in, n, FBAC_MAX_EXPANSIONS, 11))
		return -EBADMSG;
	if (n && !(origins = fbac_arena_array(a, n, sizeof(*origins))))
		return -ENOMEM;
	for (uint32_t k = 0; k < n; k++) {
		origins[k].chain = get_opt(in, a, FBAC_MAX_PATH - 1, &err);
		get_mark(in, a, &origins[k].mark, &err);
		origins[k].layer = fbac_blob_get_u32(in);
		if (err)
			return err;
		if (in->bad || origins[k].layer > FBAC_MAX_LAYERS)
			return -EBADMSG;
	}
	{
		uint32_t n_rules = fbac_blob_get_u32(in);

		if (!count_ok(in, n_rules, FBAC_MAX_EXPANSIONS, 20))
			return -EBADMSG;
		if (n_rules &&
		    !(res->rules = fbac_arena_array(a, n_rules,
						    sizeof(*res->rules))))
			return -ENOMEM;
		res->n_rules = res->cap_rules = n_rules;
		for (uint32_t i = 0; i < n_rules; i++)
			if ((r = get_rule(in, a, origins, n, &res->rules[i])) < 0)
				return r;
	}
	n = fbac_blob_get_u32(in);
	if (!count_ok(in, n, FBAC_MAX_RULES, 20))
		return -EBADMSG;
	if (n && !(res->protected = fbac_arena_array(a, n,
						     sizeof(*res->protected))))
		return -ENOMEM;
	res->n_protected = n;
	for (uint32_t i = 0; i < n; i++) {
		struct fbac_resolved_protected *pp = &res->protected[i];

		pp->path = get_s(in, a, FBAC_MAX_PATH - 1, &err);
		pp->allow = fbac_blob_get_u32(in);
		pp->reason = get_opt(in, a, FBAC_MAX_PATH - 1, &err);
		get_mark(in, a, &pp->mark, &err);
		if (err)
			return err;
		if (in->bad || !pp->path || pp->path[0] != '/' ||
		    (pp->allow & ~ALL_OPS))
			return -EBADMSG;
	}
	n = fbac_blob_get_u32(in);
	res->metadata_why = get_opt(in, a, FBAC_MAX_PATH - 1, &err);
	get_mark(in, a, &res->metadata_mark, &err);
	if (err)
		return err;
	if (in->bad || n > FBAC_META_MEDIATED)
		return -EBADMSG;
	res->metadata = (enum fbac_metadata)n;
	n = fbac_blob_get_u32(in);
	if (in->bad || n > FBAC_MAX_FALLBACK_ARGS)
		return -EBADMSG;
	if (n && !(res->sandbox_fallback = fbac_arena_array(a, n, sizeof(char *))))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++) {
		res->sandbox_fallback[i] =
			get_s(in, a, FBAC_MAX_FALLBACK_ARG, &err);
		if (err)
			return err;
		if (in->bad || !res->sandbox_fallback[i] ||
		    res->sandbox_fallback[i][0] != '-')
			return -EBADMSG;
	}
	res->n_sandbox_fallback = n;
	if ((r = fbac_policy_compile_flags(&res, name, flags, &pol, diag)) < 0)
		return r;
	st->entries[st->n++] = (struct fbac_stack_entry){
		NULL, layer_name, TAKE_PTR(pol), kind, replaces
	};
	return 0;
}

int fbac_scache_decode(const void *key, size_t key_len, const void *buf,
		       size_t len, unsigned flags, struct fbac_stack *ret,
		       struct fbac_diag *diag)
{
	struct fbac_stack st = { .n = 0 };
	struct fbac_blob_in in;
	struct header h;
	const unsigned char *k;
	uint32_t n, klen;
	int r;

	ret->n = 0;
	if (len < sizeof(h) || len > FBAC_MAX_CACHE_SIZE)
		return -EBADMSG;
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, magic, sizeof(magic)))
		return -EBADMSG;
	if (h.format != FORMAT || h.bom != BOM)
		return -ESTALE;
	if (!fbac_blob_sealed(buf, len, sizeof(h)))
		return -EBADMSG;
	in = (struct fbac_blob_in){ (const unsigned char *)buf + sizeof(h),
				    (const unsigned char *)buf + len, false };
	klen = fbac_blob_get_u32(&in);
	k = fbac_blob_take(&in, klen);
	if (!k)
		return -EBADMSG;
	if (klen != key_len || memcmp(k, key, key_len))
		return -ESTALE;
	n = fbac_blob_get_u32(&in);
	if (in.bad || n > FBAC_MAX_LAYERS + 1)
		return -EBADMSG;
	for (uint32_t i = 0; i < n; i++)
		if ((r = get_entry(&in, &st, flags, diag)) < 0) {
			fbac_stack_clear(&st);
			return r;
		}
	if (in.p != in.end) {
		fbac_stack_clear(&st);
		return -EBADMSG;
	}
	*ret = st;
	return 0;
}

int fbac_scache_seal(void *buf, size_t len)
{
	return fbac_blob_seal(buf, len, sizeof(struct header));
}
