/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac show: a functionality or application as a tree and as rules. */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "fbac.h"
#include "output.h"

struct show_opts {
	const char *name, *program;
	struct fbac_define defs[FBAC_MAX_DEFINES];
	size_t n_defs;
	bool bad;
};

static const struct argp_option options[] = {
	{ "define", 'D', "[FUNC.]PARAM=VALUE", 0,
	  "Set a parameter (lists: comma-separated)", 0 },
	{ "for", 'f', "PROGRAM", 0,
	  "Fill the parameters as fbac-run --as NAME PROGRAM would, and say where each value comes from",
	  0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct show_opts *o = st->input;

	switch (key) {
	case 'D':
		if (parse_define(arg, o->defs, &o->n_defs) < 0)
			o->bad = true;
		return 0;
	case 'f':
		o->program = arg;
		return 0;
	case ARGP_KEY_ARG:
		if (o->name)
			argp_error(st, "unexpected argument '%s'", arg);
		o->name = arg;
		return 0;
	case ARGP_KEY_END:
		if (!o->name)
			argp_error(st, "missing NAME");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static void print_tree(const struct fbac_rnode *n, unsigned depth)
{
	printf("%*s%s", (int)depth * 2, "", n->name);
	if (n->f && n->f->n_params) {
		putchar('(');
		for (size_t i = 0; i < n->f->n_params; i++) {
			printf("%s%s=", i ? ", " : "", n->f->params[i].name);
			if (n->values[i].n != 1)
				putchar('[');
			for (size_t k = 0; k < n->values[i].n; k++)
				printf("%s%s", k ? "," : "",
				       n->values[i].items[k]);
			if (n->values[i].n != 1)
				putchar(']');
		}
		putchar(')');
	}
	if (n->repeated)
		printf("  (as above)");
	putchar('\n');
	for (size_t i = 0; i < n->n_children; i++)
		print_tree(n->children[i], depth + 1);
}

int cmd_show(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		options, parse_opt, "NAME",
		"Show a functionality or application policy: its hierarchy with "
		"arguments, the flattened privileges with their provenance, the "
		"kernel rules and what the supervisor decides.",
		NULL, NULL, NULL
	};
	struct show_opts o = { 0 };
	const struct fbac_functionality *f;
	const struct fbac_application *app = NULL;
	struct fbac_include inc = { 0 };
	struct fbac_resolve_input ri = { 0 };
	struct fbac_resolved *res = NULL;
	struct fbac_policy *pol = NULL;
	struct fbac_diag d = { 0 };
	struct layers l;
	struct params pp = { .arena = NULL };
	int r, ret = EXIT_DENIED_OR_INVALID;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o) != 0 || o.bad)
		return EXIT_FAILURE_USAGE;
	r = global_load(g, &l);
	if (!l.lib)
		return r == -ENOMEM ? EXIT_FAILURE_USAGE : EXIT_DENIED_OR_INVALID;
	if (r < 0) {
		log_error(0, "the profiles have errors: run 'fbac check'");
		goto out;
	}
	f = fbac_library_find(l.lib, o.name);
	for (unsigned i = 0; !f && !app && i < l.lib->n_layers; i++)
		app = fbac_library_find_app(l.lib, i, o.name);
	if (!f && !app) {
		log_error(0, "unknown functionality or application '%s' (see 'fbac list')",
			  o.name);
		ret = EXIT_FAILURE_USAGE;
		goto out;
	}
	ri.lib = l.lib;
	ri.env = &l.env;
	ri.trusted_env = &l.trusted_env;
	ri.defines = o.defs;
	ri.n_defines = o.n_defs;
	if (o.program && !f) {
		log_error(0, "--for needs a functionality, not the application '%s'",
			  o.name);
		ret = EXIT_FAILURE_USAGE;
		goto out;
	}
	if (o.program) {
		if (show_for_values(&l, o.program, f, o.defs, o.n_defs, &pp) < 0)
			goto out;
		ri.defines = pp.defs;
		ri.n_defines = pp.n_defs;
	}
	if (f) {
		inc.name = f->name;
		inc.mark = (struct fbac_mark){ "<command line>", 0, 0 };
		inc.target = f;
		ri.grants = &inc;
		ri.n_grants = 1;
		ri.root_name = NULL;
		/* Unset required parameters are shown with placeholders. */
		ri.placeholders = true;
		printf("%s: %s%s [%s]\n  defined at %s:%u:%u\n", f->name,
		       f->high_level ? "(high-level) " : "", f->description,
		       f->category, f->mark.file, f->mark.line, f->mark.col);
		for (size_t i = 0; i < f->n_params; i++) {
			const struct fbac_param *p = &f->params[i];

			printf("  parameter %s (%s)%s%s%s\n", p->name,
			       fbac_ptype_name(p->type),
			       p->def ? "" : " required",
			       p->ask ? ": " : "", p->ask ? p->ask : "");
		}
	} else {
		if (l.lib->layers[app->layer].kind == FBAC_LAYER_ADMIN)
			ri.env = &l.trusted_env;
		ri.app = app;
		ri.root_name = app->name;
		ri.layer = app->layer;
		printf("%s: application policy in layer '%s'%s%s\n  defined at %s:%u:%u\n  executables:",
		       app->name, l.lib->layers[app->layer].name,
		       app->description ? ": " : "",
		       app->description ? app->description : "",
		       app->mark.file, app->mark.line, app->mark.col);
		for (size_t i = 0; i < app->n_executables; i++)
			printf(" %s", app->executables[i]);
		putchar('\n');
	}
	r = fbac_resolve(&ri, &res, &d);
	if (r == 0)
		r = fbac_policy_compile(&res, f ? f->name : app->name, &pol, &d);
	if (r < 0) {
		log_diag(r, &d);
		/* A bad -D is a usage error, not a broken profile. */
		if (streq(d.file, "<command line>"))
			ret = EXIT_FAILURE_USAGE;
		goto out;
	}
	printf("hierarchy:\n");
	if (f && pol->res->root->n_children)
		print_tree(pol->res->root->children[0], 1);
	else
		print_tree(pol->res->root, 1);
	print_policy(stdout, pol);
	ret = EXIT_OK;
out:
	fbac_resolved_free(res);
	fbac_policy_free(pol);
	params_free(&pp);
	layers_free(&l);
	return ret;
}
