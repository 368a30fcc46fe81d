/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Layout (native byte order, checked by the magic's byte-order word):
 *   header: magic[8], u32 format, u32 byte-order mark, u64 key[4],
 *           u64 payload length, u64 payload checksum
 *   payload: u32 files, then per file:
 *     str path, u64 dev ino size mtime_ns ctime_ns, u32 docs, u32 nodes,
 *     nodes in post-order (a node only names nodes stored before it):
 *       u8 kind, u8 plain, u32 line, u32 col, then
 *       scalar: str value | sequence: u32 n, u32 item[n] |
 *       mapping: u32 n, (u32 key, u32 value)[n]
 *     docs: u32 line, u32 col, u32 root (NONE: no root)
 *   str: u32 length, bytes, NUL
 */
#include "ycache.h"

#include <errno.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "blob.h"
#include "fbac-limits.h"
#include "yaml-tree.h"

#define FORMAT 1
#define BOM 0x01020304u
#define NONE UINT32_MAX

static const char magic[8] = { 'F', 'B', 'A', 'C', 'Y', 'C', '\n', 0 };

struct header {
	char magic[8];
	uint32_t format, bom;
	uint64_t key[FBAC_YCACHE_KEY_WORDS];
	uint64_t payload_len, checksum;
};
_Static_assert(offsetof(struct header, checksum) + 8 == sizeof(struct header) &&
		       offsetof(struct header, payload_len) + 8 ==
			       offsetof(struct header, checksum),
	       "the header ends with the payload's length and checksum");

/* ---------------------------------------------------------------- writing */

static size_t n_children(const struct fbac_ynode *n)
{
	return n->kind == FBAC_Y_SEQ ? n->n : n->kind == FBAC_Y_MAP ? 2 * n->n :
								     0;
}

static const struct fbac_ynode *child(const struct fbac_ynode *n, size_t j)
{
	if (n->kind == FBAC_Y_SEQ)
		return n->items[j];
	return j % 2 ? n->items[j / 2] : n->keys[j / 2];
}

static void put_node(struct fbac_blob_out *o, const struct fbac_ptr_index *m,
		     const struct fbac_ynode *n)
{
	uint32_t idx = 0;

	fbac_blob_put_u8(o, (uint8_t)n->kind);
	fbac_blob_put_u8(o, n->plain);
	fbac_blob_put_u32(o, n->mark.line);
	fbac_blob_put_u32(o, n->mark.col);
	if (n->kind == FBAC_Y_SCALAR) {
		fbac_blob_put_str(o, n->value, n->len);
		return;
	}
	fbac_blob_put_u32(o, (uint32_t)n->n);
	for (size_t j = 0; j < n_children(n); j++) {
		fbac_ptr_index_get(m, child(n, j), &idx);
		fbac_blob_put_u32(o, idx);
	}
}

struct frame {
	const struct fbac_ynode *node;
	size_t next;
};

/* Post-order without recursion: aliases can make the graph deep. */
static int put_tree(struct fbac_blob_out *o, struct fbac_ptr_index *m, uint32_t *count,
		    const struct fbac_ynode *root)
{
	_cleanup_free_ struct frame *stack = NULL;
	size_t depth = 0, cap = 0;
	const struct fbac_ynode *push = root;
	uint32_t idx;
	int r;

	if (!root || fbac_ptr_index_get(m, root, &idx))
		return 0;
	for (;;) {
		const struct fbac_ynode *n;

		if (push) {
			if (depth == cap) {
				size_t c = cap ? cap * 2 : 64;
				struct frame *s = realloc(stack, c * sizeof(*s));

				if (!s)
					return -ENOMEM;
				stack = s;
				cap = c;
			}
			stack[depth++] = (struct frame){ push, 0 };
			push = NULL;
		}
		if (depth == 0)
			return 0;
		n = stack[depth - 1].node;
		if (stack[depth - 1].next < n_children(n)) {
			const struct fbac_ynode *c =
				child(n, stack[depth - 1].next++);

			if (!fbac_ptr_index_get(m, c, &idx))
				push = c;
			continue;
		}
		if (*count >= FBAC_MAX_YAML_NODES)
			return -E2BIG;
		if ((r = fbac_ptr_index_put(m, n, *count)) < 0)
			return r;
		(*count)++;
		put_node(o, m, n);
		depth--;
	}
}

static int put_file(struct fbac_blob_out *o, const struct fbac_ycache_file *f)
{
	struct fbac_ptr_index m = { 0 };
	uint32_t count = 0, idx;
	size_t count_at;
	int r = 0;

	fbac_blob_put_str(o, f->path, strlen(f->path));
	fbac_blob_put_u64(o, f->id.dev);
	fbac_blob_put_u64(o, f->id.ino);
	fbac_blob_put_u64(o, f->id.size);
	fbac_blob_put_u64(o, f->id.mtime_ns);
	fbac_blob_put_u64(o, f->id.ctime_ns);
	fbac_blob_put_u32(o, (uint32_t)f->n_docs);
	count_at = o->len;
	fbac_blob_put_u32(o, 0); /* nodes: known at the end */
	for (size_t d = 0; d < f->n_docs && r == 0; d++)
		r = put_tree(o, &m, &count, f->docs[d].root);
	for (size_t d = 0; d < f->n_docs && r == 0; d++) {
		fbac_blob_put_u32(o, f->docs[d].start.line);
		fbac_blob_put_u32(o, f->docs[d].start.col);
		fbac_blob_put_u32(o, f->docs[d].root && fbac_ptr_index_get(&m, f->docs[d].root, &idx) ?
				   idx :
				   NONE);
	}
	if (r == 0 && !o->err)
		memcpy(o->p + count_at, &count, 4);
	fbac_ptr_index_free(&m);
	return r;
}

int fbac_ycache_encode(const uint64_t key[FBAC_YCACHE_KEY_WORDS],
		       const struct fbac_ycache_file *files, size_t n,
		       void **ret_buf, size_t *ret_len)
{
	struct fbac_blob_out o = { 0 };
	struct header h = { .format = FORMAT, .bom = BOM };
	int r = 0;

	*ret_buf = NULL;
	*ret_len = 0;
	if (n > FBAC_MAX_FILES)
		return -E2BIG;
	memcpy(h.magic, magic, sizeof(magic));
	memcpy(h.key, key, sizeof(h.key));
	fbac_blob_put(&o, &h, sizeof(h));
	fbac_blob_put_u32(&o, (uint32_t)n);
	for (size_t i = 0; i < n && r == 0; i++)
		r = put_file(&o, &files[i]);
	if (r == 0)
		r = o.err;
	if (r < 0) {
		free(o.p);
		return r;
	}
	memcpy(o.p, &h, sizeof(h));
	(void)fbac_blob_seal(o.p, o.len, sizeof(h));
	*ret_buf = o.p;
	*ret_len = o.len;
	return 0;
}

/* ---------------------------------------------------------------- reading */

static int cmp_key(const void *a, const void *b)
{
	const struct fbac_ynode *const *x = a, *const *y = b;

	return strcmp((*x)->value, (*y)->value);
}

/* Mapping keys are scalars and distinct, as the builder requires. */
static int check_keys(struct fbac_ynode *n)
{
	_cleanup_free_ struct fbac_ynode **sorted = NULL;

	for (size_t k = 0; k < n->n; k++)
		if (n->keys[k]->kind != FBAC_Y_SCALAR)
			return -EBADMSG;
	/* Profiles' mappings are small: compare pairs, sort only big ones. */
	if (n->n <= 16) {
		for (size_t k = 1; k < n->n; k++)
			for (size_t j = 0; j < k; j++)
				if (n->keys[k]->len == n->keys[j]->len &&
				    streq(n->keys[k]->value, n->keys[j]->value))
					return -EBADMSG;
		return 0;
	}
	sorted = malloc(n->n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, n->keys, n->n * sizeof(*sorted));
	qsort(sorted, n->n, sizeof(*sorted), cmp_key);
	for (size_t k = 1; k < n->n; k++)
		if (streq(sorted[k - 1]->value, sorted[k]->value))
			return -EBADMSG;
	return 0;
}

static int get_node(struct fbac_blob_in *in, struct fbac_arena *a, const char *file,
		    struct fbac_ynode **nodes, uint32_t self)
{
	struct fbac_ynode *n = nodes[self];
	uint8_t kind = fbac_blob_get_u8(in), plain = fbac_blob_get_u8(in);
	uint32_t count;
	size_t children;

	n->mark.file = file;
	n->mark.line = fbac_blob_get_u32(in);
	n->mark.col = fbac_blob_get_u32(in);
	n->weight = 1;
	if (in->bad || kind > FBAC_Y_MAP || plain > 1)
		return -EBADMSG;
	n->kind = (enum fbac_ynode_kind)kind;
	if (n->kind == FBAC_Y_SCALAR) {
		size_t len = 0;

		n->value = fbac_blob_get_str(in, FBAC_MAX_SCALAR, &len);
		n->len = (uint32_t)len;
		n->plain = plain;
		return in->bad ? -EBADMSG : 0;
	}
	if (plain)
		return -EBADMSG;
	count = fbac_blob_get_u32(in);
	children = n->kind == FBAC_Y_MAP ? 2 * (size_t)count : count;
	/* Each child is 4 bytes: a count beyond the input is malformed. */
	if (in->bad || children > (size_t)(in->end - in->p) / 4)
		return -EBADMSG;
	if (count == 0)
		return 0;
	n->n = count;
	n->items = fbac_arena_array(a, count, sizeof(*n->items));
	if (!n->items)
		return -ENOMEM;
	if (n->kind == FBAC_Y_MAP) {
		n->keys = fbac_arena_array(a, count + 1, sizeof(*n->keys));
		if (!n->keys)
			return -ENOMEM;
	}
	n->cap = n->kind == FBAC_Y_MAP ? count + 1 : count;
	for (size_t j = 0; j < children; j++) {
		uint32_t c = fbac_blob_get_u32(in);

		if (c >= self)
			return -EBADMSG;
		if (nodes[c]->weight > FBAC_MAX_YAML_VISITS - n->weight)
			return -EBADMSG;
		n->weight += nodes[c]->weight;
		if (n->kind == FBAC_Y_SEQ)
			n->items[j] = nodes[c];
		else if (j % 2)
			n->items[j / 2] = nodes[c];
		else
			n->keys[j / 2] = nodes[c];
	}
	return n->kind == FBAC_Y_MAP ? check_keys(n) : 0;
}

static int get_file(struct fbac_blob_in *in, struct fbac_arena *a,
		    struct fbac_ycache_file *f)
{
	_cleanup_free_ struct fbac_ynode **nodes = NULL;
	struct fbac_ynode *block;
	uint32_t n_docs, n_nodes;
	size_t len;
	int r;

	f->path = fbac_blob_get_str(in, FBAC_MAX_PATH - 1, &len);
	f->id.dev = fbac_blob_get_u64(in);
	f->id.ino = fbac_blob_get_u64(in);
	f->id.size = fbac_blob_get_u64(in);
	f->id.mtime_ns = fbac_blob_get_u64(in);
	f->id.ctime_ns = fbac_blob_get_u64(in);
	n_docs = fbac_blob_get_u32(in);
	n_nodes = fbac_blob_get_u32(in);
	/* A node takes at least 14 bytes and a document 12. */
	if (in->bad || len == 0 || n_nodes > FBAC_MAX_YAML_NODES ||
	    n_nodes > (size_t)(in->end - in->p) / 14 ||
	    n_docs > (size_t)(in->end - in->p) / 12)
		return -EBADMSG;
	if (n_nodes) {
		nodes = malloc(n_nodes * sizeof(*nodes));
		block = fbac_arena_array(a, n_nodes, sizeof(*block));
		if (!nodes || !block)
			return -ENOMEM;
		for (uint32_t k = 0; k < n_nodes; k++)
			nodes[k] = &block[k];
	}
	for (uint32_t k = 0; k < n_nodes; k++)
		if ((r = get_node(in, a, f->path, nodes, k)) < 0)
			return r;
	f->n_docs = n_docs;
	if (n_docs) {
		f->docs = fbac_arena_array(a, n_docs, sizeof(*f->docs));
		if (!f->docs)
			return -ENOMEM;
	}
	for (uint32_t d = 0; d < n_docs; d++) {
		struct fbac_ydoc *doc = &f->docs[d];
		uint32_t root;

		doc->start.file = f->path;
		doc->start.line = fbac_blob_get_u32(in);
		doc->start.col = fbac_blob_get_u32(in);
		root = fbac_blob_get_u32(in);
		if (in->bad || (root != NONE && root >= n_nodes))
			return -EBADMSG;
		doc->root = root == NONE ? NULL : nodes[root];
	}
	return 0;
}

int fbac_ycache_decode(struct fbac_arena *arena,
		       const uint64_t key[FBAC_YCACHE_KEY_WORDS],
		       const void *buf, size_t len,
		       struct fbac_ycache_file **ret_files, size_t *n_files)
{
	struct fbac_ycache_file *files;
	struct header h;
	struct fbac_blob_in in;
	uint32_t n;
	int r;

	*ret_files = NULL;
	*n_files = 0;
	if (len < sizeof(h) || len > FBAC_MAX_CACHE_SIZE)
		return -EBADMSG;
	memcpy(&h, buf, sizeof(h));
	if (memcmp(h.magic, magic, sizeof(magic)))
		return -EBADMSG;
	if (h.format != FORMAT || h.bom != BOM ||
	    memcmp(h.key, key, sizeof(h.key)))
		return -ESTALE;
	if (!fbac_blob_sealed(buf, len, sizeof(h)))
		return -EBADMSG;
	/* Strings are used where they lie: buf outlives the results. */
	in = (struct fbac_blob_in){ (const unsigned char *)buf + sizeof(h),
			  (const unsigned char *)buf + len, false };
	n = fbac_blob_get_u32(&in);
	if (in.bad || n > FBAC_MAX_FILES || n > (size_t)(in.end - in.p) / 54)
		return -EBADMSG;
	files = n ? fbac_arena_array(arena, n, sizeof(*files)) : NULL;
	if (n && !files)
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		if ((r = get_file(&in, arena, &files[i])) < 0)
			return r;
	if (in.p != in.end)
		return -EBADMSG;
	*ret_files = files;
	*n_files = n;
	return 0;
}

int fbac_ycache_seal(void *buf, size_t len)
{
	return fbac_blob_seal(buf, len, sizeof(struct header));
}
