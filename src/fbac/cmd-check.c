/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac check: load, link, resolve and compile everything; report all. */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "fbac.h"
#include "output.h"

struct check_opts {
	const char *paths[FBAC_MAX_LAYERS];
	size_t n;
	bool quiet;
};

static const struct argp_option options[] = {
	{ "quiet", 'q', NULL, 0, "Print only problems", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct check_opts *o = st->input;

	switch (key) {
	case 'q':
		o->quiet = true;
		return 0;
	case ARGP_KEY_ARG:
		if (o->n >= FBAC_MAX_LAYERS - 4)
			argp_error(st, "too many paths (at most %d)",
				   FBAC_MAX_LAYERS - 4);
		o->paths[o->n++] = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/*
 * The same defect is met again from every functionality that includes
 * the broken one: report each message once.
 */
struct seen {
	char **v;
	size_t n;
};

static int report_once(struct seen *s, int r, const struct fbac_diag *d)
{
	char buf[FBAC_MAX_PATH + FBAC_MAX_DIAG + 32];
	char **nv;

	fbac_diag_format(d, buf, sizeof(buf));
	for (size_t i = 0; i < s->n; i++)
		if (streq(s->v[i], buf))
			return 0;
	nv = realloc(s->v, (s->n + 1) * sizeof(*nv));
	if (nv) {
		s->v = nv;
		s->v[s->n] = strdup(buf);
		if (s->v[s->n])
			s->n++;
	}
	log_problem(r, d);
	return 1;
}

/* Each include on its own, so that every bad one is reported. Return
 * the number of new problems, and in *bad whether there was any. */
static unsigned check_includes(struct seen *seen, const struct fbac_library *lib,
			       const struct fbac_include *inc, size_t n,
			       bool *bad)
{
	unsigned found = 0;

	*bad = false;
	for (size_t i = 0; i < n; i++) {
		struct fbac_diag d = { 0 };
		int r = fbac_check_include(lib, &inc[i], true, &d);

		if (r < 0) {
			*bad = true;
			found += (unsigned)report_once(seen, r, &d);
		}
	}
	return found;
}

static void seen_free(struct seen *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
}

/* Resolve and compile one root; report a new problem. Return 1 if bad. */
static int try_compile(struct seen *seen, const struct fbac_resolve_input *ri)
{
	struct fbac_resolved *res = NULL;
	struct fbac_policy *pol = NULL;
	struct fbac_diag d = { 0 };
	int r;

	r = fbac_resolve(ri, &res, &d);
	if (r == 0)
		r = fbac_policy_compile(&res, ri->root_name, &pol, &d);
	fbac_resolved_free(res);
	fbac_policy_free(pol);
	if (r == -ENOMEM)
		return log_diag(r, &d), 1;
	/* An unknown variable or parameter, a bad value: each once. */
	if (r < 0)
		return report_once(seen, r, &d);
	return 0;
}

int cmd_check(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		options, parse_opt, "[FILE|DIR...]",
		"Validate profiles: every layer, plus the files and directories "
		"given. Exit 0 only when there is no problem.",
		NULL, NULL, NULL
	};
	struct check_opts o = { .n = 0 };
	struct layers_options lo = { 0 };
	struct layers l;
	struct seen seen = { NULL, 0 };
	unsigned bad = 0;
	int r;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o) != 0)
		return EXIT_FAILURE_USAGE;
	lo.extra_dirs = g->extra_dirs;
	lo.n_extra = g->n_extra;
	lo.check_paths = o.paths;
	lo.n_check = o.n;
	r = layers_load(&lo, &l);
	if (!l.lib)
		return r == -ENOMEM ? EXIT_FAILURE_USAGE : EXIT_DENIED_OR_INVALID;
	bad = l.errors;
	if (l.lib->linked) {
		/* Protected paths are resolved with every policy: once here
		 * on their own, so a library without policies checks them. */
		struct fbac_resolve_input pri = { .lib = l.lib, .env = &l.env,
						  .root_name = "protected" };

		bad += (unsigned)try_compile(&seen, &pri);
		for (size_t i = 0; i < l.lib->n_funcs; i++) {
			const struct fbac_functionality *f = l.lib->funcs[i];
			struct fbac_include inc = { .name = f->name,
						    .mark = f->mark,
						    .target = f };
			struct fbac_resolve_input ri = {
				.lib = l.lib, .env = &l.env, .trusted_env = &l.trusted_env,
				.root_name = NULL, .grants = &inc,
				.n_grants = 1, .placeholders = true,
				.layer = f->layer,
			};
			struct fbac_diag d = { 0 };
			bool inc_bad;

			bad += check_includes(&seen, l.lib, f->includes,
					      f->n_includes, &inc_bad);
			if (inc_bad)
				continue;
			if ((r = fbac_check_functionality(l.lib, f, &d)) < 0) {
				bad += (unsigned)report_once(&seen, r, &d);
				continue;
			}
			bad += (unsigned)try_compile(&seen, &ri);
		}
		for (size_t i = 0; i < l.lib->n_apps; i++) {
			const struct fbac_application *a = l.lib->apps[i];
			bool admin = l.lib->layers[a->layer].kind ==
				     FBAC_LAYER_ADMIN;
			struct fbac_resolve_input ri = {
				.lib = l.lib,
				.env = admin ? &l.trusted_env : &l.env,
				.root_name = a->name, .app = a,
				.layer = a->layer,
			};
			struct fbac_diag d = { 0 };
			bool inc_bad;

			bad += check_includes(&seen, l.lib, a->grants,
					      a->n_grants, &inc_bad);
			if (inc_bad)
				continue;
			if ((r = fbac_check_application(l.lib, a, &d)) < 0) {
				bad += (unsigned)report_once(&seen, r, &d);
				continue;
			}
			bad += (unsigned)try_compile(&seen, &ri);
		}
		/* Saved values ('fbac set'): names and types, each
		 * functionality on its own, missing ones filled. */
		for (size_t i = 0; i < l.lib->n_settings; i++) {
			const struct fbac_settings *s = l.lib->settings[i];

			for (size_t k = 0; k < s->n_values; k++) {
				struct fbac_resolve_input ri = {
					.lib = l.lib, .env = &l.env,
					.trusted_env = &l.trusted_env,
					.root_name = s->program,
					.grants = &s->values[k], .n_grants = 1,
					.placeholders = true, .layer = s->layer,
				};
				struct fbac_diag d = { 0 };

				if ((r = fbac_check_include(l.lib, &s->values[k], false,
							    &d)) < 0) {
					bad += (unsigned)report_once(&seen, r, &d);
					continue;
				}
				bad += (unsigned)try_compile(&seen, &ri);
			}
		}
	}
	if (!o.quiet && !bad)
		printf("%zu files, %zu functionalities, %zu applications: no problems\n",
		       l.files, l.lib->n_funcs, l.lib->n_apps);
	else if (bad && log_problems_unshown())
		fprintf(stderr, "fbac: %u problems found; only the first %d are shown (FBAC_MAX_PROBLEMS)\n",
			bad, FBAC_MAX_PROBLEMS);
	else if (bad)
		fprintf(stderr, "fbac: %u problem%s found\n", bad,
			bad == 1 ? "" : "s");
	seen_free(&seen);
	layers_free(&l);
	return bad ? EXIT_DENIED_OR_INVALID : EXIT_OK;
}
