/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "yaml-tree.h"

#include <errno.h>
#include <string.h>
#include <yaml.h>

#include "fbac-limits.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(yaml_parser_t *, yaml_parser_delete)

struct anchor {
	const char *name;
	struct fbac_ynode *node;
};

struct builder {
	struct fbac_arena *arena;
	const char *file;
	struct fbac_diag *diag;
	struct fbac_ynode *stack[FBAC_MAX_YAML_DEPTH + 1];
	size_t depth;
	size_t nodes;
	struct anchor *anchors;
	size_t n_anchors, cap_anchors;
	struct fbac_ydoc *docs;
	size_t n_docs, cap_docs;
};

static struct fbac_mark mark_of(const struct builder *b, yaml_mark_t m)
{
	return (struct fbac_mark){ b->file, (unsigned)m.line + 1,
				   (unsigned)m.column + 1 };
}

const char *fbac_ynode_kind_name(enum fbac_ynode_kind kind)
{
	switch (kind) {
	case FBAC_Y_SCALAR:
		return "a scalar";
	case FBAC_Y_SEQ:
		return "a sequence";
	case FBAC_Y_MAP:
		return "a mapping";
	}
	return "a node";
}

struct fbac_ynode *fbac_ymap_get(const struct fbac_ynode *map, const char *key)
{
	if (!map || map->kind != FBAC_Y_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (map->keys[i]->kind == FBAC_Y_SCALAR &&
		    streq(map->keys[i]->value, key))
			return map->items[i];
	return NULL;
}

static int add_anchor(struct builder *b, const yaml_char_t *name,
		      struct fbac_ynode *node)
{
	int r;

	if (!name)
		return 0;
	r = fbac_arena_grow(b->arena, (void **)&b->anchors, &b->cap_anchors,
			    b->n_anchors + 1, sizeof(*b->anchors));
	if (r < 0)
		return r;
	b->anchors[b->n_anchors].name =
		fbac_arena_strdup(b->arena, (const char *)name);
	if (!b->anchors[b->n_anchors].name)
		return -ENOMEM;
	b->anchors[b->n_anchors++].node = node;
	return 0;
}

static struct fbac_ynode *find_anchor(const struct builder *b,
				      const char *name)
{
	/* The latest definition wins, as YAML says an anchor can be redefined. */
	for (size_t i = b->n_anchors; i > 0; i--)
		if (streq(b->anchors[i - 1].name, name))
			return b->anchors[i - 1].node;
	return NULL;
}

/* Attach a finished node to its parent (or make it the document root). */
static int attach(struct builder *b, struct fbac_ynode *node,
		  const struct fbac_mark *at)
{
	struct fbac_ynode *parent;
	int r;

	if (b->depth == 0) {
		b->docs[b->n_docs - 1].root = node;
		return 0;
	}
	parent = b->stack[b->depth - 1];
	if (parent->weight > FBAC_MAX_YAML_VISITS - node->weight)
		return fbac_diag_at(b->diag, at, -E2BIG,
				    "document expands to more than %d nodes",
				    FBAC_MAX_YAML_VISITS);
	parent->weight += node->weight;
	if (parent->kind == FBAC_Y_SEQ) {
		size_t cap = parent->cap;

		r = fbac_arena_grow(b->arena, (void **)&parent->items, &cap,
				    parent->n + 1, sizeof(node));
		if (r < 0)
			return r;
		parent->cap = (uint32_t)cap;
		parent->items[parent->n++] = node;
		return 0;
	}
	/* A mapping: keys and values alternate; a key is pending when set. */
	if (parent->cap == 0 || parent->keys[parent->n] == NULL) {
		if (node->kind != FBAC_Y_SCALAR)
			return fbac_diag_at(b->diag, &node->mark, -EINVAL,
					    "mapping key must be a scalar");
		for (size_t i = 0; i < parent->n; i++)
			if (streq(parent->keys[i]->value, node->value))
				return fbac_diag_at(
					b->diag, &node->mark, -EINVAL,
					"duplicate key '%s' (first at line %u)",
					node->value, parent->keys[i]->mark.line);
		if (parent->n + 1 >= parent->cap) {
			size_t cap = parent->cap, icap = parent->cap;

			r = fbac_arena_grow(b->arena, (void **)&parent->keys,
					    &cap, parent->n + 2, sizeof(node));
			if (r < 0)
				return r;
			r = fbac_arena_grow(b->arena, (void **)&parent->items,
					    &icap, parent->n + 2, sizeof(node));
			if (r < 0)
				return r;
			parent->cap = (uint32_t)icap;
		}
		parent->keys[parent->n] = node;
		return 0;
	}
	parent->items[parent->n++] = node;
	parent->keys[parent->n] = NULL;
	return 0;
}

static struct fbac_ynode *new_node(struct builder *b, enum fbac_ynode_kind kind,
				   yaml_mark_t m)
{
	struct fbac_ynode *n = fbac_arena_alloc(b->arena, sizeof(*n));

	if (n) {
		n->kind = kind;
		n->mark = mark_of(b, m);
		n->weight = 1;
	}
	return n;
}

static int reject_tag(struct builder *b, const yaml_char_t *tag, int implicit,
		      yaml_mark_t m)
{
	struct fbac_mark mk = mark_of(b, m);

	/* libyaml reports no tag at all unless one is written (even "!"). */
	(void)implicit;
	if (tag)
		return fbac_diag_at(b->diag, &mk, -EINVAL,
				    "yaml tags are not supported ('%s')",
				    (const char *)tag);
	return 0;
}

static int push(struct builder *b, struct fbac_ynode *node)
{
	if (b->depth >= FBAC_MAX_YAML_DEPTH)
		return fbac_diag_at(b->diag, &node->mark, -E2BIG,
				    "nesting deeper than %d levels",
				    FBAC_MAX_YAML_DEPTH);
	b->stack[b->depth++] = node;
	return 0;
}

static int count_node(struct builder *b, const struct fbac_mark *m)
{
	if (++b->nodes > FBAC_MAX_YAML_NODES)
		return fbac_diag_at(b->diag, m, -E2BIG,
				    "file has more than %d yaml nodes",
				    FBAC_MAX_YAML_NODES);
	return 0;
}

static int handle_event(struct builder *b, const yaml_event_t *ev)
{
	struct fbac_ynode *node;
	struct fbac_mark mk = mark_of(b, ev->start_mark);
	int r;

	switch (ev->type) {
	case YAML_STREAM_START_EVENT:
	case YAML_STREAM_END_EVENT:
	case YAML_NO_EVENT:
		return 0;
	case YAML_DOCUMENT_START_EVENT:
		r = fbac_arena_grow(b->arena, (void **)&b->docs, &b->cap_docs,
				    b->n_docs + 1, sizeof(*b->docs));
		if (r < 0)
			return r;
		b->docs[b->n_docs].root = NULL;
		b->docs[b->n_docs++].start = mk;
		/* Anchors are scoped to their document. */
		b->n_anchors = 0;
		return 0;
	case YAML_DOCUMENT_END_EVENT:
		return 0;
	case YAML_ALIAS_EVENT:
		node = find_anchor(b, (const char *)ev->data.alias.anchor);
		if (!node)
			return fbac_diag_at(b->diag, &mk, -EINVAL,
					    "unknown alias '%s'",
					    (const char *)ev->data.alias.anchor);
		/* An alias inside its own anchor would make the tree a cycle. */
		for (size_t i = 0; i < b->depth; i++)
			if (b->stack[i] == node)
				return fbac_diag_at(
					b->diag, &mk, -EINVAL,
					"alias '%s' refers to an enclosing node",
					(const char *)ev->data.alias.anchor);
		return attach(b, node, &mk);
	case YAML_SCALAR_EVENT:
		r = reject_tag(b, ev->data.scalar.tag,
			       ev->data.scalar.plain_implicit ||
				       ev->data.scalar.quoted_implicit,
			       ev->start_mark);
		if (r < 0)
			return r;
		if ((r = count_node(b, &mk)) < 0)
			return r;
		if (ev->data.scalar.length > FBAC_MAX_SCALAR)
			return fbac_diag_at(b->diag, &mk, -E2BIG,
					    "scalar longer than %d bytes",
					    FBAC_MAX_SCALAR);
		if (memchr(ev->data.scalar.value, 0, ev->data.scalar.length))
			return fbac_diag_at(b->diag, &mk, -EINVAL,
					    "scalar contains a NUL byte");
		node = new_node(b, FBAC_Y_SCALAR, ev->start_mark);
		if (!node)
			return -ENOMEM;
		node->value = fbac_arena_strndup(
			b->arena, (const char *)ev->data.scalar.value,
			ev->data.scalar.length);
		if (!node->value)
			return -ENOMEM;
		node->len = (uint32_t)ev->data.scalar.length;
		node->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		r = add_anchor(b, ev->data.scalar.anchor, node);
		return r < 0 ? r : attach(b, node, &node->mark);
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT: {
		bool seq = ev->type == YAML_SEQUENCE_START_EVENT;
		const yaml_char_t *tag = seq ? ev->data.sequence_start.tag :
					       ev->data.mapping_start.tag;
		int implicit = seq ? ev->data.sequence_start.implicit :
				     ev->data.mapping_start.implicit;
		const yaml_char_t *anchor = seq ?
						    ev->data.sequence_start.anchor :
						    ev->data.mapping_start.anchor;

		if ((r = reject_tag(b, tag, implicit, ev->start_mark)) < 0)
			return r;
		if ((r = count_node(b, &mk)) < 0)
			return r;
		node = new_node(b, seq ? FBAC_Y_SEQ : FBAC_Y_MAP,
				ev->start_mark);
		if (!node)
			return -ENOMEM;
		if ((r = add_anchor(b, anchor, node)) < 0)
			return r;
		return push(b, node);
	}
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		node = b->stack[--b->depth];
		return attach(b, node, &node->mark);
	}
	return 0;
}

int fbac_yaml_parse(struct fbac_arena *arena, const char *file, const char *buf,
		    size_t len, struct fbac_ydoc **ret_docs, size_t *ret_n,
		    struct fbac_diag *diag)
{
	_cleanup_(yaml_parser_deletep) yaml_parser_t *pp = NULL;
	yaml_parser_t parser;
	struct builder b = { .arena = arena, .file = file, .diag = diag };
	const char *nul;
	int r = 0;

	if (len > FBAC_MAX_FILE_SIZE) {
		struct fbac_mark m = { file, 0, 0 };
		return fbac_diag_at(diag, &m, -E2BIG,
				    "file larger than %d bytes",
				    FBAC_MAX_FILE_SIZE);
	}
	/* libyaml would stop at a NUL silently: say where it is instead. */
	nul = memchr(buf, 0, len);
	if (nul) {
		struct fbac_mark m = { file, 1, 1 };
		for (const char *p = buf; p < nul; p++) {
			if (*p == '\n') {
				m.line++;
				m.col = 1;
			} else {
				m.col++;
			}
		}
		return fbac_diag_at(diag, &m, -EINVAL,
				    "file contains a NUL byte");
	}
	if (!yaml_parser_initialize(&parser))
		return -ENOMEM;
	pp = &parser;
	yaml_parser_set_input_string(&parser, (const unsigned char *)buf, len);

	for (;;) {
		yaml_event_t ev;
		bool end;

		if (!yaml_parser_parse(&parser, &ev)) {
			struct fbac_mark m = mark_of(&b, parser.problem_mark);

			/* "Unexpected end of stream" says nothing: point at
			 * the quote or bracket that was never closed. */
			if (parser.context && parser.problem_mark.index >= len)
				m = mark_of(&b, parser.context_mark);
			if (parser.error == YAML_MEMORY_ERROR)
				return -ENOMEM;
			if (parser.context)
				return fbac_diag_at(diag, &m, -EINVAL,
						    "invalid yaml: %s %s",
						    parser.problem,
						    parser.context);
			return fbac_diag_at(diag, &m, -EINVAL,
					    "invalid yaml: %s",
					    parser.problem ? parser.problem :
							     "syntax error");
		}
		end = ev.type == YAML_STREAM_END_EVENT;
		r = handle_event(&b, &ev);
		yaml_event_delete(&ev);
		if (r < 0)
			return r;
		if (end)
			break;
	}
	*ret_docs = b.docs;
	*ret_n = b.n_docs;
	return 0;
}
