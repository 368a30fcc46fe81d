/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the profile parser: any byte string must be either
 * loaded or refused with a diagnostic, without crashing, leaking or
 * reading out of bounds. `make fuzz` runs it; seeds come from
 * tests/fuzz/corpus/profile/, profiles/ and tests/fixtures/.
 *
 * A loaded input is then linked and statically checked, so that the whole
 * path from bytes to a checked library is covered; a refusal must come
 * with a diagnostic (the contract of fbac_profile_load_buffer()).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "policy.h"
#include "profile.h"
#include "resolve.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Resolve and compile one root, then ask the policy a few questions. */
static void compile(const struct fbac_library *lib, const struct fbac_env *env,
		    const struct fbac_application *app,
		    const struct fbac_functionality *f, struct fbac_diag *diag)
{
	static const char *const paths[] = { "/", "/home/fuzz/.ssh/id_rsa",
					     "/etc/passwd", "/tmp/x/y" };
	struct fbac_include inc = { 0 };
	struct fbac_resolve_input ri = { .lib = lib, .env = env,
					 .root_name = "fuzz" };
	struct fbac_resolved *res = NULL;
	struct fbac_policy *pol = NULL;
	struct fbac_verdict v;

	if (app) {
		ri.app = app;
	} else {
		inc.name = f->name;
		inc.target = f;
		ri.grants = &inc;
		ri.n_grants = 1;
		ri.placeholders = true;
	}
	fbac_diag_clear(diag);
	if (fbac_resolve(&ri, &res, diag) < 0 ||
	    fbac_policy_compile(&res, "fuzz", &pol, diag) < 0)
		return;
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		(void)fbac_policy_check_path(pol, FBAC_OP_FILE_READ, paths[i],
					     &v);
	(void)fbac_policy_check_net(pol, FBAC_OP_NETWORK_OUTGOING,
				    FBAC_PROTO_TCP, "127.0.0.1", 443, &v);
	fbac_policy_free(pol);
}

/*
 * fbac check's way: every problem of the input into a list, a file whose
 * problems were left out added anyway, linked with its duplicates, and
 * every include checked and every root compiled (half-parsed documents
 * must hold together). A refusal must have put something in the list.
 */
static void load_all(const uint8_t *data, size_t size)
{
	struct fbac_library *lib = fbac_library_new();
	struct fbac_diags all = { 0 };
	static struct fbac_diag diag;
	struct fbac_arena *ea = NULL;
	struct fbac_parsed p;
	struct fbac_env env;
	struct fbac_env_input in = { .home = "/home/fuzz", .user = "fuzz",
				     .uid = 1000 };
	int r;

	if (!lib ||
	    fbac_profile_parse_buffer(lib->arena, "fuzz.yaml",
				      (const char *)data, size, &p) < 0)
		goto out;
	r = fbac_profile_load_parsed_all(lib, &p, &all);
	if ((r == -EINVAL || r == -E2BIG) && all.n == 0)
		__builtin_trap();
	if (r == -ENOMEM)
		goto out;
	fbac_diags_free(&all);
	if (fbac_library_link_all(lib, &all) == -ENOMEM)
		goto out;
	ea = fbac_arena_new();
	if (!ea || fbac_env_init(&env, ea, &in) < 0)
		goto out;
	for (size_t i = 0; i < lib->n_funcs; i++) {
		const struct fbac_functionality *f = lib->funcs[i];
		bool bad = false;

		for (size_t k = 0; k < f->n_includes; k++)
			bad |= fbac_check_include(lib, &f->includes[k], true,
						  &diag) < 0;
		fbac_diag_clear(&diag);
		if (!bad && fbac_check_functionality(lib, f, &diag) == 0)
			compile(lib, &env, NULL, f, &diag);
	}
	for (size_t i = 0; i < lib->n_apps; i++) {
		fbac_diag_clear(&diag);
		if (fbac_check_application(lib, lib->apps[i], &diag) == 0)
			compile(lib, &env, lib->apps[i], NULL, &diag);
	}
out:
	fbac_diags_free(&all);
	fbac_arena_free(ea);
	fbac_library_free(lib);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fbac_diag diag; /* large: keep it off the stack */
	char text[FBAC_MAX_DIAG + FBAC_MAX_PATH + 64];
	struct fbac_library *lib;
	int r;

	lib = fbac_library_new();
	if (!lib)
		return 0;

	memset(&diag, 0, sizeof(diag));
	r = fbac_profile_load_buffer(lib, "fuzz.yaml", (const char *)data,
				     size, &diag);
	if (r < 0) {
		/* A refusal must say why, and the message must format. */
		if ((r == -EINVAL || r == -E2BIG) && !fbac_diag_isset(&diag))
			__builtin_trap();
		fbac_diag_format(&diag, text, sizeof(text));
		goto out;
	}

	fbac_diag_clear(&diag);
	if (fbac_library_link(lib, &diag) < 0) {
		fbac_diag_format(&diag, text, sizeof(text));
		goto out;
	}
	{
		struct fbac_arena *ea = fbac_arena_new();
		struct fbac_env env;
		struct fbac_env_input in = { .home = "/home/fuzz",
					     .user = "fuzz", .uid = 1000 };

		if (!ea || fbac_env_init(&env, ea, &in) < 0) {
			fbac_arena_free(ea);
			goto out;
		}
		for (size_t i = 0; i < lib->n_funcs; i++) {
			fbac_diag_clear(&diag);
			if (fbac_check_functionality(lib, lib->funcs[i],
						     &diag) == 0)
				compile(lib, &env, NULL, lib->funcs[i], &diag);
		}
		for (size_t i = 0; i < lib->n_apps; i++) {
			fbac_diag_clear(&diag);
			if (fbac_check_application(lib, lib->apps[i], &diag) ==
			    0)
				compile(lib, &env, lib->apps[i], NULL, &diag);
		}
		fbac_arena_free(ea);
	}
	/* Loads after a successful link are refused, not merged. */
	fbac_diag_clear(&diag);
	(void)fbac_profile_load_buffer(lib, "again.yaml", (const char *)data,
				       size, &diag);

out:
	lib = fbac_library_free(lib);
	load_all(data, size);
	return 0;
}
