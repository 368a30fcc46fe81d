/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac compare: how much of what one application policy grants another
 * also grants, per operation (lib/overlap.h), both ways. Made to measure
 * a learned proposal against the shipped policy.
 */
#include <argp.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fbac.h"
#include "output.h"
#include "new.h"
#include "overlap.h"

struct compare_opts {
	const char *arg[2];
	size_t n;
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct compare_opts *o = st->input;

	switch (key) {
	case ARGP_KEY_ARG:
		if (o->n >= 2)
			argp_error(st, "unexpected argument '%s'", arg);
		o->arg[o->n++] = arg;
		return 0;
	case ARGP_KEY_END:
		if (o->n < 2)
			argp_error(st, "missing %s", o->n ? "B" : "A and B");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* A file, not a name: it has a slash or ends in ".yaml". */
static bool is_file(const char *s)
{
	size_t n = strlen(s);

	return strchr(s, '/') || (n > 5 && streq(s + n - 5, ".yaml"));
}

/* The application defined in the file path (realpath'd in want). */
static const struct fbac_application *app_of_file(const struct fbac_library *lib,
						  const char *want)
{
	char have[PATH_MAX];

	for (size_t i = 0; i < lib->n_apps; i++)
		if (realpath(lib->apps[i]->mark.file, have) &&
		    streq(have, want))
			return lib->apps[i];
	return NULL;
}

/* As fbac show finds NAME, in no layer of the files compared. */
static const struct fbac_application *
app_of_name(const struct fbac_library *lib, const char *name,
	    const bool *skip)
{
	const struct fbac_application *force[FBAC_MAX_LAYERS], *app = NULL;
	int replaced = -1;

	fbac_stack_layers(lib, name, force, &replaced);
	for (unsigned i = 0; !app && i < lib->n_layers; i++)
		if (force[i] && !skip[i] &&
		    lib->layers[i].kind != FBAC_LAYER_ADMIN)
			app = force[i];
	for (unsigned i = 0; !app && i < lib->n_layers; i++)
		if (!skip[i])
			app = fbac_library_find_app(lib, i, name);
	return app;
}

static void cell(unsigned shared, unsigned n)
{
	if (n)
		printf("  %6u %5u (%3u%%)", n, shared,
		       (unsigned)((shared * 100ull + n / 2) / n));
	else
		printf("  %6u %12s", 0u, "-");
}

static unsigned pct(unsigned shared, unsigned n)
{
	return n ? (unsigned)((shared * 100ull + n / 2) / n) : 0;
}

int cmd_compare(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		NULL, parse_opt, "A B",
		"Compare two application policies: how many of the grants of "
		"each (one operation of one rule) the other allows, per "
		"operation. A and B are each an application policy file (with "
		"a '/' or ending in .yaml, such as 'fbac learn -o' writes) or "
		"the name of an application policy, found as 'fbac show' "
		"finds it.",
		NULL, NULL, NULL
	};
	struct compare_opts o = { 0 };
	const char *paths[2];
	char real[2][PATH_MAX];
	size_t n_paths = 0;
	struct layers_options lo = { .extra_dirs = g->extra_dirs,
				     .n_extra = g->n_extra,
				     .check_paths = paths };
	const struct fbac_application *app[2] = { NULL, NULL };
	struct fbac_policy *pol[2] = { NULL, NULL };
	bool skip[FBAC_MAX_LAYERS] = { false };
	struct fbac_overlap ab, ba;
	struct layers l;
	int r, ret = EXIT_DENIED_OR_INVALID;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o) != 0)
		return EXIT_FAILURE_USAGE;
	for (size_t k = 0; k < 2; k++)
		if (is_file(o.arg[k])) {
			if (!realpath(o.arg[k], real[k]))
				return log_error(-errno, "cannot read '%s': %m",
						 o.arg[k]),
				       EXIT_FAILURE_USAGE;
			paths[n_paths++] = o.arg[k];
		}
	lo.n_check = n_paths;
	r = layers_load(&lo, &l);
	if (!l.lib)
		return r == -ENOMEM ? EXIT_FAILURE_USAGE : EXIT_DENIED_OR_INVALID;
	if (r < 0) {
		log_error(0, "the profiles have errors: run 'fbac check%s%s%s%s'",
			  n_paths ? " " : "", n_paths ? paths[0] : "",
			  n_paths > 1 ? " " : "", n_paths > 1 ? paths[1] : "");
		goto out;
	}
	for (size_t k = 0; k < 2; k++)
		if (is_file(o.arg[k])) {
			app[k] = app_of_file(l.lib, real[k]);
			if (!app[k]) {
				log_error(0, "no application policy in '%s'",
					  o.arg[k]);
				goto out;
			}
			skip[app[k]->layer] = true;
		}
	for (size_t k = 0; k < 2; k++)
		if (!app[k] && !(app[k] = app_of_name(l.lib, o.arg[k], skip))) {
			log_error(0, "unknown application '%s' (see 'fbac list')",
				  o.arg[k]);
			ret = EXIT_FAILURE_USAGE;
			goto out;
		}
	for (size_t k = 0; k < 2; k++)
		if (compile_app(&l, app[k], &pol[k]) < 0)
			goto out;
	if (fbac_policy_overlap(pol[0], pol[1], &ab) < 0 ||
	    fbac_policy_overlap(pol[1], pol[0], &ba) < 0) {
		log_error(-ENOMEM, "out of memory");
		ret = EXIT_FAILURE_USAGE;
		goto out;
	}
	for (size_t k = 0; k < 2; k++)
		printf("%c: application '%s' in layer '%s' (%s)\n", 'A' + (int)k,
		       app[k]->name, l.lib->layers[app[k]->layer].name,
		       app[k]->mark.file);
	printf("a grant is one operation of one allow rule; the other policy shares it when it allows that operation on what the rule names (each wildcard as one letter)\n");
	printf("%-18s  %6s %12s  %6s %12s\n", "operation", "A", "B allows",
	       "B", "A allows");
	unsigned ta = 0, tas = 0, tb = 0, tbs = 0;

	for (unsigned op = 0; op < FBAC_OP_COUNT; op++) {
		if (!ab.grants[op] && !ba.grants[op])
			continue;
		printf("%-18s", fbac_op_info(op)->name);
		cell(ab.shared[op], ab.grants[op]);
		cell(ba.shared[op], ba.grants[op]);
		putchar('\n');
		ta += ab.grants[op];
		tas += ab.shared[op];
		tb += ba.grants[op];
		tbs += ba.shared[op];
	}
	printf("%-18s", "all");
	cell(tas, ta);
	cell(tbs, tb);
	putchar('\n');
	printf("B allows %u%% of the %u grants of A; A allows %u%% of the %u grants of B\n",
	       pct(tas, ta), ta, pct(tbs, tb), tb);
	ret = EXIT_OK;
out:
	fbac_policy_free(pol[0]);
	fbac_policy_free(pol[1]);
	layers_free(&l);
	return ret;
}
