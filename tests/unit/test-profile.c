/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/profile.c and lib/library.c: loading functionality, application and
 * protected-paths documents, linking the library across layers, and the
 * static checks (docs/profile-language.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fbac-limits.h"
#include "profile.h"
#include "spell.h"
#include "tap.h"
#include "unit-util.h"

static struct fbac_diag d;

/* A functionality header: the lines that follow start at line 5. */
#define F_HEAD "fbac: 1\nfunctionality: F\ncategory: system\ndescription: d\n"

static const char http_text[] =
	"fbac: 1\n"
	"functionality: HTTP_Client\n"
	"category: network\n"
	"description: Connect to web servers\n"
	"high_level: true\n"
	"parameters:\n"
	"  ports: {type: ports, default: [80, 443], ask: \"Which ports?\"}\n"
	"  dir: {type: path, description: \"A directory\"}\n"
	"includes:\n"
	"  - DNS_Client\n"
	"  - Read_Only_Directory: {dir: /etc/ssl}\n"
	"privileges:\n"
	"  - network_outgoing: {protocol: tcp, ports: $ports}\n"
	"  - file_read: [/etc/hosts, /etc/resolv.conf]\n"
	"  - {access: [file_read, dir_read], paths: [\"$dir/**\"]}\n"
	"  - unix_connect: \"@dbus-*\"\n"
	"  - ipc_signal: any\n"
	"denied:\n"
	"  - file_read: ~/.cache/secret/**\n";

static const char base_text[] =
	"fbac: 1\n"
	"functionality: DNS_Client\n"
	"category: network\n"
	"description: Resolve names\n"
	"privileges:\n"
	"  - network_outgoing: {protocol: udp, ports: 53}\n"
	"---\n"
	"fbac: 1\n"
	"functionality: Read_Only_Directory\n"
	"category: files\n"
	"description: Read one directory tree\n"
	"parameters:\n"
	"  dir: {type: path}\n"
	"privileges:\n"
	"  - file_read: $dir/**\n";

static const char app_text[] =
	"fbac: 1\n"
	"application: curl\n"
	"description: Command-line URL transfer tool\n"
	"executables: [/usr/bin/curl, /usr/local/bin/curl]\n"
	"functionalities:\n"
	"  - HTTP_Client: {dir: /tmp}\n"
	"privileges: []\n"
	"denied:\n"
	"  - file_write: /etc/**\n";

static const char prot_text[] =
	"fbac: 1\n"
	"protected:\n"
	"  - {path: ~/.ssh, reason: \"SSH private keys\"}\n"
	"  - {path: $XDG_CONFIG_HOME/fbac, reason: policy}\n";

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

static void test_valid(void)
{
	struct fbac_library *lib = fbac_library_new();
	const struct fbac_functionality *f = NULL, *dns, *rod;
	const struct fbac_application *a;

	is_int(load_text(lib, "http.yaml", http_text, &d), 0,
	       "functionality document loads");
	is_int(load_text(lib, "base.yaml", base_text, &d), 0,
	       "two functionalities in one file load");
	is_int(load_text(lib, "curl.yaml", app_text, &d), 0,
	       "application document loads");
	is_int(load_text(lib, "prot.yaml", prot_text, &d), 0,
	       "protected document loads");
	is_int(lib->n_funcs, 3, "three functionalities");
	is_int(lib->n_apps, 1, "one application");
	is_int(lib->n_protected, 2, "two protected paths");
	is_int(lib->n_files, 4, "four files");
	is_int(lib->n_layers, 1, "a first layer was created");

	for (size_t i = 0; i < lib->n_funcs; i++)
		if (!strcmp(lib->funcs[i]->name, "HTTP_Client"))
			f = lib->funcs[i];
	ok(f != NULL, "HTTP_Client is there");
	if (!f)
		goto out;
	is_str(f->category, "network", "category");
	is_str(f->description, "Connect to web servers", "description");
	ok(f->high_level, "high_level: true");
	mark_is(&f->mark, 2, 16, "functionality name");
	ok(f->mark.file && !strcmp(f->mark.file, "http.yaml"),
	   "mark names the file");
	is_int(f->n_params, 2, "two parameters");
	is_str(f->params[0].name, "ports", "first parameter");
	is_int(f->params[0].type, FBAC_PT_PORTS, "ports type");
	ok(f->params[0].def && f->params[0].def->kind == FBAC_Y_SEQ,
	   "ports default is the sequence");
	is_str(f->params[0].ask, "Which ports?", "ask text");
	mark_is(&f->params[0].mark, 7, 3, "parameter 'ports'");
	is_str(f->params[1].name, "dir", "second parameter");
	is_int(f->params[1].type, FBAC_PT_PATH, "path type");
	ok(f->params[1].def == NULL, "no default: required");
	is_str(f->params[1].description, "A directory", "parameter description");

	is_int(f->n_includes, 2, "two includes");
	is_str(f->includes[0].name, "DNS_Client", "plain include");
	is_int(f->includes[0].n_args, 0, "without arguments");
	mark_is(&f->includes[0].mark, 10, 5, "include DNS_Client");
	is_str(f->includes[1].name, "Read_Only_Directory",
	       "include with arguments");
	is_int(f->includes[1].n_args, 1, "one argument");
	if (f->includes[1].n_args == 1) {
		is_str(f->includes[1].arg_names[0], "dir", "argument name");
		is_str(f->includes[1].arg_values[0]->value, "/etc/ssl",
		       "argument value (unevaluated)");
	}
	mark_is(&f->includes[1].mark, 11, 5, "include Read_Only_Directory");

	is_int(f->n_privs, 6, "five privileges and one denied");
	if (f->n_privs == 6) {
		ok(f->privs[0].kind == FBAC_PRIV_NET &&
			   f->privs[0].ops ==
				   FBAC_OP_BIT(FBAC_OP_NETWORK_OUTGOING) &&
			   !f->privs[0].deny,
		   "network privilege");
		is_str(f->privs[0].protocol->value, "tcp", "protocol");
		ok(f->privs[0].hosts == NULL, "hosts omitted");
		mark_is(&f->privs[0].mark, 13, 5, "network privilege");
		ok(f->privs[1].kind == FBAC_PRIV_PATH &&
			   f->privs[1].ops == FBAC_OP_BIT(FBAC_OP_FILE_READ) &&
			   f->privs[1].n_values == 2,
		   "file_read with two patterns");
		ok(f->privs[2].kind == FBAC_PRIV_PATH &&
			   f->privs[2].ops ==
				   (FBAC_OP_BIT(FBAC_OP_FILE_READ) |
				    FBAC_OP_BIT(FBAC_OP_DIR_READ)) &&
			   f->privs[2].n_values == 1,
		   "long form: two operations, one pattern");
		mark_is(&f->privs[2].mark, 15, 5, "long form privilege");
		ok(f->privs[3].ops == FBAC_OP_BIT(FBAC_OP_UNIX_CONNECT),
		   "unix_connect");
		ok(f->privs[4].kind == FBAC_PRIV_SIGNAL, "ipc_signal");
		ok(f->privs[5].deny && f->privs[5].kind == FBAC_PRIV_PATH,
		   "the denied entry is a deny");
	}

	a = lib->apps[0];
	is_str(a->name, "curl", "application name");
	mark_is(&a->mark, 2, 14, "application name");
	is_str(a->description, "Command-line URL transfer tool",
	       "application description");
	is_int(a->n_executables, 2, "two executables");
	is_str(a->executables[1], "/usr/local/bin/curl", "second executable");
	is_int(a->n_grants, 1, "one functionality granted");
	is_int(a->grants[0].n_args, 1, "with one argument");
	is_int(a->n_privs, 1, "one denied entry");
	ok(a->n_privs == 1 && a->privs[0].deny, "it is a deny");

	is_str(lib->protected[0].path->value, "~/.ssh",
	       "protected path kept unevaluated");
	is_str(lib->protected[0].reason, "SSH private keys", "reason");
	mark_is(&lib->protected[0].mark, 3, 12, "protected path");

	is_int(fbac_library_link(lib, &d), 0, "the library links");
	ok(lib->linked, "linked");
	dns = fbac_library_find(lib, "DNS_Client");
	rod = fbac_library_find(lib, "Read_Only_Directory");
	f = fbac_library_find(lib, "HTTP_Client");
	ok(dns && rod && f, "find after link");
	ok(fbac_library_find(lib, "Nope") == NULL, "find: unknown name");
	ok(f && f->includes[0].target == dns && f->includes[1].target == rod,
	   "includes point at their targets");
	for (size_t i = 1; i < lib->n_funcs; i++)
		ok(strcmp(lib->funcs[i - 1]->name, lib->funcs[i]->name) < 0,
		   "functionalities sorted (%zu)", i);
	ok(fbac_library_find_app(lib, 0, "curl") == a, "find app by name");
	ok(fbac_library_find_app(lib, 0, "/usr/local/bin/curl") == a,
	   "find app by executable");
	ok(fbac_library_find_app(lib, 0, "/usr/bin/wget") == NULL,
	   "find app: unknown executable");
	ok(fbac_library_find_app(lib, 1, "curl") == NULL,
	   "find app: other layer");
	fbac_diag_clear(&d);
	is_int(fbac_check_functionality(lib, f, &d), 0,
	       "HTTP_Client passes the static checks");
	is_int(fbac_check_application(lib, a, &d), 0,
	       "curl passes the static checks");
	is_int(load_text(lib, "late.yaml", base_text, &d), -EBUSY,
	       "loads are refused after a successful link");
out:
	fbac_library_free(lib);
}

/* Load text as e.yaml into a fresh library: must fail at line:col. */
static void load_fails(const char *text, int err, unsigned line, unsigned col,
		       const char *sub, const char *name)
{
	struct fbac_library *lib = fbac_library_new();
	int r = load_text(lib, "e.yaml", text, &d);

	if (!is_int(r, err, name))
		diag("text:\n%s", text);
	is_diag(&d, "e.yaml", line, col, sub, name);
	fbac_library_free(lib);
}

static void test_unknown_keys(void)
{
	load_fails(F_HEAD "bogus: 1\n", -EINVAL, 5, 1, "unknown key 'bogus'",
		   "unknown top-level key");
	load_fails("fbac: 1\nfunctionality: F\ncategroy: system\ndescription: d\n",
		   -EINVAL, 3, 1, "unknown key 'categroy'",
		   "misspelt key");
	load_fails(F_HEAD "parameters:\n  p: {type: path, dflt: /x}\n", -EINVAL,
		   6, 19, "unknown key 'dflt'", "unknown key in a parameter");
	load_fails(F_HEAD "privileges:\n"
			  "  - network_outgoing: {protocol: tcp, ports: 80, port: 1}\n",
		   -EINVAL, 6, 50, "unknown key 'port'",
		   "unknown key in a network privilege");
	load_fails(F_HEAD "privileges:\n  - {access: [file_read], paths: [/x], deny: 1}\n",
		   -EINVAL, 6, 40, "unknown key 'deny'",
		   "unknown key in a long-form privilege");
	load_fails("fbac: 1\napplication: a\nexecutables: [/a]\nfunctionalities: []\ncategory: x\n",
		   -EINVAL, 5, 1, "unknown key 'category'",
		   "unknown key in an application");
	load_fails("fbac: 1\nprotected:\n  - {path: /x, why: y}\n", -EINVAL, 3,
		   16, "unknown key 'why'", "unknown key in a protected path");
	load_fails("fbac: 1\nprotected: []\nextra: 1\n", -EINVAL, 3, 1,
		   "unknown key 'extra'", "unknown key in a protected document");
}

static void test_wrong_kind(void)
{
	load_fails("fbac: 1\nfunctionality: F\ncategory: system\ndescription: [a, b]\n",
		   -EINVAL, 4, 14, "must be a scalar|not a sequence",
		   "description as a sequence");
	load_fails("fbac: 1\nfunctionality: [F]\ncategory: system\ndescription: d\n",
		   -EINVAL, 2, 16, "must be a scalar", "name as a sequence");
	load_fails(F_HEAD "privileges: {a: 1}\n", -EINVAL, 5, 13,
		   "must be a sequence|not a mapping", "privileges as a mapping");
	load_fails(F_HEAD "denied: x\n", -EINVAL, 5, 9, "must be a sequence",
		   "denied as a scalar");
	load_fails(F_HEAD "parameters: [x]\n", -EINVAL, 5, 13,
		   "must be a mapping", "parameters as a sequence");
	load_fails(F_HEAD "parameters:\n  p: path\n", -EINVAL, 6, 6,
		   "must be a mapping", "parameter definition as a scalar");
	load_fails(F_HEAD "includes: G\n", -EINVAL, 5, 11, "must be a sequence",
		   "includes as a scalar");
	load_fails(F_HEAD "includes:\n  - G: [1]\n", -EINVAL, 6, 8,
		   "must be a mapping", "include arguments as a sequence");
	load_fails(F_HEAD "includes:\n  - G: {a: {b: c}}\n", -EINVAL, 6, 12,
		   "argument 'a'", "include argument as a mapping");
	load_fails(F_HEAD "privileges:\n  - network_outgoing: tcp\n", -EINVAL,
		   6, 23, "must be a mapping", "network privilege as a scalar");
	load_fails(F_HEAD "privileges:\n  - network_outgoing: {protocol: tcp, ports: {a: 1}}\n",
		   -EINVAL, 6, 46, "'ports'", "ports as a mapping");
	load_fails(F_HEAD "privileges:\n  - file_read: {a: b}\n", -EINVAL, 6,
		   16, "must be a sequence", "paths as a mapping");
	load_fails(F_HEAD "privileges:\n  - file_read: [/a, [/b]]\n", -EINVAL,
		   6, 21, "must be a scalar", "a nested sequence of paths");
	load_fails("fbac: 1\nprotected: {path: /x}\n", -EINVAL, 2, 12,
		   "must be a sequence", "protected as a mapping");
	load_fails("- fbac: 1\n", -EINVAL, 1, 1, "must be a mapping",
		   "a document that is a sequence");
	load_fails(F_HEAD "parameters:\n  p: {type: path, ask: [a]}\n", -EINVAL,
		   6, 24, "'ask'", "ask as a sequence");
	load_fails(F_HEAD "includes:\n  - {G: {a: 1}, H: {b: 2}}\n", -EINVAL, 6,
		   5, "Name: {arguments}", "an include item with two names");
	load_fails(F_HEAD "privileges:\n  - file_read: []\n", -EINVAL, 6, 16,
		   "empty", "an empty list of patterns");
	load_fails(F_HEAD "privileges:\n  - {access: [], paths: [/x]}\n",
		   -EINVAL, 6, 14, "empty", "an empty access list");
	load_fails(F_HEAD "privileges:\n  - file_read: \"\"\n", -EINVAL, 6, 16,
		   "empty", "an empty pattern");
	{
		char text[4096];
		size_t o = (size_t)snprintf(text, sizeof(text),
					    F_HEAD "parameters:\n");

		for (int i = 0; i <= FBAC_MAX_PARAMS; i++)
			o += (size_t)snprintf(text + o, sizeof(text) - o,
					      "  p%d: {type: path}\n", i);
		load_fails(text, -E2BIG, 6, 3, "parameters",
			   "more than FBAC_MAX_PARAMS parameters");
	}
}

static void test_vocabulary(void)
{
	load_fails(F_HEAD "privileges:\n  - file_reed: /x\n", -EINVAL, 6, 5,
		   "unknown privilege 'file_reed'", "unknown privilege");
	load_fails(F_HEAD "denied:\n  - netwrk_outgoing: {protocol: tcp, ports: 1}\n",
		   -EINVAL, 6, 5, "unknown privilege 'netwrk_outgoing'",
		   "unknown privilege in denied");
	load_fails(F_HEAD "privileges:\n  - {access: [file_read, bogus], paths: [/x]}\n",
		   -EINVAL, 6, 26, "unknown privilege 'bogus'",
		   "unknown privilege in the long form");
	load_fails(F_HEAD "privileges:\n  - {access: [network_outgoing], paths: [/x]}\n",
		   -EINVAL, 6, 15, "network_outgoing",
		   "a network operation in the long form");
	load_fails(F_HEAD "privileges:\n  - {file_read: /a, file_write: /b}\n",
		   -EINVAL, 6, 5, "one operation", "two operations in one entry");
	load_fails(F_HEAD "privileges:\n  - file_read\n", -EINVAL, 6, 5,
		   "must be a mapping", "a privilege that is a scalar");
	load_fails(F_HEAD "privileges:\n  - ipc_signal: all\n", -EINVAL, 6, 17,
		   "'any'", "ipc_signal takes 'any'");
	load_fails(F_HEAD "denied:\n  - ipc_signal: any\n", -EINVAL, 6, 5,
		   "ipc_signal", "ipc_signal cannot be denied");
	load_fails("fbac: 1\nfunctionality: F\ncategory: bogus\ndescription: d\n",
		   -EINVAL, 3, 11, "unknown category 'bogus'", "unknown category");
	load_fails("fbac: 1\nfunctionality: F\ncategory: System\ndescription: d\n",
		   -EINVAL, 3, 11, "unknown category 'System'",
		   "categories are lower case");
	load_fails(F_HEAD "parameters:\n  p: {type: int}\n", -EINVAL, 6, 13,
		   "unknown parameter type 'int'", "unknown parameter type");
	load_fails(F_HEAD "high_level: yes\n", -EINVAL, 5, 13, "true or false",
		   "high_level: yes");
	load_fails(F_HEAD "high_level: \"true\"\n", -EINVAL, 5, 13,
		   "true or false", "a quoted 'true' is not a boolean");
	load_fails(F_HEAD "parameters:\n  p: {type: path, default: {a: 1}}\n",
		   -EINVAL, 6, 28, "default", "default as a mapping");
	load_fails(F_HEAD "parameters:\n  p: {type: path, default: [/a, /b]}\n",
		   -EINVAL, 6, 28, "default", "a list default of a path parameter");
	load_fails(F_HEAD "parameters:\n  p: {type: string, default: [a]}\n",
		   -EINVAL, 6, 30, "default", "a list default of a string");
}

static void test_names(void)
{
	char text[512];

	load_fails("fbac: 1\nfunctionality: http_client\ncategory: system\ndescription: d\n",
		   -EINVAL, 2, 16, "invalid functionality name 'http_client'",
		   "lower-case functionality name");
	load_fails("fbac: 1\nfunctionality: Bad-Name\ncategory: system\ndescription: d\n",
		   -EINVAL, 2, 16, "invalid functionality name",
		   "functionality name with '-'");
	load_fails("fbac: 1\nfunctionality: 9Lives\ncategory: system\ndescription: d\n",
		   -EINVAL, 2, 16, "invalid functionality name",
		   "functionality name starting with a digit");
	snprintf(text, sizeof(text),
		 "fbac: 1\nfunctionality: A%0*d\ncategory: system\ndescription: d\n",
		 FBAC_MAX_NAME, 0);
	load_fails(text, -EINVAL, 2, 16, "invalid functionality name",
		   "functionality name longer than FBAC_MAX_NAME");
	{
		struct fbac_library *lib = fbac_library_new();

		snprintf(text, sizeof(text),
			 "fbac: 1\nfunctionality: A%0*d\ncategory: system\ndescription: d\n",
			 FBAC_MAX_NAME - 1, 0);
		is_int(load_text(lib, "ok.yaml", text, &d), 0,
		       "a name of FBAC_MAX_NAME bytes is fine");
		is_int(load_text(lib, "ok2.yaml",
				 "fbac: 1\nfunctionality: X_1_y\ncategory: system\ndescription: d\n",
				 &d),
		       0, "letters, digits and '_'");
		is_int(load_text(lib, "ok3.yaml",
				 "fbac: 1\napplication: x.y+z-1_\nexecutables: [/x]\nfunctionalities: []\n",
				 &d),
		       0, "'.', '_', '+' and '-' after the first character");
		is_int(load_text(lib, "ok4.yaml",
				 "fbac: 1\napplication: 0ad.x+y-z\nexecutables: [/x]\nfunctionalities: []\n",
				 &d),
		       0, "application name of [a-z0-9][a-z0-9._+-]*");
		fbac_library_free(lib);
	}
	load_fails("fbac: 1\napplication: Curl\nexecutables: [/x]\nfunctionalities: []\n",
		   -EINVAL, 2, 14, "invalid application name 'Curl'",
		   "capitalised application name");
	load_fails("fbac: 1\napplication: -x\nexecutables: [/x]\nfunctionalities: []\n",
		   -EINVAL, 2, 14, "invalid application name",
		   "application name starting with '-'");
	load_fails("fbac: 1\napplication: .x\nexecutables: [/x]\nfunctionalities: []\n",
		   -EINVAL, 2, 14, "invalid application name",
		   "application name starting with '.'");
	load_fails(F_HEAD "parameters:\n  Dir: {type: path}\n", -EINVAL, 6, 3,
		   "invalid parameter name 'Dir'", "capitalised parameter name");
	load_fails(F_HEAD "parameters:\n  1x: {type: path}\n", -EINVAL, 6, 3,
		   "invalid parameter name", "parameter name with a digit first");
	load_fails(F_HEAD "parameters:\n  my-dir: {type: path}\n", -EINVAL, 6, 3,
		   "invalid parameter name", "parameter name with '-'");
	load_fails(F_HEAD "includes:\n  - lower_case\n", -EINVAL, 6, 5,
		   "invalid functionality name 'lower_case'",
		   "bad include name");
	load_fails(F_HEAD "includes:\n  - bad: {x: 1}\n", -EINVAL, 6, 5,
		   "invalid functionality name 'bad'",
		   "bad include name with arguments");
	load_fails("fbac: 1\napplication: a\nexecutables: [/x]\nfunctionalities: [no]\n",
		   -EINVAL, 4, 19, "invalid functionality name 'no'",
		   "bad functionality name in an application");
}

static void test_required(void)
{
	load_fails("fbac: 1\nfunctionality: F\ndescription: d\n", -EINVAL, 1, 1,
		   "required key 'category'", "missing category");
	load_fails("fbac: 1\nfunctionality: F\ncategory: system\n", -EINVAL, 1, 1,
		   "required key 'description'", "missing description");
	load_fails(F_HEAD "parameters:\n  p: {ask: \"x?\"}\n", -EINVAL, 6, 6,
		   "required key 'type'", "parameter without type");
	load_fails("fbac: 1\napplication: a\nfunctionalities: []\n", -EINVAL, 1, 1,
		   "required key 'executables'", "missing executables");
	load_fails("fbac: 1\napplication: a\nexecutables: [/x]\n", -EINVAL, 1, 1,
		   "required key 'functionalities'", "missing functionalities");
	load_fails(F_HEAD "privileges:\n  - network_outgoing: {protocol: tcp}\n",
		   -EINVAL, 6, 23, "required key 'ports'", "missing ports");
	load_fails(F_HEAD "privileges:\n  - network_incoming: {ports: 80}\n",
		   -EINVAL, 6, 23, "required key 'protocol'", "missing protocol");
	load_fails(F_HEAD "privileges:\n  - {access: [file_read]}\n", -EINVAL, 6, 5,
		   "required key 'paths'", "long form without paths");
	load_fails(F_HEAD "privileges:\n  - {paths: [/x]}\n", -EINVAL, 6, 5,
		   "required key 'access'", "long form without access");
	load_fails("fbac: 1\nprotected:\n  - {path: /x}\n", -EINVAL, 3, 5,
		   "required key 'reason'", "protected path without reason");
	load_fails("fbac: 1\nprotected:\n  - {reason: r}\n", -EINVAL, 3, 5,
		   "required key 'path'", "protected path without path");
	load_fails("fbac: 1\ndescription: d\n", -EINVAL, 1, 1,
		   "'functionality', 'application', 'protected' or 'settings'",
		   "a document of no kind");
	load_fails("fbac: 1\nfunctionality: F\napplication: a\ncategory: system\ndescription: d\n",
		   -EINVAL, 3, 1, "both", "a document of two kinds");
	load_fails("fbac: 1\nfunctionality: F\ncategory: system\ndescription: \"\"\n",
		   -EINVAL, 4, 14, "empty", "empty description");
	load_fails("fbac: 1\napplication: a\nexecutables: []\nfunctionalities: []\n",
		   -EINVAL, 3, 14, "empty", "no executables");
	load_fails("fbac: 1\napplication: a\nexecutables: [bin/curl]\nfunctionalities: []\n",
		   -EINVAL, 3, 15, "bin/curl", "relative executable");
	load_fails("fbac: 1\napplication: a\nexecutables: [\"/usr/bin/*\"]\nfunctionalities: []\n",
		   -EINVAL, 3, 15, "/usr/bin/*", "executable with a wildcard");
	load_fails("fbac: 1\napplication: a\nexecutables: [/usr/bin/../x]\nfunctionalities: []\n",
		   -EINVAL, 3, 15, "/usr/bin/../x", "executable with '/../'");
	load_fails("fbac: 1\napplication: a\nexecutables: [$HOME/bin/x]\nfunctionalities: []\n",
		   -EINVAL, 3, 15, "$HOME/bin/x",
		   "executables are not substituted: '$' refused");
	load_fails("fbac: 1\napplication: a\nexecutables: [~/bin/x]\nfunctionalities: []\n",
		   -EINVAL, 3, 15, "~/bin/x", "executable with '~'");
	/* "description: ... # required, one line" */
	load_fails("fbac: 1\nfunctionality: F\ncategory: system\ndescription: |\n  two\n  lines\n",
		   -EINVAL, 4, 14, "description",
		   "a description of more than one line");
}

static void test_version(void)
{
	load_fails("fbac: 2\nfunctionality: F\ncategory: system\ndescription: d\n",
		   -EINVAL, 1, 7, "version '2'", "version 2 refused");
	load_fails("fbac: 1.0\nfunctionality: F\ncategory: system\ndescription: d\n",
		   -EINVAL, 1, 7, "version", "version 1.0 refused");
	load_fails("fbac: [1]\nfunctionality: F\ncategory: system\ndescription: d\n",
		   -EINVAL, 1, 7, "version", "version as a sequence");
	load_fails("functionality: F\nfbac: 1\ncategory: system\ndescription: d\n",
		   -EINVAL, 1, 1, "fbac: 1", "'fbac' must be the first key");
	load_fails("functionality: F\ncategory: system\ndescription: d\n",
		   -EINVAL, 1, 1, "fbac: 1", "no 'fbac' key");
	load_fails(F_HEAD "---\nfbac: 3\nprotected: []\n", -EINVAL, 6, 7,
		   "version '3'", "version of the second document");
}

static void test_yaml_errors(void)
{
	load_fails("fbac: 1\nfunctionality: F\ncategory: system\ncategory: files\ndescription: d\n",
		   -EINVAL, 4, 1, "duplicate key 'category'",
		   "duplicate key in a profile");
	load_fails(F_HEAD "privileges:\n  - file_read: !!str /x\n", -EINVAL, 6,
		   16, "tag", "tag in a profile");
	load_fails(F_HEAD "privileges:\n  - file_read: [/x\n", -EINVAL, 6, 16,
		   "invalid yaml",
		   "an unclosed '[' at the end: points at the '['");
	{
		struct fbac_library *lib = fbac_library_new();

		is_int(load_text(lib, "empty.yaml", "", &d), 0,
		       "an empty file is allowed");
		is_int(load_text(lib, "comment.yaml", "# nothing\n", &d), 0,
		       "a file of comments is allowed");
		is_int(lib->n_funcs + lib->n_apps + lib->n_protected, 0,
		       "and adds nothing");
		is_int(load_text(lib, "e.yaml", "---\n", &d), -EINVAL,
		       "an empty document is refused");
		ok(fbac_diag_isset(&d), "with a diagnostic (%s)", d.msg);
		fbac_library_free(lib);
	}
}

static void test_atomic(void)
{
	struct fbac_library *lib = fbac_library_new();
	static const char text[] =
		"fbac: 1\nfunctionality: Good\ncategory: system\ndescription: d\n"
		"---\n"
		"fbac: 1\napplication: good\nexecutables: [/x]\nfunctionalities: [Good]\n"
		"---\n"
		"fbac: 1\nprotected: [{path: /p, reason: r}]\n"
		"---\n"
		"fbac: 1\nfunctionality: Bad\ncategory: nope\ndescription: d\n";

	is_int(load_text(lib, "mixed.yaml", text, &d), -EINVAL,
	       "a text with one bad document is refused");
	is_diag(&d, "mixed.yaml", 16, 11, "unknown category 'nope'",
		"the bad document is named");
	is_int(lib->n_funcs, 0, "no functionality was added");
	is_int(lib->n_apps, 0, "no application was added");
	is_int(lib->n_protected, 0, "no protected path was added");
	is_int(lib->n_files, 0, "the file is not counted");
	is_int(load_text(lib, "good.yaml",
			 "fbac: 1\nfunctionality: Other\ncategory: system\ndescription: d\n",
			 &d),
	       0, "a good text loads afterwards");
	is_int(lib->n_funcs, 1, "only it is there");
	is_int(fbac_library_link(lib, &d), 0, "and links");
	ok(fbac_library_find(lib, "Good") == NULL,
	   "nothing of the failed text is found");
	fbac_library_free(lib);
}

#define FUNC(name) "fbac: 1\nfunctionality: " name "\ncategory: system\ndescription: d\n"

static void test_duplicates(void)
{
	struct fbac_library *lib;

	lib = fbac_library_new();
	load_text(lib, "a.yaml", FUNC("Dup"), &d);
	load_text(lib, "b.yaml", FUNC("Other") "---\n" FUNC("Dup"), &d);
	fbac_diag_clear(&d);
	is_int(fbac_library_link(lib, &d), -EINVAL,
	       "a functionality defined in two files is refused");
	is_diag(&d, "b.yaml", 7, 16, "'Dup'|already defined at a.yaml:2:16",
		"reported at the second definition, naming the first");
	ok(!lib->linked, "the library is not linked");
	fbac_library_free(lib);

	lib = fbac_library_new();
	load_text(lib, "a.yaml", FUNC("Dup") "---\n" FUNC("Dup"), &d);
	fbac_diag_clear(&d);
	is_int(fbac_library_link(lib, &d), -EINVAL,
	       "a functionality defined twice in one file");
	is_diag(&d, "a.yaml", 7, 16, "already defined at a.yaml:2:16",
		"reported at the second definition");
	fbac_library_free(lib);

	lib = fbac_library_new();
	is_int(fbac_library_add_layer(lib, FBAC_LAYER_LIBRARY, "library",
				      "/usr/share/fbac"),
	       0, "first layer is 0");
	load_text(lib, "lib.yaml", FUNC("Dup"), &d);
	is_int(fbac_library_add_layer(lib, FBAC_LAYER_USER, "user", NULL), 1,
	       "second layer is 1");
	load_text(lib, "user.yaml", "# user\n" FUNC("Dup"), &d);
	fbac_diag_clear(&d);
	is_int(fbac_library_link(lib, &d), -EINVAL,
	       "functionalities are one namespace over all layers");
	is_diag(&d, "user.yaml", 3, 16, "already defined at lib.yaml:2:16",
		"reported in the later layer");
	fbac_library_free(lib);

#define APP(name) "fbac: 1\napplication: " name "\nexecutables: [/usr/bin/" name "]\nfunctionalities: []\n"
	lib = fbac_library_new();
	load_text(lib, "a.yaml", APP("curl"), &d);
	load_text(lib, "b.yaml", APP("wget") "---\n" APP("curl"), &d);
	fbac_diag_clear(&d);
	is_int(fbac_library_link(lib, &d), -EINVAL,
	       "an application defined twice in one layer is refused");
	is_diag(&d, "b.yaml", 7, 14,
		"'curl'|already defined in this layer at a.yaml:2:14",
		"reported at the second definition");
	fbac_library_free(lib);

	lib = fbac_library_new();
	fbac_library_add_layer(lib, FBAC_LAYER_LIBRARY, "library", NULL);
	is_int(load_text(lib, "a.yaml", APP("curl"), &d), 0, "curl in layer 0");
	fbac_library_add_layer(lib, FBAC_LAYER_USER, "user", NULL);
	is_int(load_text(lib, "b.yaml", APP("curl"), &d), 0, "curl in layer 1");
	fbac_diag_clear(&d);
	is_int(fbac_library_link(lib, &d), 0,
	       "the same application in two layers is fine");
	{
		const struct fbac_application *a0, *a1;

		a0 = fbac_library_find_app(lib, 0, "curl");
		a1 = fbac_library_find_app(lib, 1, "/usr/bin/curl");
		ok(a0 && a1 && a0 != a1, "each layer has its own");
		ok(a0 && a0->layer == 0 && a1 && a1->layer == 1,
		   "with its layer recorded");
		is_str(lib->layers[1].name, "user", "layer name kept");
		is_int(lib->layers[1].kind, FBAC_LAYER_USER, "layer kind kept");
	}
	fbac_library_free(lib);
#undef APP

	lib = fbac_library_new();
	for (int i = 0; i < FBAC_MAX_LAYERS; i++)
		fbac_library_add_layer(lib, FBAC_LAYER_EXTRA, "x", NULL);
	is_int(fbac_library_add_layer(lib, FBAC_LAYER_EXTRA, "x", NULL), -E2BIG,
	       "at most FBAC_MAX_LAYERS layers");
	fbac_library_free(lib);

	/* An unknown include links (unresolved) and fails the checks. */
	lib = fbac_library_new();
	load_text(lib, "a.yaml", F_HEAD "includes:\n  - Missing\n", &d);
	load_text(lib, "b.yaml",
		  "fbac: 1\napplication: a\nexecutables: [/a]\n"
		  "functionalities: [Nope]\n",
		  &d);
	fbac_diag_clear(&d);
	is_int(fbac_library_link(lib, &d), 0, "unknown includes still link");
	ok(lib->funcs[0]->includes[0].target == NULL, "left unresolved");
	fbac_diag_clear(&d);
	is_int(fbac_check_functionality(lib, lib->funcs[0], &d), -EINVAL,
	       "the check refuses an unknown include");
	is_diag(&d, "a.yaml", 6, 5, "unknown functionality 'Missing'",
		"unknown include position");
	fbac_diag_clear(&d);
	is_int(fbac_check_application(lib, lib->apps[0], &d), -EINVAL,
	       "the check refuses an unknown functionality in an application");
	is_diag(&d, "b.yaml", 4, 19, "unknown functionality 'Nope'",
		"unknown grant position");
	fbac_library_free(lib);
}

static void test_checks(void)
{
	static const char cyc[] =
		FUNC("Self") "includes:\n  - Self\n"
		"---\n"
		FUNC("A") "includes: [B]\n"
		"---\n"
		FUNC("B") "includes: [A]\n"
		"---\n"
		FUNC("C") "includes: [A]\n"
		"---\n"
		FUNC("User") "includes:\n  - Read_Only_Directory: {dri: /x}\n"
		"---\n"
		FUNC("User2") "includes:\n  - Read_Only_Directory\n"
		"---\n"
		FUNC("User3") "includes:\n  - Read_Only_Directory:\n";
	const char *texts[] = { cyc, base_text, NULL };
	struct fbac_library *lib = library_of(texts);
	int r;

	ok(lib != NULL, "cycle library loads and links");
	if (!lib)
		return;
	fbac_diag_clear(&d);
	r = fbac_check_functionality(lib, fbac_library_find(lib, "Self"), &d);
	ok(r < 0, "self include is a cycle (%d)", r);
	is_diag(&d, "t0.yaml", 6, 5, "include cycle|Self > Self",
		"self cycle: position of the include, chain");

	fbac_diag_clear(&d);
	r = fbac_check_functionality(lib, fbac_library_find(lib, "A"), &d);
	ok(r < 0, "A > B > A is a cycle (%d)", r);
	is_diag(&d, "t0.yaml", 18, 12, "include cycle|A > B > A",
		"A's cycle is reported at B's include of A");
	fbac_diag_clear(&d);
	r = fbac_check_functionality(lib, fbac_library_find(lib, "B"), &d);
	ok(r < 0, "B > A > B is a cycle (%d)", r);
	is_diag(&d, "t0.yaml", 12, 12, "include cycle|B > A > B",
		"B's cycle is reported at A's include of B");
	fbac_diag_clear(&d);
	r = fbac_check_functionality(lib, fbac_library_find(lib, "C"), &d);
	ok(r < 0, "C reaches a cycle (%d)", r);
	like(d.msg, "A > B > A", "the chain names the cycle");

	fbac_diag_clear(&d);
	r = fbac_check_functionality(lib, fbac_library_find(lib, "User"), &d);
	is_int(r, -EINVAL, "an argument naming no parameter");
	is_diag(&d, "t0.yaml", 31, 27,
		"'Read_Only_Directory' has no parameter 'dri' (did you mean 'dir'?)",
		"unknown argument: position of its name, and the name meant");
	fbac_diag_clear(&d);
	r = fbac_check_functionality(lib, fbac_library_find(lib, "User2"), &d);
	is_int(r, -EINVAL, "a missing required argument");
	is_diag(&d, "t0.yaml", 38, 5,
		"missing argument 'dir' of 'Read_Only_Directory'",
		"missing argument: position of the include");
	fbac_diag_clear(&d);
	r = fbac_check_functionality(lib, fbac_library_find(lib, "User3"), &d);
	is_int(r, -EINVAL, "'Name:' with no arguments misses them too");
	is_diag(&d, "t0.yaml", 45, 5, "missing argument 'dir'",
		"missing argument after 'Name:'");
	fbac_library_free(lib);
}

/* Settings documents ('fbac set'): parsed, linked, the last layer's. */
static void test_settings(void)
{
	struct fbac_library *lib = fbac_library_new();
	const struct fbac_settings *st;

	fbac_library_add_layer(lib, FBAC_LAYER_LIBRARY, "library", NULL);
	is_int(load_text(lib, "f.yaml", FUNC("Saved"), &d), 0, "a functionality");
	is_int(load_text(lib, "a.yaml",
			 "fbac: 1\nsettings: vim\nfunctionalities:\n"
			 "  - Saved: {dir: /a}\n", &d),
	       0, "settings in the library layer");
	fbac_library_add_layer(lib, FBAC_LAYER_USER, "user", NULL);
	is_int(load_text(lib, "u.yaml",
			 "fbac: 1\nsettings: vim\nfunctionalities:\n"
			 "  - Saved: {dir: [/u, /v]}\n", &d),
	       0, "settings for the same program in the user's layer");
	is_int(fbac_library_link(lib, &d), 0, "linked");
	st = fbac_library_find_settings(lib, "vim");
	ok(st && streq(st->mark.file, "u.yaml"), "the last layer's are found");
	ok(st && st->n_values == 1 && st->values[0].target &&
		   streq(st->values[0].target->name, "Saved"),
	   "their functionality is linked");
	ok(st && st->values[0].n_args == 1 &&
		   st->values[0].arg_values[0]->kind == FBAC_Y_SEQ,
	   "with its argument as written");
	ok(!fbac_library_find_settings(lib, "nano"), "none for another program");
	is_int(lib->n_apps, 0, "settings are not application policies");
	fbac_library_free(lib);

	load_fails("fbac: 1\nsettings: vim\n", -EINVAL, 1, 1,
		   "required key 'functionalities'", "settings without values");
	load_fails("fbac: 1\nsettings: vim\nfunctionalities: []\nexecutables: [/x]\n",
		   -EINVAL, 4, 1, "unknown key 'executables'",
		   "settings are no application policy");
	load_fails("fbac: 1\nsettings: vim\napplication: vim\nfunctionalities: []\n",
		   -EINVAL, 2, 1, "cannot be both", "one kind a document");
}

static void test_diamond(void)
{
	enum { LEVELS = 30 };
	char *text = malloc(LEVELS * 256 + 256);
	const char *texts[] = { text, NULL };
	struct fbac_library *lib;
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
					     "privileges: [file_read: /x]\n");
	}
	lib = library_of(texts);
	ok(lib != NULL, "a %d-level diamond library loads", LEVELS);
	if (lib) {
		fbac_diag_clear(&d);
		/* 2^30 paths: only a walk that visits each node once ends. */
		is_int(fbac_check_functionality(
			       lib, fbac_library_find(lib, "Level_00"), &d),
		       0, "the diamond has no cycle (checked in linear time)");
		fbac_library_free(lib);
	}

	/* A chain deeper than FBAC_MAX_INCLUDE_DEPTH is refused. */
	o = 0;
	for (int i = 0; i < FBAC_MAX_INCLUDE_DEPTH + 8; i++) {
		o += (size_t)sprintf(text + o,
				     "%sfbac: 1\nfunctionality: Chain_%02d\n"
				     "category: system\ndescription: d\n",
				     i ? "---\n" : "", i);
		if (i + 1 < FBAC_MAX_INCLUDE_DEPTH + 8)
			o += (size_t)sprintf(text + o,
					     "includes: [Chain_%02d]\n", i + 1);
	}
	lib = library_of(texts);
	ok(lib != NULL, "a long chain loads");
	if (lib) {
		int r;

		fbac_diag_clear(&d);
		r = fbac_check_functionality(
			lib, fbac_library_find(lib, "Chain_00"), &d);
		ok(r < 0, "includes nested too deep are refused (%d)", r);
		like(d.msg, "deeper", "message says too deep");
		fbac_diag_clear(&d);
		is_int(fbac_check_functionality(
			       lib, fbac_library_find(lib, "Chain_20"), &d),
		       0, "a shorter part of the chain is fine");
		fbac_library_free(lib);
	}
	free(text);
}

/* Loading in two steps (parsed side by side, added in order) gives what
 * one step gives, errors included, and the library owns the arenas. */
static void test_parsed(void)
{
	struct fbac_library *lib = fbac_library_new();
	struct fbac_arena *a = fbac_arena_new(), *b = fbac_arena_new();
	struct fbac_parsed p, bad, missing;
	char path[] = "/tmp/fbac-unit-XXXXXX";
	int fd;

	is_int(fbac_profile_parse_buffer(a, "base.yaml", base_text,
					 strlen(base_text), &p),
	       0, "a text parses into an arena of its own");
	is_int(p.err, 0, "without error");
	is_int((long long)p.n_docs, 2, "both documents");
	is_int(fbac_profile_parse_buffer(b, "bad.yaml", "a: [1,\n", 7, &bad),
	       0, "a broken text is a result too");
	ok(bad.err < 0, "that carries its error");
	is_int(fbac_library_adopt(lib, a), 0, "the library adopts one arena");
	is_int(fbac_library_adopt(lib, b), 0, "and another");
	is_int(fbac_profile_load_parsed(lib, &p, &d), 0,
	       "the parsed file is added");
	is_int(lib->n_funcs, 2, "with its functionalities");
	is_int(lib->n_files, 1, "and counted");
	is_int(fbac_profile_load_parsed(lib, &bad, &d), bad.err,
	       "adding the broken one fails as loading it would");
	is_diag(&d, "bad.yaml", 2, 1, "", "and says where");
	is_int(lib->n_files, 1, "it is not counted");

	fd = mkstemp(path);
	ok(fd >= 0, "a scratch file");
	if (fd >= 0) {
		(void)!write(fd, http_text, strlen(http_text));
		close(fd);
		is_int(fbac_profile_parse_file(lib->arena, path, &p), 0,
		       "a file parses");
		is_int(p.err, 0, "without error");
		is_int(fbac_profile_load_parsed(lib, &p, &d), 0, "and is added");
		is_int(lib->n_funcs, 3, "with its functionality");
		unlink(path);
	}
	is_int(fbac_profile_parse_file(lib->arena, path, &missing), 0,
	       "a missing file is a result too");
	is_int(missing.err, -ENOENT, "ENOENT");
	is_int(fbac_profile_load_parsed(lib, &missing, &d), -ENOENT,
	       "adding it fails");
	is_diag(&d, path, 0, 0, "cannot open", "naming the file");
	is_int(fbac_library_link(lib, &d), 0, "the library links");
	ok(fbac_library_find(lib, "HTTP_Client") != NULL, "and finds");
	is_int(fbac_profile_load_parsed(lib, &p, &d), -EBUSY,
	       "nothing is added after linking");
	for (int i = 2; i < FBAC_MAX_LOAD_THREADS; i++)
		fbac_library_adopt(lib, fbac_arena_new());
	a = fbac_arena_new();
	is_int(fbac_library_adopt(lib, a), -E2BIG,
	       "no more arenas than loading threads");
	fbac_arena_free(a);
	fbac_library_free(lib);
}

/* fbac check's way: every problem of a file, with "did you mean". */
static void test_all_problems(void)
{
	static const char text[] =
		"fbac: 1\n"
		"functionality: Mine\n"
		"category: files\n"
		"descripton: x\n"
		"includes: [http_client, Http_Clinet]\n"
		"privileges:\n"
		"  - file_raed: /tmp/**\n"
		"  - {access: [file_read, dir_raed], paths: /srv/**}\n"
		"  - file_read: /etc/x\n"
		"denied:\n"
		"  - zzzz_qqqq: /tmp/y\n";
	struct fbac_library *lib = fbac_library_new();
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_diags all = { 0 };
	const struct fbac_functionality *f;
	struct fbac_parsed p;
	char many[8192];
	size_t o;

	load_text(lib, "http.yaml", http_text, &d);
	fbac_library_adopt(lib, a);
	fbac_profile_parse_buffer(a, "mine.yaml", text, strlen(text), &p);
	is_int(fbac_profile_load_parsed_all(lib, &p, &all), -EINVAL,
	       "a file with problems is refused");
	is_int((long)all.n, 6, "with every problem, in order");
	if (all.n == 6) {
		is_diag(&all.v[0], "mine.yaml", 4, 1,
			"unknown key 'descripton' in a functionality (did you mean 'description'?)",
			"a misspelt key, and the key meant");
		is_diag(&all.v[1], "mine.yaml", 1, 1,
			"lacks the required key 'description'",
			"then what the misspelling left out");
		is_diag(&all.v[2], "mine.yaml", 5, 12,
			"invalid functionality name 'http_client' (did you mean 'HTTP_Client'?)",
			"a name in the wrong case");
		is_diag(&all.v[3], "mine.yaml", 7, 5,
			"unknown privilege 'file_raed' (did you mean 'file_read'?)",
			"a misspelt privilege");
		is_diag(&all.v[4], "mine.yaml", 8, 26,
			"unknown privilege 'dir_raed' (did you mean 'dir_read'?)",
			"in the long form too");
		is_diag(&all.v[5], "mine.yaml", 11, 5,
			"unknown privilege 'zzzz_qqqq' (see fbac-profile(5)",
			"nothing close: the vocabulary");
	}
	fbac_diags_free(&all);
	fbac_diag_clear(&d);
	is_int(fbac_library_link(lib, &d), 0, "the library links");
	f = fbac_library_find(lib, "HTTP_Client");
	ok(f != NULL, "the clean file was added");
	f = fbac_library_find(lib, "Mine");
	ok(f && f->n_includes == 1 && f->n_privs == 2,
	   "and the broken one, its problems left out, for the other checks");
	fbac_library_free(lib);

	/* A document whose only problems are left out is added anyway, so
	 * that its includes are checked. */
	lib = fbac_library_new();
	a = fbac_arena_new();
	load_text(lib, "http.yaml", http_text, &d);
	fbac_library_adopt(lib, a);
	fbac_profile_parse_buffer(
		a, "soft.yaml",
		"fbac: 1\nfunctionality: Soft\ncategory: files\n"
		"description: x\nhigh_levl: true\nincludes: [Http_Clinet]\n",
		strlen("fbac: 1\nfunctionality: Soft\ncategory: files\n"
		       "description: x\nhigh_levl: true\nincludes: [Http_Clinet]\n"),
		&p);
	is_int(fbac_profile_load_parsed_all(lib, &p, &all), -EINVAL,
	       "an unknown key is a problem");
	is_int((long)all.n, 1, "one");
	fbac_diags_free(&all);
	is_int(fbac_library_link_all(lib, &all), 0, "it links");
	f = fbac_library_find(lib, "Soft");
	ok(f && f->n_includes == 1, "the document was added");
	fbac_diag_clear(&d);
	if (f) {
		is_int(fbac_check_include(lib, &f->includes[0], true, &d), -EINVAL,
		       "and its include is checked");
		is_diag(&d, "soft.yaml", 6, 12,
			"unknown functionality 'Http_Clinet' (did you mean 'HTTP_Client'?)",
			"with the name meant");
	}
	fbac_library_free(lib);

	/* Duplicates: all reported, and linked anyway. */
	lib = fbac_library_new();
	load_text(lib, "h1.yaml", http_text, &d);
	load_text(lib, "h2.yaml", http_text, &d);
	load_text(lib, "app1.yaml", app_text, &d);
	load_text(lib, "app2.yaml", app_text, &d);
	is_int(fbac_library_link_all(lib, &all), -EINVAL,
	       "duplicates are refused");
	is_int((long)all.n, 2, "each reported");
	ok(lib->linked, "and the library linked for the other checks");
	fbac_diags_free(&all);
	fbac_library_free(lib);

	/* At most FBAC_MAX_PROBLEMS kept; the rest counted. */
	lib = fbac_library_new();
	a = fbac_arena_new();
	fbac_library_adopt(lib, a);
	o = (size_t)snprintf(many, sizeof(many),
			     "fbac: 1\nfunctionality: Many\ncategory: files\n"
			     "description: x\n");
	for (int i = 0; i < FBAC_MAX_PROBLEMS + 10; i++)
		o += (size_t)snprintf(many + o, sizeof(many) - o,
				      "k%d: 1\n", i);
	fbac_profile_parse_buffer(a, "many.yaml", many, o, &p);
	is_int(fbac_profile_load_parsed_all(lib, &p, &all), -EINVAL,
	       "many unknown keys");
	is_int((long)all.n, FBAC_MAX_PROBLEMS, "the first FBAC_MAX_PROBLEMS kept");
	is_int((long)all.dropped, 10, "the others counted");
	fbac_diags_free(&all);
	fbac_library_free(lib);

	is_int(fbac_spell_distance("file_raed", "file_read"), 1,
	       "a transposition costs one");
	is_int(fbac_spell_distance("text_viewer", "Text_Viewer"), 0,
	       "letter case costs nothing");
	is_int(fbac_spell_distance("", "abc"), 3, "insertions");
	is_int(fbac_spell_distance("kitten", "sitting"), 3, "the classic");
	{
		static const char *const names[] = { "paths", "ports", "hosts",
						     NULL };

		is_str(fbac_spell_closest("host", names), "hosts",
		       "the closest name");
		ok(fbac_spell_closest("recursive", names) == NULL,
		   "none when nothing is close");
		ok(fbac_spell_closest("paths", names) == NULL,
		   "never the word itself");
	}
}

/* An application's 'sandbox_fallback': options, checked where they are. */
static void test_sandbox_fallback(void)
{
#define A_HEAD "fbac: 1\napplication: a\nexecutables: [/a]\nfunctionalities: [F]\n"
	static const char good[] = F_HEAD "---\n" A_HEAD
		"sandbox_fallback: [--no-sandbox, -x, --flag=a=b]\n";
	static const char one[] = F_HEAD "---\n" A_HEAD
		"sandbox_fallback: --no-sandbox\n";
	struct fbac_library *lib = fbac_library_new();
	int r;

	r = fbac_profile_load_buffer(lib, "a.yaml", good, strlen(good), &d);
	is_int(r, 0, "sandbox_fallback: a list of options");
	if (r == 0 && lib->n_apps == 1) {
		is_int((int)lib->apps[0]->n_sandbox_fallback, 3, "three options");
		is_str(lib->apps[0]->sandbox_fallback[0], "--no-sandbox",
		       "the first, as written");
		is_str(lib->apps[0]->sandbox_fallback[2], "--flag=a=b",
		       "with a value");
	}
	fbac_library_free(lib);
	lib = fbac_library_new();
	r = fbac_profile_load_buffer(lib, "b.yaml", one, strlen(one), &d);
	is_int(r, 0, "sandbox_fallback: one option alone");
	if (r == 0 && lib->n_apps == 1)
		is_int((int)lib->apps[0]->n_sandbox_fallback, 1, "one option");
	fbac_library_free(lib);
	lib = fbac_library_new();
	r = fbac_profile_load_buffer(lib, "c.yaml", F_HEAD "---\n" A_HEAD,
				     strlen(F_HEAD "---\n" A_HEAD), &d);
	is_int(r, 0, "no sandbox_fallback");
	if (r == 0 && lib->n_apps == 1)
		ok(!lib->apps[0]->sandbox_fallback &&
			   !lib->apps[0]->n_sandbox_fallback,
		   "none when absent");
	fbac_library_free(lib);

	load_fails(A_HEAD "sandbox_fallback: [--a, no-sandbox]\n", -EINVAL, 5,
		   25, "'no-sandbox' is not an option", "an argument, not an option");
	load_fails(A_HEAD "sandbox_fallback: [\"--a b\"]\n", -EINVAL, 5, 20,
		   "is not an option", "an option with a space");
	load_fails(A_HEAD "sandbox_fallback: [--]\n", -EINVAL, 5, 20,
		   "'--' is not an option", "the end of options");
	load_fails(A_HEAD "sandbox_fallback: [-]\n", -EINVAL, 5, 20,
		   "'-' is not an option", "a lone dash");
	load_fails(A_HEAD "sandbox_fallback: []\n", -EINVAL, 5, 19,
		   "must not be an empty list", "an empty list");
	load_fails(A_HEAD "sandbox_fallback: {a: b}\n", -EINVAL, 5, 19,
		   "'sandbox_fallback'", "a mapping");
	load_fails(A_HEAD "sandbox_fallback: [[--a]]\n", -EINVAL, 5, 20,
		   "'sandbox_fallback'", "a nested list");
	load_fails(A_HEAD "sandbox_fallback: [-a, -b, -c, -d, -e, -f, -g, -h, -i]\n",
		   -E2BIG, 5, 19, "more than 8 options", "too many options");
	load_fails(A_HEAD "sandbox_falback: [--a]\n", -EINVAL, 5, 1,
		   "sandbox_falback", "a misspelt key");
	load_fails(F_HEAD "sandbox_fallback: [--a]\n", -EINVAL, 5, 1,
		   "sandbox_fallback", "not a key of a functionality");
#undef A_HEAD
}

/* 'metadata: visible | mediated' and the settings document. */
static void test_metadata(void)
{
	static const char both[] =
		F_HEAD "metadata: visible\n---\n"
		"fbac: 1\napplication: a\nmetadata: mediated\n"
		"executables: [/a]\nfunctionalities: [F]\n";
	static const char ban[] = "fbac: 1\nsettings:\n  metadata: mediated\n";
	struct fbac_library *lib = fbac_library_new();
	int r;

	r = fbac_profile_load_buffer(lib, "m.yaml", both, strlen(both), &d);
	is_int(r, 0, "metadata in a functionality and an application");
	if (r == 0 && lib->n_funcs == 1 && lib->n_apps == 1) {
		is_int(lib->funcs[0]->metadata, FBAC_META_VISIBLE,
		       "functionality: visible");
		is_int(lib->funcs[0]->metadata_mark.line, 5, "its line");
		is_int(lib->funcs[0]->metadata_mark.col, 11, "its column");
		is_int(lib->apps[0]->metadata, FBAC_META_MEDIATED,
		       "application: mediated");
	}
	ok(!lib->metadata_banned, "no settings, no ban");
	fbac_library_free(lib);

	lib = fbac_library_new();
	r = fbac_profile_load_buffer(lib, "s.yaml", ban, strlen(ban), &d);
	is_int(r, 0, "a settings document");
	ok(lib->metadata_banned, "settings ban visible");
	is_int(lib->metadata_ban_mark.line, 3, "the ban's line");
	fbac_library_free(lib);

	load_fails(F_HEAD "metadata: shown\n", -EINVAL, 5, 11,
		   "'metadata' must be visible or mediated, not 'shown'",
		   "bad metadata value");
	load_fails(F_HEAD "metadata: \"visible\"\n", -EINVAL, 5, 11,
		   "must be visible or mediated", "quoted metadata value");
	load_fails(F_HEAD "metadata: [visible]\n", -EINVAL, 5, 11,
		   "'metadata' must be a scalar", "metadata as a list");
	load_fails("fbac: 1\napplication: a\nmetadata: yes\nexecutables: [/a]\nfunctionalities: []\n",
		   -EINVAL, 3, 11, "must be visible or mediated",
		   "bad metadata in an application");
	load_fails("fbac: 1\nsettings:\n  metadata: visible\n", -EINVAL, 3,
		   13, "can only say 'metadata: mediated'",
		   "settings cannot make metadata visible");
	load_fails("fbac: 1\nsettings:\n  metdata: mediated\n", -EINVAL, 3, 3,
		   "unknown key 'metdata' in 'settings'", "unknown settings key");
	/* A scalar names a program whose values fbac set saved. */
	load_fails("fbac: 1\nsettings: mediated\n", -EINVAL, 1, 1,
		   "settings lacks the required key 'functionalities'",
		   "settings as a scalar: a program's saved values");
	load_fails("fbac: 1\nsettings: [mediated]\n", -EINVAL, 2, 11,
		   "'settings' must be a program's name (values saved with fbac set) or a mapping (the layer's settings)",
		   "settings as a list");
	load_fails("fbac: 1\nsettings: {}\nextra: 1\n", -EINVAL, 3, 1,
		   "unknown key 'extra' in a settings document",
		   "unknown key beside settings");
	load_fails(F_HEAD "parameters:\n  metadata: {type: string}\n", -EINVAL,
		   6, 3, "parameter name 'metadata' is reserved",
		   "a parameter named metadata");
}

int main(void)
{
	plan_no_plan();
	test_all_problems();
	test_metadata();
	test_sandbox_fallback();
	test_valid();
	test_unknown_keys();
	test_wrong_kind();
	test_vocabulary();
	test_names();
	test_required();
	test_version();
	test_yaml_errors();
	test_atomic();
	test_duplicates();
	test_checks();
	test_diamond();
	test_settings();
	test_parsed();
	return done_testing();
}
