/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac new PROGRAM: the wizard. Before the program ever runs, it reads
 * what the system says about it (new-probe.c), suggests a high-level
 * functionality with its reasons, fills the parameters and asks the rest
 * (new-params.c), adds what the compiled draft still lacks (new-draft.c),
 * checks the result as fbac check does and writes it to the user's layer.
 */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fbac.h"
#include "new.h"
#include "output.h"
#include "wizard.h"

struct new_opts {
	const char *program, *as, *output;
	struct fbac_define defs[FBAC_MAX_DEFINES];
	size_t n_defs;
	bool yes, force, bad;
};

enum { OPT_FORCE = 0x100, OPT_AS };

static const struct argp_option options[] = {
	{ "yes", 'y', NULL, 0, "Ask nothing: take every guess", 0 },
	{ "define", 'D', "[FUNC.]PARAM=VALUE", 0,
	  "Answer a parameter's question (lists: comma-separated)", 0 },
	{ "as", OPT_AS, "FUNC", 0,
	  "Use this high-level functionality (\"none\": building blocks only)", 0 },
	{ "output", 'o', "FILE", 0,
	  "Write the policy to FILE (\"-\": standard output), not to the user's layer", 0 },
	{ "force", OPT_FORCE, NULL, 0, "Replace an existing policy file", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct new_opts *o = st->input;

	switch (key) {
	case 'y': o->yes = true; return 0;
	case OPT_FORCE: o->force = true; return 0;
	case OPT_AS: o->as = arg; return 0;
	case 'o': o->output = arg; return 0;
	case 'D':
		if (parse_define(arg, o->defs, &o->n_defs) < 0)
			o->bad = true;
		return 0;
	case ARGP_KEY_ARG:
		if (o->program)
			argp_error(st, "unexpected argument '%s'", arg);
		o->program = arg;
		return 0;
	case ARGP_KEY_END:
		if (!o->program)
			argp_error(st, "missing PROGRAM");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static bool is_high_level(const char *name, void *ctx)
{
	const struct fbac_functionality *f = fbac_library_find(ctx, name);

	return f && f->high_level;
}

/* A policy of the same name in another file of the user's layer would
 * make the layer define it twice. */
static int same_name_elsewhere(const struct layers *l, const char *name,
			       const char *dest)
{
	for (unsigned i = 0; i < l->lib->n_layers; i++) {
		const struct fbac_application *app;
		char a[PATH_MAX], b[PATH_MAX];

		if (l->lib->layers[i].kind != FBAC_LAYER_USER ||
		    !(app = fbac_library_find_app(l->lib, i, name)) ||
		    !streq(app->name, name))
			continue;
		if (realpath(app->mark.file, a) && realpath(dest, b) && streq(a, b))
			continue;
		return log_error(-EEXIST, "refusing to write '%s': %s:%u already defines '%s' in the user's layer",
				 dest, app->mark.file, app->mark.line, name);
	}
	return 0;
}

int cmd_new(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		options, parse_opt, "PROGRAM",
		"Write an application policy for PROGRAM before it ever runs: "
		"suggest a high-level functionality from its desktop entry, "
		"libraries and package, fill the parameters from the system, ask "
		"the rest, check it and save it in the user's layer.",
		NULL, NULL, NULL
	};
	struct new_opts o = { 0 };
	struct layers l, l2 = { 0 };
	struct probe p;
	struct fbac_wizard hl = { 0 }, blocks = { 0 };
	struct draft d = { 0 };
	struct param_answer ans[FBAC_MAX_PARAMS];
	const struct fbac_functionality *f = NULL;
	const struct fbac_wizard_vote *best;
	struct fbac_policy *pol = NULL;
	char dir[] = "/tmp/fbac-new.XXXXXX", file[PATH_MAX], dest[PATH_MAX];
	bool have_dir = false;
	FILE *info = stdout;
	int r, ret = EXIT_FAILURE_USAGE;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o) != 0 || o.bad)
		return EXIT_FAILURE_USAGE;
	_cleanup_(fbac_arena_freep) struct fbac_arena *a = fbac_arena_new();
	if (!a)
		return log_error(-ENOMEM, "out of memory"), EXIT_FAILURE_USAGE;
	r = global_load(g, &l);
	if (!l.lib)
		return EXIT_FAILURE_USAGE;
	if (r < 0) {
		log_error(0, "the profiles have errors: run 'fbac check'");
		goto out;
	}
	/* With -o -, standard output is the policy alone. */
	info = o.output && streq(o.output, "-") ? stderr : stdout;
	if ((r = probe_program(o.program, a, &p)) < 0)
		goto out;
	hl.arena = blocks.arena = d.a = a;
	fprintf(info, "program: %s", p.exe);
	if (!streq(p.exe, p.canon))
		fprintf(info, " (%s)", p.canon);
	if (p.have_pkg)
		fprintf(info, ", package %s: %s", p.package,
		       p.pkg.summary ? p.pkg.summary : "");
	fputc('\n', info);
	if (p.desktop_path)
		fprintf(info, "desktop entry: %s\n", p.desktop_path);
	if (p.ldd_note)
		fprintf(info, "libraries: %s\n", p.ldd_note);
	for (unsigned i = 0; i < l.lib->n_layers; i++) {
		const struct fbac_application *app =
			fbac_library_find_app(l.lib, i, p.exe);

		if (!app)
			app = fbac_library_find_app(l.lib, i, p.name);
		if (app)
			fprintf(info, "note: layer '%s' already has a policy for it: %s (%s:%u)\n",
			       l.lib->layers[i].name, app->name, app->mark.file,
			       app->mark.line);
	}
	if ((r = tally(&p, &hl, &blocks)) < 0) {
		log_error(r, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < hl.n_votes; i++)
		if (is_high_level(hl.votes[i].functionality, l.lib))
			fprintf(info, "evidence for %s (%u): %s\n", hl.votes[i].functionality,
			       hl.votes[i].score, join_reasons(a, &hl.votes[i]));
	for (size_t i = 0; i < blocks.n_votes; i++)
		fprintf(info, "evidence for %s: %s\n", blocks.votes[i].functionality,
		       join_reasons(a, &blocks.votes[i]));

	/* The high-level functionality. */
	best = fbac_wizard_best(&hl, is_high_level, (void *)l.lib);
	const char *choice = best ? best->functionality : NULL;
	const char *why = best ? join_reasons(a, best) : NULL;

	if (!choice && !graphical(&blocks) &&
	    fbac_library_find(l.lib, "Terminal_Application")) {
		choice = "Terminal_Application";
		why = "a text-mode program: no desktop entry or package says more, and it links no graphical library";
	}
	if (!choice && !o.as)
		why = "a graphical program that no high-level functionality describes";
	if (o.as) {
		choice = streq(o.as, "none") ? NULL : o.as;
		why = "chosen with --as";
	}
	fprintf(info, "suggested: %s (%s)\n", choice ? choice : "none", why ? why : "");
	while (!o.yes && !o.as) {
		char *line = NULL;

		if (ask_line("Which high-level functionality describes it? (a name from 'fbac list', or none)",
			     choice ? choice : "none", &line) < 0) {
			log_error(0, "no answer (give --as FUNC or --yes)");
			goto out;
		}
		if (!*line) {
			free(line);
			break;
		}
		if (streq(line, "none") || is_high_level(line, l.lib)) {
			choice = streq(line, "none") ? NULL :
						       fbac_arena_strdup(a, line);
			why = "your answer";
			free(line);
			break;
		}
		log_error(0, "unknown high-level functionality '%s' (see 'fbac list')", line);
		free(line);
	}
	if (choice && !(f = fbac_library_find(l.lib, choice))) {
		log_error(0, "unknown functionality '%s' (see 'fbac list')", choice);
		goto out;
	}
	if (!f && o.n_defs) {
		log_error(0, "-D needs a high-level functionality with parameters");
		goto out;
	}

	/* Its parameters. */
	if (f) {
		params_guess(f, &p, &l.env, a, ans);
		for (size_t i = 0; i < o.n_defs; i++)
			if (params_define(f, &o.defs[i], a, ans) < 0)
				goto out;
		for (size_t i = 0; i < f->n_params; i++)
			if (ans[i].filled)
				fprintf(info, "filled: %s = %s (%s)\n", f->params[i].name,
				       params_text(a, &ans[i]), ans[i].why);
		if (!o.yes && (r = params_ask(f, a, ans)) < 0)
			goto out;
		for (size_t i = 0; o.yes && i < f->n_params; i++)
			if (!ans[i].filled && !ans[i].given && !ans[i].from_default) {
				log_error(0, "no guess for '%s' of %s: give -D %s=VALUE",
					  f->params[i].name, f->name, f->params[i].name);
				goto out;
			}
	}

	/* The draft. */
	d.name = p.name;
	d.description = p.have_pkg && p.pkg.summary ? p.pkg.summary :
			p.desktop.comment;
	d.exes[d.n_exes++] = p.exe;
	if (!streq(p.exe, p.canon))
		d.exes[d.n_exes++] = p.canon;
	{
		char when[32];
		time_t now = time(NULL);

		strftime(when, sizeof(when), "%Y-%m-%d", gmtime(&now));
		d.source = fbac_arena_printf(a, "Written by 'fbac new %s' on %s for %s%s%s.",
					     p.name, when, p.exe,
					     p.have_pkg ? ", package " : "",
					     p.have_pkg ? p.package : "");
	}
	if (f && (r = draft_add(&d, f->name, hl_args(a, f, ans), why)) < 0)
		goto out;
	for (size_t i = 0; i < blocks.n_votes; i++) {
		const char *b = blocks.votes[i].functionality;

		if (reaches(f, b, 0) || !fbac_library_find(l.lib, b))
			continue;
		if ((r = draft_add(&d, b, NULL, join_reasons(a, &blocks.votes[i]))) < 0)
			goto out;
	}
	if (d.n_items == 0 && (r = draft_add(&d, "Basic_Runtime", NULL,
					     "no functionality chosen")) < 0)
		goto out;
	if (!mkdtemp(dir)) {
		log_error(-errno, "cannot make a temporary directory");
		goto out;
	}
	have_dir = true;
	snprintf(file, sizeof(file), "%s/%s.yaml", dir, p.name);
	if ((r = compile_draft(g, &d, dir, file, &l2, &pol)) < 0)
		goto out;
	if ((r = draft_fill(&d, &p, pol, &l2.env)) < 0)
		goto out;
	for (size_t i = 0; i < d.n_notes; i++)
		fprintf(info, "note: %s\n", d.notes[i]);
	fbac_policy_free(pol);
	pol = NULL;
	layers_free(&l2);
	l2 = (struct layers){ 0 };
	if ((r = compile_draft(g, &d, dir, file, &l2, &pol)) < 0)
		goto out;

	/* fbac check on it, then save it. */
	{
		char n0[] = "fbac check", n1[] = "-q";
		char *cargv[] = { n0, n1, file, NULL };

		if (cmd_check(g, 3, cargv) != EXIT_OK) {
			log_error(0, "the policy for '%s' does not pass fbac check", p.name);
			ret = EXIT_DENIED_OR_INVALID;
			goto out;
		}
	}
	if (o.output)
		snprintf(dest, sizeof(dest), "%s", o.output);
	else if ((r = user_file(&l, p.name, dest, sizeof(dest))) < 0)
		goto out;
	if (!o.output && (r = same_name_elsewhere(&l, p.name, dest)) < 0)
		goto out;
	if (!o.output || !streq(o.output, "-")) {
		fprintf(info, "\n");
		print_file(file);
		fprintf(info, "\n");
	}
	while (!o.yes && !(o.output && streq(o.output, "-"))) {
		char *line = NULL;
		bool yes;

		if (ask_line(fbac_arena_printf(a, "Save it to %s? (yes or no)", dest),
			     "yes", &line) < 0) {
			log_error(0, "no answer: nothing saved");
			goto out;
		}
		yes = !*line || streq(line, "yes") || streq(line, "y");
		if (yes || streq(line, "no") || streq(line, "n")) {
			free(line);
			if (!yes) {
				fprintf(info, "nothing saved\n");
				ret = EXIT_OK;
				goto out;
			}
			break;
		}
		free(line);
	}
	if (install_policy(file, dest, o.force) < 0)
		goto out;
	if (!o.output || !streq(o.output, "-")) {
		fprintf(info, "wrote %s\n", dest);
		fprintf(info, "try it:  fbac-run %s [ARG...]\n", p.name);
		fprintf(info, "see it:  fbac show %s\n", p.name);
		fprintf(info, "wrap it: fbac wrap %s\n", p.name);
	}
	ret = EXIT_OK;
out:
	fbac_policy_free(pol);
	if (l2.lib || l2.arena)
		layers_free(&l2);
	layers_free(&l);
	if (have_dir) {
		unlink(file);
		rmdir(dir);
	}
	return ret;
}
