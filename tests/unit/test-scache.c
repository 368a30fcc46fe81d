/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/scache.c: a stack of policies to a blob and back. Every shipped
 * application policy and every shipped functionality (its required
 * parameters filled) must come back as the very policy it was built as:
 * rules, origins, protected paths, the kernel plan and its gaps. A blob
 * that is stale, cut short or damaged is refused, never half used.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "profile.h"
#include "resolve.h"
#include "scache.h"
#include "stack.h"
#include "tap.h"
#include "unit-util.h"
#include "ll-equal.h"
#include "narrow-check.h"

static const char key[] = "the inputs, spelt out";

/* ---- deep equality of two compiled policies ---- */

static bool str_eq(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool origin_eq(const struct fbac_origin *a, const struct fbac_origin *b)
{
	if (!a || !b)
		return a == b;
	return str_eq(a->chain, b->chain) && str_eq(a->mark.file, b->mark.file) &&
	       a->mark.line == b->mark.line && a->mark.col == b->mark.col &&
	       a->layer == b->layer;
}

static bool rule_eq(const struct fbac_rule *a, const struct fbac_rule *b)
{
	if (a->kind != b->kind || a->ops != b->ops || a->deny != b->deny ||
	    !str_eq(a->pattern, b->pattern) || a->proto != b->proto ||
	    a->n_ports != b->n_ports || !a->hosts != !b->hosts ||
	    (a->hosts && a->n_hosts != b->n_hosts) ||
	    !origin_eq(a->origin, b->origin))
		return false;
	for (size_t i = 0; i < a->n_ports; i++)
		if (a->ports[i].lo != b->ports[i].lo ||
		    a->ports[i].hi != b->ports[i].hi)
			return false;
	for (size_t i = 0; a->hosts && i < a->n_hosts; i++)
		if (!str_eq(a->hosts[i], b->hosts[i]))
			return false;
	return true;
}

/* Where two policies differ, or NULL. */
/* What differs between a and b (NULL: nothing), the gaps only with gaps. */
static const char *policy_diff(const struct fbac_policy *a,
			       const struct fbac_policy *b, bool gaps)
{
	const struct fbac_landlock_plan *x = &a->ll, *y = &b->ll;

	if (!str_eq(a->name, b->name))
		return "name";
	if (a->n_prules != b->n_prules)
		return "number of path rules";
	for (size_t i = 0; i < a->n_prules; i++) {
		const struct fbac_prule *p = &a->prules[i], *q = &b->prules[i];

		if (!str_eq(p->pattern, q->pattern) || p->plen != q->plen ||
		    p->literal != q->literal || p->deny != q->deny ||
		    p->ops != q->ops || p->llfs != q->llfs ||
		    !origin_eq(p->origin, q->origin))
			return "a path rule";
	}
	if (a->n_abstract != b->n_abstract || a->n_net != b->n_net)
		return "number of socket or network rules";
	for (size_t i = 0; i < a->n_abstract; i++)
		if (!rule_eq(a->abstract[i], b->abstract[i]))
			return "an abstract socket rule";
	for (size_t i = 0; i < a->n_net; i++)
		if (!rule_eq(a->net[i], b->net[i]))
			return "a network rule";
	if (!origin_eq(a->signal_origin, b->signal_origin))
		return "the signal rule";
	if (a->n_protected != b->n_protected)
		return "number of protected paths";
	for (size_t i = 0; i < a->n_protected; i++) {
		const struct fbac_resolved_protected *p = &a->protected[i],
						     *q = &b->protected[i];

		if (!str_eq(p->path, q->path) || p->allow != q->allow ||
		    !str_eq(p->reason, q->reason) ||
		    !str_eq(p->mark.file, q->mark.file) ||
		    p->mark.line != q->mark.line || p->mark.col != q->mark.col)
			return "a protected path";
	}
	if (a->res->metadata != b->res->metadata ||
	    !str_eq(a->res->metadata_why, b->res->metadata_why) ||
	    !str_eq(a->res->metadata_mark.file, b->res->metadata_mark.file) ||
	    a->res->metadata_mark.line != b->res->metadata_mark.line ||
	    a->res->metadata_mark.col != b->res->metadata_mark.col)
		return "the metadata visibility";
	if (a->res->n_sandbox_fallback != b->res->n_sandbox_fallback)
		return "the sandbox_fallback options";
	for (size_t i = 0; i < a->res->n_sandbox_fallback; i++)
		if (!str_eq(a->res->sandbox_fallback[i],
			    b->res->sandbox_fallback[i]))
			return "a sandbox_fallback option";
	if (x->handled_fs != y->handled_fs || x->scope != y->scope ||
	    x->handle_connect_tcp != y->handle_connect_tcp ||
	    x->handle_bind_tcp != y->handle_bind_tcp ||
	    x->n_connect_ports != y->n_connect_ports ||
	    x->n_bind_ports != y->n_bind_ports ||
	    (x->n_connect_ports &&
	     memcmp(x->connect_ports, y->connect_ports,
		    x->n_connect_ports * sizeof(uint16_t))) ||
	    (x->n_bind_ports && memcmp(x->bind_ports, y->bind_ports,
				       x->n_bind_ports * sizeof(uint16_t))))
		return "the kernel plan's rights, ports or scopes";
	if (!ll_paths_eq(x->paths, x->n_paths, y->paths, y->n_paths))
		return "the kernel plan's paths";
	if (!ll_paths_eq(x->narrow, x->n_narrow, y->narrow, y->n_narrow))
		return "the kernel plan's narrow rules";
	if (!ll_expands_eq(x->expand, x->n_expand, y->expand, y->n_expand) ||
	    !ll_expands_eq(x->narrow_expand, x->n_narrow_expand,
			   y->narrow_expand, y->n_narrow_expand))
		return "the kernel plan's expansions";
	if (!gaps)
		return NULL;
	if (a->n_gaps != b->n_gaps)
		return "number of gaps";
	for (size_t i = 0; i < a->n_gaps; i++)
		if (a->gaps[i].ops != b->gaps[i].ops ||
		    !str_eq(a->gaps[i].why, b->gaps[i].why) ||
		    !origin_eq(a->gaps[i].origin, b->gaps[i].origin))
			return "a gap";
	return NULL;
}

/* Entries of stacks that had gaps, decoded without them (see below). */
static size_t lean_with_gaps;

/* Decode buf with flags and compare with st entry by entry (the gaps
 * only when they were made). */
static bool decodes_as(const void *buf, size_t len, unsigned flags,
		       const struct fbac_stack *st, const char *what)
{
	bool lean = flags & FBAC_COMPILE_NO_GAPS;
	struct fbac_stack back = { .n = 0 };
	struct fbac_diag d = { 0 };
	bool same = true;
	int r;

	r = fbac_scache_decode(key, sizeof(key), buf, len, flags, &back, &d);
	if (r < 0) {
		diag("%s: decode: %s (%s)", what, strerror(-r), d.msg);
		return false;
	}
	if (back.n != st->n) {
		diag("%s: %zu entries, not %zu", what, back.n, st->n);
		same = false;
	}
	for (size_t i = 0; same && i < st->n; i++) {
		const struct fbac_policy *p = back.entries[i].policy;
		const char *diff = policy_diff(st->entries[i].policy, p, !lean);

		if (!diff && lean && (p->n_gaps || !p->gaps_left_out))
			diff = "gaps made though left out";
		if (!diff && (!str_eq(st->entries[i].layer_name,
				      back.entries[i].layer_name) ||
			      st->entries[i].kind != back.entries[i].kind ||
			      !str_eq(st->entries[i].replaces,
				      back.entries[i].replaces)))
			diff = "layer name, kind or the layer it replaces";
		if (diff) {
			diag("%s: entry %zu differs%s: %s", what, i,
			     lean ? " (no gaps)" : "", diff);
			same = false;
		}
		lean_with_gaps += lean && st->entries[i].policy->n_gaps;
	}
	fbac_stack_clear(&back);
	return same;
}

/*
 * Encode st, decode it, compare entry by entry; and decoded without the
 * gaps (as fbac-run does), everything else must be the same.
 */
static bool round_trip(const struct fbac_stack *st, const char *what)
{
	void *buf = NULL;
	size_t len = 0;
	bool same;
	int r;

	if ((r = fbac_scache_encode(key, sizeof(key), st, &buf, &len)) < 0) {
		diag("%s: encode: %s", what, strerror(-r));
		return false;
	}
	same = decodes_as(buf, len, 0, st, what) &&
	       decodes_as(buf, len, FBAC_COMPILE_NO_GAPS, st, what);
	free(buf);
	return same;
}

/* ---- the shipped library ---- */

static struct fbac_library *lib;
static struct fbac_arena *env_arena;
static struct fbac_env env, trusted;

static void load_shipped(void)
{
	static const char *const dirs[] = { "profiles", "profiles/functionalities",
					    "profiles/applications" };
	const char *src = getenv("FBAC_SRCDIR"); /* tests/run-all sets it */
	struct fbac_diag d = { 0 };

	if (!src || !*src)
		src = ".";
	lib = fbac_library_new();
	if (!lib || fbac_library_add_layer(lib, FBAC_LAYER_LIBRARY, "library",
					   src) < 0)
		abort();
	for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
		char dir[4096];
		struct dirent **list;
		int n;

		snprintf(dir, sizeof(dir), "%s/%s", src, dirs[k]);
		n = scandir(dir, &list, NULL, alphasort);
		if (!ok(n > 0, "read %s", dirs[k]))
			continue;
		for (int i = 0; i < n; i++) {
			size_t len = strlen(list[i]->d_name);
			char path[4096 + 256];

			if (len > 5 && !strcmp(list[i]->d_name + len - 5, ".yaml")) {
				snprintf(path, sizeof(path), "%s/%s", dir,
					 list[i]->d_name);
				fbac_diag_clear(&d);
				if (fbac_profile_load_file(lib, path, &d) < 0)
					diag("%s: %s", path, d.msg);
			}
			free(list[i]);
		}
		free(list);
	}
	fbac_diag_clear(&d);
	is_int(fbac_library_link(lib, &d), 0, "the shipped library links");
}

/*
 * FBAC_SCACHE_SEEDS=DIR: write the fuzzer's seeds (curl, gzip, jq, git,
 * chromium under the key "fuzz", as tests/fuzz/fuzz-scache.c decodes them) into
 * DIR, e.g. tests/fuzz/corpus/scache after a change of the format.
 */
static void write_seed(const struct fbac_stack *st, const char *name)
{
	static const char *const seeds[] = { "curl", "gzip", "jq", "git",
					     "chromium" };
	const char *dir = getenv("FBAC_SCACHE_SEEDS");
	char path[4096];
	void *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (!dir)
		return;
	for (size_t i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		if (strcmp(seeds[i], name))
			continue;
		snprintf(path, sizeof(path), "%s/%s.bin", dir, name);
		if (fbac_scache_encode("fuzz", 4, st, &buf, &len) == 0 &&
		    (f = fopen(path, "we"))) {
			fwrite(buf, 1, len, f);
			fclose(f);
		}
		free(buf);
	}
}

/* Every application policy, as fbac-run stacks it for its program. */
static void test_applications(void)
{
	size_t n = 0, good = 0, fallback = 0, narrow = 0, refused = 0;

	for (size_t i = 0; i < lib->n_apps; i++) {
		struct fbac_stack_input in = { .lib = lib, .env = &env,
					       .trusted_env = &trusted,
					       .program = lib->apps[i]->name };
		struct fbac_stack st = { .n = 0 };
		struct fbac_diag d = { 0 };

		if (fbac_stack_build(&in, &st, &d) < 0) {
			diag("%s: %s", lib->apps[i]->name, d.msg);
			continue;
		}
		n++;
		for (size_t k = 0; k < st.n; k++) {
			narrow += st.entries[k].policy->ll.n_narrow;
			refused += narrow_refused_reads(st.entries[k].policy,
							lib->apps[i]->name);
		}
		fallback += st.entries[0].policy->res->n_sandbox_fallback > 0;
		good += round_trip(&st, lib->apps[i]->name);
		if (i == 0) {
			/* As a user's own policy replacing the library's. */
			st.entries[0].kind = FBAC_LAYER_USER;
			st.entries[0].layer_name = "user";
			st.entries[0].replaces = "library";
			ok(round_trip(&st, "a user's policy"),
			   "the layer's kind and what it replaces come back");
		}
		write_seed(&st, lib->apps[i]->name);
		fbac_stack_clear(&st);
	}
	ok(narrow > 100 && refused == 0,
	   "the applications' %zu narrow read rules read nothing their policies refuse (%zu reads refused)",
	   narrow, refused);
	ok(fallback > 0, "some application has sandbox_fallback (%zu)", fallback);
	ok(n > 30, "the shipped applications stack (%zu)", n);
	is_int((long)good, (long)n,
	       "each application's policy comes back as it was built, and without the gaps the same but for them");
	/* Otherwise "the same but for the gaps" would say nothing. */
	ok(lean_with_gaps > 30,
	   "policies with gaps were compared without them (%zu)",
	   lean_with_gaps);
}

/* Every functionality, its required paths filled, several to a stack. */
static void test_functionalities(void)
{
	struct fbac_stack st = { .n = 0 };
	size_t n = 0, good = 0, stacks = 0;

	for (size_t i = 0; i < lib->n_funcs; i++) {
		struct fbac_include inc = { .name = lib->funcs[i]->name,
					    .target = lib->funcs[i] };
		struct fbac_resolve_input ri = {
			.lib = lib, .env = &env, .root_name = "--as",
			.grants = &inc, .n_grants = 1, .placeholders = true,
			.fill_path = "/srv/fill", .layer = 1,
		};
		struct fbac_resolved *res = NULL;
		struct fbac_policy *pol = NULL;
		struct fbac_diag d = { 0 };

		if (fbac_resolve(&ri, &res, &d) < 0 ||
		    fbac_policy_compile(&res, "--as", &pol, &d) < 0) {
			fbac_resolved_free(res);
			diag("%s: %s", lib->funcs[i]->name, d.msg);
			continue;
		}
		n++;
		st.entries[st.n++] = (struct fbac_stack_entry){
			NULL, "command line", pol, FBAC_LAYER_COMMAND_LINE,
			NULL
		};
		if (st.n == 3 || i + 1 == lib->n_funcs) {
			stacks++;
			good += round_trip(&st, lib->funcs[i]->name);
			fbac_stack_clear(&st);
		}
	}
	ok(n > 60, "the shipped functionalities compile (%zu)", n);
	is_int((long)good, (long)stacks,
	       "each functionality's policy comes back as it was built");
}

/* ---- refusals ---- */

static void test_refusals(void)
{
	struct fbac_stack_input in = { .lib = lib, .env = &env,
				       .trusted_env = &trusted,
				       .program = "firefox-esr" };
	struct fbac_stack st = { .n = 0 }, back = { .n = 0 };
	struct fbac_diag d = { 0 };
	unsigned char *buf = NULL;
	void *b = NULL;
	size_t len = 0, refused = 0, decoded = 0;

	if (!ok(fbac_stack_build(&in, &st, &d) == 0, "firefox-esr stacks") ||
	    !ok(fbac_scache_encode(key, sizeof(key), &st, &b, &len) == 0,
		"and encodes"))
		goto out;
	buf = b;
	is_int(fbac_scache_decode("another key", 11, buf, len, 0, &back, &d),
	       -ESTALE, "another key: stale");
	is_int((long)back.n, 0, "nothing returned");
	is_int(fbac_scache_decode(key, sizeof(key) - 1, buf, len, 0, &back, &d),
	       -ESTALE, "a shorter key: stale");
	buf[8]++; /* the format */
	is_int(fbac_scache_decode(key, sizeof(key), buf, len, 0, &back, &d),
	       -ESTALE, "another format: stale");
	buf[8]--;
	buf[len - 1] ^= 1;
	is_int(fbac_scache_decode(key, sizeof(key), buf, len, 0, &back, &d),
	       -EBADMSG, "a changed byte breaks the checksum");
	buf[len - 1] ^= 1;
	{
		size_t every = 0;

		for (size_t cut = 0; cut < len; cut += 1 + cut / 16)
			every += fbac_scache_decode(key, sizeof(key), buf, cut, 0,
						    &back, &d) < 0;
		ok(every > 0 && back.n == 0, "every shorter blob is refused");
	}
	{
		/* Resealed bit flips reach the checks behind the checksum:
		 * each is decoded whole or refused, never half. */
		unsigned char *copy = malloc(len);

		for (size_t bit = 0; copy && bit < len * 8; bit += 7) {
			struct fbac_stack t = { .n = 0 };
			int r;

			memcpy(copy, buf, len);
			copy[bit / 8] ^= (unsigned char)(1u << (bit % 8));
			fbac_scache_seal(copy, len);
			r = fbac_scache_decode(key, sizeof(key), copy, len, 0,
					       &t, &d);
			if (r < 0) {
				refused++;
				if (t.n)
					break;
			} else {
				decoded++;
				fbac_stack_clear(&t);
			}
		}
		free(copy);
		ok(refused > 0 && decoded > 0,
		   "resealed bit flips: %zu refused, %zu decoded, none half",
		   refused, decoded);
	}
	is_int(fbac_scache_seal(buf, 4), -EINVAL, "seal needs a header");
out:
	free(b);
	fbac_stack_clear(&st);
}

static void test_empty(void)
{
	struct fbac_stack st = { .n = 0 }, back = { .n = 1 };
	struct fbac_diag d = { 0 };
	void *buf = NULL;
	size_t len = 0;

	is_int(fbac_scache_encode(key, sizeof(key), &st, &buf, &len), 0,
	       "an empty stack encodes");
	is_int(fbac_scache_decode(key, sizeof(key), buf, len, 0, &back, &d), 0,
	       "and decodes");
	is_int((long)back.n, 0, "to no entry");
	free(buf);
}

int main(void)
{
	plan_no_plan();
	env_arena = fbac_arena_new();
	if (!env_arena || test_env(&env, env_arena) < 0 ||
	    test_trusted_env(&trusted, env_arena) < 0)
		abort();
	load_shipped();
	test_applications();
	test_functionalities();
	test_refusals();
	test_empty();
	fbac_library_free(lib);
	fbac_arena_free(env_arena);
	return done_testing();
}
