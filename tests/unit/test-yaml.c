/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/yaml-tree.c: YAML text -> node tree with 1-based positions, and the
 * structural rules of docs/profile-language.md ("Files and documents"):
 * no duplicate keys, no tags, bounded depth, bounded alias expansion.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "yaml-tree.h"
#include "tap.h"
#include "unit-util.h"

static struct fbac_arena *arena;
static struct fbac_diag d;
static struct fbac_ydoc *docs;
static size_t n_docs;

static int parse_len(const char *buf, size_t len)
{
	fbac_arena_free(arena);
	arena = fbac_arena_new();
	if (!arena)
		abort();
	fbac_diag_clear(&d);
	docs = NULL;
	n_docs = 0;
	return fbac_yaml_parse(arena, "t.yaml", buf, len, &docs, &n_docs, &d);
}

static int parse(const char *text)
{
	return parse_len(text, strlen(text));
}

static bool mark_is(const struct fbac_mark *m, unsigned line, unsigned col,
		    const char *what)
{
	if (!ok(m->line == line && m->col == col, "%s at %u:%u", what, line,
		col)) {
		diag("got %u:%u", m->line, m->col);
		return false;
	}
	return true;
}

static void test_basic(void)
{
	const struct fbac_ynode *root, *bb;

	is_int(parse("a: 1\nbb:\n  - x\n  - 'y'\n  - \"z\"\n"), 0,
	       "a small document parses");
	is_int(n_docs, 1, "one document");
	root = docs[0].root;
	ok(root && root->kind == FBAC_Y_MAP, "root is a mapping");
	if (!root || root->kind != FBAC_Y_MAP)
		return;
	is_int(root->n, 2, "two keys");
	is_str(root->keys[0]->value, "a", "first key");
	is_str(root->items[0]->value, "1", "first value");
	ok(root->items[0]->plain, "unquoted scalar is plain");
	is_int(root->items[0]->len, 1, "scalar length");
	ok(root->keys[0]->mark.file && !strcmp(root->keys[0]->mark.file,
						 "t.yaml"),
	   "marks carry the file name");
	mark_is(&root->mark, 1, 1, "root mapping");
	mark_is(&root->keys[0]->mark, 1, 1, "key 'a'");
	mark_is(&root->items[0]->mark, 1, 4, "value '1'");
	mark_is(&root->keys[1]->mark, 2, 1, "key 'bb'");
	bb = root->items[1];
	ok(bb->kind == FBAC_Y_SEQ, "bb is a sequence");
	is_int(bb->n, 3, "three items");
	mark_is(&bb->mark, 3, 3, "the sequence");
	mark_is(&bb->items[0]->mark, 3, 5, "item x");
	mark_is(&bb->items[1]->mark, 4, 5, "item 'y' (its quote)");
	is_str(bb->items[1]->value, "y", "single-quoted value");
	ok(!bb->items[1]->plain, "single-quoted scalar is not plain");
	ok(!bb->items[2]->plain, "double-quoted scalar is not plain");

	ok(fbac_ymap_get(root, "a") == root->items[0], "ymap_get finds 'a'");
	ok(fbac_ymap_get(root, "bb") == bb, "ymap_get finds 'bb'");
	ok(fbac_ymap_get(root, "zz") == NULL, "ymap_get: missing key");
	ok(fbac_ymap_get(bb, "x") == NULL, "ymap_get on a sequence");
	ok(fbac_ymap_get(NULL, "a") == NULL, "ymap_get on NULL");
	is_str(fbac_ynode_kind_name(FBAC_Y_MAP), "a mapping", "kind name map");
	is_str(fbac_ynode_kind_name(FBAC_Y_SEQ), "a sequence", "kind name seq");
	is_str(fbac_ynode_kind_name(FBAC_Y_SCALAR), "a scalar",
	       "kind name scalar");

	is_int(parse("m: {k: [1, {x: y}]}\n"), 0, "flow collections");
	root = docs[0].root;
	mark_is(&root->items[0]->mark, 1, 4, "flow mapping");
	mark_is(&root->items[0]->items[0]->mark, 1, 8, "flow sequence");
	mark_is(&root->items[0]->items[0]->items[1]->keys[0]->mark, 1, 13,
		"key inside nested flow mapping");
}

static void test_documents(void)
{
	is_int(parse(""), 0, "empty text");
	is_int(n_docs, 0, "has no document");
	is_int(parse("# only a comment\n"), 0, "comment only");
	is_int(n_docs, 0, "has no document");

	is_int(parse("a: 1\n---\nb: 2\n---\nc: 3\n"), 0, "three documents");
	is_int(n_docs, 3, "three documents counted");
	if (n_docs == 3) {
		is_str(docs[1].root->keys[0]->value, "b", "second document");
		mark_is(&docs[1].root->keys[0]->mark, 3, 1,
			"key of the second document");
		mark_is(&docs[2].root->keys[0]->mark, 5, 1,
			"key of the third document");
		mark_is(&docs[1].start, 2, 1, "start of the second document");
	}
	is_int(parse("a: 1\n---\na: 2\n"), 0,
	       "the same key in two documents is not a duplicate");
	is_int(parse("---\n"), 0, "an empty document parses");
	is_int(n_docs, 1, "and counts");
}

static void test_duplicates(void)
{
	is_int(parse("a: 1\nb: 2\na: 3\n"), -EINVAL, "duplicate key refused");
	is_diag(&d, "t.yaml", 3, 1, "duplicate key 'a'|line 1",
		"duplicate key: position of the second, line of the first");

	is_int(parse("m:\n  x: 1\n  y: 2\n  x: 3\n"), -EINVAL,
	       "nested duplicate key refused");
	is_diag(&d, "t.yaml", 4, 3, "duplicate key 'x'|line 2",
		"nested duplicate key position");

	is_int(parse("k: {a: 1, b: 2, a: 3}\n"), -EINVAL,
	       "duplicate key in a flow mapping");
	is_diag(&d, "t.yaml", 1, 17, "duplicate key 'a'",
		"flow duplicate key position");

	is_int(parse("a: {x: 1}\nb: {x: 2}\n"), 0,
	       "equal keys in different mappings are fine");
	is_int(parse("'a': 1\na: 2\n"), -EINVAL,
	       "a quoted key equal to a plain one is a duplicate");
	is_diag(&d, "t.yaml", 2, 1, "duplicate key 'a'",
		"quoted/plain duplicate position");

	is_int(parse("[a]: 1\n"), -EINVAL, "a sequence as a key is refused");
	is_diag(&d, "t.yaml", 1, 1, "key", "non-scalar key position");
}

static void test_tags(void)
{
	is_int(parse("a: !!str 1\n"), -EINVAL, "'!!str' refused");
	is_diag(&d, "t.yaml", 1, 4, "tag", "'!!str' position");
	is_int(parse("a: !custom x\n"), -EINVAL, "local tag refused");
	is_diag(&d, "t.yaml", 1, 4, "tag", "local tag position");
	is_int(parse("a: !!str 'x'\n"), -EINVAL, "tag on a quoted scalar");
	is_diag(&d, "t.yaml", 1, 4, "tag", "tag on a quoted scalar position");
	is_int(parse("a:\n  b: !!seq [1, 2]\n"), -EINVAL, "tag on a sequence");
	is_diag(&d, "t.yaml", 2, 6, "tag", "tag on a sequence position");
	is_int(parse("a: !!map {b: 1}\n"), -EINVAL, "tag on a mapping");
	is_diag(&d, "t.yaml", 1, 4, "tag", "tag on a mapping position");
	is_int(parse("!!str a: 1\n"), -EINVAL, "tag on a key");
	is_diag(&d, "t.yaml", 1, 1, "tag", "tag on a key position");
	is_int(parse("--- !!map\na: 1\n"), -EINVAL, "tag on the root");
	ok(d.line == 1, "tag on the root: line 1 (got %u:%u)", d.line, d.col);
	/* '!' is the non-specific tag: still a tag, still refused. */
	is_int(parse("a: ! x\n"), -EINVAL, "the non-specific tag '!' refused");
	is_diag(&d, "t.yaml", 1, 4, "tag", "'!' position");
}

static void test_nul(void)
{
	static const char text[] = "a: 1\nbc: d\0e\n";
	static const char first[] = "\0a: 1\n";

	is_int(parse_len(text, sizeof(text) - 1), -EINVAL, "NUL byte refused");
	is_diag(&d, "t.yaml", 2, 6, "NUL", "NUL byte position");
	is_int(parse_len(first, sizeof(first) - 1), -EINVAL,
	       "NUL as the first byte");
	is_diag(&d, "t.yaml", 1, 1, "NUL", "first-byte NUL position");
	is_int(parse_len("a: \"x\\0y\"\n", 10), -EINVAL,
	       "an escaped NUL in a scalar is refused too");
	is_diag(&d, "t.yaml", 1, 4, "NUL", "escaped NUL position");
}

static void test_depth(void)
{
	char buf[256], big[2048];
	size_t o = 0;

	for (int i = 0; i < FBAC_MAX_YAML_DEPTH; i++)
		buf[o++] = '[';
	for (int i = 0; i < FBAC_MAX_YAML_DEPTH; i++)
		buf[o++] = ']';
	buf[o] = 0;
	is_int(parse(buf), 0, "FBAC_MAX_YAML_DEPTH nested collections");

	o = 0;
	for (int i = 0; i < FBAC_MAX_YAML_DEPTH + 1; i++)
		buf[o++] = '[';
	for (int i = 0; i < FBAC_MAX_YAML_DEPTH + 1; i++)
		buf[o++] = ']';
	buf[o] = 0;
	is_int(parse(buf), -E2BIG, "one level more is refused");
	is_diag(&d, "t.yaml", 1, FBAC_MAX_YAML_DEPTH + 1, "nest",
		"depth error points at the collection that is too deep");

	/* Block mappings nest too: line i is "k:" indented by i. */
	for (int levels = FBAC_MAX_YAML_DEPTH; levels <= FBAC_MAX_YAML_DEPTH + 1;
	     levels++) {
		o = 0;
		for (int i = 0; i < levels; i++) {
			for (int s = 0; s < i; s++)
				big[o++] = ' ';
			memcpy(big + o, "k:\n", 3);
			o += 3;
		}
		big[o] = 0;
		if (levels == FBAC_MAX_YAML_DEPTH) {
			is_int(parse(big), 0, "FBAC_MAX_YAML_DEPTH block mappings");
		} else {
			is_int(parse(big), -E2BIG, "one block mapping more");
			is_diag(&d, "t.yaml", FBAC_MAX_YAML_DEPTH + 1,
				FBAC_MAX_YAML_DEPTH + 1, "nest",
				"block depth error position");
		}
	}
}

static void test_aliases(void)
{
	/* The billion laughs: 10^9 nodes if expanded. */
	static const char lol[] =
		"a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
		"b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
		"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
		"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
		"e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
		"f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
		"g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n"
		"h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]\n"
		"i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]\n";
	/* About 141000 nodes expanded: under FBAC_MAX_YAML_VISITS. */
	static const char big[] =
		"a: &a [x,x,x,x,x,x,x,x,x]\n"
		"b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
		"c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
		"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
		"e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
		"f: [*e]\n";
	char *two;
	const struct fbac_ynode *root;

	is_int(parse(lol), -E2BIG, "billion laughs refused with -E2BIG");
	like(d.msg, "expand", "message says the document expands too much");
	/* f's 4th '*e' is where 1 + 4 * 66430 nodes pass the limit. */
	is_diag(&d, "t.yaml", 6, 17, "",
		"the error points at the alias that crosses the limit");

	is_int(parse(big), 0, "141k expanded nodes are allowed");
	ok(docs[0].root->weight > 100000 &&
		   docs[0].root->weight <= FBAC_MAX_YAML_VISITS,
	   "root weight counts the expansion (%u)", (unsigned)docs[0].root->weight);

	/* The limit is per document (fbac-profile(5)): two such documents
	 * in one file are fine. */
	two = malloc(2 * sizeof(big) + 8);
	if (!two)
		abort();
	snprintf(two, 2 * sizeof(big) + 8, "%s---\n%s", big, big);
	is_int(parse(two), 0, "the expansion limit counts per document");
	free(two);

	is_int(parse("a: &x [1, 2]\nb: *x\n"), 0, "a simple alias");
	root = docs[0].root;
	ok(root->items[1]->kind == FBAC_Y_SEQ && root->items[1]->n == 2,
	   "the alias stands for the anchored sequence");
	is_int(root->weight, 9,
	       "weight: map + 2 keys + seq(3) + alias(3) = 9 nodes");

	is_int(parse("a: &x [1, *x]\n"), -EINVAL,
	       "an alias inside its own anchor is refused");
	is_diag(&d, "t.yaml", 1, 11, "alias 'x'",
		"recursive alias points at the alias");
	is_int(parse("a: &x {b: *x}\n"), -EINVAL,
	       "a mapping containing its own alias is refused");
	is_diag(&d, "t.yaml", 1, 11, "alias 'x'",
		"recursive alias in a mapping");
	is_int(parse("a: *nope\n"), -EINVAL, "an unknown alias is refused");
	is_diag(&d, "t.yaml", 1, 4, "unknown alias 'nope'",
		"unknown alias position");
	is_int(parse("a: &x 1\n---\nb: *x\n"), -EINVAL,
	       "anchors do not cross documents");
	is_diag(&d, "t.yaml", 3, 4, "unknown alias 'x'",
		"alias to a previous document's anchor");
	is_int(parse("a: &x 1\nb: &x 2\nc: *x\n"), 0, "an anchor can be redefined");
	is_str(docs[0].root->items[2]->value, "2", "the latest definition wins");
}

static void test_invalid(void)
{
	is_int(parse("a: b: c\n"), -EINVAL, "invalid yaml refused");
	is_diag(&d, "t.yaml", 1, 5, "invalid yaml|mapping values",
		"libyaml's problem position, 1-based");
	is_int(parse("a:\n\tb: 1\n"), -EINVAL, "tab indentation refused");
	is_diag(&d, "t.yaml", 2, 1, "invalid yaml|cannot start any token",
		"tab position");
	is_int(parse("a: 'text\n"), -EINVAL, "unterminated quote");
	is_diag(&d, "t.yaml", 1, 4, "invalid yaml",
		"at the end of the text: points at the opening quote");
	is_int(parse("a: [1, 2\n"), -EINVAL, "unclosed '[' at the end");
	is_diag(&d, "t.yaml", 1, 4, "invalid yaml",
		"at the end of the text: points at the '['");
	is_int(parse("a: [1, 2\nb: 3\n"), -EINVAL, "unclosed flow sequence");
	is_diag(&d, "t.yaml", 2, 2, "invalid yaml|did not find expected",
		"unclosed flow sequence position");
}

static void test_limits(void)
{
	char *buf;
	size_t n;

	buf = malloc(FBAC_MAX_SCALAR + 16);
	if (!buf)
		abort();
	memcpy(buf, "a: ", 3);
	memset(buf + 3, 'x', FBAC_MAX_SCALAR);
	buf[3 + FBAC_MAX_SCALAR] = 0;
	is_int(parse(buf), 0, "a scalar of FBAC_MAX_SCALAR bytes");
	memset(buf + 3, 'x', FBAC_MAX_SCALAR + 1);
	buf[4 + FBAC_MAX_SCALAR] = 0;
	is_int(parse(buf), -E2BIG, "one byte more is refused");
	is_diag(&d, "t.yaml", 1, 4, "scalar", "long scalar position");
	free(buf);

	n = FBAC_MAX_FILE_SIZE + 1;
	buf = malloc(n + 1);
	if (!buf)
		abort();
	memset(buf, '#', n);
	buf[n] = 0;
	is_int(parse_len(buf, n), -E2BIG, "a file over FBAC_MAX_FILE_SIZE");
	like(d.msg, "larger", "message says it is too large");
	free(buf);

	/* More than FBAC_MAX_YAML_NODES nodes. */
	n = 2 * (FBAC_MAX_YAML_NODES + 1) + 8;
	buf = malloc(n);
	if (!buf)
		abort();
	buf[0] = '[';
	for (size_t i = 0; i < FBAC_MAX_YAML_NODES + 1; i++) {
		buf[1 + 2 * i] = '1';
		buf[2 + 2 * i] = ',';
	}
	buf[2 * (FBAC_MAX_YAML_NODES + 1)] = ']';
	buf[2 * (FBAC_MAX_YAML_NODES + 1) + 1] = 0;
	is_int(parse(buf), -E2BIG, "more than FBAC_MAX_YAML_NODES nodes");
	free(buf);
}

int main(void)
{
	plan_no_plan();
	test_basic();
	test_documents();
	test_duplicates();
	test_tags();
	test_nul();
	test_depth();
	test_aliases();
	test_invalid();
	test_limits();
	fbac_arena_free(arena);
	return done_testing();
}
