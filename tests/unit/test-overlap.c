/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/overlap.c: the grants of one compiled policy that another also
 * allows, per operation (fbac compare).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "overlap.h"
#include "tap.h"
#include "unit-util.h"

static struct fbac_library *lib;
static struct fbac_arena *env_arena;
static struct fbac_env env;
static struct fbac_diag d;

static const char text[] =
	"fbac: 1\napplication: small\nexecutables: [/usr/bin/small]\nfunctionalities: []\n"
	"privileges:\n"
	"  - {access: [file_read, file_getattr], paths: [/usr/lib/**, /etc/hosts]}\n"
	"  - {access: file_read, paths: [\"/etc/ssl/*.pem\"]}\n"
	"  - {access: file_write, paths: [~/Downloads/**]}\n"
	"  - {access: file_read, paths: [/etc/hosts]}\n"
	"  - network_outgoing: {protocol: tcp, ports: 80}\n"
	"  - unix_connect: \"@dbus-*\"\n"
	"---\n"
	"fbac: 1\napplication: big\nexecutables: [/usr/bin/big]\nfunctionalities: []\n"
	"privileges:\n"
	"  - {access: [file_read, file_getattr], paths: [/usr/**, /etc/**]}\n"
	"  - {access: file_write, paths: [~/Documents/**]}\n"
	"  - network_outgoing: {protocol: tcp, ports: [80, 443], hosts: [10.0.0.0/8]}\n"
	"  - ipc_signal: any\n"
	"denied:\n"
	"  - {access: file_read, paths: [/etc/shadow]}\n";

static struct fbac_policy *policy_of(const char *name)
{
	struct fbac_resolve_input in = { .lib = lib, .env = &env,
					 .root_name = name,
					 .app = fbac_library_find_app(lib, 0, name) };
	struct fbac_resolved *res = NULL;
	struct fbac_policy *p = NULL;

	fbac_diag_clear(&d);
	if (!in.app || fbac_resolve(&in, &res, &d) < 0 ||
	    fbac_policy_compile(&res, name, &p, &d) < 0) {
		diag("policy of %s: %s:%u:%u: %s", name, d.file, d.line, d.col,
		     d.msg);
		ok(0, "policy of %s compiles", name);
		return NULL;
	}
	return p;
}

static void test_sample(void)
{
	char buf[FBAC_MAX_PATH], tiny[4];

	ok(fbac_pattern_sample("/a/**/b*.so", buf, sizeof(buf)) == 0 &&
		   streq(buf, "/a/x/bx.so"),
	   "'/a/**/b*.so' is sampled as '/a/x/bx.so' (%s)", buf);
	ok(fbac_pattern_sample("/etc/h?sts", buf, sizeof(buf)) == 0 &&
		   streq(buf, "/etc/hxsts"),
	   "'?' is one letter");
	ok(fbac_pattern_sample("/etc/hosts", tiny, sizeof(tiny)) == -ENAMETOOLONG,
	   "a sample longer than the buffer is refused");
}

static void test_overlap(void)
{
	const char *texts[] = { text, NULL };
	struct fbac_policy *small, *big;
	struct fbac_overlap o;

	lib = library_of(texts);
	if (!ok(lib != NULL, "library loads") || !(small = policy_of("small")))
		return;
	if (!(big = policy_of("big"))) {
		fbac_policy_free(small);
		return;
	}
	ok(fbac_policy_overlap(small, big, &o) == 0, "overlap of small in big");
	/* /usr/lib/x, /etc/hosts (named twice: once), /etc/ssl/x.pem and
	 * the executable, /usr/bin/small */
	is_int(o.grants[FBAC_OP_FILE_READ], 4, "small: 4 read grants");
	is_int(o.shared[FBAC_OP_FILE_READ], 4, "big reads them all");
	is_int(o.grants[FBAC_OP_FILE_GETATTR], 3, "small: 3 getattr grants");
	is_int(o.shared[FBAC_OP_FILE_GETATTR], 3, "big allows them all");
	is_int(o.grants[FBAC_OP_FILE_WRITE], 1, "small: 1 write grant");
	is_int(o.shared[FBAC_OP_FILE_WRITE], 0, "big writes ~/Documents, not ~/Downloads");
	is_int(o.grants[FBAC_OP_NETWORK_OUTGOING], 1, "small: 1 outgoing grant");
	is_int(o.shared[FBAC_OP_NETWORK_OUTGOING], 0,
	       "big connects to port 80 of 10/8 only, not of any host");
	is_int(o.grants[FBAC_OP_UNIX_CONNECT], 1, "small: 1 abstract connect");
	is_int(o.shared[FBAC_OP_UNIX_CONNECT], 0, "big none");
	is_int(o.grants[FBAC_OP_IPC_SIGNAL], 0, "small sends no signal");

	ok(fbac_policy_overlap(big, small, &o) == 0, "overlap of big in small");
	is_int(o.grants[FBAC_OP_FILE_READ], 3,
	       "big: 3 read grants, its executable's one (the deny is none)");
	is_int(o.shared[FBAC_OP_FILE_READ], 0,
	       "small reads none of /usr/x, /etc/x, /usr/bin/big");
	is_int(o.grants[FBAC_OP_NETWORK_OUTGOING], 1, "big: 1 outgoing grant");
	is_int(o.shared[FBAC_OP_NETWORK_OUTGOING], 0,
	       "small connects to port 80 but not 443: not shared");
	is_int(o.grants[FBAC_OP_IPC_SIGNAL], 1, "big: signals");
	is_int(o.shared[FBAC_OP_IPC_SIGNAL], 0, "small: none");

	ok(fbac_policy_overlap(big, big, &o) == 0, "overlap of big in itself");
	for (unsigned op = 0; op < FBAC_OP_COUNT; op++)
		if (o.shared[op] != o.grants[op])
			ok(0, "%s: %u of %u shared with itself",
			   fbac_op_info(op)->name, o.shared[op], o.grants[op]);
	ok(1, "a policy shares all its grants with itself");
	fbac_policy_free(small);
	fbac_policy_free(big);
}

int main(void)
{
	plan_no_plan();
	env_arena = fbac_arena_new();
	if (test_env(&env, env_arena) < 0)
		abort();
	test_sample();
	test_overlap();
	fbac_library_free(lib);
	fbac_arena_free(env_arena);
	return done_testing();
}
