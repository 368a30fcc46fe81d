/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac list: the functionalities (and applications) of all layers. */
#include <argp.h>
#include <stdlib.h>
#include <string.h>

#include "fbac.h"
#include "output.h"

struct list_opts {
	bool json, apps, man;
	size_t n_extra; /* -P directories given before the command */
};

static const struct argp_option options[] = {
	{ "json", 'j', NULL, 0, "Print JSON instead of a table", 0 },
	{ "applications", 'a', NULL, 0,
	  "List application policies instead of functionalities", 0 },
	{ "man", 'm', NULL, 0,
	  "Print the library layer as a man page (mdoc), fbac-functionalities(7)",
	  0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct list_opts *o = st->input;

	(void)arg;
	switch (key) {
	case 'j':
		o->json = true;
		return 0;
	case 'a':
		o->apps = true;
		return 0;
	case 'm':
		o->man = true;
		return 0;
	case ARGP_KEY_ARG:
		argp_error(st, "unexpected argument '%s'", arg);
		return 0;
	case ARGP_KEY_END:
		/* The page has every part already, in one format. */
		if (o->man && (o->json || o->apps))
			argp_error(st, "--man cannot be combined with --%s",
				   o->json ? "json" : "applications");
		/* It documents the library layer: a -P layer would be
		 * loaded and then left out without a word. */
		if (o->man && o->n_extra)
			argp_error(st, "--man documents the library layer only: "
				       "set FBAC_DATADIR=DIR instead of -P DIR");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

int func_by_level(const void *x, const void *y)
{
	const struct fbac_functionality *a = *(const void *const *)x,
					*b = *(const void *const *)y;

	if (a->high_level != b->high_level)
		return a->high_level ? -1 : 1;
	if (strcmp(a->category, b->category))
		return strcmp(a->category, b->category);
	return strcmp(a->name, b->name);
}

static void list_json(const struct fbac_library *lib,
		      const struct fbac_functionality **v, size_t n)
{
	printf("[");
	for (size_t i = 0; i < n; i++) {
		const struct fbac_functionality *f = v[i];

		printf("%s\n  {\"name\": ", i ? "," : "");
		json_string(stdout, f->name);
		printf(", \"category\": ");
		json_string(stdout, f->category);
		printf(", \"high_level\": %s, \"description\": ",
		       f->high_level ? "true" : "false");
		json_string(stdout, f->description);
		printf(", \"layer\": ");
		json_string(stdout, lib->layers[f->layer].name);
		printf(", \"file\": ");
		json_string(stdout, f->mark.file);
		printf(", \"line\": %u, \"parameters\": [", f->mark.line);
		for (size_t p = 0; p < f->n_params; p++) {
			printf("%s{\"name\": ", p ? ", " : "");
			json_string(stdout, f->params[p].name);
			printf(", \"type\": \"%s\", \"required\": %s",
			       fbac_ptype_name(f->params[p].type),
			       f->params[p].def ? "false" : "true");
			if (f->params[p].ask) {
				printf(", \"ask\": ");
				json_string(stdout, f->params[p].ask);
			}
			printf("}");
		}
		printf("], \"includes\": [");
		for (size_t k = 0; k < f->n_includes; k++) {
			printf("%s", k ? ", " : "");
			json_string(stdout, f->includes[k].name);
		}
		printf("]}");
	}
	printf("\n]\n");
}

static void list_apps(const struct fbac_library *lib, bool json)
{
	if (json)
		printf("[");
	for (size_t i = 0; i < lib->n_apps; i++) {
		const struct fbac_application *a = lib->apps[i];

		if (json) {
			printf("%s\n  {\"name\": ", i ? "," : "");
			json_string(stdout, a->name);
			printf(", \"layer\": ");
			json_string(stdout, lib->layers[a->layer].name);
			printf(", \"executables\": [");
			for (size_t e = 0; e < a->n_executables; e++) {
				printf("%s", e ? ", " : "");
				json_string(stdout, a->executables[e]);
			}
			printf("], \"functionalities\": [");
			for (size_t g = 0; g < a->n_grants; g++) {
				printf("%s", g ? ", " : "");
				json_string(stdout, a->grants[g].name);
			}
			printf("]}");
			continue;
		}
		printf("%-20s %-8s ", a->name, lib->layers[a->layer].name);
		for (size_t g = 0; g < a->n_grants; g++)
			printf("%s%s", g ? ", " : "", a->grants[g].name);
		putchar('\n');
	}
	if (json)
		printf("\n]\n");
}

/* fbac list --man: the library layer, then a check that all of it was
 * written (the Makefile must not keep half a page). Frees l. */
static int list_man_layers(struct layers *l)
{
	int r = -ENOENT;

	for (unsigned i = 0; i < l->lib->n_layers && r == -ENOENT; i++)
		if (l->lib->layers[i].kind == FBAC_LAYER_LIBRARY)
			r = list_man(stdout, l->lib, i);
	layers_free(l);
	if (r < 0)
		return log_error(EXIT_FAILURE_USAGE, "cannot print the page: %s",
				 strerror(-r));
	if (fflush(stdout) != 0 || ferror(stdout))
		return log_error(EXIT_FAILURE_USAGE,
				 "cannot write the page: %m");
	return EXIT_OK;
}

int cmd_list(struct global *g, int argc, char **argv)
{
	struct argp argp = { options, parse_opt, NULL,
			     "List the functionalities of the library.", NULL,
			     NULL, NULL };
	struct list_opts o = { .n_extra = g->n_extra };
	_cleanup_free_ const struct fbac_functionality **v = NULL;
	struct layers l;
	int r;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o) != 0)
		return EXIT_FAILURE_USAGE;
	r = global_load(g, &l);
	if (!l.lib)
		return r == -ENOMEM ? EXIT_FAILURE_USAGE : EXIT_DENIED_OR_INVALID;
	if (r < 0) {
		layers_free(&l);
		log_error(0, "the profiles have errors: run 'fbac check'");
		return EXIT_DENIED_OR_INVALID;
	}
	if (o.man)
		return list_man_layers(&l);
	if (o.apps) {
		list_apps(l.lib, o.json);
		layers_free(&l);
		return EXIT_OK;
	}
	v = calloc(l.lib->n_funcs + 1, sizeof(*v));
	if (!v) {
		layers_free(&l);
		return EXIT_FAILURE_USAGE;
	}
	memcpy(v, l.lib->funcs, l.lib->n_funcs * sizeof(*v));
	qsort(v, l.lib->n_funcs, sizeof(*v), func_by_level);
	if (o.json) {
		list_json(l.lib, v, l.lib->n_funcs);
	} else {
		bool high = true;

		printf("High-level functionalities (pick one for a program):\n");
		for (size_t i = 0; i < l.lib->n_funcs; i++) {
			if (high && !v[i]->high_level) {
				printf("\nBuilding blocks:\n");
				high = false;
			}
			printf("  %-28s %-13s %s\n", v[i]->name, v[i]->category,
			       v[i]->description);
		}
	}
	layers_free(&l);
	return EXIT_OK;
}
