/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How fast is the policy engine? Loads, links, resolves and compiles the
 * whole library (every application and high-level functionality), then
 * times path lookups against a compiled application policy. Prints
 * medians of several rounds; no pass/fail, numbers for people.
 *
 *   build/bench/bench-policy [PROFILES_DIR] [APPLICATION]
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "policy.h"
#include "profile.h"
#include "resolve.h"

#define ROUNDS 15
#define LOOKUP_ROUNDS 7
#define LOOKUPS 200000

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

static int load_dir(struct fbac_library *lib, const char *dir)
{
	struct dirent **list;
	int n = scandir(dir, &list, NULL, alphasort), r = 0;

	if (n < 0)
		return -errno;
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		size_t l = strlen(list[i]->d_name);

		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		if (r == 0 && list[i]->d_name[0] != '.' && stat(path, &st) == 0) {
			struct fbac_diag d = { 0 };

			if (S_ISDIR(st.st_mode))
				r = load_dir(lib, path);
			else if (l > 5 && !strcmp(list[i]->d_name + l - 5, ".yaml"))
				r = fbac_profile_load_file(lib, path, &d);
			if (r < 0)
				fprintf(stderr, "%s:%u:%u: %s\n", d.file, d.line,
					d.col, d.msg);
		}
		free(list[i]);
	}
	free(list);
	return r;
}

static int env_for(struct fbac_arena *a, struct fbac_env *env)
{
	struct fbac_env_input in = { .home = "/home/user", .user = "user",
				     .uid = 1000 };

	return fbac_env_init(env, a, &in);
}

/* Resolve and compile one root; return its rule count or -errno. */
static long compile_one(const struct fbac_library *lib,
			const struct fbac_env *env,
			const struct fbac_application *app,
			const struct fbac_functionality *f,
			struct fbac_policy **keep)
{
	struct fbac_include inc = { 0 };
	struct fbac_resolve_input ri = { .lib = lib, .env = env };
	struct fbac_resolved *res = NULL;
	struct fbac_policy *pol = NULL;
	long n;
	int r;

	if (app) {
		ri.app = app;
		ri.root_name = app->name;
	} else {
		inc.name = f->name;
		inc.target = f;
		ri.grants = &inc;
		ri.n_grants = 1;
		ri.root_name = f->name;
		ri.placeholders = true;
	}
	r = fbac_resolve(&ri, &res, NULL);
	if (r == 0)
		r = fbac_policy_compile(&res, ri.root_name, &pol, NULL);
	if (r < 0)
		return r;
	n = (long)pol->n_prules;
	if (keep)
		*keep = pol;
	else
		fbac_policy_free(pol);
	return n;
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "profiles";
	const char *appname = argc > 2 ? argv[2] : "firefox-esr";
	static const char *const paths[] = {
		"/usr/lib/x86_64-linux-gnu/libc.so.6",
		"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
		"/etc/ssl/certs/ca-certificates.crt",
		"/home/user/.ssh/id_rsa",
		"/home/user/Downloads/report.pdf",
		"/home/user/.mozilla/firefox/abc.default/prefs.js",
		"/home/user/.bashrc",
		"/tmp/tmp.12345/file",
		"/proc/self/status",
		"/var/lib/secret/db",
	};
	double load[ROUNDS], comp[ROUNDS], look[LOOKUP_ROUNDS];
	size_t n_funcs = 0, n_apps = 0, n_files = 0;
	long rules = 0, compiled = 0;
	struct fbac_arena *ea = fbac_arena_new();
	struct fbac_env env;
	struct fbac_policy *pol = NULL;
	unsigned allowed = 0;

	if (!ea || env_for(ea, &env) < 0)
		return 1;
	for (int round = 0; round < ROUNDS; round++) {
		struct fbac_library *lib = fbac_library_new();
		struct fbac_diag d = { 0 };
		double t0 = now_us(), t1;

		if (!lib || load_dir(lib, dir) < 0 ||
		    fbac_library_link(lib, &d) < 0) {
			fprintf(stderr, "bench-policy: cannot load '%s': %s\n",
				dir, d.msg);
			return 1;
		}
		t1 = now_us();
		load[round] = t1 - t0;
		rules = compiled = 0;
		for (size_t i = 0; i < lib->n_apps; i++) {
			long n = compile_one(lib, &env, lib->apps[i], NULL, NULL);
			if (n >= 0) {
				rules += n;
				compiled++;
			}
		}
		for (size_t i = 0; i < lib->n_funcs; i++) {
			long n;

			if (!lib->funcs[i]->high_level)
				continue;
			n = compile_one(lib, &env, NULL, lib->funcs[i], NULL);
			if (n >= 0) {
				rules += n;
				compiled++;
			}
		}
		comp[round] = now_us() - t1;
		n_funcs = lib->n_funcs;
		n_apps = lib->n_apps;
		n_files = lib->n_files;
		if (round == ROUNDS - 1) {
			for (size_t i = 0; i < lib->n_apps; i++)
				if (!strcmp(lib->apps[i]->name, appname))
					compile_one(lib, &env, lib->apps[i],
						    NULL, &pol);
		}
		/* The policy keeps pointers into the library: keep the last. */
		if (round < ROUNDS - 1)
			fbac_library_free(lib);
	}
	if (!pol) {
		fprintf(stderr, "bench-policy: no application '%s'\n", appname);
		return 1;
	}
	for (int round = 0; round < LOOKUP_ROUNDS; round++) {
		double t0 = now_us();

		for (int i = 0; i < LOOKUPS; i++) {
			struct fbac_verdict v;

			fbac_policy_check_path(pol, FBAC_OP_FILE_READ,
					       paths[i % 10], &v);
			allowed += v.allowed;
		}
		look[round] = (now_us() - t0) * 1000.0 / LOOKUPS;
	}
	printf("library: %zu files, %zu functionalities, %zu applications\n",
	       n_files, n_funcs, n_apps);
	printf("%-52s %10.0f us (median of %d)\n", "load + link of the whole library",
	       median(load, ROUNDS), ROUNDS);
	printf("%-52s %10.0f us (%ld policies, %ld path rules)\n",
	       "resolve + compile every application and high-level",
	       median(comp, ROUNDS), compiled, rules);
	printf("%-52s %10.1f ns (median of %d x %d, %zu rules)\n",
	       "path lookup (file_read, mixed paths)", median(look, LOOKUP_ROUNDS),
	       LOOKUP_ROUNDS, LOOKUPS, pol->n_prules);
	printf("(allowed %u of %u lookups)\n", allowed,
	       LOOKUPS * LOOKUP_ROUNDS);
	return 0;
}
