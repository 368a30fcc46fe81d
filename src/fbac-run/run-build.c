/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac-run's first phase: the program found, the layers read, and its
 * stack from the stack cache or compiled from the library (with the
 * --as grants and the values --as fills).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "as-values.h"
#include "cache.h"
#include "layers.h"
#include "nested.h"
#include "output.h"
#include "path.h"
#include "run.h"
#include "stack-cache.h"
#include "wrap.h"

/* A wrapper of fbac wrap: 'fbac-run less' means the real less, never
 * the wrapper in ~/.local/bin that would run fbac-run again. */
static bool is_wrapper(const char *path, const struct stat *st)
{
	char head[64];
	struct fbac_wrapper w;
	ssize_t n;
	int fd;

	if (st->st_size > FBAC_MAX_WRAPPER_SIZE || st->st_size < 16)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head));
	close(fd);
	return n > 0 && fbac_wrapper_parse(head, (size_t)n, &w) != -ENOMSG;
}

/* execvp's search, done here so the policy can be found by path.
 * Return: 0 or -errno. */
static int find_program(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH");
	int err = ENOENT;

	if (strchr(name, '/')) {
		const char *slash = strrchr(name, '/'), *base = slash + 1;
		char dir[PATH_MAX], real[PATH_MAX];

		/* Policies name normal absolute paths: ./prog, ../bin/prog
		 * and /a/./b/prog by their directory's canonical path, the
		 * last name kept (a symlink is named as typed). Only the
		 * policy sees this: the program is run as typed. */
		if (name[0] == '/' && fbac_path_is_normal(name)) {
			if (snprintf(out, size, "%s", name) >= (int)size)
				return -ENAMETOOLONG;
			return access(out, F_OK) == 0 ? 0 : -errno;
		}
		if (!*base || streq(base, ".") || streq(base, ".."))
			base = "";
		if (snprintf(dir, sizeof(dir), "%.*s",
			     slash == name ? 1 : (int)(slash - name),
			     name) >= (int)sizeof(dir))
			return -ENAMETOOLONG;
		if (!realpath(*base ? dir : name, real))
			return -errno;
		if (snprintf(out, size, "%s%s%s", real,
			     *base && !streq(real, "/") ? "/" : "",
			     base) >= (int)size)
			return -ENAMETOOLONG;
		return access(out, F_OK) == 0 ? 0 : -errno;
	}
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
		size_t len = strchr(p, ':') ? (size_t)(strchr(p, ':') - p) :
					      strlen(p);
		struct stat st;

		if (len == 0)
			continue;
		if (snprintf(out, size, "%.*s/%s", (int)len, p, name) >=
		    (int)size)
			continue;
		if (stat(out, &st) == 0 && S_ISREG(st.st_mode)) {
			if (is_wrapper(out, &st))
				continue;
			if (access(out, X_OK) == 0)
				return 0;
			err = EACCES;
		}
	}
	return -err;
}

static int build_stack(struct options *o, struct layers *l, const char *exe,
		       struct fbac_include *grants, unsigned compile_flags,
		       const struct params *pp, const struct infer_program *ip,
		       struct fbac_stack *st)
{
	struct fbac_stack_input si = {
		.lib = l->lib, .env = &l->env, .trusted_env = &l->trusted_env,
		.program = exe, .grants = grants, .n_grants = o->n_as,
		.defines = pp ? pp->defs : o->defs,
		.n_defines = pp ? pp->n_defs : o->n_defs,
		.compile_flags = compile_flags,
	};
	struct fbac_diag d = { 0 };
	char real[PATH_MAX];
	const char *exes[4] = { exe, NULL };
	size_t n_exes = 1;
	int r;

	/* The program named on the command line may be started, and the
	 * interpreter of a script (inference.c). */
	if (realpath(exe, real) && strcmp(real, exe))
		exes[n_exes++] = real;
	if (ip && ip->interp[0])
		exes[n_exes++] = ip->interp;
	if (ip && ip->interp_real[0])
		exes[n_exes++] = ip->interp_real;
	si.executables = exes;
	si.n_executables = n_exes;
	if (pp) {
		si.lookups = pp->lookups;
		si.lookup_ops = pp->lookup_ops;
		si.n_lookups = pp->n_lookups;
	}
	r = fbac_stack_build(&si, st, &d);
	if (r == -ENOENT && realpath(exe, real) && strcmp(real, exe)) {
		fbac_diag_clear(&d);
		si.program = real;
		r = fbac_stack_build(&si, st, &d);
	}
	/* Learning a program no policy names: nothing granted, everything
	 * recorded (and this stack is never cached). */
	if (r == -ENOENT && o->mode == MODE_LEARN && !o->n_as) {
		fbac_diag_clear(&d);
		si.program = exe;
		si.empty_grants = true;
		r = fbac_stack_build(&si, st, &d);
		o->learn_empty = r == 0;
	}
	if (r == -ENOENT)
		return log_error(r, "no application policy names '%s': write one with 'fbac new %s', or use --as FUNCTIONALITY (see 'fbac list')",
				 exe, strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe);
	if (r < 0)
		return log_diag(r, &d);
	return 0;
}

static void start_filter(void *ctx, const struct layers *l)
{
	char path[PATH_MAX];

	filter_job_start(ctx, cache_path(&l->env, "seccomp.bpf", path,
					 sizeof(path)) == 0 ?
				      path :
				      NULL);
}

/* The program found, whether we run confined already, the filter
 * started and the layers begun. Return: 0, or the exit status of a
 * run that ends here, before anything is to report. */
int run_begin(struct run_state *rs)
{
	struct options *o = rs->o;
	int r;

	r = find_program(o->command[0], rs->exe, sizeof(rs->exe));
	if (r < 0) {
		errno = -r;
		log_error(r, "cannot run '%s': %m", o->command[0]);
		return r == -ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC;
	}
	/* Started by a confined program: no listener of ours can attach
	 * (nested.c). Asked before any thread starts; no cache is read or
	 * written then (the outer policy need not grant them). */
	if (!o->check && (rs->nested = nested_probe()) < 0) {
		errno = -rs->nested;
		log_error(rs->nested, "cannot tell whether we run confined already: %m");
		return EXIT_FBAC;
	}
	if (rs->nested)
		rs->lo.cache = false;
	launch_save_signals(&rs->la);
	/* The seccomp filter is the same for every policy: it comes from the
	 * cache, or libseccomp builds it on a second CPU while the profiles
	 * load. */
	if (!o->check && !rs->nested) {
		rs->lo.env_ready = start_filter;
		rs->lo.env_ready_ctx = &rs->filter;
	}
	layers_begin(&rs->lo, &rs->l);
	if (!rs->l.lib)
		return EXIT_FBAC;
	return 0;
}

/* The stack compiled from the library, for the --as grants and values.
 * Return: 0 or -1 (printed). */
static int run_compile(struct run_state *rs)
{
	struct options *o = rs->o;
	FILE *out = o->check ? stdout : stderr;
	const char *prefix = o->check ? "" : "fbac: ";

	if (layers_finish(&rs->lo, &rs->l) < 0) {
		log_error(0, "refusing to run: the profiles have errors (see above, or 'fbac check')");
		return -1;
	}
	rs->grants = calloc(o->n_as ? o->n_as : 1, sizeof(*rs->grants));
	if (!rs->grants) {
		log_error(-ENOMEM, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < o->n_as; i++) {
		rs->grants[i] = (struct fbac_include){
			.name = o->as[i],
			.mark = { "<command line>", 0, 0 },
			.target = fbac_library_find(rs->l.lib, o->as[i]),
		};
		if (!rs->grants[i].target) {
			const char *close = fbac_library_closest(rs->l.lib, o->as[i]);

			log_error(0, "unknown functionality '%s' (%s%s%ssee 'fbac list')",
				  o->as[i], close ? "did you mean '" : "", close ?: "",
				  close ? "'? " : "");
			return -1;
		}
	}
	/* What parsed is encoded for the cache meanwhile (next to
	 * nothing once the cache is warm). */
	if (!o->check && !rs->nested)
		prefetch_store_start(rs->l.prefetch);
	if (o->n_as) {
		if (as_values_fill(&rs->l, o->as, o->n_as, o->defs, o->n_defs,
				   rs->ip, rs->show, out, prefix, &rs->sc,
				   &rs->pp) < 0)
			return -1;
		/* A value typed at the terminal is not in the key. */
		if (rs->pp.asked)
			rs->sc.usable = false;
	}
	return build_stack(o, &rs->l, rs->exe, rs->grants, rs->compile_flags,
			   o->n_as ? &rs->pp : NULL, rs->ip, &rs->st);
}

/* Phase 1: the stack, from the stack cache or compiled, and what the
 * kernel lacks for it. Return: 0 or -1 (printed). */
int run_build(struct run_state *rs)
{
	struct options *o = rs->o;
	FILE *out = o->check ? stdout : stderr;
	const char *prefix = o->check ? "" : "fbac: ";

	/* The gaps only explain: printed by -n, never decided by. */
	rs->compile_flags = o->check ? 0 : FBAC_COMPILE_NO_GAPS;
	/* --as: what the program tells of itself fills the parameters;
	 * read before the cache key, which it is part of. */
	if (o->n_as) {
		if (!(rs->ip = calloc(1, sizeof(*rs->ip)))) {
			log_error(-ENOMEM, "out of memory");
			return -1;
		}
		infer_program(o->command[0], rs->exe, o->command, &rs->l.env,
			      !o->no_infer, rs->ip);
		if (o->verbosity > 0)
			fprintf(stderr, "fbac: inferred from the program in %.1f ms%s\n",
				rs->ip->ms, rs->ip->disabled ? " (--no-infer: its identity only)" : "");
	}
	if (!rs->nested &&
	    stack_cache_key(&rs->sc, &rs->l, rs->exe, o->as, o->n_as, o->defs,
			    o->n_defs, rs->ip) < 0) {
		log_error(-ENOMEM, "out of memory");
		return -1;
	}
	/* Where the values came from: on the first run of the program with
	 * these --as (not with -q), with -v and with --check. */
	rs->show = o->n_as && (o->verbosity > 0 || o->check ||
			       (o->verbosity == 0 &&
				as_values_unseen(&rs->l, &rs->sc)));
	/* Inputs all unchanged: the stack as compiled then, and the library
	 * only if a denial wants suggestions. */
	if (!rs->nested &&
	    stack_cache_load(&rs->sc, rs->compile_flags, &rs->st) == 0) {
		struct lazy_library *lazy = &rs->lazy;

		lazy->lo = &rs->lo;
		lazy->l = &rs->l;
		if (rs->show && as_values_print_cached(&rs->l, &rs->sc, rs->ip,
						       out, prefix) < 0) {
			lazy->tried = true;
			lazy->loaded = layers_finish(&rs->lo, &rs->l) == 0;
			if (lazy->loaded)
				as_values_fill(&rs->l, o->as, o->n_as, o->defs,
					       o->n_defs, rs->ip, true, out,
					       prefix, &rs->sc, &rs->pp);
		}
	} else if (run_compile(rs) < 0) {
		return -1;
	}
	if (rs->st.n * 2 > FBAC_MAX_LAYERS) {
		log_error(0, "too many policy layers (%zu) for landlock", rs->st.n);
		return -1;
	}
	rs->abi = landlock_abi();
	landlock_missing(&rs->st, rs->abi, rs->missing, sizeof(rs->missing));
	return 0;
}
