/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/policy.c, lib/stack.c, lib/suggest.c: deciding path, network,
 * signal and abstract-socket operations (docs/profile-language.md,
 * "Semantics"; fbac-profile(5), DECISIONS), the Landlock plan with its
 * gaps, the intersection of layers, and suggestions.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "policy.h"
#include "sort.h"
#include "stack.h"
#include "suggest.h"
#include "hint.h"
#include "tap.h"
#include "unit-util.h"
#include "ll-equal.h"
#include "narrow-check.h"

static struct fbac_library *lib;
static struct fbac_arena *env_arena;
static struct fbac_env env, trusted_env;
static struct fbac_diag d;

#define FUNC(name)                                                             \
	"fbac: 1\nfunctionality: " name "\ncategory: system\ndescription: d\n"

static bool setup(const char *const *texts)
{
	lib = fbac_library_free(lib);
	lib = library_of(texts);
	return ok(lib != NULL, "library loads and links");
}

/*
 * The compiled policy of one functionality granted on its own, compiled
 * with flags; the return of resolving or compiling in *ret. The compile
 * must take the resolved rules whatever it returns (ASan: not leaked).
 */
static struct fbac_policy *policy_of_flags(const char *func, unsigned flags,
					   int *ret)
{
	struct fbac_include inc = { .name = func };
	struct fbac_resolve_input in = { .lib = lib,
					 .env = &env,
					 .root_name = func,
					 .grants = &inc,
					 .n_grants = 1 };
	struct fbac_resolved *res = NULL;
	struct fbac_policy *p = NULL;

	inc.target = fbac_library_find(lib, func);
	fbac_diag_clear(&d);
	*ret = -ENOENT;
	if (!inc.target || (*ret = fbac_resolve(&in, &res, &d)) < 0)
		return NULL;
	*ret = fbac_policy_compile_flags(&res, func, flags, &p, &d);
	if (res)
		ok(0, "the compile of %s kept the resolved rules", func);
	return p;
}

/* policy_of_flags with none, any failure reported as one. */
static struct fbac_policy *policy_of(const char *func)
{
	int r;
	struct fbac_policy *p = policy_of_flags(func, 0, &r);

	if (!p) {
		diag("policy of '%s': %s:%u:%u: %s", func, d.file, d.line,
		     d.col, d.msg);
		ok(0, "policy of %s compiles", func);
	}
	return p;
}

static const char *opname(enum fbac_op op)
{
	return fbac_op_info(op)->name;
}

/*
 * One test: op on path is allowed (or not); when rule is given, the
 * deciding rule's pattern is that.
 */
static bool path_is(const struct fbac_policy *p, enum fbac_op op,
		    const char *path, bool allowed, const char *rule)
{
	struct fbac_verdict v;
	int r = fbac_policy_check_path(p, op, path, &v);
	bool pass = r == 0 && v.allowed == allowed &&
		    (!rule || (v.rule && !strcmp(v.rule, rule)));

	if (!ok(pass, "%s %s %s%s%s", opname(op), path,
		allowed ? "allowed" : "denied", rule ? " by " : "",
		rule ? rule : "")) {
		diag("got r=%d allowed=%d rule=%s deny_rule=%d protected=%s", r,
		     v.allowed, v.rule ? v.rule : "NULL", v.deny_rule,
		     v.protected ? v.protected->path : "NULL");
		return false;
	}
	return true;
}

static const struct fbac_ll_path *ll_path(const struct fbac_policy *p,
					  const char *path)
{
	for (size_t i = 0; i < p->ll.n_paths; i++)
		if (!strcmp(p->ll.paths[i].path, path))
			return &p->ll.paths[i];
	return NULL;
}

/* A gap whose reason contains every '|'-separated part of sub. */
static const struct fbac_gap *gap_with(const struct fbac_policy *p,
				       const char *sub)
{
	char part[256];

	for (size_t i = 0; i < p->n_gaps; i++) {
		bool all = true;

		for (const char *s = sub; all && s && *s;) {
			const char *bar = strchr(s, '|');
			size_t n = bar ? (size_t)(bar - s) : strlen(s);

			snprintf(part, sizeof(part), "%.*s", (int)n, s);
			all = strstr(p->gaps[i].why, part) != NULL;
			s = bar ? bar + 1 : NULL;
		}
		if (all)
			return &p->gaps[i];
	}
	return NULL;
}

static void dump_gaps(const struct fbac_policy *p)
{
	for (size_t i = 0; i < p->n_gaps; i++)
		diag("  gap: %s", p->gaps[i].why);
}

/* ------------------------------------------------------------------ */

static const char protected_text[] =
	"fbac: 1\n"
	"protected:\n"
	"  - {path: ~/.ssh, reason: keys}\n"
	"  - {path: /tmp/krb5cc_$UID, reason: tickets}\n";

/* The example of fbac-profile(5), DECISIONS. */
static const char decisions_text[] =
	FUNC("Decisions")
	"privileges:\n"
	"  - file_read: ~/**\n"
	"  - file_read: ~/src/public/**\n"
	"  - file_getattr: \"~\"\n"
	"denied:\n"
	"  - file_read: ~/src/**\n"
	"  - file_read: ~/**/*.key\n"
	"  - file_getattr: ~/**\n";

static void test_decisions(void)
{
	const char *texts[] = { decisions_text, protected_text, NULL };
	struct fbac_policy *p;
	struct fbac_verdict v;

	if (!setup(texts) || !(p = policy_of("Decisions")))
		return;
	path_is(p, FBAC_OP_FILE_READ, "/home/u/notes", true, "/home/u/**");
	path_is(p, FBAC_OP_FILE_READ, "/home/u", true, "/home/u/**");
	path_is(p, FBAC_OP_FILE_READ, "/home/u/src/x", false, "/home/u/src/**");
	path_is(p, FBAC_OP_FILE_READ, "/home/u/src", false, "/home/u/src/**");
	path_is(p, FBAC_OP_FILE_READ, "/home/u/src/public/x", true,
		"/home/u/src/public/**");
	path_is(p, FBAC_OP_FILE_READ, "/home/u/a.key", false,
		"/home/u/**/*.key");
	path_is(p, FBAC_OP_FILE_READ, "/home/u/x/y/b.key", false,
		"/home/u/**/*.key");
	path_is(p, FBAC_OP_FILE_READ, "/home/u/a.keys", true, "/home/u/**");
	path_is(p, FBAC_OP_FILE_READ, "/home/u/src/public/a.key", true,
		"/home/u/src/public/**");
	path_is(p, FBAC_OP_FILE_GETATTR, "/home/u", true, "/home/u");
	path_is(p, FBAC_OP_FILE_GETATTR, "/home/u/x", false, "/home/u/**");
	path_is(p, FBAC_OP_FILE_READ, "/home/uu", false, NULL);
	path_is(p, FBAC_OP_FILE_READ, "/etc/passwd", false, NULL);
	path_is(p, FBAC_OP_FILE_WRITE, "/home/u/notes", false, NULL);

	/* A deny rule decides: the verdict says so. */
	fbac_policy_check_path(p, FBAC_OP_FILE_READ, "/home/u/src/x", &v);
	ok(v.deny_rule && v.origin && v.origin->chain &&
		   !strcmp(v.origin->chain, "Decisions > Decisions"),
	   "deny verdict names the carve-out and its origin (%s)",
	   v.origin ? v.origin->chain : "NULL");
	fbac_policy_check_path(p, FBAC_OP_FILE_READ, "/home/u/notes", &v);
	ok(!v.deny_rule && v.origin && v.origin->mark.line == 6,
	   "allow verdict points at the privilege (line %u)",
	   v.origin ? v.origin->mark.line : 0);
	fbac_policy_check_path(p, FBAC_OP_FILE_WRITE, "/home/u/notes", &v);
	ok(!v.allowed && !v.origin && !v.rule && !v.deny_rule,
	   "default deny: no deciding rule");

	/* The protected path. */
	path_is(p, FBAC_OP_FILE_READ, "/home/u/.ssh/id_rsa", false, NULL);
	fbac_policy_check_path(p, FBAC_OP_FILE_READ, "/home/u/.ssh/id_rsa", &v);
	ok(v.protected && !strcmp(v.protected->path, "/home/u/.ssh"),
	   "the verdict names the protected path");
	ok(v.cut_rule && !strcmp(v.cut_rule, "/home/u/**"),
	   "and the rule it cut off (%s)", v.cut_rule ? v.cut_rule : "NULL");
	ok(v.protected && v.protected->reason &&
		   !strcmp(v.protected->reason, "keys"),
	   "with its reason");
	ok(!v.deny_rule, "not decided by a carve-out");
	path_is(p, FBAC_OP_FILE_READ, "/home/u/.ssh", false, NULL);
	path_is(p, FBAC_OP_FILE_READ, "/home/u/.sshx", true, "/home/u/**");
	fbac_policy_free(p);
}

/* ------------------------------------------------------------------ */

static const char ranks_text[] =
	FUNC("Ranks")
	"privileges:\n"
	"  - file_read: /etc\n"
	"  - file_read: /d/*\n"
	"  - file_write: /w/**\n"
	"  - file_write: /w\n"
	"  - file_read: /same\n"
	"  - file_read: /lit/**\n"
	"  - file_read: /g/**\n"
	"denied:\n"
	"  - file_read: /etc/**\n"
	"  - file_read: /d/*.log\n"
	"  - file_write: /w/x/**\n"
	"  - file_read: /same\n"
	"  - file_read: /lit/secret\n"
	"  - file_read: /g/*/x\n"
	"---\n"
	/* The same entries, in the opposite order. */
	FUNC("Ranks_Reversed")
	"denied:\n"
	"  - file_read: /g/*/x\n"
	"  - file_read: /lit/secret\n"
	"  - file_read: /same\n"
	"  - file_write: /w/x/**\n"
	"  - file_read: /d/*.log\n"
	"  - file_read: /etc/**\n"
	"privileges:\n"
	"  - file_read: /g/**\n"
	"  - file_read: /lit/**\n"
	"  - file_read: /same\n"
	"  - file_write: /w\n"
	"  - file_write: /w/**\n"
	"  - file_read: /d/*\n"
	"  - file_read: /etc\n"
	"---\n"
	FUNC("Granter") "privileges:\n  - file_read: /srv/**\n"
	"---\n"
	FUNC("Carver") "denied:\n  - file_read: /srv/private/**\n"
	"---\n"
	FUNC("Both") "includes: [Carver, Granter]\n"
	"---\n"
	FUNC("Nothing");

static const struct {
	enum fbac_op op;
	const char *path;
	bool allowed;
	const char *why;
} rank_cases[] = {
	{ FBAC_OP_FILE_READ, "/etc", true,
	  "literal beats wildcard at the same prefix" },
	{ FBAC_OP_FILE_READ, "/etc/passwd", false, "below: only the deny" },
	{ FBAC_OP_FILE_READ, "/d/a.log", false,
	  "two wildcards at the same prefix: deny wins" },
	{ FBAC_OP_FILE_READ, "/d/a.txt", true, "the allow alone" },
	{ FBAC_OP_FILE_READ, "/d/x/a.txt", false, "'*' does not cross '/'" },
	{ FBAC_OP_FILE_WRITE, "/w", true, "allowed tree root" },
	{ FBAC_OP_FILE_WRITE, "/w/y", true, "inside the allowed tree" },
	{ FBAC_OP_FILE_WRITE, "/w/x", false, "carve-out root" },
	{ FBAC_OP_FILE_WRITE, "/w/x/y/z", false, "inside the carve-out" },
	{ FBAC_OP_FILE_READ, "/w/y", false, "other operation: nothing" },
	{ FBAC_OP_FILE_READ, "/same", false, "two literals: deny wins" },
	{ FBAC_OP_FILE_READ, "/lit/secret", false, "literal deny in a tree" },
	{ FBAC_OP_FILE_READ, "/lit/secrets", true, "its neighbour" },
	{ FBAC_OP_FILE_READ, "/lit/secret/x", true,
	  "a literal deny does not cover what is below" },
	{ FBAC_OP_FILE_READ, "/g/a/x", false,
	  "wildcard deny at the same prefix as the tree" },
	{ FBAC_OP_FILE_READ, "/g/a/y", true, "and beside it" },
};

static void test_ranks(void)
{
	const char *texts[] = { ranks_text, NULL };
	struct fbac_policy *p, *q, *both;
	struct fbac_verdict v;

	if (!setup(texts))
		return;
	p = policy_of("Ranks");
	q = policy_of("Ranks_Reversed");
	if (!p || !q)
		goto out;
	for (size_t i = 0; i < sizeof(rank_cases) / sizeof(rank_cases[0]);
	     i++) {
		struct fbac_verdict vp, vq;

		if (!path_is(p, rank_cases[i].op, rank_cases[i].path,
			     rank_cases[i].allowed, NULL))
			diag("(%s)", rank_cases[i].why);
		fbac_policy_check_path(p, rank_cases[i].op, rank_cases[i].path,
				       &vp);
		fbac_policy_check_path(q, rank_cases[i].op, rank_cases[i].path,
				       &vq);
		ok(vp.allowed == vq.allowed &&
			   ((!vp.rule && !vq.rule) ||
			    (vp.rule && vq.rule && !strcmp(vp.rule, vq.rule))),
		   "order of entries does not matter: %s %s", opname(rank_cases[i].op),
		   rank_cases[i].path);
	}

	both = policy_of("Both");
	if (both) {
		path_is(both, FBAC_OP_FILE_READ, "/srv/a", true, "/srv/**");
		path_is(both, FBAC_OP_FILE_READ, "/srv/private/k", false,
			"/srv/private/**");
		fbac_policy_free(both);
	}
	{
		struct fbac_policy *none = policy_of("Nothing");

		if (none) {
			path_is(none, FBAC_OP_FILE_READ, "/", false, NULL);
			path_is(none, FBAC_OP_FILE_READ, "/etc/passwd", false,
				NULL);
			fbac_policy_free(none);
		}
	}

	/* Bad queries. */
	is_int(fbac_policy_check_path(p, FBAC_OP_FILE_READ, "etc", &v), -EINVAL,
	       "relative path refused");
	is_int(fbac_policy_check_path(p, FBAC_OP_FILE_READ, "", &v), -EINVAL,
	       "empty path refused");
	is_int(fbac_policy_check_path(p, FBAC_OP_FILE_READ, "/etc/", &v),
	       -EINVAL, "trailing '/' refused");
	is_int(fbac_policy_check_path(p, FBAC_OP_FILE_READ, "/a//b", &v),
	       -EINVAL, "'//' refused");
	is_int(fbac_policy_check_path(p, FBAC_OP_FILE_READ, "/a/./b", &v),
	       -EINVAL, "'.' refused");
	is_int(fbac_policy_check_path(p, FBAC_OP_FILE_READ, "/a/../etc", &v),
	       -EINVAL, "'..' refused");
	is_int(fbac_policy_check_path(p, FBAC_OP_NETWORK_OUTGOING, "/etc", &v),
	       -EINVAL, "not a path operation");
	is_int(fbac_policy_check_path(p, FBAC_OP_IPC_SIGNAL, "/etc", &v),
	       -EINVAL, "ipc_signal is not a path operation");
out:
	fbac_policy_free(p);
	fbac_policy_free(q);
}

/* ------------------------------------------------------------------ */

static const char prot_rules_text[] =
	FUNC("Ssh")
	"privileges:\n"
	"  - file_read: ~/.ssh/**\n"
	"  - file_read: /**\n"
	"---\n"
	FUNC("Ssh_Config")
	"privileges:\n"
	"  - file_read: ~/.ssh/config\n"
	"  - file_read: ~/**\n"
	"---\n"
	FUNC("Glob_Near")
	"privileges:\n"
	"  - file_read: \"~/.ss*\"\n"
	"  - file_read: \"~/.ss*/**\"\n";

static void test_protected(void)
{
	const char *texts[] = { prot_rules_text, protected_text, NULL };
	struct fbac_policy *p;

	if (!setup(texts))
		return;
	if ((p = policy_of("Ssh"))) {
		path_is(p, FBAC_OP_FILE_READ, "/home/u/.ssh/id_rsa", true,
			"/home/u/.ssh/**");
		path_is(p, FBAC_OP_FILE_READ, "/home/u/.ssh", true,
			"/home/u/.ssh/**");
		path_is(p, FBAC_OP_FILE_READ, "/tmp/krb5cc_1000", false, NULL);
		path_is(p, FBAC_OP_FILE_READ, "/tmp/krb5cc_1000x", true, "/**");
		path_is(p, FBAC_OP_FILE_READ, "/home/u/x", true, "/**");
		fbac_policy_free(p);
	}
	if ((p = policy_of("Ssh_Config"))) {
		path_is(p, FBAC_OP_FILE_READ, "/home/u/.ssh/config", true,
			"/home/u/.ssh/config");
		path_is(p, FBAC_OP_FILE_READ, "/home/u/.ssh/id_rsa", false, NULL);
		path_is(p, FBAC_OP_FILE_READ, "/home/u/.ssh", false, NULL);
		fbac_policy_free(p);
	}
	if ((p = policy_of("Glob_Near"))) {
		path_is(p, FBAC_OP_FILE_READ, "/home/u/.ssx", true, "/home/u/.ss*");
		path_is(p, FBAC_OP_FILE_READ, "/home/u/.ssh", false, NULL);
		path_is(p, FBAC_OP_FILE_READ, "/home/u/.ssh/id_rsa", false, NULL);
		fbac_policy_free(p);
	}
}

/*
 * 'allow' of a protected path (fbac-profile(5)): operations that rules
 * written above it still grant; "where protected paths are nested, the
 * innermost one that contains a path decides for it".
 */
static const char allow_text[] =
	FUNC("Home_All")
	"privileges:\n"
	"  - {access: [file_read, file_write, file_getattr], paths: [\"~/**\"]}\n"
	"---\n"
	"fbac: 1\n"
	"protected:\n"
	"  - {path: ~/.config, reason: outer, allow: [file_read]}\n"
	"  - {path: ~/.config/secret, reason: inner}\n"
	"  - {path: ~/.cache, reason: outer}\n"
	"  - {path: ~/.cache/pub, reason: inner, allow: file_read}\n"
	"  - {path: ~/.inputrc, reason: r, allow: [file_read, file_getattr]}\n"
	"---\n"
	"fbac: 1\n"
	"protected:\n"
	"  - {path: ~/.inputrc, reason: again, allow: [file_read]}\n";

static void test_protected_allow(void)
{
	const char *texts[] = { allow_text, NULL };
	struct fbac_policy *p;

	if (!setup(texts) || !(p = policy_of("Home_All")))
		return;
	path_is(p, FBAC_OP_FILE_READ, "/home/u/.config/x", true, "/home/u/**");
	path_is(p, FBAC_OP_FILE_WRITE, "/home/u/.config/x", false, NULL);
	path_is(p, FBAC_OP_FILE_READ, "/home/u/.config/secret/k", false, NULL);
	path_is(p, FBAC_OP_FILE_READ, "/home/u/.cache/x", false, NULL);
	path_is(p, FBAC_OP_FILE_READ, "/home/u/.cache/pub/x", true,
		"/home/u/**");
	path_is(p, FBAC_OP_FILE_WRITE, "/home/u/.cache/pub/x", false, NULL);
	path_is(p, FBAC_OP_FILE_READ, "/home/u/.inputrc", true, "/home/u/**");
	/* Protected twice: only what both allow. */
	path_is(p, FBAC_OP_FILE_GETATTR, "/home/u/.inputrc", false, NULL);
	path_is(p, FBAC_OP_FILE_WRITE, "/home/u/.inputrc", false, NULL);
	fbac_policy_free(p);
}

/* ------------------------------------------------------------------ */

static const char net_text[] =
	FUNC("Net")
	"privileges:\n"
	"  - network_outgoing: {protocol: tcp, ports: [80, 443, \"8000-8080\"]}\n"
	"  - network_outgoing: {protocol: tcp, ports: 22, hosts: [10.0.0.0/8, \"192.168.1.0/25\", example.com]}\n"
	"  - network_outgoing: {protocol: tcp, ports: 5432, hosts: [\"fe80::/10\", \"2001:db8::1\"]}\n"
	"  - network_incoming: {protocol: tcp, ports: 8080}\n"
	"  - network_outgoing: {protocol: udp, ports: 53, hosts: 127.0.0.53}\n"
	"  - network_outgoing: {protocol: tcp, ports: \"9000-9100\"}\n"
	"denied:\n"
	"  - network_outgoing: {protocol: tcp, ports: 9050}\n"
	"  - network_outgoing: {protocol: tcp, ports: 22, hosts: 10.6.6.6}\n"
	"---\n"
	FUNC("Signals") "privileges:\n  - ipc_signal: any\n"
	"---\n"
	FUNC("Abstract")
	"privileges:\n"
	"  - unix_connect: [\"@dbus-*\", \"@exact\"]\n"
	"denied:\n"
	"  - unix_connect: \"@dbus-secret\"\n";

static void net_is(const struct fbac_policy *p, enum fbac_op op,
		   enum fbac_proto proto, const char *host, uint16_t port,
		   bool allowed)
{
	struct fbac_verdict v;
	int r = fbac_policy_check_net(p, op, proto, host, port, &v);

	if (!ok(r == 0 && v.allowed == allowed, "%s %s %s:%u %s", opname(op),
		proto == FBAC_PROTO_TCP ? "tcp" : "udp", host ? host : "?",
		port, allowed ? "allowed" : "denied"))
		diag("got r=%d allowed=%d", r, v.allowed);
}

static void test_net(void)
{
	const char *texts[] = { net_text, NULL };
	const enum fbac_op out = FBAC_OP_NETWORK_OUTGOING,
			   in = FBAC_OP_NETWORK_INCOMING;
	const enum fbac_proto tcp = FBAC_PROTO_TCP, udp = FBAC_PROTO_UDP;
	struct fbac_policy *p, *s;
	struct fbac_verdict v;

	if (!setup(texts) || !(p = policy_of("Net")))
		return;
	net_is(p, out, tcp, NULL, 80, true);
	net_is(p, out, tcp, "1.2.3.4", 443, true);
	net_is(p, out, tcp, NULL, 8000, true);
	net_is(p, out, tcp, NULL, 8080, true);
	net_is(p, out, tcp, NULL, 8081, false);
	net_is(p, out, tcp, NULL, 7999, false);
	net_is(p, out, tcp, NULL, 81, false);
	net_is(p, out, udp, NULL, 80, false);
	net_is(p, in, tcp, NULL, 80, false);
	net_is(p, in, tcp, NULL, 8080, true);
	net_is(p, out, tcp, "10.1.2.3", 22, true);
	net_is(p, out, tcp, "10.255.255.255", 22, true);
	net_is(p, out, tcp, "11.0.0.1", 22, false);
	net_is(p, out, tcp, NULL, 22, false);
	net_is(p, out, tcp, "192.168.1.127", 22, true);
	net_is(p, out, tcp, "192.168.1.128", 22, false);
	net_is(p, out, tcp, "example.com", 22, true);
	net_is(p, out, tcp, "EXAMPLE.COM", 22, true);
	net_is(p, out, tcp, "www.example.com", 22, false);
	net_is(p, out, tcp, "example.com", 23, false);
	net_is(p, out, tcp, "fe80::1", 5432, true);
	net_is(p, out, tcp, "febf:ffff::1", 5432, true);
	net_is(p, out, tcp, "fec0::1", 5432, false);
	net_is(p, out, tcp, "2001:db8::1", 5432, true);
	net_is(p, out, tcp, "2001:db8::2", 5432, false);
	net_is(p, out, tcp, "10.0.0.1", 5432, false);
	net_is(p, out, tcp, "10.6.6.6", 22, false);
	fbac_policy_check_net(p, out, tcp, "10.6.6.6", 22, &v);
	ok(v.deny_rule && v.origin, "decided by the denied entry");
	net_is(p, out, tcp, NULL, 9049, true);
	net_is(p, out, tcp, NULL, 9050, false);
	net_is(p, out, tcp, "1.2.3.4", 9050, false);
	net_is(p, out, udp, "127.0.0.53", 53, true);
	net_is(p, out, udp, "127.0.0.1", 53, false);
	net_is(p, out, udp, NULL, 53, false);
	is_int(fbac_policy_check_net(p, FBAC_OP_FILE_READ, tcp, NULL, 80, &v),
	       -EINVAL, "not a network operation");

	/* Signals. */
	fbac_policy_check_signal(p, &v);
	ok(!v.allowed, "no ipc_signal: signals outside denied");
	if ((s = policy_of("Signals"))) {
		fbac_policy_check_signal(s, &v);
		ok(v.allowed && v.origin, "ipc_signal any: allowed");
		fbac_policy_free(s);
	}

	/* Abstract unix sockets. */
	if ((s = policy_of("Abstract"))) {
		const struct {
			enum fbac_op op;
			const char *name;
			bool allowed;
		} cases[] = {
			{ FBAC_OP_UNIX_CONNECT, "@dbus-session", true },
			{ FBAC_OP_UNIX_CONNECT, "@dbus-", true },
			{ FBAC_OP_UNIX_CONNECT, "@dbus", false },
			{ FBAC_OP_UNIX_CONNECT, "@exact", true },
			{ FBAC_OP_UNIX_CONNECT, "@exactly", false },
			{ FBAC_OP_UNIX_CONNECT, "@exac", false },
			{ FBAC_OP_UNIX_CONNECT, "@dbus-secret", false },
			{ FBAC_OP_UNIX_CONNECT, "@dbus-secrets", true },
			{ FBAC_OP_UNIX_BIND, "@exact", false },
			{ FBAC_OP_UNIX_CONNECT, "@other", false },
		};

		for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
			int r = fbac_policy_check_abstract(s, cases[i].op,
							   cases[i].name, &v);

			ok(r == 0 && v.allowed == cases[i].allowed,
			   "%s %s %s", opname(cases[i].op), cases[i].name,
			   cases[i].allowed ? "allowed" : "denied");
		}
		fbac_policy_check_abstract(s, FBAC_OP_UNIX_CONNECT,
					   "@dbus-secret", &v);
		ok(v.deny_rule, "'@dbus-secret' denied by the carve-out");
		is_int(fbac_policy_check_abstract(s, FBAC_OP_UNIX_CONNECT,
						  "dbus", &v),
		       -EINVAL, "a name without '@'");

		/* fbac_policy_query dispatches on the operation. */
		{
			struct fbac_query q = { .op = FBAC_OP_UNIX_CONNECT,
						.path = "@exact" };

			ok(fbac_policy_query(s, &q, &v) == 0 && v.allowed,
			   "query: abstract name");
			q.path = "/run/x";
			ok(fbac_policy_query(s, &q, &v) == 0 && !v.allowed,
			   "query: socket path");
			q = (struct fbac_query){ .op = FBAC_OP_IPC_SIGNAL };
			ok(fbac_policy_query(s, &q, &v) == 0 && !v.allowed,
			   "query: signal");
		}
		fbac_policy_free(s);
	}
	{
		struct fbac_query q = { .op = FBAC_OP_NETWORK_OUTGOING,
					.proto = FBAC_PROTO_TCP,
					.port = 443 };

		ok(fbac_policy_query(p, &q, &v) == 0 && v.allowed,
		   "query: network");
		q.port = 444;
		ok(fbac_policy_query(p, &q, &v) == 0 && !v.allowed,
		   "query: network denied");
		q = (struct fbac_query){ .op = FBAC_OP_FILE_READ, .path = "/x/" };
		is_int(fbac_policy_query(p, &q, &v), -EINVAL,
		       "query: bad path");
	}
	fbac_policy_free(p);
}

/* ------------------------------------------------------------------ */

/* One YAML line a C line, as written. */
/* clang-format off */
static const char ll_text[] =
	FUNC("LL")
	"privileges:\n"
	"  - file_read: /usr/**\n"
	"  - file_execute: /usr/**\n"
	"  - dir_read: /usr/**\n"
	"  - file_read: /usr/lib/**\n"
	"  - file_write: /var/log/app.log\n"
	"  - file_read: \"/etc/*.conf\"\n"
	"  - file_create: /tmp/**\n"
	"  - file_delete: /tmp/**\n"
	"  - dir_mkdir: /tmp/**\n"
	"  - dir_rmdir: /tmp/**\n"
	"  - file_truncate: /tmp/**\n"
	"  - file_getattr: /stat/**\n"
	"  - dir_read: /listed\n"
	"  - file_read: /data/**\n"
	"  - file_write: /rw/**\n"
	"  - file_execute: \"/tools/llvm-*/**\"\n"
	"  - file_execute: \"/tools/a-*/bin/**\"\n"
	"denied:\n"
	"  - file_read: /data/private/**\n"
	"  - file_write: /data/ro/**\n"
	"  - file_read: /nowhere/**\n"
	"---\n"
	FUNC("LL_Home")
	"privileges:\n"
	"  - file_read: ~/**\n"
	"  - file_read: ~/.ssh/**\n"
	"---\n"
	FUNC("LL_Ports")
	"privileges:\n"
	"  - network_outgoing: {protocol: tcp, ports: [80, 443, \"440-444\"]}\n"
	"  - network_outgoing: {protocol: tcp, ports: 80}\n"
	"  - network_incoming: {protocol: tcp, ports: [8080, 8080]}\n"
	"  - network_outgoing: {protocol: udp, ports: 53}\n"
	"  - network_outgoing: {protocol: tcp, ports: 22, hosts: 10.0.0.1}\n"
	"  - network_incoming: {protocol: tcp, ports: 25}\n"
	"denied:\n"
	"  - network_incoming: {protocol: tcp, ports: 25}\n"
	"---\n"
	FUNC("LL_Any") "privileges:\n"
	"  - network_outgoing: {protocol: tcp, ports: any}\n"
	"---\n"
	FUNC("LL_4096") "privileges:\n"
	"  - network_outgoing: {protocol: tcp, ports: \"1-4096\"}\n"
	"  - network_incoming: {protocol: tcp, ports: \"1-4097\"}\n"
	"---\n"
	FUNC("LL_Narrow") "privileges:\n"
	"  - file_read: /srv/**\n"
	"  - file_read: /proc/self/**\n"
	"  - file_read: /sys/**\n"
	"  - file_read: /var/x\n"
	"  - file_read: /opt/**\n"
	"  - file_read: \"/mid/*/x\"\n"
	"  - access: [file_create, file_write]\n"
	"    paths: /var/new.log\n"
	"  - file_append: /logs/**\n"
	"  - access: [file_read, file_write]\n"
	"    paths: /dev/pts/**\n"
	"denied:\n"
	"  - file_read: \"/opt/*/secret/**\"\n"
	"  - file_read: /var/x\n"
	"---\n"
	FUNC("LL_Scope") "privileges:\n"
	"  - ipc_signal: any\n"
	"  - unix_connect: \"@x\"\n";
/* clang-format on */

static void test_landlock(void)
{
	const char *texts[] = { ll_text, protected_text, NULL };
	const struct fbac_ll_path *lp;
	struct fbac_policy *p;

	if (!setup(texts) || !(p = policy_of("LL")))
		return;
	is_int(p->ll.handled_fs, FBAC_LL_FS_ALL,
	       "every filesystem right is handled");
	lp = ll_path(p, "/usr");
	ok(lp && lp->access == (FBAC_LL_FS_READ_FILE | FBAC_LL_FS_EXECUTE |
				FBAC_LL_FS_READ_DIR),
	   "/usr: three rules merged into one kernel rule (%#llx)",
	   lp ? (unsigned long long)lp->access : 0ULL);
	lp = ll_path(p, "/usr/lib");
	ok(lp && lp->access == FBAC_LL_FS_READ_FILE,
	   "/usr/lib: its own kernel rule");
	lp = ll_path(p, "/var/log/app.log");
	ok(lp && lp->access == FBAC_LL_FS_WRITE_FILE,
	   "file_write -> WRITE_FILE on the file");
	lp = ll_path(p, "/etc");
	ok(lp && lp->access == FBAC_LL_FS_READ_FILE,
	   "a glob is granted in the kernel on its literal prefix");
	lp = ll_path(p, "/tmp");
	ok(lp && lp->access == (FBAC_LL_FS_MAKE_REG | FBAC_LL_FS_REMOVE_FILE |
				FBAC_LL_FS_MAKE_DIR | FBAC_LL_FS_REMOVE_DIR |
				FBAC_LL_FS_TRUNCATE),
	   "file_create, file_delete, dir_mkdir, dir_rmdir, file_truncate "
	   "-> MAKE_REG, REMOVE_FILE, MAKE_DIR, REMOVE_DIR, TRUNCATE (%#llx)",
	   lp ? (unsigned long long)lp->access : 0ULL);
	lp = ll_path(p, "/listed");
	ok(lp && lp->access == FBAC_LL_FS_READ_DIR, "dir_read -> READ_DIR");
	ok(ll_path(p, "/stat") == NULL, "file_getattr has no kernel rule");
	ok(ll_path(p, "/nowhere") == NULL && ll_path(p, "/data/private") == NULL,
	   "denied entries make no kernel rule");
	{
		bool sorted = true;

		for (size_t i = 1; i < p->ll.n_paths; i++)
			sorted &= strcmp(p->ll.paths[i - 1].path,
					 p->ll.paths[i].path) < 0;
		ok(sorted, "kernel rules sorted, one per path");
	}
	if (!ok(gap_with(p, "/etc/*.conf"), "a glob leaves a gap"))
		dump_gaps(p);
	ok(!gap_with(p, "/usr/**") && !gap_with(p, "/usr/lib/**"),
	   "a whole tree is exact: no gap");
	ok(!gap_with(p, "/var/log/app.log"), "a file is exact: no gap");
	ok(gap_with(p, "/listed"),
	   "a directory without '/**' leaves a gap (its rights cover below)");
	ok(!gap_with(p, "/tools/llvm-*/**"),
	   "execute of DIR/GLOB/**: no gap (each folder GLOB matches, a tree)");
	ok(gap_with(p, "/tools/a-*/bin/**"),
	   "execute of DIR/GLOB/bin/**: a gap (a wildcard above a literal)");
	{
		const struct fbac_ll_expand *e = NULL;

		for (size_t i = 0; i < p->ll.n_expand; i++)
			if (!strcmp(p->ll.expand[i].dir, "/tools"))
				e = &p->ll.expand[i];
		ok(e && e->trees && e->glob &&
			   !strcmp(e->glob, "/tools/llvm-*") &&
			   e->access == FBAC_LL_FS_EXECUTE,
		   "listed at launch: the folders of /tools matching llvm-*, as trees");
	}
	ok(gap_with(p, "/data/private/**|/data/**"),
	   "a carve-out inside a granted tree leaves a gap");
	ok(!gap_with(p, "/data/ro/**"),
	   "no gap for a carve-out of rights the tree does not have");
	ok(!gap_with(p, "/nowhere/**"),
	   "no gap for a carve-out outside every granted tree");
	{
		bool getattr = false;

		for (size_t i = 0; i < p->n_gaps; i++)
			getattr |= (p->gaps[i].ops &
				    FBAC_OP_BIT(FBAC_OP_FILE_GETATTR)) != 0;
		ok(getattr, "file_getattr is for the supervisor");
	}
	ok(p->ll.handle_connect_tcp && p->ll.n_connect_ports == 0,
	   "no tcp rule: the kernel refuses every connect");
	ok(p->ll.handle_bind_tcp && p->ll.n_bind_ports == 0,
	   "and every bind");
	is_int(p->ll.scope, FBAC_LL_SCOPE_SIGNAL | FBAC_LL_SCOPE_ABSTRACT_UNIX,
	       "signals and abstract sockets scoped");
	fbac_policy_free(p);

	if ((p = policy_of("LL_Home"))) {
		ok(gap_with(p, "/home/u/.ssh|/home/u/**"),
		   "a protected path inside a kernel-granted tree is a gap");
		ok(!gap_with(p, "/tmp/krb5cc"),
		   "a protected path no rule reaches is not");
		ok(ll_path(p, "/home/u/.ssh") != NULL,
		   "the rule written at the protected path is a kernel rule");
		fbac_policy_free(p);
	}

	if ((p = policy_of("LL_Ports"))) {
		static const uint16_t want[] = { 22, 80, 440, 441, 442, 443, 444 };
		bool same = p->ll.n_connect_ports == 7;

		for (size_t i = 0; same && i < 7; i++)
			same = p->ll.connect_ports[i] == want[i];
		ok(p->ll.handle_connect_tcp, "tcp connect handled");
		if (!ok(same, "connect ports expanded, sorted, deduplicated")) {
			for (size_t i = 0; i < p->ll.n_connect_ports; i++)
				diag("  port %u", p->ll.connect_ports[i]);
		}
		/* 25 is allowed and denied: the kernel lets it through and
		 * the supervisor decides (a gap, below). */
		ok(p->ll.handle_bind_tcp && p->ll.n_bind_ports == 2 &&
			   p->ll.bind_ports[0] == 25 &&
			   p->ll.bind_ports[1] == 8080,
		   "bind ports 25 and 8080, once each");
		ok(gap_with(p, "udp"), "udp is for the supervisor");
		ok(gap_with(p, "host"), "a host restriction is for the supervisor");
		ok(p->n_gaps > 0 && gap_with(p, "denied"),
		   "a denied network entry is for the supervisor");
		fbac_policy_free(p);
	}
	if ((p = policy_of("LL_Any"))) {
		ok(!p->ll.handle_connect_tcp,
		   "'ports: any': the kernel does not restrict connect");
		ok(p->ll.handle_bind_tcp, "but still bind");
		ok(gap_with(p, "network_outgoing"), "and says so in a gap");
		fbac_policy_free(p);
	}
	if ((p = policy_of("LL_4096"))) {
		ok(p->ll.handle_connect_tcp &&
			   p->ll.n_connect_ports == FBAC_MAX_PORT_RULES,
		   "FBAC_MAX_PORT_RULES ports are still enforced in the kernel");
		ok(!p->ll.handle_bind_tcp, "one more is not");
		fbac_policy_free(p);
	}
	if ((p = policy_of("LL_Scope"))) {
		ok(!(p->ll.scope & FBAC_LL_SCOPE_SIGNAL),
		   "ipc_signal lifts the signal scope");
		ok(!(p->ll.scope & FBAC_LL_SCOPE_ABSTRACT_UNIX),
		   "an abstract name lifts the abstract-socket scope");
		ok(gap_with(p, "abstract"), "and leaves names to the supervisor");
		fbac_policy_free(p);
	}
}

/* ------------------------------------------------------------------ */


static const struct fbac_ll_path *narrow_at(const struct fbac_policy *p,
					    const char *path)
{
	for (size_t i = 0; i < p->ll.n_narrow; i++)
		if (streq(p->ll.narrow[i].path, path))
			return &p->ll.narrow[i];
	return NULL;
}

static const struct fbac_ll_expand *narrow_expand_at(const struct fbac_policy *p,
						     const char *dir)
{
	for (size_t i = 0; i < p->ll.n_narrow_expand; i++)
		if (streq(p->ll.narrow_expand[i].dir, dir))
			return &p->ll.narrow_expand[i];
	return NULL;
}

static bool has_hole(const struct fbac_ll_expand *e, const char *hole)
{
	for (size_t i = 0; e && i < e->n_holes; i++)
		if (streq(e->holes[i], hole))
			return true;
	return false;
}

/* The program's read rules: never wider than the policy. */
/*
 * Without the gaps (what fbac-run compiles), every table a decision or
 * the kernel uses is the same, and no gap is made; unknown flags are
 * refused.
 */
static void test_compile_flags(void)
{
	const char *texts[] = { ll_text, protected_text, NULL };
	struct fbac_policy *full, *lean, *bad;
	int r;

	if (!setup(texts))
		return;
	full = policy_of_flags("LL", 0, &r);
	lean = policy_of_flags("LL", FBAC_COMPILE_NO_GAPS, &r);
	if (!ok(full && lean, "LL compiles with and without gaps"))
		goto out;
	ok(full->n_gaps > 3 && !full->gaps_left_out,
	   "by default the gaps are made (%zu)", full->n_gaps);
	ok(lean->n_gaps == 0 && lean->gaps_left_out,
	   "FBAC_COMPILE_NO_GAPS makes none (%zu)", lean->n_gaps);
	ok(full->n_prules == lean->n_prules &&
	   full->n_protected == lean->n_protected &&
	   full->ll.n_paths == lean->ll.n_paths &&
	   full->ll.n_expand == lean->ll.n_expand &&
	   full->ll.n_narrow == lean->ll.n_narrow &&
	   full->ll.n_narrow_expand == lean->ll.n_narrow_expand &&
	   full->ll.scope == lean->ll.scope,
	   "the rules and the kernel plan are the same without them");
	for (size_t i = 0; i < full->ll.n_paths && i < lean->ll.n_paths; i++)
		if (strcmp(full->ll.paths[i].path, lean->ll.paths[i].path) ||
		    full->ll.paths[i].access != lean->ll.paths[i].access) {
			ok(0, "kernel rule %zu: '%s' and '%s'", i,
			   full->ll.paths[i].path, lean->ll.paths[i].path);
			break;
		}
	bad = policy_of_flags("LL", 1u << 7, &r);
	is_int(r, -EINVAL, "an unknown compile flag is refused");
	ok(bad == NULL, "and nothing is compiled");
out:
	fbac_policy_free(full);
	fbac_policy_free(lean);
}

/* The path rules sorted, equal ones merged: the first of them in
 * resolution order speaks for all (its origin), with many rules to sort. */
static void test_first_origin(void)
{
	static const char first_text[] = FUNC(
		"Dup_A") "privileges: [file_read: /dup/x]\n"
			 "---\n" FUNC(
				 "Dup_B") "privileges: [file_read: /dup/x]\n"
					  "---\n" FUNC(
						  "Dup_AB") "includes: [Dup_A, Filler, Dup_B]\n"
							    "---\n" FUNC(
								    "Dup_BA") "includes: [Dup_B, Filler, Dup_A]\n"
									      "---\n" FUNC(
										      "Filler") "privileges:\n"
												"  - file_read: /z/9\n  - file_read: /a/1\n"
												"  - file_read: /m/**\n  - file_write: /dup/x\n"
												"  - file_read: /dup\n  - file_read: /dup/x/**\n"
												"  - file_read: /b/*\n  - file_read: /a\n"
												"  - file_read: /dup/w\n  - file_read: /y/**\n";
	const char *texts[] = { first_text, NULL };
	const char *const funcs[] = { "Dup_AB", "Dup_BA" };
	const char *const want[] = { "Dup_AB > Dup_AB > Dup_A",
				     "Dup_BA > Dup_BA > Dup_B" };

	if (!setup(texts))
		return;
	for (size_t f = 0; f < 2; f++) {
		struct fbac_policy *p = policy_of(funcs[f]);
		struct fbac_verdict v;
		bool sorted = true;

		if (!p)
			continue;
		/* By literal prefix (bytes, then length), then pattern. */
		for (size_t i = 1; i < p->n_prules; i++) {
			const struct fbac_prule *a = &p->prules[i - 1],
						*b = &p->prules[i];
			int c = memcmp(a->pattern, b->pattern,
				       a->plen < b->plen ? a->plen : b->plen);

			if (!c)
				c = a->plen < b->plen ? -1 : a->plen > b->plen;
			if (!c)
				c = strcmp(a->pattern, b->pattern);
			if (c > 0 || (!c && a->deny > b->deny))
				sorted = false;
		}
		ok(sorted, "%s: path rules in order", funcs[f]);
		fbac_policy_check_path(p, FBAC_OP_FILE_READ, "/dup/x", &v);
		ok(v.allowed && v.origin && v.origin->chain &&
			   !strcmp(v.origin->chain, want[f]),
		   "%s: the rule granted twice names the first grant (%s)",
		   funcs[f],
		   v.origin && v.origin->chain ? v.origin->chain : "NULL");
		fbac_policy_free(p);
	}
}

/* fbac_sort_nearly() (lib/sort.c): the stable order, by insertion when the
 * array is nearly sorted, by qsort past its budget of moves. */
struct keyed {
	int key, seq;
};

static int cmp_key(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;

	return (a->key > b->key) - (a->key < b->key);
}

static bool stable_sorted(const struct keyed *v, size_t n)
{
	for (size_t i = 1; i < n; i++)
		if (v[i - 1].key > v[i].key ||
		    (v[i - 1].key == v[i].key && v[i - 1].seq > v[i].seq))
			return false;
	return true;
}

static void test_sort_nearly(void)
{
	enum { N = 300 };
	struct keyed v[N];
	unsigned seed = 7;

	/* Sorted with ties; a few out of place (by insertion); reversed (past
	 * the budget:
	 * qsort); random keys with many ties (qsort). */
	for (int shape = 0; shape < 4; shape++) {
		int sum = 0, sum2 = 0;

		for (int i = 0; i < N; i++) {
			seed = seed * 1103515245u + 12345u;
			v[i].key = shape == 0 ? i / 3 :
				   shape == 1 ? (i % 10 ? i : i - 2) :
				   shape == 2 ? N - i :
						(int)(seed >> 16) % 17;
			v[i].seq = i;
			sum += v[i].key;
		}
		fbac_sort_nearly(v, N, sizeof(*v), cmp_key);
		for (int i = 0; i < N; i++)
			sum2 += v[i].key;
		ok(sum == sum2, "fbac_sort_nearly, shape %d: the same elements",
		   shape);
		/* Stability of qsort's fallback is glibc's (a merge sort). */
		ok(stable_sorted(v, N),
		   "fbac_sort_nearly, shape %d: sorted, equal keys in their first order",
		   shape);
	}
	v[0] = (struct keyed){ 1, 0 };
	fbac_sort_nearly(v, 1, sizeof(*v), cmp_key);
	fbac_sort_nearly(v, 0, sizeof(*v), cmp_key);
	ok(v[0].key == 1 && v[0].seq == 0,
	   "fbac_sort_nearly: one element or none, nothing moved");
}

static void narrow_within_policy(const struct fbac_policy *p, const char *name)
{
	ok(narrow_refused_reads(p, name) == 0 && p->ll.n_narrow > 0,
	   "%s: its %zu narrow rules read nothing the policy refuses", name,
	   p->ll.n_narrow);
}

static void test_narrow(void)
{
	const char *texts[] = { ll_text, protected_text, NULL };
	const struct fbac_ll_expand *e;
	const struct fbac_ll_path *n;
	struct fbac_policy *p;
	char buf[FBAC_MAX_PATH];

	if (!setup(texts) || !(p = policy_of("LL")))
		return;
	narrow_within_policy(p, "LL");
	n = narrow_at(p, "/usr");
	ok(n && n->access == (FBAC_LL_FS_READ_FILE | FBAC_LL_FS_READ_DIR) &&
		   !n->literal_only,
	   "a tree with file_read and dir_read is one narrow tree rule");
	n = narrow_at(p, "/rw");
	ok(n && n->access == FBAC_LL_FS_WRITE_FILE,
	   "file_write is a narrow right");
	ok(!narrow_at(p, "/tmp"),
	   "creating, removing, truncating are not narrow rights");
	n = narrow_at(p, "/var/log/app.log");
	ok(n && n->literal_only == FBAC_LL_FS_WRITE_FILE,
	   "writing one named file is narrow for the file alone");
	n = narrow_at(p, "/listed");
	ok(n && n->access == FBAC_LL_FS_READ_DIR &&
		   n->literal_only == FBAC_LL_FS_READ_DIR,
	   "a literal rule is narrow for the object alone");
	e = narrow_expand_at(p, "/etc");
	ok(e && e->glob && streq(e->glob, "/etc/*.conf") && !e->n_holes &&
		   e->access == FBAC_LL_FS_READ_FILE,
	   "a last-component pattern is listed at launch");
	e = narrow_expand_at(p, "/data");
	ok(e && !e->glob && has_hole(e, "/data/private/**") &&
		   !narrow_at(p, "/data"),
	   "a tree with a denied subtree is listed around the hole");
	ok(!narrow_expand_at(p, "/data/ro"),
	   "a denial of writing is no hole for reading");
	p = fbac_policy_free(p);

	if (!(p = policy_of("LL_Home")))
		return;
	narrow_within_policy(p, "LL_Home");
	snprintf(buf, sizeof(buf), "%s/.ssh", "/home/u"); /* test_env */
	e = narrow_expand_at(p, "/home/u");
	ok(e && has_hole(e, buf), "a protected path is a hole in the home tree");
	ok(narrow_at(p, buf) != NULL,
	   "a rule written at the protected path is a narrow rule");
	p = fbac_policy_free(p);

	if (!(p = policy_of("LL_Narrow")))
		return;
	narrow_within_policy(p, "LL_Narrow");
	ok(narrow_at(p, "/srv") != NULL, "a plain tree is narrow");
	ok(!narrow_at(p, "/logs"), "appending alone is not a narrow right");
	n = narrow_at(p, "/dev/pts");
	ok(n && n->access == (FBAC_LL_FS_READ_FILE | FBAC_LL_FS_WRITE_FILE),
	   "the terminals of /dev/pts are narrow, unlike the rest of /dev");
	ok(!narrow_at(p, "/proc/self") && !narrow_at(p, "/proc") &&
		   !narrow_at(p, "/sys"),
	   "/proc and /sys are left to the supervisor");
	ok(!narrow_at(p, "/var/x"), "a literal that is also denied is not narrow");
	ok(!narrow_at(p, "/opt") && !narrow_expand_at(p, "/opt"),
	   "a tree with a hole no entry list can follow is not narrow");
	ok(!narrow_expand_at(p, "/mid"),
	   "a pattern with a wildcard above its last component is not narrow");
	n = ll_path(p, "/var");
	ok(n && (n->access & FBAC_LL_FS_MAKE_REG) &&
		   (n->access & FBAC_LL_FS_WRITE_FILE) &&
		   !(n->access & FBAC_LL_FS_READ_FILE),
	   "creating one named file is a kernel right on its directory");
	p = fbac_policy_free(p);
}

/* clang-format off */
#define IMPLIED_BASE                                                           \
	"  - access: [file_read, file_execute, dir_read]\n"                    \
	"    paths: /usr/bin/**\n"                                             \
	"  - file_read: /srv/**\n"                                             \
	"  - file_read: /opt/**\n"                                             \
	"  - file_execute: \"/opt/x-*\"\n"                                     \
	"  - file_execute: /bin\n"                                             \
	"  - file_execute: \"/bin/y-*\"\n"                                     \
	"  - file_read: /home/u/doc\n"                                         \
	"  - file_read: \"/home/u/doc/*.md\"\n"

static const char implied_text[] =
	FUNC("LL_Implied_Base") "privileges:\n" IMPLIED_BASE
	"---\n"
	FUNC("LL_Implied") "privileges:\n" IMPLIED_BASE
	"  - file_execute: \"/usr/bin/git-*\"\n"
	"  - file_read: \"/usr/bin/git-*\"\n"
	"  - file_read: \"/srv/*.txt\"\n";
/* clang-format on */

static bool expand_in(const struct fbac_ll_expand *v, size_t n, const char *dir)
{
	for (size_t i = 0; i < n; i++)
		if (streq(v[i].dir, dir))
			return true;
	return false;
}

/*
 * A listing that a tree rule above gives all it would is left out of
 * the plan (plan-implied.c): the kernel takes the union of the rules on
 * an object and on the directories above it, so the plan with the
 * implied patterns is the plan without them, rule for rule, and the
 * decisions are the policy's as before. A tree that lacks a right, or a
 * rule naming a directory alone, implies nothing.
 */
static void test_implied(void)
{
	const char *texts[] = { implied_text, NULL };
	struct fbac_policy *p, *base;

	if (!setup(texts) || !(p = policy_of("LL_Implied")))
		return;
	if (!(base = policy_of("LL_Implied_Base"))) {
		fbac_policy_free(p);
		return;
	}
	ok(!expand_in(p->ll.expand, p->ll.n_expand, "/usr/bin"),
	   "running /usr/bin/git-* is not listed: /usr/bin/** runs already");
	ok(!expand_in(p->ll.narrow_expand, p->ll.n_narrow_expand, "/usr/bin") &&
		   !expand_in(p->ll.narrow_expand, p->ll.n_narrow_expand, "/srv"),
	   "nor reading /usr/bin/git-* or /srv/*.txt: their trees read already");
	ok(expand_in(p->ll.expand, p->ll.n_expand, "/opt"),
	   "/opt/x-* is listed: /opt/** is read, not run");
	ok(expand_in(p->ll.expand, p->ll.n_expand, "/bin"),
	   "/bin/y-* is listed: a rule on /bin alone runs nothing below it");
	ok(expand_in(p->ll.narrow_expand, p->ll.n_narrow_expand, "/home/u/doc"),
	   "/home/u/doc/*.md is listed: a narrow rule on the folder alone");
	ok(ll_paths_eq(p->ll.paths, p->ll.n_paths, base->ll.paths,
		       base->ll.n_paths) &&
		   ll_expands_eq(p->ll.expand, p->ll.n_expand, base->ll.expand,
				 base->ll.n_expand) &&
		   ll_paths_eq(p->ll.narrow, p->ll.n_narrow, base->ll.narrow,
			       base->ll.n_narrow) &&
		   ll_expands_eq(p->ll.narrow_expand, p->ll.n_narrow_expand,
				 base->ll.narrow_expand,
				 base->ll.n_narrow_expand),
	   "the kernel plan is the plan without the implied patterns");
	path_is(p, FBAC_OP_FILE_EXECUTE, "/usr/bin/git-shell", true, NULL);
	path_is(base, FBAC_OP_FILE_EXECUTE, "/usr/bin/git-shell", true, NULL);
	path_is(p, FBAC_OP_FILE_READ, "/srv/a.txt", true, NULL);
	path_is(base, FBAC_OP_FILE_READ, "/srv/a.txt", true, "/srv/**");
	path_is(p, FBAC_OP_FILE_EXECUTE, "/opt/x-1", true, "/opt/x-*");
	path_is(p, FBAC_OP_FILE_EXECUTE, "/opt/y-1", false, NULL);
	fbac_policy_free(p);
	fbac_policy_free(base);
}

static const char stack_funcs[] =
	FUNC("Read_Data") "privileges: [file_read: /data/**]\n"
	"---\n"
	FUNC("Read_Other") "privileges: [file_read: /other/**]\n"
	"---\n"
	FUNC("Read_More") "privileges: [file_read: /more/**]\n"
	"---\n"
	FUNC("Read_Home") "privileges: [file_read: ~/**]\n";

#define APP_T(funcs)                                                           \
	"fbac: 1\napplication: t\nexecutables: [/usr/bin/t]\n"                 \
	"functionalities: " funcs "\n"

static int load_layer(enum fbac_layer_kind kind, const char *name,
		      const char *text)
{
	char file[64];

	if (fbac_library_add_layer(lib, kind, name, NULL) < 0)
		return -E2BIG;
	snprintf(file, sizeof(file), "%s.yaml", name);
	return load_text(lib, file, text, &d);
}

/*
 * The layers (fbac-profile(5), LAYERS): the administrator's policy is the
 * ceiling, the user's own replaces the library's (and may grant more), a
 * -P layer narrows.
 */
/*
 * The verdict cache (lib/vcache.c) gives the answers the stack gives:
 * the same deciding entry and the same verdict, for allowed and denied
 * paths, for more paths than it has slots (each replacing another), for
 * a path too long to keep, and asked twice. Cleared with the stack.
 */
static bool same_verdict(const struct fbac_verdict *a,
			 const struct fbac_verdict *b)
{
	return a->allowed == b->allowed && a->origin == b->origin &&
	       a->rule == b->rule && a->deny_rule == b->deny_rule &&
	       a->protected == b->protected && a->cut_origin == b->cut_origin &&
	       a->cut_rule == b->cut_rule;
}

static void check_vcache(struct fbac_stack *s)
{
	static const char *const fixed[] = {
		"/data/x",	   "/other/x",	  "/more/x", "/home/u/x",
		"/home/trusted/x", "/etc/passwd", "/"
	};
	static const enum fbac_op ops[] = { FBAC_OP_FILE_READ,
					    FBAC_OP_FILE_WRITE,
					    FBAC_OP_FILE_GETATTR };
	enum { N_MANY = FBAC_VCACHE_SLOTS * 2 };
	const struct fbac_stack_entry *e0[N_MANY], *e;
	struct fbac_verdict v0[N_MANY], v;
	char path[N_MANY][64], long_path[FBAC_VCACHE_PATH + 16];
	size_t n = 0, bad = 0;

	memset(long_path, 'a', sizeof(long_path) - 1);
	long_path[0] = '/';
	long_path[sizeof(long_path) - 1] = 0;
	for (size_t i = 0; i < N_MANY; i++) {
		if (i < ARRAY_SIZE(fixed))
			snprintf(path[i], sizeof(path[i]), "%s", fixed[i]);
		else
			snprintf(path[i], sizeof(path[i]), "/%s/f%zu",
				 i % 3 ? "data" : "other", i);
	}
	for (size_t i = 0; i < N_MANY; i++, n++)
		e0[i] = fbac_stack_check_path(s, ops[i % 3], path[i], &v0[i]);
	is_int(fbac_stack_cache_verdicts(s), 0, "verdicts remembered");
	for (int round = 0; round < 2; round++)
		for (size_t i = 0; i < n; i++) {
			memset(&v, 0x5a, sizeof(v));
			e = fbac_stack_check_path(s, ops[i % 3], path[i], &v);
			bad += e != e0[i] || !same_verdict(&v, &v0[i]);
		}
	is_int((long)bad, 0, "cached answers are the stack's, twice over");
	for (int round = 0; round < 2; round++) {
		e = fbac_stack_check_path(s, FBAC_OP_FILE_READ, long_path, &v);
		ok(e && !v.allowed, "a path too long to keep is decided (%d)",
		   round);
	}
	e = fbac_stack_check_path(s, FBAC_OP_FILE_READ, "/data/x", &v);
	ok(!e && v.allowed, "an allowed path, cached");
	e = fbac_stack_check_path(s, FBAC_OP_FILE_WRITE, "/data/x", &v);
	ok(e == &s->entries[0] && !v.allowed,
	   "the same path for another operation is its own question");
}

static void test_stack(void)
{
	struct fbac_stack s = { .n = 0 };
	struct fbac_include as[2] = { { .name = "Read_Data" },
				      { .name = "Read_More" } };
	struct fbac_stack_input in = { .env = &env,
				       .trusted_env = &trusted_env,
				       .program = "t" };
	const struct fbac_application *apps[FBAC_MAX_LAYERS];
	const struct fbac_stack_entry *e;
	struct fbac_verdict v;
	int r, replaced;

	lib = fbac_library_free(lib);
	lib = fbac_library_new();
	r = load_layer(FBAC_LAYER_LIBRARY, "library", stack_funcs);
	r |= load_text(lib, "library-t.yaml", APP_T("[Read_Data]"), &d);
	r |= load_text(lib, "library-s.yaml",
		       "fbac: 1\napplication: s\nexecutables: [/usr/bin/s]\n"
		       "functionalities: [Read_Data, Read_Other]\n",
		       &d);
	r |= load_text(lib, "library-f.yaml",
		       "fbac: 1\napplication: f\nexecutables: [/usr/bin/f]\n"
		       "sandbox_fallback: [--no-sandbox]\n"
		       "functionalities: [Read_Data]\n",
		       &d);
	r |= load_layer(FBAC_LAYER_ADMIN, "admin",
			APP_T("[Read_Data, Read_Other, Read_Home]"));
	r |= load_layer(FBAC_LAYER_USER, "user",
			APP_T("[Read_Data, Read_Other, Read_More, Read_Home]"));
	r |= load_layer(FBAC_LAYER_EXTRA, "extra",
			"fbac: 1\napplication: s\nexecutables: [/x]\n"
			"functionalities: [Read_Other]\n");
	fbac_diag_clear(&d);
	if (!ok(r == 0 && fbac_library_link(lib, &d) == 0,
		"four layers load and link"))
		diag("%s:%u:%u: %s", d.file, d.line, d.col, d.msg);
	in.lib = lib;

	is_int(fbac_stack_layers(lib, "t", apps, &replaced), 2,
	       "two layers in force for t");
	ok(!apps[0] && apps[1] && apps[2] && !apps[3],
	   "admin and user; the library's set aside, extra does not name t");
	is_int(replaced, 0, "the library's is the one replaced");
	is_int(fbac_stack_layers(lib, "s", apps, &replaced), 2,
	       "two layers in force for s");
	ok(apps[0] && !apps[1] && !apps[2] && apps[3] && replaced == -1,
	   "without a user policy the library's applies; a -P layer adds one");

	fbac_diag_clear(&d);
	is_int(fbac_stack_build(&in, &s, &d), 0, "stack for t");
	is_int(s.n, 2, "admin and user; the user's replaces the library's");
	if (s.n == 2) {
		is_str(s.entries[0].layer_name, "admin", "first entry");
		is_int(s.entries[0].kind, FBAC_LAYER_ADMIN, "its kind");
		ok(!s.entries[0].replaces, "admin replaces nothing");
		is_str(s.entries[1].layer_name, "user", "second entry");
		is_int(s.entries[1].kind, FBAC_LAYER_USER, "its kind");
		is_str(s.entries[1].replaces, "library",
		       "the user's says what it replaces");
	}
	e = fbac_stack_check_path(&s, FBAC_OP_FILE_READ, "/data/x", &v);
	ok(e == NULL && v.allowed, "allowed when every layer allows");
	e = fbac_stack_check_path(&s, FBAC_OP_FILE_READ, "/other/x", &v);
	ok(e == NULL && v.allowed,
	   "the user's policy grants more than the library's");
	e = fbac_stack_check_path(&s, FBAC_OP_FILE_READ, "/more/x", &v);
	ok(e && e->layer_name && !strcmp(e->layer_name, "admin") && !v.allowed,
	   "but never more than the administrator's");
	/* The admin layer's '~' is the trusted home, not the caller's. */
	e = fbac_stack_check_path(&s, FBAC_OP_FILE_READ, "/home/u/x", &v);
	ok(e && !strcmp(e->layer_name, "admin"),
	   "admin's ~/** is not the caller's home");
	e = fbac_stack_check_path(&s, FBAC_OP_FILE_READ, "/home/trusted/x", &v);
	ok(e && !strcmp(e->layer_name, "user"),
	   "and the other layers' ~/** is not the trusted home");
	e = fbac_stack_check_path(&s, FBAC_OP_FILE_READ, "/etc/passwd", &v);
	ok(e == &s.entries[0] && !v.allowed, "denied by all: the first says so");
	check_vcache(&s);
	fbac_stack_clear(&s);
	is_int(s.n, 0, "stack cleared");
	ok(!s.vcache, "and its verdict cache");

	/* No user policy: the library's, narrowed by a -P layer. */
	in.program = "s";
	fbac_diag_clear(&d);
	is_int(fbac_stack_build(&in, &s, &d), 0, "stack for s");
	is_int(s.n, 2, "library and extra");
	if (s.n == 2) {
		is_str(s.entries[0].layer_name, "library", "the library's");
		ok(!s.entries[0].replaces, "replacing nothing");
		is_int(s.entries[1].kind, FBAC_LAYER_EXTRA, "then the extra");
	}
	e = fbac_stack_check_path(&s, FBAC_OP_FILE_READ, "/data/x", &v);
	ok(e && e->kind == FBAC_LAYER_EXTRA, "the -P layer narrows");
	fbac_stack_clear(&s);
	in.program = "t";

	/* --as replaces the discretionary layers; admin still applies. */
	as[0].target = fbac_library_find(lib, "Read_Data");
	as[1].target = fbac_library_find(lib, "Read_More");
	in.grants = as;
	in.n_grants = 2;
	fbac_diag_clear(&d);
	is_int(fbac_stack_build(&in, &s, &d), 0, "stack for t --as");
	is_int(s.n, 2, "admin and the command line");
	if (s.n == 2) {
		ok(s.entries[0].layer &&
			   s.entries[0].layer->kind == FBAC_LAYER_ADMIN,
		   "the admin layer");
		ok(s.entries[1].layer == NULL &&
			   s.entries[1].kind == FBAC_LAYER_COMMAND_LINE &&
			   !s.entries[1].replaces,
		   "the command line");
	}
	e = fbac_stack_check_path(&s, FBAC_OP_FILE_READ, "/data/x", &v);
	ok(e == NULL && v.allowed, "--as and admin both allow /data");
	e = fbac_stack_check_path(&s, FBAC_OP_FILE_READ, "/more/x", &v);
	ok(e && e->layer && e->layer->kind == FBAC_LAYER_ADMIN,
	   "--as cannot widen the admin layer");
	e = fbac_stack_check_path(&s, FBAC_OP_FILE_READ, "/home/trusted/x", &v);
	ok(e && e->layer == NULL,
	   "the library and user policies are replaced by --as");
	ok(s.n == 2 && s.entries[1].policy->res->n_sandbox_fallback == 0,
	   "t's policies have no sandbox_fallback: --as has none");
	fbac_stack_clear(&s);

	/* The program's own sandbox fails inside fbac-run whatever it is
	 * run as: --as carries its policy's sandbox_fallback. */
	in.program = "f";
	fbac_diag_clear(&d);
	is_int(fbac_stack_build(&in, &s, &d), 0, "stack for f --as");
	if (is_int(s.n, 1, "the command line alone (admin does not name f)")) {
		const struct fbac_resolved *res = s.entries[0].policy->res;

		ok(s.entries[0].kind == FBAC_LAYER_COMMAND_LINE &&
			   res->n_sandbox_fallback == 1 &&
			   !strcmp(res->sandbox_fallback[0], "--no-sandbox"),
		   "--as takes f's sandbox_fallback");
	}
	fbac_stack_clear(&s);
	in.program = "t";

	in.program = NULL;
	fbac_diag_clear(&d);
	is_int(fbac_stack_build(&in, &s, &d), 0, "--as without a program");
	is_int(s.n, 1, "only the command line");
	fbac_stack_clear(&s);

	in.grants = NULL;
	in.n_grants = 0;
	in.program = "nobody";
	fbac_diag_clear(&d);
	is_int(fbac_stack_build(&in, &s, &d), -ENOENT,
	       "a program no layer names");
	like(d.msg, "nobody", "the message names it");
	is_int(s.n, 0, "nothing returned");

	in.program = "/usr/bin/t";
	fbac_diag_clear(&d);
	is_int(fbac_stack_build(&in, &s, &d), 0, "a program by executable path");
	is_int(s.n, 2, "matches the same policies");
	fbac_stack_clear(&s);
	in.program = "/opt/bin/t";
	fbac_diag_clear(&d);
	is_int(fbac_stack_build(&in, &s, &d), 0,
	       "an unlisted path falls back to its last component");
	is_int(s.n, 2, "the policies named t");
	fbac_stack_clear(&s);
}

/*
 * Metadata visibility across the stack: mediated if any entry says so,
 * visible if one does and none says mediated, else the default.
 */
#define APP_M(meta, funcs)                                                     \
	"fbac: 1\napplication: t\nmetadata: " meta "\nexecutables: [/usr/bin/t]\n" \
	"functionalities: " funcs "\n"

static void stack_meta(const char *admin, const char *user,
		       enum fbac_metadata want, const char *want_layer,
		       const char *name)
{
	struct fbac_stack s = { .n = 0 };
	struct fbac_stack_input in = { .env = &env,
				       .trusted_env = &trusted_env,
				       .program = "t" };
	const struct fbac_stack_entry *why = NULL;
	char what[160];
	int r;

	lib = fbac_library_free(lib);
	lib = fbac_library_new();
	r = load_layer(FBAC_LAYER_LIBRARY, "library", stack_funcs);
	if (admin)
		r |= load_layer(FBAC_LAYER_ADMIN, "admin", admin);
	if (user)
		r |= load_layer(FBAC_LAYER_USER, "user", user);
	fbac_diag_clear(&d);
	if (!ok(r == 0 && fbac_library_link(lib, &d) == 0,
		"%s: layers load %s", name, d.msg))
		return;
	in.lib = lib;
	snprintf(what, sizeof(what), "%s: stack", name);
	if (!is_int(fbac_stack_build(&in, &s, &d), 0, what))
		return;
	is_int(fbac_stack_metadata(&s, &why), want, name);
	if (want_layer)
		ok(why && !strcmp(why->layer_name, want_layer),
		   "%s: decided by layer %s", name, want_layer);
	else
		ok(why == NULL, "%s: the default decides", name);
	fbac_stack_clear(&s);
}

static void test_stack_metadata(void)
{
	stack_meta(NULL, APP_T("[Read_Data]"), FBAC_META_MEDIATED, NULL,
		   "nothing said: mediated");
	stack_meta(NULL, APP_M("visible", "[Read_Data]"), FBAC_META_VISIBLE,
		   "user", "one layer, visible");
	stack_meta(APP_M("mediated", "[Read_Data]"),
		   APP_M("visible", "[Read_Data]"), FBAC_META_MEDIATED, "admin",
		   "admin mediated, user visible: mediated");
	stack_meta(APP_M("visible", "[Read_Data]"),
		   APP_M("mediated", "[Read_Data]"), FBAC_META_MEDIATED, "user",
		   "admin visible, user mediated: mediated");
	stack_meta(APP_T("[Read_Data]"), APP_M("visible", "[Read_Data]"),
		   FBAC_META_VISIBLE, "user",
		   "a layer that says nothing does not count");
	stack_meta("fbac: 1\nsettings:\n  metadata: mediated\n",
		   APP_M("visible", "[Read_Data]"), FBAC_META_MEDIATED, "user",
		   "an administrator's settings ban visible");
}

/*
 * The administrator's protected paths mean the same whatever the caller's
 * environment, in every policy (fbac-profile(5), Built-in variables: "a
 * user could move what the administrator's rules grant, deny or protect").
 */
static void test_admin_protected(void)
{
	static const char admin_prot[] =
		"fbac: 1\n"
		"protected:\n"
		"  - {path: $XDG_CONFIG_HOME/secret, reason: admin secret}\n";
	struct fbac_env caller, trusted;
	const struct fbac_env_input cin = { .home = "/home/u",
					    .user = "u",
					    .uid = 1000,
					    .xdg_config_home = "/tmp/elsewhere" };
	const struct fbac_env_input tin = { .home = "/home/u",
					    .user = "u",
					    .uid = 1000 };
	struct fbac_stack s = { .n = 0 };
	struct fbac_stack_input in = { .env = &caller,
				       .trusted_env = &trusted,
				       .program = "t" };
	const struct fbac_stack_entry *e;
	struct fbac_verdict v;
	int r;

	if (fbac_env_init(&caller, env_arena, &cin) < 0 ||
	    fbac_env_init(&trusted, env_arena, &tin) < 0)
		abort();
	lib = fbac_library_free(lib);
	lib = fbac_library_new();
	r = load_layer(FBAC_LAYER_LIBRARY, "library", stack_funcs);
	r |= load_text(lib, "library-t.yaml", APP_T("[Read_Home]"), &d);
	r |= load_layer(FBAC_LAYER_ADMIN, "admin", admin_prot);
	fbac_diag_clear(&d);
	if (!ok(r == 0 && fbac_library_link(lib, &d) == 0,
		"library with an admin protected path"))
		return;
	in.lib = lib;
	fbac_diag_clear(&d);
	is_int(fbac_stack_build(&in, &s, &d), 0, "stack for t");
	e = fbac_stack_check_path(&s, FBAC_OP_FILE_READ, "/home/u/notes", &v);
	ok(e == NULL && v.allowed, "~/** reads the home");
	e = fbac_stack_check_path(&s, FBAC_OP_FILE_READ,
				  "/home/u/.config/secret/key", &v);
	if (!ok(e != NULL && !v.allowed,
		"the admin's $XDG_CONFIG_HOME/secret stays protected when the "
		"caller sets XDG_CONFIG_HOME elsewhere"))
		diag("protected paths of the policy: %s",
		     s.n && s.entries[0].policy->n_protected ?
			     s.entries[0].policy->protected[0].path :
			     "none");
	fbac_stack_clear(&s);
}

/* ------------------------------------------------------------------ */

static const char suggest_text[] =
	FUNC("Read_Passwd") "privileges: [file_read: /etc/passwd]\n"
	"---\n"
	FUNC("Read_Etc") "privileges: [file_read: /etc/**, dir_read: /etc/**]\n"
	"---\n"
	FUNC("Read_All")
	"privileges: [file_read: /**, dir_read: /**, file_write: /tmp/**]\n"
	"---\n"
	FUNC("Read_Dir") "parameters:\n  dir: {type: path}\n"
	"privileges: [file_read: \"$dir/**\"]\n"
	"---\n"
	FUNC("Needs_String") "parameters:\n  s: {type: string}\n"
	"privileges: [file_read: \"/etc/$s\"]\n"
	"---\n"
	FUNC("Net_Only")
	"privileges: [network_outgoing: {protocol: tcp, ports: 80}]\n"
	"---\n"
	FUNC("Deny_Etc") "includes: [Read_All]\ndenied: [file_read: /etc/**]\n";

static void test_suggest(void)
{
	const char *texts[] = { suggest_text, protected_text, NULL };
	struct fbac_suggestion out[8];
	struct fbac_query q = { .op = FBAC_OP_FILE_READ,
				.path = "/etc/passwd" };
	size_t n = 99;

	if (!setup(texts))
		return;
	is_int(fbac_suggest(lib, &env, &q, "/etc", out, 8, &n), 0, "suggest");
	is_int(n, 4, "four functionalities allow reading /etc/passwd");
	if (n == 4) {
		is_str(out[0].f->name, "Read_Passwd", "most precise first");
		is_str(out[1].f->name, "Read_Etc", "then a bigger one");
		is_str(out[2].f->name, "Read_All", "then the biggest");
		is_str(out[3].f->name, "Read_Dir",
		       "one that needs its path filled in comes last");
		ok(!out[0].fill && out[3].fill && !strcmp(out[3].fill, "/etc"),
		   "fill given only where used");
		ok(out[0].size < out[1].size && out[1].size < out[2].size,
		   "sizes grow (%zu %zu %zu)", out[0].size, out[1].size,
		   out[2].size);
	}
	is_int(fbac_suggest(lib, &env, &q, NULL, out, 8, &n), 0,
	       "suggest without fill_dir");
	is_int(n, 3, "functionalities needing a path are not tried");
	is_int(fbac_suggest(lib, &env, &q, "/etc", out, 2, &n), 0,
	       "suggest at most 2");
	ok(n == 2 && !strcmp(out[0].f->name, "Read_Passwd") &&
		   !strcmp(out[1].f->name, "Read_Etc"),
	   "the best two");
	{
		/* Under a protected path, no parameterised grant is kept. */
		struct fbac_suggestion mix[4] = { 0 };

		mix[0].param = "ports";
		mix[1].fill = "/a";
		mix[2].param = "dir";
		mix[3].fill = "/b";
		is_int((long)fbac_suggest_drop_params(mix, 4), 2,
		       "parameterised grants dropped");
		ok(!mix[0].param && !strcmp(mix[0].fill, "/a") &&
			   !strcmp(mix[1].fill, "/b"),
		   "the others kept, in order");
		is_int((long)fbac_suggest_drop_params(mix, 0), 0, "none in none");
	}

	q.path = "/home/u/.ssh/id_rsa";
	is_int(fbac_suggest(lib, &env, &q, "/home/u/.ssh", out, 8, &n), 0,
	       "suggest for a protected path");
	ok(n == 1 && !strcmp(out[0].f->name, "Read_Dir"),
	   "only a rule written at the protected path reaches it");

	q = (struct fbac_query){ .op = FBAC_OP_NETWORK_OUTGOING,
				 .proto = FBAC_PROTO_TCP,
				 .port = 80 };
	is_int(fbac_suggest(lib, &env, &q, NULL, out, 8, &n), 0,
	       "suggest for the network");
	ok(n == 1 && !strcmp(out[0].f->name, "Net_Only"), "Net_Only");

	q = (struct fbac_query){ .op = FBAC_OP_FILE_EXECUTE, .path = "/bin/sh" };
	is_int(fbac_suggest(lib, &env, &q, "/bin", out, 8, &n), 0,
	       "suggest for something nothing grants");
	is_int(n, 0, "no suggestion");
}

/* ------------------------------------------------------------------ */

static const char hint_text[] =
	FUNC("Web") "parameters:\n  ports: {type: ports, default: [80, 443]}\n"
	"  hosts: {type: hosts, default: any}\n"
	"privileges:\n  - network_outgoing: {protocol: tcp, ports: $ports, hosts: $hosts}\n"
	"---\n"
	FUNC("Save") "parameters:\n  dir: {type: paths, default: [/home/u/Downloads]}\n"
	"privileges: [file_write: \"$dir/**\"]\n"
	"---\n"
	FUNC("Fetcher") "includes: [Web, Save]\n"
	"---\n"
	"fbac: 1\napplication: t\nexecutables: [/usr/bin/t]\n"
	"functionalities: [Fetcher]\n"
	"denied: [file_write: /home/u/Downloads/no/**]\n";

/* Parameterised grants, and the -D hints of lib/hint.c. */
static void test_hints(void)
{
	const char *texts[] = { hint_text, protected_text, NULL };
	struct fbac_suggestion out[8];
	struct fbac_define_hint h[4];
	struct fbac_query q = { .op = FBAC_OP_NETWORK_OUTGOING,
				.proto = FBAC_PROTO_TCP,
				.host = "127.0.0.1",
				.port = 8000 };
	struct fbac_stack_input in = { .env = &env,
				       .trusted_env = &trusted_env,
				       .program = "t" };
	struct fbac_define user_def = { "Web", "hosts", "10.0.0.1" };
	struct fbac_stack s = { .n = 0 };
	size_t n = 99;

	if (!setup(texts))
		return;
	in.lib = lib;
	is_int(fbac_suggest(lib, &env, &q, NULL, out, 8, &n), 0,
	       "suggest for a port");
	ok(n >= 1 && !strcmp(out[0].f->name, "Web") && out[0].param &&
		   !strcmp(out[0].param, "ports") &&
		   !strcmp(out[0].value, "8000"),
	   "Web with ports=8000 (%zu: %s)", n, n ? out[0].f->name : "");
	is_int(fbac_hint_defines(&in, &q, NULL, h, 4, &n), 0, "hint for a port");
	ok(n == 1 && !strcmp(h[0].f->name, "Web") &&
		   !strcmp(h[0].param, "ports") &&
		   !strcmp(h[0].value, "80,443,8000"),
	   "-D Web.ports=80,443,8000 keeps what it had (%zu: %s)", n,
	   n ? h[0].value : "");

	q.port = 80;
	in.defines = &user_def;
	in.n_defines = 1;
	is_int(fbac_hint_defines(&in, &q, NULL, h, 4, &n), 0, "hint for a host");
	ok(n == 1 && !strcmp(h[0].param, "hosts") &&
		   !strcmp(h[0].value, "10.0.0.1,127.0.0.1"),
	   "-D Web.hosts adds to the user's own -D (%zu: %s)", n,
	   n ? h[0].value : "");
	in.n_defines = 0;

	q = (struct fbac_query){ .op = FBAC_OP_FILE_WRITE,
				 .path = "/srv/pages/x" };
	is_int(fbac_hint_defines(&in, &q, "/srv/pages", h, 4, &n), 0,
	       "hint for a folder");
	ok(n == 1 && !strcmp(h[0].f->name, "Save") &&
		   !strcmp(h[0].value, "/home/u/Downloads,/srv/pages"),
	   "-D Save.dir adds the folder (%zu: %s)", n, n ? h[0].value : "");

	q.path = "/home/u/.ssh/id_rsa";
	is_int(fbac_hint_defines(&in, &q, "/home/u/.ssh", h, 4, &n), 0,
	       "hint for a protected path");
	is_int(n, 0, "no folder -D reaches a protected path");
	fbac_diag_clear(&d);
	if (is_int(fbac_stack_build(&in, &s, &d), 0, "stack for t")) {
		ok(fbac_hint_protected(&s, &q) != NULL, "the path is protected");
		q.path = "/home/u/notes";
		ok(fbac_hint_protected(&s, &q) == NULL, "this one is not");
	}
	fbac_stack_clear(&s);

	{
		char buf[FBAC_MAX_PATH];
		struct fbac_query pq = { .op = FBAC_OP_FILE_GETATTR,
					 .path = "/proc/1/oom_score_adj" };

		ok(fbac_suggest_fill_dir(&pq, buf, sizeof(buf)) == NULL,
		   "no folder of another process is offered");
		pq.path = "/proc/self/status";
		ok(fbac_suggest_fill_dir(&pq, buf, sizeof(buf)) &&
			   !strcmp(buf, "/proc/self"),
		   "its own is");
	}
	q.path = "/home/u/Downloads/no/x";
	is_int(fbac_hint_defines(&in, &q, "/home/u/Downloads/no", h, 4, &n), 0,
	       "hint for a carve-out");
	is_int(n, 0, "nothing lifts the policy's own 'denied:' rule");
}

int main(void)
{
	plan_no_plan();
	env_arena = fbac_arena_new();
	if (test_env(&env, env_arena) < 0 ||
	    test_trusted_env(&trusted_env, env_arena) < 0)
		abort();
	test_decisions();
	test_ranks();
	test_protected();
	test_protected_allow();
	test_net();
	test_landlock();
	test_compile_flags();
	test_narrow();
	test_sort_nearly();
	test_first_origin();
	test_implied();
	test_stack();
	test_stack_metadata();
	test_admin_protected();
	test_suggest();
	test_hints();
	fbac_library_free(lib);
	fbac_arena_free(env_arena);
	return done_testing();
}
