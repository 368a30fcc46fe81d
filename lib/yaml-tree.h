/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A YAML text as a tree of nodes with source positions, built from
 * libyaml's event stream. Enforces the structural limits (depth, node
 * count, scalar size, alias expansion), refuses tags and duplicate keys,
 * and keeps libyaml's types out of the rest of the library.
 */
#ifndef FBAC_YAML_TREE_H
#define FBAC_YAML_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "diag.h"

enum fbac_ynode_kind {
	FBAC_Y_SCALAR,
	FBAC_Y_SEQ,
	FBAC_Y_MAP,
};

/* 64 bytes: the library holds thousands (uint32_t counts: every limit in
 * fbac-limits.h is far below 2^32). */
struct fbac_ynode {
	enum fbac_ynode_kind kind;
	bool plain; /* unquoted: only plain scalars can be booleans or numbers */
	struct fbac_mark mark;
	/* Nodes this one stands for when expanded, aliases included. */
	uint32_t weight;
	/* FBAC_Y_SCALAR */
	uint32_t len;
	const char *value;
	/* FBAC_Y_SEQ: items; FBAC_Y_MAP: keys[i] -> items[i] */
	struct fbac_ynode **items;
	struct fbac_ynode **keys;
	uint32_t n, cap;
};

struct fbac_ydoc {
	struct fbac_ynode *root;
	struct fbac_mark start;
};

/*
 * Parse buf (len bytes) named file into documents allocated in arena.
 * file must outlive the arena's users (it is referenced by every mark).
 * Return: 0, -EINVAL with diag set, -E2BIG with diag set, or -ENOMEM.
 */
int fbac_yaml_parse(struct fbac_arena *arena, const char *file, const char *buf,
		    size_t len, struct fbac_ydoc **ret_docs, size_t *ret_n,
		    struct fbac_diag *diag);

/* The value stored under a scalar key, or NULL. */
struct fbac_ynode *fbac_ymap_get(const struct fbac_ynode *map, const char *key);

/* The name of a node kind for messages ("a mapping"). */
const char *fbac_ynode_kind_name(enum fbac_ynode_kind kind);

#endif
