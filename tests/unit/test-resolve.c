/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/resolve.c: binding parameters (include arguments, -D, defaults),
 * substitution, the include walk with memoisation, and the provenance of
 * every rule (docs/profile-language.md, "Parameter definition",
 * "Substitution"; fbac-profile(5), SUBSTITUTION).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "resolve.h"
#include "tap.h"
#include "unit-util.h"

static struct fbac_library *lib;
static struct fbac_arena *env_arena;
static struct fbac_env env;
static struct fbac_diag d;

#define FUNC(name)                                                             \
	"fbac: 1\nfunctionality: " name "\ncategory: system\ndescription: d\n"

static bool setup(const char *const *texts)
{
	lib = fbac_library_free(lib);
	lib = library_of(texts);
	return ok(lib != NULL, "library loads and links");
}

static int resolve_in(struct fbac_resolve_input *in, struct fbac_resolved **res)
{
	*res = NULL;
	in->lib = lib;
	in->env = &env;
	fbac_diag_clear(&d);
	return fbac_resolve(in, res, &d);
}

/* Resolve the application policy named app (layer 0). */
static int resolve_app(const char *app, const struct fbac_define *defs,
		       size_t n_defs, struct fbac_resolved **res)
{
	struct fbac_resolve_input in = {
		.root_name = app,
		.app = fbac_library_find_app(lib, 0, app),
		.defines = defs,
		.n_defines = n_defs,
	};

	if (!in.app) {
		diag("no application '%s'", app);
		return -ENOENT;
	}
	return resolve_in(&in, res);
}

/* Resolve one functionality granted as by --as, with -D defines. */
static int resolve_func(const char *func, const struct fbac_define *defs,
			size_t n_defs, struct fbac_resolved **res)
{
	struct fbac_include inc = { .name = func };
	struct fbac_resolve_input in = {
		.root_name = "--as",
		.grants = &inc,
		.n_grants = 1,
		.defines = defs,
		.n_defines = n_defs,
	};

	inc.target = fbac_library_find(lib, func);
	if (!inc.target) {
		diag("no functionality '%s'", func);
		return -ENOENT;
	}
	return resolve_in(&in, res);
}

static size_t count_rules(const struct fbac_resolved *res, const char *pattern)
{
	size_t n = 0;

	for (size_t i = 0; res && i < res->n_rules; i++)
		if (res->rules[i].pattern &&
		    !strcmp(res->rules[i].pattern, pattern))
			n++;
	return n;
}

static const struct fbac_rule *find_rule(const struct fbac_resolved *res,
					 const char *pattern)
{
	for (size_t i = 0; res && i < res->n_rules; i++)
		if (res->rules[i].pattern &&
		    !strcmp(res->rules[i].pattern, pattern))
			return &res->rules[i];
	return NULL;
}

static void dump_rules(const struct fbac_resolved *res)
{
	for (size_t i = 0; res && i < res->n_rules; i++)
		diag("  rule %zu: %s%s ops=%#x (%s)", i,
		     res->rules[i].deny ? "deny " : "",
		     res->rules[i].pattern ? res->rules[i].pattern : "(net)",
		     (unsigned)res->rules[i].ops, res->rules[i].origin->chain);
}

/* One test: the resolution has exactly n rules with this pattern. */
static bool has_rules(const struct fbac_resolved *res, const char *pattern,
		      size_t n, const char *name)
{
	if (!is_int(count_rules(res, pattern), n, name)) {
		dump_rules(res);
		return false;
	}
	return true;
}

static bool origin_is(const struct fbac_rule *r, const char *chain,
		      const char *file, unsigned line, unsigned col,
		      const char *name)
{
	bool pass = r && r->origin && r->origin->chain &&
		    !strcmp(r->origin->chain, chain) && r->origin->mark.file &&
		    !strcmp(r->origin->mark.file, file) &&
		    r->origin->mark.line == line && r->origin->mark.col == col;

	if (!ok(pass, "%s", name)) {
		if (r && r->origin)
			diag("got '%s' at %s:%u:%u", r->origin->chain,
			     r->origin->mark.file ? r->origin->mark.file : "?",
			     r->origin->mark.line, r->origin->mark.col);
		else
			diag("no such rule");
		diag("expected '%s' at %s:%u:%u", chain, file, line, col);
		return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */

static const char reader_text[] =
	"fbac: 1\n"				/* 1 */
	"functionality: Reader\n"		/* 2 */
	"category: files\n"			/* 3 */
	"description: d\n"			/* 4 */
	"parameters:\n"				/* 5 */
	"  dir: {type: path}\n"			/* 6 */
	"privileges:\n"				/* 7 */
	"  - file_read: \"$dir/**\"\n"		/* 8 */
	"---\n"					/* 9 */
	"fbac: 1\n"				/* 10 */
	"functionality: Outer\n"		/* 11 */
	"category: files\n"			/* 12 */
	"description: d\n"			/* 13 */
	"parameters:\n"				/* 14 */
	"  base: {type: path, default: /opt}\n" /* 15 */
	"includes:\n"				/* 16 */
	"  - Reader: {dir: \"$base/x\"}\n"	/* 17 */
	"privileges:\n"				/* 18 */
	"  - {access: [file_write], paths: [\"$base/log\"]}\n"; /* 19 */

static const char app_text[] =
	"fbac: 1\n"				/* 1 */
	"application: app\n"			/* 2 */
	"executables: [/usr/bin/app]\n"		/* 3 */
	"functionalities:\n"			/* 4 */
	"  - Reader: {dir: /srv/data}\n"	/* 5 */
	"  - Outer\n"				/* 6 */
	"  - Reader: {dir: $XDG_DOWNLOAD_DIR}\n" /* 7 */
	"  - Reader: {dir: ~/notes}\n"		/* 8 */
	"privileges:\n"				/* 9 */
	"  - file_read: /etc/app.conf\n"	/* 10 */
	"---\n"					/* 11 */
	"fbac: 1\n"				/* 12 */
	"application: nested\n"			/* 13 */
	"executables: [/usr/bin/nested]\n"	/* 14 */
	"functionalities: [Outer]\n"		/* 15 */
	"---\n"					/* 16 */
	"fbac: 1\n"				/* 17 */
	"application: missing\n"		/* 18 */
	"executables: [/usr/bin/missing]\n"	/* 19 */
	"functionalities:\n"			/* 20 */
	"  - Reader\n"				/* 21 */
	"---\n"					/* 22 */
	"fbac: 1\n"				/* 23 */
	"application: badarg\n"			/* 24 */
	"executables: [/usr/bin/badarg]\n"	/* 25 */
	"functionalities:\n"			/* 26 */
	"  - Reader: {dir: relative/x}\n";	/* 27 */

static void test_arguments(void)
{
	const char *texts[] = { reader_text, app_text, NULL };
	struct fbac_resolved *res = NULL;
	const struct fbac_rule *r;
	const struct fbac_rnode *root;

	if (!setup(texts))
		return;
	is_int(resolve_app("app", NULL, 0, &res), 0, "app resolves");
	if (!res)
		return;
	has_rules(res, "/srv/data/**", 1, "argument of a granted functionality");
	has_rules(res, "/opt/x/**", 1,
		  "argument computed from the includer's default");
	has_rules(res, "/opt/log", 1, "includer's own privilege");
	has_rules(res, "/home/u/Downloads/**", 1,
		  "argument using a built-in variable");
	has_rules(res, "/home/u/notes/**", 1, "argument using '~'");
	has_rules(res, "/etc/app.conf", 1, "application's own privilege");

	r = find_rule(res, "/srv/data/**");
	ok(r && r->kind == FBAC_PRIV_PATH &&
		   r->ops == FBAC_OP_BIT(FBAC_OP_FILE_READ) && !r->deny,
	   "a file_read allow rule");
	origin_is(r, "app > Reader", "t0.yaml", 8, 5,
		  "origin: chain and position of the privilege");
	ok(r && r->origin->layer == 0, "origin layer");
	origin_is(find_rule(res, "/opt/x/**"), "app > Outer > Reader",
		  "t0.yaml", 8, 5, "origin through two levels");
	r = find_rule(res, "/opt/log");
	ok(r && r->ops == FBAC_OP_BIT(FBAC_OP_FILE_WRITE), "long-form ops");
	origin_is(r, "app > Outer", "t0.yaml", 19, 5,
		  "origin of a long-form privilege");
	origin_is(find_rule(res, "/etc/app.conf"), "app", "t1.yaml", 10, 5,
		  "origin of an application privilege");
	/* fbac-profile(5): the executables get file_execute, file_read and
	 * file_getattr, with the origin "NAME (executables)". */
	r = find_rule(res, "/usr/bin/app");
	ok(r && !r->deny &&
		   r->ops == (FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE) |
			      FBAC_OP_BIT(FBAC_OP_FILE_READ) |
			      FBAC_OP_BIT(FBAC_OP_FILE_GETATTR)),
	   "the executable is granted execute, read and getattr");
	origin_is(r, "app (executables)", "t1.yaml", 3, 15,
		  "origin of the executable rule");

	root = res->root;
	is_str(root->name, "app", "root node is the application");
	ok(root->f == NULL, "root node has no functionality");
	is_int(root->n_children, 4, "four granted functionalities");
	if (root->n_children == 4) {
		const struct fbac_rnode *outer = root->children[1];

		is_str(root->children[0]->name, "Reader", "first child");
		is_str(root->children[0]->values[0].items[0], "/srv/data",
		       "its evaluated argument");
		ok(!root->children[0]->values[0].from_default,
		   "not from a default");
		ok(root->children[0]->at.line == 5 &&
			   root->children[0]->at.col == 5,
		   "node remembers where it was included (%u:%u)",
		   root->children[0]->at.line, root->children[0]->at.col);
		is_str(outer->name, "Outer", "second child");
		is_str(outer->values[0].items[0], "/opt", "default value");
		ok(outer->values[0].from_default, "marked as from the default");
		is_int(outer->n_children, 1, "Outer includes one");
		if (outer->n_children == 1)
			is_str(outer->children[0]->values[0].items[0],
			       "/opt/x", "nested argument value");
	}
	res = fbac_resolved_free(res);

	{
		const struct fbac_resolve_input base = { 0 };
		struct fbac_resolve_input in = base;

		in.root_name = "app";
		in.app = fbac_library_find_app(lib, 0, "app");
		in.layer = 3;
		is_int(resolve_in(&in, &res), 0, "resolve in layer 3");
		r = find_rule(res, "/srv/data/**");
		ok(r && r->origin->layer == 3, "origins record the layer");
		res = fbac_resolved_free(res);
	}

	/* Missing argument: at the include that lacks it. */
	is_int(resolve_app("missing", NULL, 0, &res), -EINVAL,
	       "missing required argument");
	is_diag(&d, "t1.yaml", 21, 5, "missing argument 'dir'|'Reader'",
		"missing argument: position of the include");
	ok(res == NULL, "nothing returned on failure");

	/* A bad argument: at the argument's value. */
	is_int(resolve_app("badarg", NULL, 0, &res), -EINVAL,
	       "relative path argument");
	is_diag(&d, "t1.yaml", 27, 19, "relative/x|'dir'|absolute",
		"bad argument: position of its value");
}

static void test_defines(void)
{
	const char *texts[] = { reader_text, app_text, NULL };
	struct fbac_resolved *res = NULL;
	struct fbac_define def;
	char arg[64];

	if (!setup(texts))
		return;

	def = (struct fbac_define){ "Outer", "base", "/mnt" };
	is_int(resolve_app("app", &def, 1, &res), 0, "-D Outer.base");
	has_rules(res, "/mnt/x/**", 1, "-D value flows into the include");
	has_rules(res, "/mnt/log", 1, "-D value used by the privilege");
	has_rules(res, "/opt/log", 0, "default not used");
	if (res && res->root->n_children == 4)
		ok(!res->root->children[1]->values[0].from_default,
		   "value not marked as a default");
	res = fbac_resolved_free(res);

	def = (struct fbac_define){ NULL, "base", "/mnt2" };
	is_int(resolve_app("app", &def, 1, &res), 0, "-D base (any functionality)");
	has_rules(res, "/mnt2/log", 1, "applies to the granted functionality");
	res = fbac_resolved_free(res);

	def = (struct fbac_define){ "Reader", "dir", "/cli" };
	is_int(resolve_func("Reader", &def, 1, &res), 0,
	       "-D gives a required parameter");
	has_rules(res, "/cli/**", 1, "from the command line");
	origin_is(find_rule(res, "/cli/**"), "--as > Reader", "t0.yaml", 8, 5,
		  "chain starts at the root name");
	res = fbac_resolved_free(res);

	{
		struct fbac_include inc = { .name = "Reader" };
		struct fbac_resolve_input in = { .grants = &inc, .n_grants = 1,
						 .defines = &def,
						 .n_defines = 1 };

		inc.target = fbac_library_find(lib, "Reader");
		is_int(resolve_in(&in, &res), 0, "no root name");
		origin_is(find_rule(res, "/cli/**"), "Reader", "t0.yaml", 8, 5,
			  "without a root name the chain starts at the grant");
		res = fbac_resolved_free(res);
	}

	is_int(resolve_func("Reader", NULL, 0, &res), -EINVAL,
	       "no -D for a required parameter");
	like(d.msg, "missing argument 'dir'", "says which argument");

	def = (struct fbac_define){ "Reader", "dir", "rel" };
	is_int(resolve_func("Reader", &def, 1, &res), -EINVAL,
	       "a bad -D value");
	is_diag(&d, "<command line>", 0, 0, "'rel'|'dir'",
		"reported as coming from the command line");

	def = (struct fbac_define){ "Nope", "x", "1" };
	is_int(resolve_app("app", &def, 1, &res), -EINVAL,
	       "a -D naming no granted functionality");
	is_diag(&d, "<command line>", 0, 0, "Nope.x=1|sets nothing",
		"unused -D reported");

	def = (struct fbac_define){ "Outer", "nope", "1" };
	is_int(resolve_app("app", &def, 1, &res), -EINVAL,
	       "a -D naming no parameter");
	like(d.msg, "sets nothing", "unused -D reported");

	/* -D FUNC.param applies wherever FUNC is resolved, over the
	 * policy's own arguments (docs/profile-language.md). */
	def = (struct fbac_define){ "Reader", "dir", "/x" };
	is_int(resolve_app("nested", &def, 1, &res), 0,
	       "-D for an included (not granted) functionality");
	has_rules(res, "/x/**", 1, "sets it where it is included");
	has_rules(res, "/opt/x/**", 0, "over the includer's argument");
	res = fbac_resolved_free(res);
	def = (struct fbac_define){ "Reader", "dir", "/cli" };
	is_int(resolve_app("app", &def, 1, &res), 0,
	       "-D Reader.dir with arguments in the application");
	has_rules(res, "/cli/**", 1, "every Reader gets it (once)");
	has_rules(res, "/srv/data/**", 0, "the application's argument is overridden");
	has_rules(res, "/opt/x/**", 0, "and so is the nested one");
	res = fbac_resolved_free(res);
	/* -D param: only the functionalities granted directly. */
	def = (struct fbac_define){ NULL, "dir", "/top" };
	is_int(resolve_app("app", &def, 1, &res), 0, "-D dir (no functionality)");
	has_rules(res, "/top/**", 1, "sets the granted Readers");
	has_rules(res, "/opt/x/**", 1, "not the one Outer includes");
	res = fbac_resolved_free(res);
	def = (struct fbac_define){ NULL, "dir", "/top" };
	is_int(resolve_app("nested", &def, 1, &res), -EINVAL,
	       "-D dir where only an included functionality has 'dir'");
	like(d.msg, "sets nothing", "is unused");

	/* -D values are substituted once, and not scanned again. */
	def = (struct fbac_define){ "Outer", "base", "$XDG_CACHE_HOME/b" };
	is_int(resolve_app("app", &def, 1, &res), 0, "-D with a built-in");
	has_rules(res, "/home/u/.cache/b/log", 1, "is substituted");
	res = fbac_resolved_free(res);

	/* fbac_define_parse */
	strcpy(arg, "Func.param=value");
	ok(fbac_define_parse(arg, NULL, &def) == 0 && def.func &&
		   !strcmp(def.func, "Func") && !strcmp(def.param, "param") &&
		   !strcmp(def.value, "value"),
	   "FUNC.param=value");
	strcpy(arg, "param=a=b");
	ok(fbac_define_parse(arg, NULL, &def) == 0 && def.func == NULL &&
		   !strcmp(def.param, "param") && !strcmp(def.value, "a=b"),
	   "param=value without a functionality; value keeps '='");
	strcpy(arg, "param=v");
	ok(fbac_define_parse(arg, "Dflt", &def) == 0 && def.func &&
		   !strcmp(def.func, "Dflt"),
	   "default functionality");
	strcpy(arg, "F.p=");
	ok(fbac_define_parse(arg, NULL, &def) == 0 && !strcmp(def.value, ""),
	   "an empty value parses");
	strcpy(arg, "novalue");
	is_int(fbac_define_parse(arg, NULL, &def), -EINVAL, "no '='");
	strcpy(arg, "=v");
	is_int(fbac_define_parse(arg, NULL, &def), -EINVAL, "no name");
	strcpy(arg, "F.=v");
	is_int(fbac_define_parse(arg, NULL, &def), -EINVAL, "no parameter");
	strcpy(arg, ".p=v");
	is_int(fbac_define_parse(arg, NULL, &def), -EINVAL, "no functionality");
}

/* ------------------------------------------------------------------ */

static const char defaults_text[] =
	FUNC("Defaults")				  /* 1-4 */
	"parameters:\n"					  /* 5 */
	"  sub: {type: path, default: \"$base/app\"}\n"	  /* 6 */
	"  base: {type: path, default: /var/lib}\n"	  /* 7 */
	"  cache: {type: path, default: \"$XDG_CACHE_HOME/$name\"}\n" /* 8 */
	"  name: {type: string, default: myapp}\n"	  /* 9 */
	"  lit: {type: string, default: \"a$$HOME\"}\n"	  /* 10 */
	"privileges:\n"					  /* 11 */
	"  - file_read: [$sub, $cache, \"/lit/$lit\"]\n"  /* 12 */
	"---\n"						  /* 13 */
	FUNC("Cycle")					  /* 14-17 */
	"parameters:\n"					  /* 18 */
	"  a: {type: path, default: \"$b\"}\n"		  /* 19 */
	"  b: {type: path, default: \"/x/$a\"}\n"	  /* 20 */
	"---\n"						  /* 21 */
	FUNC("Self_Ref")				  /* 22-25 */
	"parameters:\n"					  /* 26 */
	"  a: {type: path, default: \"$a\"}\n";		  /* 27 */

static void test_defaults(void)
{
	const char *texts[] = { defaults_text, NULL };
	struct fbac_resolved *res = NULL;
	struct fbac_define def;
	int r;

	if (!setup(texts))
		return;
	is_int(resolve_func("Defaults", NULL, 0, &res), 0, "defaults resolve");
	has_rules(res, "/var/lib/app", 1,
		  "a default referring to a later parameter");
	has_rules(res, "/home/u/.cache/myapp", 1,
		  "a default with a built-in and a parameter");
	/* "a$$HOME" is the value "a$HOME"; substituted into "/lit/$lit" it
	 * stays literal: substitution happens once. */
	has_rules(res, "/lit/a$HOME", 1, "a value's '$' is never rescanned");
	res = fbac_resolved_free(res);

	def = (struct fbac_define){ "Defaults", "base", "/srv" };
	is_int(resolve_func("Defaults", &def, 1, &res), 0, "-D of a base");
	has_rules(res, "/srv/app", 1, "a dependent default follows");
	res = fbac_resolved_free(res);

	def = (struct fbac_define){ "Defaults", "lit", "a$$b" };
	is_int(resolve_func("Defaults", &def, 1, &res), 0, "-D 'a$$b'");
	has_rules(res, "/lit/a$b", 1,
		  "-D value substituted once ('$$'), then kept literally");
	res = fbac_resolved_free(res);

	r = resolve_func("Cycle", NULL, 0, &res);
	is_int(r, -ELOOP, "a cycle among defaults");
	like(d.msg, "depends on itself", "message");
	ok(d.line == 19 || d.line == 20,
	   "points into the cycle (%u:%u)", d.line, d.col);
	is_int(resolve_func("Self_Ref", NULL, 0, &res), -ELOOP,
	       "a default referring to itself");
	is_diag(&d, "t0.yaml", 27, 29, "'a'|depends on itself",
		"self reference: at the variable");

	def = (struct fbac_define){ "Cycle", "a", "/set" };
	is_int(resolve_func("Cycle", &def, 1, &res), 0,
	       "no cycle once one of them is given");
	res = fbac_resolved_free(res);
}

/* ------------------------------------------------------------------ */

static const char types_text[] =
	FUNC("Types")
	"parameters:\n"
	"  p: {type: path, default: /ok}\n"
	"  ps: {type: paths, default: [/a, /b]}\n"
	"  po: {type: ports, default: 80}\n"
	"  h: {type: hosts, default: any}\n"
	"  s: {type: string, default: ok}\n"
	"  b: {type: bool, default: \"false\"}\n"
	"privileges:\n"
	"  - file_read: \"/t/$s/$b/$p\"\n"
	"---\n"
	"fbac: 1\n"					     /* 1 */
	"application: typed\n"				     /* 2 */
	"executables: [/usr/bin/typed]\n"		     /* 3 */
	"functionalities:\n"				     /* 4 */
	"  - Types: {po: 70000}\n";			     /* 5 */

static void type_case(const char *param, const char *value, bool good,
		      const char *what)
{
	struct fbac_define def = { "Types", param, value };
	struct fbac_resolved *res = NULL;
	int r = resolve_func("Types", &def, 1, &res);

	if (good) {
		if (!is_int(r, 0, what))
			diag("%s", d.msg);
	} else {
		char quoted[16];

		snprintf(quoted, sizeof(quoted), "'%s'", param);
		if (is_int(r, -EINVAL, what))
			like(d.msg, quoted, "...the message names the parameter");
		else
			diag("(-D %s=%s was accepted)", param, value);
	}
	fbac_resolved_free(res);
}

static void test_types(void)
{
	const char *texts[] = { types_text, NULL };
	struct fbac_resolved *res = NULL;
	char long_string[FBAC_MAX_STRING + 2];

	if (!setup(texts))
		return;
	is_int(resolve_func("Types", NULL, 0, &res), 0, "all defaults valid");
	has_rules(res, "/t/ok/false/ok", 1, "string, bool and path as text");
	res = fbac_resolved_free(res);

	type_case("p", "/a/b", true, "path: absolute");
	type_case("p", "/a//b/./c/", true, "path: normalised");
	type_case("p", "relative", false, "path: relative refused");
	type_case("p", "/a/../b", false, "path: '..' refused");
	type_case("p", "/a/*", false, "path: '*' refused");
	type_case("p", "/a/b?", false, "path: '?' refused");
	type_case("ps", "/a,/b,/c", true, "paths: several");
	type_case("ps", "/a,rel", false, "paths: each checked");
	type_case("ps", "/a,/x/**", false, "paths: no wildcard");

	type_case("po", "1", true, "ports: 1");
	type_case("po", "65535", true, "ports: 65535");
	type_case("po", "1-65535", true, "ports: full range");
	type_case("po", "8000-8080", true, "ports: range");
	type_case("po", "80-80", true, "ports: lo = hi");
	type_case("po", "any", true, "ports: any");
	type_case("po", "80,443", true, "ports: a list");
	type_case("po", "0", false, "ports: 0 refused");
	type_case("po", "65536", false, "ports: 65536 refused");
	type_case("po", "99999999999999999999", false, "ports: overflow");
	type_case("po", "90-80", false, "ports: lo > hi refused");
	type_case("po", "0-80", false, "ports: range from 0");
	type_case("po", "1-65536", false, "ports: range past 65535");
	type_case("po", "abc", false, "ports: not a number");
	type_case("po", "80-", false, "ports: open range");
	type_case("po", "-80", false, "ports: leading '-'");
	type_case("po", "8o", false, "ports: trailing garbage");
	type_case("po", "+80", false, "ports: sign");
	type_case("po", "80,0", false, "ports: each item checked");

	type_case("h", "example.com", true, "hosts: name");
	type_case("h", "localhost", true, "hosts: single label");
	type_case("h", "192.0.2.7", true, "hosts: IPv4");
	type_case("h", "10.0.0.0/8", true, "hosts: IPv4 CIDR");
	type_case("h", "::1", true, "hosts: IPv6");
	type_case("h", "fe80::/10", true, "hosts: IPv6 CIDR");
	type_case("h", "any", true, "hosts: any");
	type_case("h", "a.example,10.1.2.3", true, "hosts: a list");
	type_case("h", "exa mple.com", false, "hosts: space");
	type_case("h", "-bad.com", false, "hosts: leading '-'");
	type_case("h", "a..b", false, "hosts: empty label");
	type_case("h", "bad_name", false, "hosts: '_'");
	type_case("h", "1.2.3.4/33", false, "hosts: IPv4 prefix > 32");
	type_case("h", "::1/129", false, "hosts: IPv6 prefix > 128");
	type_case("h", "10.0.0.0/x", false, "hosts: prefix not a number");
	type_case("h", "10.0.0.0/", false, "hosts: empty prefix");

	memset(long_string, 'x', FBAC_MAX_STRING);
	long_string[FBAC_MAX_STRING] = 0;
	type_case("s", "abc", true, "string: plain");
	type_case("s", "a.b-c_d", true, "string: punctuation");
	type_case("s", long_string, true, "string: FBAC_MAX_STRING bytes");
	long_string[FBAC_MAX_STRING] = 'x';
	long_string[FBAC_MAX_STRING + 1] = 0;
	type_case("s", long_string, false, "string: one byte more");
	type_case("s", "a/b", false, "string: '/' refused");
	type_case("s", "/", false, "string: '/' alone refused");
	type_case("s", "a*", false, "string: '*' refused");
	type_case("s", "a?", false, "string: '?' refused");
	type_case("s", ".", false, "string: '.' refused");
	type_case("s", "..", false, "string: '..' refused");
	type_case("s", "", false, "string: empty refused");

	type_case("b", "true", true, "bool: true");
	type_case("b", "false", true, "bool: false");
	type_case("b", "yes", false, "bool: yes refused");
	type_case("b", "1", false, "bool: 1 refused");
	type_case("b", "True", false, "bool: True refused");

	/* Through an application argument, the position is the value's. */
	is_int(resolve_app("typed", NULL, 0, &res), -EINVAL,
	       "port 70000 as an argument");
	is_diag(&d, "t0.yaml", 19, 17, "70000|'po'",
		"type error at the argument's value");

	/* The parsers on their own. */
	{
		struct fbac_port_range pr;

		ok(fbac_parse_port_range("8000-8080", &pr) == 0 &&
			   pr.lo == 8000 && pr.hi == 8080,
		   "parse_port_range: range");
		ok(fbac_parse_port_range("443", &pr) == 0 && pr.lo == 443 &&
			   pr.hi == 443,
		   "parse_port_range: single");
		ok(fbac_parse_port_range("any", &pr) == 0 && pr.lo == 1 &&
			   pr.hi == 65535,
		   "parse_port_range: any");
		is_int(fbac_parse_port_range("0", &pr), -EINVAL,
		       "parse_port_range: 0");
		is_int(fbac_parse_port_range("", &pr), -EINVAL,
		       "parse_port_range: empty");
		ok(fbac_host_is_valid("example.org"), "host_is_valid: name");
		ok(fbac_host_is_valid("fd00::/8"), "host_is_valid: v6 CIDR");
		ok(!fbac_host_is_valid(""), "host_is_valid: empty");
		ok(!fbac_host_is_valid("a b"), "host_is_valid: space");
	}
}

/* ------------------------------------------------------------------ */

static const char subst_text[] =
	FUNC("Subst")					   /* 1-4 */
	"parameters:\n"					   /* 5 */
	"  name: {type: string, default: foo}\n"	   /* 6 */
	"  dirs: {type: paths, default: [/a, /b, /c]}\n"   /* 7 */
	"  none: {type: paths, default: []}\n"		   /* 8 */
	"privileges:\n"					   /* 9 */
	"  - file_read: \"/lit/$$x\"\n"			   /* 10 */
	"  - file_read: \"/br/${name}_x\"\n"		   /* 11 */
	"  - file_read: \"$dirs/**\"\n"			   /* 12 */
	"  - file_write: $dirs\n"			   /* 13 */
	"  - file_read: ~/.cfg/**\n"			   /* 14 */
	"  - file_write: \"~\"\n"			   /* 15 */
	"  - file_read: /tilde/~/x\n"			   /* 16 */
	"  - file_read: \"$none/**\"\n"			   /* 17 */
	"  - file_read: \"/u/$USER/$UID/${HOME}x\"\n"	   /* 18 */
	"  - file_read: \"/same/$dirs/$name\"\n";	   /* 19 */

static const char subst_bad_text[] =
	FUNC("Bad_Var")					   /* 1-4 */
	"privileges:\n"					   /* 5 */
	"  - file_read: \"/a/$NOPE/x\"\n"		   /* 6 */
	"---\n"						   /* 7 */
	FUNC("Bad_Param")				   /* 8-11 */
	"privileges:\n"					   /* 12 */
	"  - file_read: /a/$nope\n"			   /* 13 */
	"---\n"						   /* 14 */
	FUNC("Two_Lists")				   /* 15-18 */
	"parameters:\n"					   /* 19 */
	"  dirs: {type: paths, default: [/a]}\n"	   /* 20 */
	"  more: {type: paths, default: [/b]}\n"	   /* 21 */
	"privileges:\n"					   /* 22 */
	"  - file_read: \"$dirs/$more\"\n"		   /* 23 */
	"---\n"						   /* 24 */
	FUNC("Tilde_User")				   /* 25-28 */
	"privileges:\n"					   /* 29 */
	"  - file_read: ~root/x\n"			   /* 30 */
	"---\n"						   /* 31 */
	FUNC("Dollar_End")				   /* 32-35 */
	"privileges:\n"					   /* 36 */
	"  - file_read: /a/$\n"				   /* 37 */
	"---\n"						   /* 38 */
	FUNC("Open_Brace")				   /* 39-42 */
	"privileges:\n"					   /* 43 */
	"  - file_read: \"/a/${HOME\"\n"		   /* 44 */
	"---\n"						   /* 45 */
	FUNC("Dollar_Digit")				   /* 46-49 */
	"privileges:\n"					   /* 50 */
	"  - file_read: /a/$1\n"			   /* 51 */
	"---\n"						   /* 52 */
	FUNC("Name_Run")				   /* 53-56 */
	"parameters:\n"					   /* 57 */
	"  name: {type: string, default: x}\n"		   /* 58 */
	"privileges:\n"					   /* 59 */
	"  - file_read: /a/$name_x\n"			   /* 60 */
	"---\n"						   /* 61 */
	FUNC("Same_List_Twice")				   /* 62-65 */
	"parameters:\n"					   /* 66 */
	"  dirs: {type: paths, default: [/a, /b]}\n"	   /* 67 */
	"privileges:\n"					   /* 68 */
	"  - file_read: \"$dirs/x/$dirs\"\n"		   /* 69 */
	"---\n"						   /* 70 */
	FUNC("Glob_Bad")				   /* 71-74 */
	"privileges:\n"					   /* 75 */
	"  - file_read: /a/**b\n"			   /* 76 */
	"---\n"						   /* 77 */
	FUNC("Rel_Pat")					   /* 78-81 */
	"privileges:\n"					   /* 82 */
	"  - file_read: a/b\n"				   /* 83 */
	"---\n"						   /* 84 */
	FUNC("Dotdot_Pat")				   /* 85-88 */
	"privileges:\n"					   /* 89 */
	"  - file_read: /a/../b\n"			   /* 90 */
	"---\n"						   /* 91 */
	FUNC("Lower_Builtin")				   /* 92-95 */
	"privileges:\n"					   /* 96 */
	"  - file_read: /a/$home\n";			   /* 97 */

static void subst_fails(const char *func, int err, unsigned line, unsigned col,
			const char *sub, const char *what)
{
	struct fbac_resolved *res = NULL;
	int r = resolve_func(func, NULL, 0, &res);

	if (!is_int(r, err, what)) {
		dump_rules(res);
		fbac_resolved_free(res);
		return;
	}
	is_diag(&d, "t1.yaml", line, col, sub, what);
}

static void test_substitution(void)
{
	const char *texts[] = { subst_text, subst_bad_text, NULL };
	struct fbac_resolved *res = NULL;

	if (!setup(texts))
		return;
	is_int(resolve_func("Subst", NULL, 0, &res), 0, "substitutions");
	has_rules(res, "/lit/$x", 1, "'$$' is a literal '$'");
	has_rules(res, "/br/foo_x", 1, "'${name}' ends the name");
	has_rules(res, "/a/**", 1, "list in a string: first item");
	has_rules(res, "/b/**", 1, "list in a string: second item");
	has_rules(res, "/c/**", 1, "list in a string: third item");
	has_rules(res, "/a", 1, "a list standing alone: /a");
	has_rules(res, "/c", 1, "a list standing alone: /c");
	ok(find_rule(res, "/c") &&
		   find_rule(res, "/c")->ops == FBAC_OP_BIT(FBAC_OP_FILE_WRITE),
	   "its rules keep the operation");
	has_rules(res, "/home/u/.cfg/**", 1, "'~/' at the start");
	has_rules(res, "/home/u", 1, "'~' alone");
	has_rules(res, "/tilde/~/x", 1, "'~' elsewhere is a character");
	has_rules(res, "/u/u/1000/home/ux", 1, "USER, UID, ${HOME}");
	has_rules(res, "/same/a/foo", 1, "list with another parameter (a)");
	has_rules(res, "/same/b/foo", 1, "list with another parameter (b)");
	{
		size_t n = 0;

		for (size_t i = 0; res && i < res->n_rules; i++)
			if (res->rules[i].pattern &&
			    strstr(res->rules[i].pattern, "**") &&
			    res->rules[i].pattern[0] == '/' &&
			    res->rules[i].pattern[1] == '*')
				n++;
		is_int(n, 0, "an empty list grants nothing (no '/**')");
	}
	res = fbac_resolved_free(res);

	subst_fails("Bad_Var", -EINVAL, 6, 20, "unknown variable '$NOPE'",
		    "unknown built-in, at the '$' (quoted scalar)");
	subst_fails("Bad_Param", -EINVAL, 13, 19,
		    "unknown parameter '$nope'|Bad_Param",
		    "unknown parameter, at the '$' (plain scalar)");
	subst_fails("Two_Lists", -EINVAL, 23, 23, "at most one list",
		    "two list parameters: at the second");
	subst_fails("Same_List_Twice", -EINVAL, 69, 25, "at most one list",
		    "the same list twice is two references");
	subst_fails("Tilde_User", -EINVAL, 30, 16, "~user",
		    "'~user' refused");
	subst_fails("Dollar_End", -EINVAL, 37, 19, "variable reference",
		    "a '$' at the end");
	subst_fails("Open_Brace", -EINVAL, 44, 20, "variable reference",
		    "an unclosed '${'");
	subst_fails("Dollar_Digit", -EINVAL, 51, 19, "variable reference",
		    "'$1' is not a name");
	subst_fails("Name_Run", -EINVAL, 60, 19, "unknown parameter '$name_x'",
		    "a name runs over letters, digits and '_'");
	like(d.msg, "(did you mean '$name'?)",
	     "and the parameter meant is suggested");
	subst_fails("Bad_Var", -EINVAL, 6, 20, "unknown variable '$NOPE'",
		    "again");
	ok(!strstr(d.msg, "did you mean"), "nothing close: no suggestion");
	subst_fails("Glob_Bad", -EINVAL, 76, 16, "**",
		    "'**' inside a component");
	subst_fails("Rel_Pat", -EINVAL, 83, 16, "absolute",
		    "a relative pattern");
	subst_fails("Dotdot_Pat", -EINVAL, 90, 16, "..",
		    "a pattern with '..'");
	subst_fails("Lower_Builtin", -EINVAL, 97, 19, "unknown parameter '$home'",
		    "built-ins are upper case; lower case is a parameter");
}

/* ------------------------------------------------------------------ */

static const char memo_text[] =
	FUNC("Mid_A") "includes:\n  - Reader: {dir: /shared}\n"
	"---\n"
	FUNC("Mid_B") "includes:\n  - Reader: {dir: /shared}\n"
	"---\n"
	FUNC("Top") "includes:\n  - Mid_A\n  - Mid_B\n  - Reader: {dir: /other}\n"
	"---\n"
	"fbac: 1\n"
	"application: memo\n"
	"executables: [/usr/bin/memo]\n"
	"functionalities:\n"
	"  - Reader: {dir: /a}\n"
	"  - Reader: {dir: /a}\n"
	"  - Reader: {dir: /b}\n"
	"  - Top\n"
	"---\n"
	FUNC("Loop_A") "includes: [Loop_B]\n"
	"---\n"
	FUNC("Loop_B") "includes: [Loop_A]\n";

static void test_memo(void)
{
	const char *texts[] = { reader_text, memo_text, NULL };
	struct fbac_resolved *res = NULL;
	const struct fbac_rnode *root;

	if (!setup(texts))
		return;
	is_int(resolve_app("memo", NULL, 0, &res), 0, "memo app resolves");
	if (!res)
		return;
	has_rules(res, "/a/**", 1, "same functionality, same arguments: once");
	has_rules(res, "/b/**", 1, "different arguments: its own rules");
	has_rules(res, "/shared/**", 1, "diamond through Mid_A and Mid_B: once");
	has_rules(res, "/other/**", 1, "third include of Reader");
	origin_is(find_rule(res, "/shared/**"), "memo > Top > Mid_A > Reader",
		  "t0.yaml", 8, 5, "the first path speaks for the rule");
	root = res->root;
	is_int(root->n_children, 4, "four grants in the tree");
	if (root->n_children == 4) {
		const struct fbac_rnode *top = root->children[3];

		ok(!root->children[0]->repeated, "first Reader {/a} is new");
		ok(root->children[1]->repeated,
		   "second Reader {/a} is marked repeated");
		ok(!root->children[2]->repeated, "Reader {/b} is new");
		is_int(top->n_children, 3, "Top has three includes");
		if (top->n_children == 3 && top->children[0]->n_children == 1 &&
		    top->children[1]->n_children == 1) {
			ok(!top->children[0]->children[0]->repeated,
			   "Reader under Mid_A is new");
			ok(top->children[1]->children[0]->repeated,
			   "Reader under Mid_B is repeated");
			ok(!top->children[1]->repeated,
			   "Mid_B itself is new");
		} else {
			ok(0, "tree shape");
		}
	}
	res = fbac_resolved_free(res);

	is_int(resolve_func("Loop_A", NULL, 0, &res), -ELOOP,
	       "an include cycle stops resolution");
	like(d.msg, "cycle", "message says cycle");
}

/*
 * Two includes with different arguments are different, whatever bytes the
 * values hold (a string may hold any byte but '/' and NUL).
 */
static const char memo_key_text[] =
	FUNC("Two_Strings")
	"parameters:\n"
	"  p1: {type: string}\n"
	"  p2: {type: string}\n"
	"privileges:\n"
	"  - file_read: \"/m/$p1/$p2\"\n"
	"denied:\n"
	"  - file_write: \"/m/$p1/$p2\"\n"
	"---\n"
	"fbac: 1\n"
	"application: twice\n"
	"executables: [/usr/bin/twice]\n"
	"functionalities:\n"
	"  - Two_Strings: {p1: x, p2: \"y\\x1f\\x1ez\"}\n"
	"  - Two_Strings: {p1: \"x\\x1f\\x1ey\", p2: z}\n";

static void test_memo_key(void)
{
	const char *texts[] = { memo_key_text, NULL };
	struct fbac_resolved *res = NULL;

	if (!setup(texts))
		return;
	is_int(resolve_app("twice", NULL, 0, &res), 0,
	       "two includes with different arguments");
	has_rules(res, "/m/x/y\x1f\x1ez", 2,
		  "the first include's allow and carve-out");
	has_rules(res, "/m/x\x1f\x1ey/z", 2,
		  "the second include is not taken for a repeat of the first");
	if (res && res->root->n_children == 2)
		ok(!res->root->children[1]->repeated,
		   "the second include is not marked repeated");
	fbac_resolved_free(res);
}

static void test_memo_diamond(void)
{
	enum { LEVELS = 30 };
	char *text = malloc(LEVELS * 256 + 256);
	const char *texts[] = { text, NULL };
	struct fbac_resolved *res = NULL;
	size_t o = 0;

	if (!text)
		abort();
	for (int i = 0; i <= LEVELS; i++) {
		o += (size_t)sprintf(text + o,
				     "%sfbac: 1\nfunctionality: Level_%02d\n"
				     "category: system\ndescription: d\n",
				     i ? "---\n" : "", i);
		if (i < LEVELS)
			o += (size_t)sprintf(text + o,
					     "includes: [Level_%02d, Level_%02d]\n",
					     i + 1, i + 1);
		else
			o += (size_t)sprintf(text + o,
					     "privileges: [file_read: /leaf]\n");
	}
	if (setup(texts)) {
		/* 2^30 paths: memoisation makes it 60 frames. */
		is_int(resolve_func("Level_00", NULL, 0, &res), 0,
		       "a 30-level diamond resolves");
		has_rules(res, "/leaf", 1, "its leaf rule once");
		res = fbac_resolved_free(res);
	}
	free(text);
}

/* ------------------------------------------------------------------ */

static const char net_text[] =
	FUNC("Net")
	"parameters:\n"
	"  ports: {type: ports, default: [80, \"8000-8080\"]}\n"
	"  hosts: {type: hosts, default: [example.com, 10.0.0.0/8]}\n"
	"  none: {type: hosts, default: []}\n"
	"  noports: {type: ports, default: []}\n"
	"privileges:\n"
	"  - network_outgoing: {protocol: tcp, ports: $noports}\n"
	"  - network_outgoing: {protocol: tcp, ports: $ports, hosts: $hosts}\n"
	"  - network_incoming: {protocol: udp, ports: any}\n"
	"  - network_outgoing: {protocol: tcp, ports: 443, hosts: any}\n"
	"  - network_outgoing: {protocol: tcp, ports: 22, hosts: $none}\n"
	"  - unix_connect: \"@dbus-*\"\n"
	"  - unix_bind: [\"@sock\", /run/x.sock]\n"
	"  - ipc_signal: any\n"
	"denied:\n"
	"  - network_outgoing: {protocol: tcp, ports: 25}\n"
	"---\n"
	FUNC("Bad_Proto") "privileges:\n"
	"  - network_outgoing: {protocol: icmp, ports: 1}\n"
	"---\n"
	FUNC("Bad_Abstract_Op") "privileges:\n  - file_read: \"@x\"\n"
	"---\n"
	FUNC("Bad_Abstract_Star") "privileges:\n  - unix_connect: \"@a*b\"\n"
	"---\n"
	FUNC("Bad_Ports") "privileges:\n"
	"  - network_incoming: {protocol: tcp, ports: [80, 0]}\n";

static void test_net(void)
{
	const char *texts[] = { net_text, NULL };
	struct fbac_resolved *res = NULL;
	const struct fbac_rule *tcp = NULL, *udp = NULL, *any = NULL,
			       *deny = NULL, *sig = NULL;
	size_t n_net = 0;

	if (!setup(texts))
		return;
	is_int(resolve_func("Net", NULL, 0, &res), 0, "network rules resolve");
	for (size_t i = 0; res && i < res->n_rules; i++) {
		const struct fbac_rule *r = &res->rules[i];

		if (r->kind == FBAC_PRIV_SIGNAL)
			sig = r;
		if (r->kind != FBAC_PRIV_NET)
			continue;
		n_net++;
		if (r->deny)
			deny = r;
		else if (r->proto == FBAC_PROTO_UDP)
			udp = r;
		else if (r->n_hosts)
			tcp = r;
		else
			any = r;
	}
	is_int(n_net, 4, "four network rules (empty host and port lists grant nothing)");
	ok(tcp && tcp->ops == FBAC_OP_BIT(FBAC_OP_NETWORK_OUTGOING),
	   "tcp outgoing rule");
	if (tcp) {
		ok(tcp->n_ports == 2 && tcp->ports[0].lo == 80 &&
			   tcp->ports[0].hi == 80 && tcp->ports[1].lo == 8000 &&
			   tcp->ports[1].hi == 8080,
		   "ports 80 and 8000-8080");
		ok(tcp->n_hosts == 2 && !strcmp(tcp->hosts[0], "example.com") &&
			   !strcmp(tcp->hosts[1], "10.0.0.0/8"),
		   "two hosts");
	}
	ok(udp && udp->ops == FBAC_OP_BIT(FBAC_OP_NETWORK_INCOMING) &&
		   udp->n_ports == 1 && udp->ports[0].lo == 1 &&
		   udp->ports[0].hi == 65535 && udp->hosts == NULL,
	   "udp incoming on any port from any host");
	ok(any && any->hosts == NULL && any->n_ports == 1 &&
		   any->ports[0].lo == 443,
	   "'hosts: any' is no host restriction");
	ok(deny && deny->hosts == NULL && deny->ports[0].lo == 25,
	   "denied network rule");
	ok(sig != NULL, "ipc_signal rule");
	ok(find_rule(res, "@dbus-*") &&
		   find_rule(res, "@dbus-*")->ops ==
			   FBAC_OP_BIT(FBAC_OP_UNIX_CONNECT),
	   "abstract socket name kept as '@name'");
	has_rules(res, "@sock", 1, "abstract name for unix_bind");
	has_rules(res, "/run/x.sock", 1, "socket path next to it");
	res = fbac_resolved_free(res);

	is_int(resolve_func("Bad_Proto", NULL, 0, &res), -EINVAL,
	       "protocol icmp refused");
	is_diag(&d, "t0.yaml", 27, 34, "tcp or udp", "at the protocol");
	is_int(resolve_func("Bad_Abstract_Op", NULL, 0, &res), -EINVAL,
	       "abstract name with file_read refused");
	is_diag(&d, "t0.yaml", 34, 16, "@x", "at the name");
	is_int(resolve_func("Bad_Abstract_Star", NULL, 0, &res), -EINVAL,
	       "'*' not at the end of an abstract name");
	is_diag(&d, "t0.yaml", 41, 19, "@a*b", "at the name");
	is_int(resolve_func("Bad_Ports", NULL, 0, &res), -EINVAL,
	       "port 0 in a privilege");
	is_diag(&d, "t0.yaml", 48, 51, "'0'", "at the bad port item");
}

/* ------------------------------------------------------------------ */

static void test_protected_and_placeholders(void)
{
	static const char prot[] =
		"fbac: 1\n"
		"protected:\n"
		"  - {path: ~/.ssh, reason: keys}\n"
		"  - {path: $XDG_CONFIG_HOME/fbac/, reason: policy}\n"
		"  - {path: /tmp/krb5cc_$UID, reason: tickets}\n";
	static const char prot_bad[] =
		"fbac: 1\nprotected:\n  - {path: \"/x/*\", reason: r}\n";
	const char *texts[] = { reader_text, prot, NULL };
	const char *texts_bad[] = { reader_text, prot_bad, NULL };
	struct fbac_resolved *res = NULL;
	struct fbac_include inc = { .name = "Reader" };
	struct fbac_resolve_input in = { .root_name = "lint",
					 .grants = &inc,
					 .n_grants = 1,
					 .placeholders = true };

	if (!setup(texts))
		return;
	inc.target = fbac_library_find(lib, "Reader");
	is_int(resolve_in(&in, &res), 0, "placeholders fill a required path");
	ok(res && res->n_rules == 1 && res->rules[0].pattern[0] == '/' &&
		   strlen(res->rules[0].pattern) > 3,
	   "with some absolute path (%s)",
	   res && res->n_rules ? res->rules[0].pattern : "none");
	is_int(res ? res->n_protected : 0, 3, "three protected paths");
	if (res && res->n_protected == 3) {
		bool ssh = false, fbac = false, krb = false;

		for (size_t i = 0; i < 3; i++) {
			ssh |= !strcmp(res->protected[i].path, "/home/u/.ssh");
			fbac |= !strcmp(res->protected[i].path,
					"/home/u/.config/fbac");
			krb |= !strcmp(res->protected[i].path,
				       "/tmp/krb5cc_1000");
		}
		ok(ssh, "'~/.ssh' expanded");
		ok(fbac, "'$XDG_CONFIG_HOME/fbac/' expanded and normalised");
		ok(krb, "'$UID' expanded");
	}
	res = fbac_resolved_free(res);
	in.fill_path = "/tmp/fill";
	is_int(resolve_in(&in, &res), 0, "fill_path");
	has_rules(res, "/tmp/fill/**", 1, "fill_path is the value");
	res = fbac_resolved_free(res);

	/* A wildcard in a protected path: refused when loading (or, for
	 * one that comes from a variable, when resolving). */
	{
		struct fbac_library *l2 = fbac_library_new();
		int r = load_text(l2, "t1.yaml", prot_bad, &d);

		if (r == 0) {
			lib = fbac_library_free(lib);
			lib = library_of(texts_bad);
			inc.target = lib ? fbac_library_find(lib, "Reader") :
					   NULL;
			r = lib ? resolve_in(&in, &res) : -EINVAL;
		}
		is_int(r, -EINVAL, "a protected path with '*'");
		is_diag(&d, "t1.yaml", 3, 12, "/x/*", "at the protected path");
		fbac_library_free(l2);
		if (!lib)
			return;
	}

	{
		struct fbac_env empty = { .n = 0 };
		struct fbac_resolve_input bad = in;

		bad.lib = lib;
		bad.env = &empty;
		is_int(fbac_resolve(&bad, &res, &d), -EINVAL,
		       "an empty environment is refused");
	}
}

/* ------------------------------------------------------------------ */

static void test_limits(void)
{
	char *text = malloc(64 * 1024);
	const char *texts[] = { text, NULL };
	struct fbac_resolved *res = NULL;
	size_t o;

	if (!text)
		abort();
	/* At most 64 pieces in a value: "/" and 63 references, then 64. */
	o = (size_t)sprintf(text, FUNC("Pieces_64") "privileges:\n  - file_read: \"/");
	for (int i = 0; i < 63; i++)
		o += (size_t)sprintf(text + o, "${UID}");
	o += (size_t)sprintf(text + o, "\"\n---\n" FUNC("Pieces_65")
				       "privileges:\n  - file_read: \"/");
	for (int i = 0; i < 64; i++)
		o += (size_t)sprintf(text + o, "${UID}");
	o += (size_t)sprintf(text + o, "\"\n---\n" FUNC("Long_List")
				       "parameters:\n  dirs:\n    type: paths\n"
				       "    default:\n");
	for (int i = 0; i <= FBAC_MAX_LIST; i++)
		o += (size_t)sprintf(text + o, "      - /d%d\n", i);
	o += (size_t)sprintf(text + o, "---\n" FUNC("Too_Long")
				       "parameters:\n  s: {type: string, default: ");
	for (int i = 0; i < 200; i++)
		text[o++] = 'x';
	o += (size_t)sprintf(text + o, "}\nprivileges:\n  - file_read: \"/");
	for (int i = 0; i < 21; i++)
		o += (size_t)sprintf(text + o, "$s/");
	o += (size_t)sprintf(text + o, "\"\n");
	if (!setup(texts)) {
		free(text);
		return;
	}
	is_int(resolve_func("Pieces_64", NULL, 0, &res), 0,
	       "a value of 64 pieces");
	res = fbac_resolved_free(res);
	is_int(resolve_func("Pieces_65", NULL, 0, &res), -E2BIG,
	       "a value of 65 pieces");
	like(d.msg, "too many", "message");
	is_int(resolve_func("Long_List", NULL, 0, &res), -E2BIG,
	       "a list value of more than FBAC_MAX_LIST items");
	like(d.msg, "1024", "message names the limit");
	is_int(resolve_func("Too_Long", NULL, 0, &res), -E2BIG,
	       "a value longer than FBAC_MAX_PATH after substitution");
	like(d.msg, "longer", "message");
	free(text);
}

/*
 * Metadata visibility: mediated wins among functionalities, the
 * application's key over them, -D over that, a settings ban over all.
 */
static const char meta_text[] =
	FUNC("Vis") "metadata: visible\n"			/* 5 */
	"---\n" FUNC("Med") "metadata: mediated\n"		/* 11 */
	"---\n" FUNC("Quiet") "includes: [Vis]\n"		/* 17 */
	"---\nfbac: 1\napplication: both\nexecutables: [/b]\n"
	"functionalities: [Quiet, Med]\n"			/* 23 */
	"---\nfbac: 1\napplication: own\nmetadata: visible\n" /* 27 */
	"executables: [/o]\nfunctionalities: [Med]\n";

static void test_metadata(void)
{
	const char *texts[] = { meta_text, NULL };
	const char *banned[] = { meta_text,
				 "fbac: 1\nsettings:\n  metadata: mediated\n",
				 NULL };
	struct fbac_resolved *res = NULL;
	struct fbac_define def;

	if (!setup(texts))
		return;
	is_int(resolve_func("Quiet", NULL, 0, &res), 0, "Quiet resolves");
	if (res) {
		is_int(res->metadata, FBAC_META_VISIBLE,
		       "visible carries up from an include");
		is_str(res->metadata_why, "--as > Quiet > Vis",
		       "why: the chain to the functionality that says it");
		is_int(res->metadata_mark.line, 5, "at its 'metadata' key");
	}
	res = fbac_resolved_free(res);
	is_int(resolve_func("Med", NULL, 0, &res), 0, "Med resolves");
	if (res)
		is_int(res->metadata, FBAC_META_MEDIATED, "mediated");
	res = fbac_resolved_free(res);
	is_int(resolve_app("both", NULL, 0, &res), 0, "both resolves");
	if (res) {
		is_int(res->metadata, FBAC_META_MEDIATED,
		       "mediated wins over visible, whatever the order");
		is_str(res->metadata_why, "both > Med", "why: Med");
	}
	res = fbac_resolved_free(res);
	is_int(resolve_app("own", NULL, 0, &res), 0, "own resolves");
	if (res) {
		is_int(res->metadata, FBAC_META_VISIBLE,
		       "the application's own key overrides its functionalities");
		is_str(res->metadata_why, "own", "why: the application");
	}
	res = fbac_resolved_free(res);
	def = (struct fbac_define){ NULL, "metadata", "visible" };
	is_int(resolve_app("both", &def, 1, &res), 0, "-D metadata=visible");
	if (res) {
		is_int(res->metadata, FBAC_META_VISIBLE, "-D overrides");
		is_str(res->metadata_why, "-D metadata=visible", "why: -D");
	}
	res = fbac_resolved_free(res);
	def = (struct fbac_define){ NULL, "metadata", "mediated" };
	is_int(resolve_app("own", &def, 1, &res), 0, "-D metadata=mediated");
	if (res)
		is_int(res->metadata, FBAC_META_MEDIATED, "-D overrides the app");
	res = fbac_resolved_free(res);
	def = (struct fbac_define){ NULL, "metadata", "open" };
	is_int(resolve_app("own", &def, 1, &res), -EINVAL,
	       "-D metadata=open is refused");
	like(d.msg, "expected visible or mediated", "and says what is");
	res = fbac_resolved_free(res);
	def = (struct fbac_define){ "Med", "metadata", "visible" };
	is_int(resolve_app("own", &def, 1, &res), -EINVAL,
	       "-D Med.metadata sets nothing");
	res = fbac_resolved_free(res);

	if (!setup(banned))
		return;
	def = (struct fbac_define){ NULL, "metadata", "visible" };
	is_int(resolve_app("own", &def, 1, &res), 0, "resolves under a ban");
	if (res) {
		is_int(res->metadata, FBAC_META_MEDIATED,
		       "a settings ban overrides the application and -D");
		like(res->metadata_why, "settings", "why: the settings");
		is_int(res->metadata_mark.line, 3, "at the ban");
	}
	res = fbac_resolved_free(res);
}

/* --as: exact paths to look up (the folders of the command line). */
static void test_lookups(void)
{
	static const char *const texts[] = { reader_text, NULL };
	const char *paths[] = { "/home/u/work", "/home/u" };
	const uint32_t ops[] = { FBAC_OP_BIT(FBAC_OP_FILE_GETATTR) |
					 FBAC_OP_BIT(FBAC_OP_DIR_READ),
				 FBAC_OP_BIT(FBAC_OP_FILE_GETATTR) };
	struct fbac_include inc = { .name = "Reader" };
	const struct fbac_define def = { "Reader", "dir", "/srv" };
	struct fbac_resolve_input in = {
		.root_name = "--as", .grants = &inc, .n_grants = 1,
		.lookups = paths, .lookup_ops = ops, .n_lookups = 2,
		.defines = &def, .n_defines = 1,
	};
	struct fbac_resolved *res = NULL;
	const struct fbac_rule *r;

	if (!setup(texts))
		return;
	inc.target = fbac_library_find(lib, "Reader");
	if (!ok(inc.target != NULL, "Reader is there"))
		return;
	is_int(resolve_in(&in, &res), 0, "looked-up folders resolve");
	r = find_rule(res, "/home/u/work");
	ok(r && r->ops == ops[0] && r->origin &&
		   streq(r->origin->chain, "--as (folders looked up)"),
	   "the working directory: getattr and listing, its origin named");
	r = find_rule(res, "/home/u");
	ok(r && r->ops == ops[1], "a folder above: getattr only");
	res = fbac_resolved_free(res);
	{
		const char *wild[] = { "/home/*" };
		const uint32_t read[] = { FBAC_OP_BIT(FBAC_OP_FILE_READ) };

		in.lookups = wild;
		in.n_lookups = 1;
		is_int(resolve_in(&in, &res), -EINVAL, "no wildcard");
		res = fbac_resolved_free(res);
		in.lookups = paths;
		in.lookup_ops = read;
		is_int(resolve_in(&in, &res), -EINVAL, "no other operation than a look-up");
		ok(strstr(d.msg, "only a look-up of an exact path") != NULL,
		   "said so: %s", d.msg);
		res = fbac_resolved_free(res);
	}
}

int main(void)
{
	plan_no_plan();
	env_arena = fbac_arena_new();
	if (test_env(&env, env_arena) < 0)
		abort();
	test_arguments();
	test_defines();
	test_defaults();
	test_types();
	test_substitution();
	test_memo();
	test_memo_diamond();
	test_memo_key();
	test_limits();
	test_net();
	test_protected_and_placeholders();
	test_metadata();
	test_lookups();
	fbac_library_free(lib);
	fbac_arena_free(env_arena);
	return done_testing();
}
