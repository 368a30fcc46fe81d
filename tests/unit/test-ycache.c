/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/ycache.c: parsed files to a blob and back. A decoded file must be the
 * parse it was made from, node for node; a blob that is stale, cut short,
 * damaged or built to break the rules of the YAML builder is refused.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "profile.h"
#include "tap.h"
#include "unit-util.h"
#include "ycache.h"
#include "ytree-equal.h"

static const uint64_t key[FBAC_YCACHE_KEY_WORDS] = { 1, 2, 3, 4 };

/* ---- blobs by hand: the header, then the payload as the format says ---- */

struct blob {
	unsigned char b[65536];
	size_t n;
};

static void put(struct blob *b, const void *v, size_t n)
{
	if (b->n + n > sizeof(b->b))
		abort();
	memcpy(b->b + b->n, v, n);
	b->n += n;
}

static void u8(struct blob *b, uint8_t v)
{
	put(b, &v, 1);
}

static void u32(struct blob *b, uint32_t v)
{
	put(b, &v, 4);
}

static void u64(struct blob *b, uint64_t v)
{
	put(b, &v, 8);
}

static void str(struct blob *b, const char *s, size_t len)
{
	u32(b, (uint32_t)len);
	put(b, s, len);
	u8(b, 0);
}

/* A header for key (sealed later), one file "f.yaml" with docs and nodes. */
static void start(struct blob *b, uint32_t docs, uint32_t nodes)
{
	static const char magic[8] = { 'F', 'B', 'A', 'C', 'Y', 'C', '\n', 0 };

	b->n = 0;
	put(b, magic, 8);
	u32(b, 1);	    /* format */
	u32(b, 0x01020304); /* byte order */
	for (int i = 0; i < FBAC_YCACHE_KEY_WORDS; i++)
		u64(b, key[i]);
	u64(b, 0); /* length, sealed */
	u64(b, 0); /* checksum, sealed */
	u32(b, 1); /* files */
	str(b, "f.yaml", 6);
	for (int i = 0; i < 5; i++)
		u64(b, (uint64_t)i);
	u32(b, docs);
	u32(b, nodes);
}

static void scalar(struct blob *b, const char *v, size_t len)
{
	u8(b, 0);
	u8(b, 1);
	u32(b, 1);
	u32(b, 1);
	str(b, v, len);
}

static void collection(struct blob *b, int kind, uint32_t n,
		       const uint32_t *children)
{
	u8(b, (uint8_t)kind);
	u8(b, 0);
	u32(b, 1);
	u32(b, 1);
	u32(b, n);
	for (uint32_t i = 0; i < (kind == 2 ? 2 * n : n); i++)
		u32(b, children[i]);
}

static void doc(struct blob *b, uint32_t root)
{
	u32(b, 1);
	u32(b, 1);
	u32(b, root);
}

static int decode(struct blob *b, bool seal)
{
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_ycache_file *files;
	size_t n;
	int r;

	if (!a)
		abort();
	if (seal)
		fbac_ycache_seal(b->b, b->n);
	r = fbac_ycache_decode(a, key, b->b, b->n, &files, &n);
	fbac_arena_free(a);
	return r;
}

/* ---- round trips ---- */

static struct fbac_arena *arena;

static int parse(const char *text, struct fbac_parsed *p)
{
	return fbac_profile_parse_buffer(arena, "t.yaml", text, strlen(text), p);
}

/* Encode what parsed, decode it, compare; *out keeps the decoded files. */
static bool round_trip(const struct fbac_ycache_file *in, size_t n,
		       struct fbac_ycache_file **out)
{
	void *buf = NULL;
	size_t len = 0, got = 0;
	bool same = true;

	if (!ok(fbac_ycache_encode(key, in, n, &buf, &len) == 0, "encodes"))
		return false;
	/* The decoded strings point into buf: the arena keeps a copy. */
	void *kept = fbac_arena_alloc(arena, len);

	memcpy(kept, buf, len);
	free(buf);
	if (!ok(fbac_ycache_decode(arena, key, kept, len, out, &got) == 0,
		"decodes") ||
	    !is_int(got, n, "as many files"))
		return false;
	for (size_t i = 0; i < n; i++) {
		same &= !strcmp(in[i].path, (*out)[i].path) &&
			!memcmp(&in[i].id, &(*out)[i].id, sizeof(in[i].id)) &&
			ydocs_equal(in[i].docs, in[i].n_docs, (*out)[i].docs,
				    (*out)[i].n_docs);
		for (size_t d = 0; d < (*out)[i].n_docs; d++)
			same &= (*out)[i].docs[d].start.file == (*out)[i].path;
	}
	return same;
}

static void test_shipped_profiles(void)
{
	static const char *const dirs[] = { "profiles", "profiles/functionalities",
					    "profiles/applications" };
	struct fbac_ycache_file files[256], *out = NULL;
	struct fbac_parsed parsed;
	const char *src = getenv("FBAC_SRCDIR"); /* tests/run-all sets it */
	size_t n = 0;

	if (!src || !*src)
		src = ".";
	for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
		char dir[4096];
		struct dirent *e;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/%s", src, dirs[k]);
		d = opendir(dir);
		if (!ok(d != NULL, "open %s", dirs[k]))
			continue;
		while ((e = readdir(d)) && n < 256) {
			size_t len = strlen(e->d_name);
			char path[4096 + 256];

			if (len < 6 || strcmp(e->d_name + len - 5, ".yaml"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			if (fbac_profile_parse_file(arena, path, &parsed) < 0 ||
			    parsed.err)
				continue;
			/* Made-up identities, distinct per file. */
			files[n] = (struct fbac_ycache_file){
				fbac_arena_strdup(arena, path),
				{ n, n + 1, n + 2, n + 3, n + 4 },
				parsed.docs, parsed.n_docs,
			};
			n++;
		}
		closedir(d);
	}
	ok(n > 40, "the shipped profiles parse (%zu files)", n);
	ok(round_trip(files, n, &out),
	   "every shipped profile decodes to the tree it was parsed into");
}

static void test_aliases_and_styles(void)
{
	struct fbac_parsed p;
	struct fbac_ycache_file f, *out = NULL;
	const struct fbac_ynode *root;

	is_int(parse("a: &x [p, 'q', \"r\", 7]\nb: *x\nc: {k: v}\n---\n- [1]\n",
		     &p),
	       0, "a text with an alias across keys parses");
	is_int(p.err, 0, "without error");
	f = (struct fbac_ycache_file){ "t.yaml", { 0 }, p.docs, p.n_docs };
	ok(round_trip(&f, 1, &out), "it decodes to the same tree");
	if (!out || out->n_docs != 2)
		return;
	root = out->docs[0].root;
	ok(root && root->n == 3 && root->items[0] == root->items[1],
	   "the alias is the same node as its anchor");
	ok(root && root->items[0]->items[1]->plain == false &&
		   root->items[0]->items[0]->plain == true,
	   "quoted and plain scalars keep their style");
	is_int(root ? root->weight : 0, 1 + 3 + 2 * 5 + 3, "weights count aliases again");
	ok(root && root->keys[3] == NULL, "a mapping's keys end with NULL");
}

static void test_empty(void)
{
	struct fbac_ycache_file *out = NULL;

	ok(round_trip(NULL, 0, &out), "no files is a blob too");
}

/* ---- refusals ---- */

static void test_stale_and_damaged(void)
{
	struct fbac_parsed p;
	struct fbac_ycache_file f, *out;
	uint64_t other[FBAC_YCACHE_KEY_WORDS] = { 1, 2, 3, 5 };
	unsigned char *buf = NULL;
	size_t len = 0, n, refused = 0, crashed_not = 0;
	struct fbac_arena *a;

	parse("name: x\nlist: [a, b, {c: d}]\n", &p);
	f = (struct fbac_ycache_file){ "t.yaml", { 0 }, p.docs, p.n_docs };
	if (fbac_ycache_encode(key, &f, 1, (void **)&buf, &len) < 0)
		abort();
	a = fbac_arena_new();
	is_int(fbac_ycache_decode(a, other, buf, len, &out, &n), -ESTALE,
	       "another key's blob is stale");
	buf[8]++;
	is_int(fbac_ycache_decode(a, key, buf, len, &out, &n), -ESTALE,
	       "another format's blob is stale");
	buf[8]--;
	buf[0] = 'X';
	is_int(fbac_ycache_decode(a, key, buf, len, &out, &n), -EBADMSG,
	       "a wrong magic is malformed");
	buf[0] = 'F';
	buf[len - 3] ^= 1;
	is_int(fbac_ycache_decode(a, key, buf, len, &out, &n), -EBADMSG,
	       "a changed byte fails the checksum");
	buf[len - 3] ^= 1;
	for (size_t cut = 0; cut < len; cut++)
		refused += fbac_ycache_decode(a, key, buf, cut, &out, &n) ==
			   -EBADMSG;
	is_int(refused, len, "every shorter blob is malformed");
	/* Past the checksum: every byte changed and resealed is refused or
	 * decoded, never a crash (the sanitizer build watches). */
	for (size_t i = 64; i < len; i++)
		for (int bit = 0; bit < 8; bit++) {
			int r;

			buf[i] ^= (unsigned char)(1 << bit);
			fbac_ycache_seal(buf, len);
			r = fbac_ycache_decode(a, key, buf, len, &out, &n);
			crashed_not += r == 0 || r == -EBADMSG;
			buf[i] ^= (unsigned char)(1 << bit);
		}
	is_int(crashed_not, (len - 64) * 8,
	       "every resealed bit flip decodes or is malformed");
	fbac_arena_free(a);
	free(buf);
}

static void test_structure(void)
{
	static struct blob b;
	uint32_t kids[4];
	char big[FBAC_MAX_SCALAR + 2];

	start(&b, 1, 2);
	scalar(&b, "a", 1);
	kids[0] = 0;
	collection(&b, 1, 1, kids);
	doc(&b, 1);
	is_int(decode(&b, false), -EBADMSG, "unsealed, it fails the checksum");
	is_int(decode(&b, true), 0, "a hand-made blob decodes");

	start(&b, 1, 2);
	scalar(&b, "a", 1);
	kids[0] = 1;
	collection(&b, 1, 1, kids);
	doc(&b, 1);
	is_int(decode(&b, true), -EBADMSG, "a node naming itself is refused");

	start(&b, 1, 2);
	kids[0] = 1;
	collection(&b, 1, 1, kids);
	scalar(&b, "a", 1);
	doc(&b, 0);
	is_int(decode(&b, true), -EBADMSG, "a node naming a later node is refused");

	start(&b, 1, 3);
	scalar(&b, "a", 1);
	kids[0] = 0;
	collection(&b, 1, 1, kids);
	kids[0] = 1;
	kids[1] = 0;
	collection(&b, 2, 1, kids);
	doc(&b, 2);
	is_int(decode(&b, true), -EBADMSG, "a sequence as a mapping key is refused");

	start(&b, 1, 3);
	scalar(&b, "k", 1);
	scalar(&b, "v", 1);
	kids[0] = 0;
	kids[1] = 1;
	kids[2] = 0;
	kids[3] = 1;
	collection(&b, 2, 2, kids);
	doc(&b, 2);
	is_int(decode(&b, true), -EBADMSG, "a duplicate key is refused");

	start(&b, 1, 1);
	scalar(&b, "a\0b", 3);
	doc(&b, 0);
	is_int(decode(&b, true), -EBADMSG, "a scalar holding NUL is refused");

	memset(big, 'x', sizeof(big));
	start(&b, 1, 1);
	scalar(&b, big, FBAC_MAX_SCALAR + 1);
	doc(&b, 0);
	is_int(decode(&b, true), -EBADMSG, "a scalar over FBAC_MAX_SCALAR is refused");
	start(&b, 1, 1);
	scalar(&b, big, FBAC_MAX_SCALAR);
	doc(&b, 0);
	is_int(decode(&b, true), 0, "a scalar of FBAC_MAX_SCALAR bytes decodes");

	start(&b, 1, 1);
	u8(&b, 3);
	u8(&b, 0);
	u32(&b, 1);
	u32(&b, 1);
	u32(&b, 0);
	doc(&b, 0);
	is_int(decode(&b, true), -EBADMSG, "an unknown node kind is refused");

	start(&b, 1, 1);
	scalar(&b, "a", 1);
	doc(&b, 1);
	is_int(decode(&b, true), -EBADMSG, "a root past the nodes is refused");

	start(&b, 1, 1);
	scalar(&b, "a", 1);
	doc(&b, 0);
	u8(&b, 0);
	is_int(decode(&b, true), -EBADMSG, "a byte after the last file is refused");

	/* Each sequence holds the one before it twice: the weight doubles. */
	start(&b, 1, 20);
	scalar(&b, "a", 1);
	for (uint32_t i = 1; i < 20; i++) {
		kids[0] = kids[1] = i - 1;
		collection(&b, 1, 2, kids);
	}
	doc(&b, 19);
	is_int(decode(&b, true), -EBADMSG,
	       "a graph expanding to more than FBAC_MAX_YAML_VISITS nodes is refused");
	start(&b, 1, 17);
	scalar(&b, "a", 1);
	for (uint32_t i = 1; i < 17; i++) {
		kids[0] = kids[1] = i - 1;
		collection(&b, 1, 2, kids);
	}
	doc(&b, 16);
	is_int(decode(&b, true), 0, "one expanding to fewer decodes");

	start(&b, 1, FBAC_MAX_YAML_NODES + 1);
	is_int(decode(&b, true), -EBADMSG, "more nodes than FBAC_MAX_YAML_NODES are refused");
}

int main(void)
{
	plan_no_plan();
	arena = fbac_arena_new();
	test_shipped_profiles();
	test_aliases_and_styles();
	test_empty();
	test_stale_and_damaged();
	test_structure();
	fbac_arena_free(arena);
	return done_testing();
}
