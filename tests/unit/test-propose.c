/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/propose: reading fbac-run's log, generalising paths, and the
 * proposal (the high-level functionality first, inferred arguments, no
 * functionality reaching an untouched protected path, raw privileges for
 * the rest, protected accesses apart).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "propose.h"
#include "unit-util.h"

static const char *const texts[] = {
	"fbac: 1\n"
	"protected:\n"
	"  - {path: ~/.ssh, reason: keys}\n",
	"fbac: 1\n"
	"functionality: Runtime\n"
	"category: system\n"
	"description: libraries\n"
	"privileges:\n"
	"  - access: [file_read, file_getattr]\n"
	"    paths: [/usr/lib/**, /etc/ld.so.cache]\n",
	"fbac: 1\n"
	"functionality: Save_Dir\n"
	"category: files\n"
	"description: save\n"
	"parameters:\n"
	"  dir: {type: paths}\n"
	"privileges:\n"
	"  - access: [file_read, file_write, file_create, file_getattr]\n"
	"    paths: [$dir/**]\n",
	"fbac: 1\n"
	"functionality: Downloader\n"
	"category: applications\n"
	"description: download\n"
	"high_level: true\n"
	"parameters:\n"
	"  downloads: {type: path, default: ~/Downloads}\n"
	"  ports: {type: ports, default: [443]}\n"
	"includes:\n"
	"  - Runtime\n"
	"  - Save_Dir: {dir: $downloads}\n"
	"privileges:\n"
	"  - network_outgoing: {protocol: tcp, ports: $ports}\n",
	"fbac: 1\n"
	"functionality: Home_Writer\n"
	"category: applications\n"
	"description: everything in the home\n"
	"high_level: true\n"
	"includes: [Runtime]\n"
	"privileges:\n"
	"  - access: [file_read, file_write, file_create, file_getattr]\n"
	"    paths: [~/**]\n"
	"  - network_outgoing: {protocol: tcp, ports: any}\n",
	"fbac: 1\n"
	"functionality: Keys\n"
	"category: security\n"
	"description: keys\n"
	"privileges:\n"
	"  - file_read: [~/.ssh/**]\n",
	NULL
};

static struct fbac_library *lib;
static struct fbac_env env;

static int add(struct fbac_observations *o, const char *op, const char *obj)
{
	char line[1024];
	struct fbac_diag d = { 0 };

	snprintf(line, sizeof(line),
		 "{\"time\": 1.5, \"pid\": 7, \"exe\": \"/usr/bin/dl\", \"syscall\": \"openat\", "
		 "\"operation\": \"%s\", \"object\": \"%s\", \"decision\": \"would-deny\", "
		 "\"layer\": \"command line\", \"line\": 3}",
		 op, obj);
	return fbac_obs_add_line(o, line, strlen(line), &d);
}

static int parse(const char *line, struct fbac_diag *d)
{
	struct fbac_observations o;
	int r;

	if (fbac_obs_init(&o) < 0)
		return -ENOMEM;
	fbac_diag_clear(d);
	r = fbac_obs_add_line(&o, line, strlen(line), d);
	fbac_obs_clear(&o);
	return r;
}

static void test_parse(void)
{
	struct fbac_observations o;
	struct fbac_diag d = { 0 };
	const char *exec = "{\"exe\": \"fbac-run\", \"syscall\": \"execve\", \"operation\": "
			   "\"file_execute\", \"object\": \"/usr/bin/dl\", \"decision\": \"allow\"}";

	if (!ok(fbac_obs_init(&o) == 0, "init"))
		return;
	is_int(fbac_obs_add_line(&o, exec, strlen(exec), &d), 0, "the program's exec");
	is_str(o.program, "/usr/bin/dl", "the program is fbac-run's first exec");
	is_int(add(&o, "file_read", "/etc/a\\tb"), 0, "escapes");
	is_int(add(&o, "file_read", "/etc/x"), 0, "a read");
	is_int(add(&o, "file_read", "/etc/x"), 0, "the same again");
	is_int(add(&o, "network_outgoing", "tcp:[::1]:8080"), 0, "IPv6");
	is_int(add(&o, "network_outgoing", "udp:?:53"), 0, "unknown host");
	is_int(fbac_obs_finish(&o), 0, "finish");
	is_int(o.n, 5, "repeats merged");
	is_int(o.events, 6, "every event counted");
	for (size_t i = 0; i < o.n; i++) {
		if (o.v[i].q.path && !strcmp(o.v[i].q.path, "/etc/x"))
			is_int(o.v[i].count, 2, "count of a repeat");
		if (o.v[i].q.path && !strncmp(o.v[i].q.path, "/etc/a", 6))
			is_str(o.v[i].q.path, "/etc/a\tb", "escape decoded");
		if (o.v[i].q.op == FBAC_OP_NETWORK_OUTGOING && o.v[i].q.port == 8080)
			is_str(o.v[i].q.host, "::1", "brackets dropped");
		if (o.v[i].q.port == 53)
			ok(o.v[i].q.host == NULL && o.v[i].q.proto == FBAC_PROTO_UDP,
			   "'?' is no host");
	}
	fbac_obs_clear(&o);

	is_int(parse("{\"exe\": \"x\", \"syscall\": \"s\", \"operation\": \"file_read\", "
		     "\"object\": \"/x\", \"decision\": \"deny\", \"reason\": \"r\"}", &d),
	       0, "fbac-run's own refusals are skipped, not errors");
	is_int(parse("{\"exe\": \"x\", \"syscall\": \"ptrace\", \"operation\": \"syscall\", "
		     "\"object\": \"ptrace\", \"decision\": \"deny\", \"reason\": \"r\"}", &d),
	       0, "a system call refused as such is skipped");
	is_int(parse("{\"exe\": \"x\", \"syscall\": \"ptrace\", \"operation\": \"syscall\", "
		     "\"object\": \"ptrace\", \"decision\": \"deny\"}", &d),
	       -EINVAL, "'syscall' without its reason is no operation");
	is_int(parse("", &d), -EINVAL, "empty line");
	like(d.msg, "column 1: expected '{'", "empty line: column 1");
	is_int(parse("{\"exe\": \"x\"", &d), -EINVAL, "cut short");
	like(d.msg, "column 12: expected '}'", "cut short: message");
	is_int(parse("{\"exe\": \"x\", \"exe\": \"y\"}", &d), -EINVAL, "duplicate key");
	like(d.msg, "duplicate key", "duplicate key: message");
	is_int(parse("{\"exe\": \"x\", \"syscall\": \"s\", \"operation\": \"file_read\", "
		     "\"decision\": \"allow\"}", &d), -EINVAL, "missing object");
	like(d.msg, "missing key 'object'", "missing key: message");
	is_int(parse("{\"exe\": \"x\", \"syscall\": \"s\", \"operation\": \"file_read\", "
		     "\"object\": \"/a/../b\", \"decision\": \"allow\"}", &d), -EINVAL, "'..'");
	is_int(parse("{\"exe\": \"x\", \"syscall\": \"s\", \"operation\": \"network_outgoing\", "
		     "\"object\": \"tcp:1.2.3.4:99999\", \"decision\": \"allow\"}", &d),
	       -EINVAL, "port out of range");
	is_int(parse("{\"exe\": \"x\", \"syscall\": \"s\", \"operation\": \"file_read\", "
		     "\"object\": \"/x\\u0000\", \"decision\": \"allow\"}", &d),
	       -EINVAL, "NUL escape");
	is_int(parse("{\"exe\": \"x\", \"syscall\": \"s\", \"operation\": \"file_read\", "
		     "\"object\": \"/x\", \"decision\": \"maybe\"}", &d),
	       -EINVAL, "unknown decision");
	is_int(parse("{\"exe\": \"x\", \"syscall\": \"s\", \"operation\": \"file_read\", "
		     "\"object\": \"/x\", \"decision\": \"allow\"} x", &d),
	       -EINVAL, "text after the object");
}

static void gen(const char *in, uint32_t ops, const char *want)
{
	char out[FBAC_MAX_PATH];

	if (fbac_generalize_path(in, ops, out, sizeof(out)) < 0)
		ok(0, "generalize %s", in);
	else
		is_str(out, want, in);
}

static void test_generalize(void)
{
	uint32_t r = FBAC_OP_BIT(FBAC_OP_FILE_READ);

	gen("/usr/lib/x86_64-linux-gnu/libz.so.1.2.13", r, "/usr/lib/x86_64-linux-gnu/libz.so.*");
	gen("/proc/4242/status", r, "/proc/*/status");
	gen("/proc/self/maps", r, "/proc/self/maps");
	gen("/tmp/app-123456/sock", r, "/tmp/app-*/sock");
	gen("/home/u/notes-2.txt", r, "/home/u/notes-2.txt");
	gen("/home/u/12345", r, "/home/u/12345");
	gen("/usr/lib/python3.11/os.py", r, "/usr/lib/python*/os.py");
	gen("/opt/app-1.2/bin/app", FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE), "/opt/app-1.2/bin/app");
}

static bool has_raw(const struct fbac_proposal *p, const char *pattern)
{
	for (size_t i = 0; i < p->n_raw; i++)
		if (p->raw[i].pattern && !strcmp(p->raw[i].pattern, pattern))
			return true;
	return false;
}

static const char *arg(const struct fbac_prop_func *f, const char *name)
{
	for (size_t i = 0; i < f->n_args; i++)
		if (!strcmp(f->arg_names[i], name))
			return f->arg_values[i];
	return NULL;
}

static int propose_hinted(const char *const (*acc)[2],
			  const struct fbac_propose_hint *hints, size_t n_hints,
			  struct fbac_proposal *p)
{
	struct fbac_observations o;
	struct fbac_diag d = { 0 };
	struct fbac_propose_input in = { .lib = lib, .env = &env, .obs = &o,
					 .program = "/usr/bin/dl",
					 .hints = hints, .n_hints = n_hints };
	int r;

	if (fbac_obs_init(&o) < 0)
		return -ENOMEM;
	for (size_t i = 0; acc[i][0]; i++)
		if ((r = add(&o, acc[i][0], acc[i][1])) < 0) {
			diag("add %s %s: %s", acc[i][0], acc[i][1], d.msg);
			fbac_obs_clear(&o);
			return r;
		}
	fbac_obs_finish(&o);
	r = fbac_propose(&in, p, &d);
	if (r < 0)
		diag("propose: %d %s", r, d.msg);
	fbac_obs_clear(&o);
	return r;
}

static int propose(const char *const (*acc)[2], struct fbac_proposal *p)
{
	return propose_hinted(acc, NULL, 0, p);
}

static const char *high(const struct fbac_proposal *p)
{
	return p->n_funcs && p->funcs[0].f->high_level ? p->funcs[0].f->name : "";
}

/* What the system says the program is chooses among the high-level
 * functionalities that fit the run, and only among those. */
static void test_hints(void)
{
	static const char *const download[][2] = {
		{ "file_read", "/usr/lib/libc.so.6" },
		{ "file_read", "/etc/ld.so.cache" },
		{ "file_create", "/home/u/Downloads/a" },
		{ "file_write", "/home/u/Downloads/a" },
		{ "network_outgoing", "tcp:192.0.2.1:443" },
		{ NULL, NULL },
	};
	static const char *const outside[][2] = {
		{ "file_read", "/usr/lib/libc.so.6" },
		{ "file_create", "/srv/out/a" },
		{ "file_write", "/srv/out/a" },
		{ "file_create", "/srv/out/b" },
		{ "network_outgoing", "tcp:192.0.2.1:443" },
		{ NULL, NULL },
	};
	static const struct fbac_propose_hint home[] = {
		{ "Home_Writer", 10, "its desktop entry says so" },
	};
	static const struct fbac_propose_hint both[] = {
		{ "Home_Writer", 5, "its desktop entry" },
		{ "Downloader", 4, "its package's section" },
		{ "Downloader", 3, "its description" },
	};
	static const struct fbac_propose_hint block[] = {
		{ "Keys", 10, "not high-level" },
		{ "No_Such_Thing", 10, "not in the library" },
	};
	struct fbac_proposal p = { 0 };

	if (propose(download, &p) == 0) {
		is_str(high(&p), "Downloader", "no hints: the most covered for least");
		ok(p.n_funcs && !p.funcs[0].evidence, "no hints: no reason given");
		fbac_proposal_clear(&p);
	}
	if (propose_hinted(download, home, ARRAY_SIZE(home), &p) == 0) {
		is_str(high(&p), "Home_Writer", "a hint chooses among those that fit");
		is_str(p.n_funcs ? p.funcs[0].evidence : NULL, "its desktop entry says so",
		       "with its reason");
		fbac_proposal_clear(&p);
	}
	if (propose_hinted(download, both, ARRAY_SIZE(both), &p) == 0) {
		is_str(high(&p), "Downloader", "the strongest hints, summed");
		fbac_proposal_clear(&p);
	}
	if (propose_hinted(download, block, ARRAY_SIZE(block), &p) == 0) {
		is_str(high(&p), "Downloader", "hints naming no high-level functionality: ignored");
		fbac_proposal_clear(&p);
	}
	if (propose_hinted(outside, home, ARRAY_SIZE(home), &p) == 0) {
		is_str(high(&p), "Downloader",
		       "a hinted one that covers less than half the run is not chosen");
		ok(p.n_funcs && !p.funcs[0].evidence, "and no reason is given");
		fbac_proposal_clear(&p);
	}
}

static void test_propose(void)
{
	static const char *const download[][2] = {
		{ "file_read", "/usr/lib/libc.so.6" },
		{ "file_read", "/usr/lib/libz.so.1" },
		{ "file_read", "/etc/ld.so.cache" },
		{ "file_create", "/home/u/Downloads/a" },
		{ "file_write", "/home/u/Downloads/a" },
		{ "network_outgoing", "tcp:192.0.2.1:443" },
		{ "file_read", "/etc/weird/a" },
		{ "file_read", "/etc/weird/b" },
		{ "file_read", "/etc/weird/c" },
		{ "file_read", "/proc/4242/status" },
		{ "network_incoming", "tcp:0.0.0.0:40000" },
		{ NULL, NULL },
	};
	static const char *const elsewhere[][2] = {
		{ "file_read", "/usr/lib/libc.so.6" },
		{ "file_create", "/home/u/Out/a" },
		{ "file_write", "/home/u/Out/a" },
		{ "file_create", "/home/u/Out/b" },
		{ "network_outgoing", "tcp:192.0.2.1:8443" },
		{ "file_read", "/home/u/.ssh/id_rsa" },
		{ NULL, NULL },
	};
	struct fbac_proposal p = { 0 };

	if (propose(download, &p) == 0) {
		ok(p.n_funcs == 1 && !strcmp(p.funcs[0].f->name, "Downloader"),
		   "the high-level functionality, not the wider Home_Writer");
		ok(p.n_funcs >= 1 && p.funcs[0].n_args == 0, "its defaults fit: no arguments");
		ok(p.n_funcs >= 1 && p.funcs[0].covers == 6 && p.funcs[0].example &&
			   p.funcs[0].example->q.op == FBAC_OP_NETWORK_OUTGOING,
		   "covers 6, the connection as the example");
		ok(has_raw(&p, "/etc/weird/**"), "a folder's many files: the folder");
		ok(has_raw(&p, "/proc/*/status"), "a pid: a pattern");
		for (size_t i = 0; i < p.n_raw; i++)
			ok(p.raw[i].pattern || p.raw[i].port != 40000,
			   "no ephemeral listening port");
		is_int(p.n_prot, 0, "no protected access");
		fbac_proposal_clear(&p);
	}
	if (propose(elsewhere, &p) == 0) {
		bool keys = false;

		ok(p.n_funcs >= 1 && !strcmp(p.funcs[0].f->name, "Downloader"),
		   "Downloader again");
		if (p.n_funcs >= 1) {
			is_str(arg(&p.funcs[0], "downloads"), "/home/u/Out",
			       "the folder written, as its argument");
			is_str(arg(&p.funcs[0], "ports"), "8443", "the port connected to");
		}
		for (size_t i = 0; i < p.n_funcs; i++)
			keys |= !strcmp(p.funcs[i].f->name, "Keys");
		ok(!keys, "a protected access is no reason to choose a functionality");
		ok(p.n_prot == 1 && !strcmp(p.prot[0].obs->q.path, "/home/u/.ssh/id_rsa") &&
			   p.prot[0].suggestion && !strcmp(p.prot[0].suggestion, "Keys"),
		   "the protected access apart, with what would grant it");
		fbac_proposal_clear(&p);
	}
}

int main(void)
{
	struct fbac_arena *a = fbac_arena_new();

	plan_no_plan();
	test_parse();
	test_generalize();
	lib = library_of(texts);
	if (ok(lib && a && test_env(&env, a) == 0, "library and environment"))
	{
		test_propose();
		test_hints();
	}
	fbac_library_free(lib);
	fbac_arena_free(a);
	return done_testing();
}
