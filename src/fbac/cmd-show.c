/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac show: a functionality or application as a tree and as rules. */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "fbac.h"
#include "output.h"
#include "summary.h"

enum { OPT_FULL = 0x100 };

struct show_opts {
	const char *name, *program;
	struct fbac_define defs[FBAC_MAX_DEFINES];
	size_t n_defs;
	bool bad, full;
};

static const struct argp_option options[] = {
	{ "define", 'D', "[FUNC.]PARAM=VALUE", 0,
	  "Set a parameter (lists: comma-separated)", 0 },
	{ "full", OPT_FULL, NULL, 0,
	  "Print the whole tree, every rule with its origin, every kernel rule and what the supervisor decides, instead of a summary",
	  0 },
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
	case OPT_FULL:
		o->full = true;
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

/* Which layers' policies fbac-run stacks for the program. */
static void print_in_force(const struct fbac_library *lib, const char *name,
			   const struct fbac_application *const *force,
			   size_t n, int replaced)
{
	size_t k = 0;

	printf("  in force for %s:", name);
	for (unsigned i = 0; i < lib->n_layers; i++) {
		const struct fbac_layer *ly = &lib->layers[i];

		if (!force[i])
			continue;
		printf("%s layer %s", k++ ? "," : "", ly->name);
		if (ly->kind == FBAC_LAYER_ADMIN)
			printf(" (the administrator's ceiling)");
		else if (ly->kind == FBAC_LAYER_USER && replaced >= 0)
			printf(" (the user's own policy, replacing layer %s's)",
			       lib->layers[replaced].name);
	}
	printf(n > 1 ? "; allowed only what each allows\n" : "\n");
}

/* What NAME names: a functionality, or an application policy with the
 * layers that have one in force. */
struct show_target {
	const struct fbac_functionality *f;
	const struct fbac_application *app;
	const struct fbac_application *force[FBAC_MAX_LAYERS];
	size_t n_force;
	int replaced;
};

/* Find what name names into t (an error when nothing). */
static int show_find(const struct layers *l, const char *name,
		     struct show_target *t)
{
	t->replaced = -1;
	t->f = fbac_library_find(l->lib, name);
	if (!t->f) {
		t->n_force = fbac_stack_layers(l->lib, name, t->force,
					       &t->replaced);
		/* The user's own policy when it replaces the library's. */
		for (unsigned i = 0; !t->app && i < l->lib->n_layers; i++)
			if (t->force[i] &&
			    l->lib->layers[i].kind != FBAC_LAYER_ADMIN)
				t->app = t->force[i];
		for (unsigned i = 0; !t->app && i < l->lib->n_layers; i++)
			t->app = fbac_library_find_app(l->lib, i, name);
	}
	if (!t->f && !t->app) {
		const char *close = fbac_library_closest(l->lib, name);

		log_error(0,
			  "unknown functionality or application '%s' (%s%s%ssee 'fbac list')",
			  name, close ? "did you mean '" : "", close ?: "",
			  close ? "'? " : "");
		return -1;
	}
	return 0;
}

/* Print the header of functionality f, and resolve it alone (inc), with
 * placeholders for unset required parameters. */
static void show_functionality(const struct fbac_functionality *f,
			       struct fbac_include *inc,
			       struct fbac_resolve_input *ri)
{
	inc->name = f->name;
	inc->mark = (struct fbac_mark){ "<command line>", 0, 0 };
	inc->target = f;
	ri->grants = inc;
	ri->n_grants = 1;
	ri->root_name = NULL;
	/* Unset required parameters are shown with placeholders. */
	ri->placeholders = true;
	printf("%s: %s%s [%s]\n  defined at %s:%u:%u\n", f->name,
	       f->high_level ? "(high-level) " : "", f->description,
	       f->category, f->mark.file, f->mark.line, f->mark.col);
	for (size_t i = 0; i < f->n_params; i++) {
		const struct fbac_param *p = &f->params[i];

		printf("  parameter %s (%s)%s%s%s\n", p->name,
		       fbac_ptype_name(p->type), p->def ? "" : " required",
		       p->ask ? ": " : "", p->ask ? p->ask : "");
	}
}

/* Print the header of application policy t->app and the layers in force,
 * and resolve it in its layer. */
static void show_application(const struct layers *l, const struct show_target *t,
			     struct fbac_resolve_input *ri)
{
	const struct fbac_application *app = t->app;

	if (l->lib->layers[app->layer].kind == FBAC_LAYER_ADMIN)
		ri->env = &l->trusted_env;
	ri->app = app;
	ri->root_name = app->name;
	ri->layer = app->layer;
	printf("%s: application policy in layer '%s'%s%s\n  defined at %s:%u:%u\n  executables:",
	       app->name, l->lib->layers[app->layer].name,
	       app->description ? ": " : "",
	       app->description ? app->description : "", app->mark.file,
	       app->mark.line, app->mark.col);
	for (size_t i = 0; i < app->n_executables; i++)
		printf(" %s", app->executables[i]);
	putchar('\n');
	print_in_force(l->lib, app->name, t->force, t->n_force, t->replaced);
}

/* Print the compiled policy: its summary, or (--full) its hierarchy and
 * every rule with its origin. */
static void show_compiled(const struct show_opts *o, const struct layers *l,
			  const struct fbac_functionality *f,
			  const struct fbac_policy *pol)
{
	if (!o->full) {
		print_policy_summary(stdout, pol,
				     fbac_env_get(&l->env, "HOME", 4));
		printf("(fbac show --full %s: every rule with its origin)\n",
		       o->name);
		return;
	}
	printf("hierarchy:\n");
	if (f && pol->res->root->n_children)
		print_tree(pol->res->root->children[0], 1);
	else
		print_tree(pol->res->root, 1);
	print_policy(stdout, pol);
}

int cmd_show(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		options, parse_opt, "NAME",
		"Show a functionality or application policy: what it grants by "
		"kind, the protected paths it reaches and does not, the "
		"functionalities it includes and the kernel's part; with --full, "
		"its hierarchy with arguments, the flattened privileges with their "
		"provenance, the kernel rules and what the supervisor decides.",
		NULL, NULL, NULL
	};
	struct show_opts o = { 0 };
	struct show_target t = { 0 };
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
	if (show_find(&l, o.name, &t) < 0) {
		ret = EXIT_FAILURE_USAGE;
		goto out;
	}
	ri.lib = l.lib;
	ri.env = &l.env;
	ri.trusted_env = &l.trusted_env;
	ri.defines = o.defs;
	ri.n_defines = o.n_defs;
	if (o.program && !t.f) {
		log_error(0, "--for needs a functionality, not the application '%s'",
			  o.name);
		ret = EXIT_FAILURE_USAGE;
		goto out;
	}
	if (o.program) {
		if (show_for_values(&l, o.program, t.f, o.defs, o.n_defs, &pp) <
		    0)
			goto out;
		ri.defines = pp.defs;
		ri.n_defines = pp.n_defs;
	}
	if (t.f)
		show_functionality(t.f, &inc, &ri);
	else
		show_application(&l, &t, &ri);
	r = fbac_resolve(&ri, &res, &d);
	if (r == 0)
		r = fbac_policy_compile(&res, t.f ? t.f->name : t.app->name,
					&pol, &d);
	if (r < 0) {
		log_diag(r, &d);
		/* A bad -D is a usage error, not a broken profile. */
		if (streq(d.file, "<command line>"))
			ret = EXIT_FAILURE_USAGE;
		goto out;
	}
	show_compiled(&o, &l, t.f, pol);
	ret = EXIT_OK;
out:
	fbac_resolved_free(res);
	fbac_policy_free(pol);
	params_free(&pp);
	layers_free(&l);
	return ret;
}
