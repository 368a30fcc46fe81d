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

/* The state of one fbac new that its steps share. */
struct new_run {
	struct global *g;
	struct new_opts o;
	struct fbac_arena *a;
	struct layers l, l2; /* l2: with the draft */
	struct probe p;
	struct fbac_wizard hl, blocks; /* the votes */
	struct param_answer ans[FBAC_MAX_PARAMS];
	const struct fbac_functionality *f; /* the high-level one, if any */
	const char *choice, *why;
	struct draft d;
	struct fbac_policy *pol;
	char dir[sizeof("/tmp/fbac-new.XXXXXX")], file[PATH_MAX], dest[PATH_MAX];
	bool have_dir;
	FILE *info; /* where what the wizard says goes */
};

/* Say what the system says about the program, the policies it already
 * has, and the evidence for each functionality. */
static int new_probe(struct new_run *w)
{
	const struct probe *p = &w->p;
	const struct fbac_library *lib = w->l.lib;
	FILE *info = w->info;
	int r;

	fprintf(info, "program: %s", p->exe);
	if (!streq(p->exe, p->canon))
		fprintf(info, " (%s)", p->canon);
	if (p->have_pkg)
		fprintf(info, ", package %s: %s", p->package,
			p->pkg.summary ? p->pkg.summary : "");
	fputc('\n', info);
	if (p->desktop_path)
		fprintf(info, "desktop entry: %s\n", p->desktop_path);
	if (p->ldd_note)
		fprintf(info, "libraries: %s\n", p->ldd_note);
	for (unsigned i = 0; i < lib->n_layers; i++) {
		const struct fbac_application *app =
			fbac_library_find_app(lib, i, p->exe);

		if (!app)
			app = fbac_library_find_app(lib, i, p->name);
		if (app)
			fprintf(info,
				"note: layer '%s' already has a policy for it: %s (%s:%u)\n",
				lib->layers[i].name, app->name, app->mark.file,
				app->mark.line);
	}
	if ((r = tally(&w->p, &w->hl, &w->blocks)) < 0) {
		log_error(r, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < w->hl.n_votes; i++)
		if (is_high_level(w->hl.votes[i].functionality, w->l.lib))
			fprintf(info, "evidence for %s (%u): %s\n",
				w->hl.votes[i].functionality,
				w->hl.votes[i].score,
				join_reasons(w->a, &w->hl.votes[i]));
	for (size_t i = 0; i < w->blocks.n_votes; i++)
		fprintf(info, "evidence for %s: %s\n",
			w->blocks.votes[i].functionality,
			join_reasons(w->a, &w->blocks.votes[i]));
	return 0;
}

/* Ask which high-level functionality describes the program, until the
 * answer is one (or none, or the suggestion). */
static int new_ask_choice(struct new_run *w)
{
	for (;;) {
		char *line = NULL;

		if (ask_line("Which high-level functionality describes it? (a name from 'fbac list', or none)",
			     w->choice ? w->choice : "none", &line) < 0) {
			log_error(0, "no answer (give --as FUNC or --yes)");
			return -1;
		}
		if (!*line) {
			free(line);
			return 0;
		}
		if (streq(line, "none") || is_high_level(line, w->l.lib)) {
			w->choice = streq(line, "none") ?
					    NULL :
					    fbac_arena_strdup(w->a, line);
			w->why = "your answer";
			free(line);
			return 0;
		}
		log_error(0, "unknown high-level functionality '%s' (see 'fbac list')", line);
		free(line);
	}
}

/* The high-level functionality (w->f): the best voted, a terminal one,
 * --as, or the answer; and why. */
static int new_choose(struct new_run *w)
{
	const struct fbac_wizard_vote *best;

	best = fbac_wizard_best(&w->hl, is_high_level, (void *)w->l.lib);
	w->choice = best ? best->functionality : NULL;
	w->why = best ? join_reasons(w->a, best) : NULL;
	if (!w->choice && !graphical(&w->blocks) &&
	    fbac_library_find(w->l.lib, "Terminal_Application")) {
		w->choice = "Terminal_Application";
		w->why = "a text-mode program: no desktop entry or package says more, and it links no graphical library";
	}
	if (!w->choice && !w->o.as)
		w->why = "a graphical program that no high-level functionality describes";
	if (w->o.as) {
		w->choice = streq(w->o.as, "none") ? NULL : w->o.as;
		w->why = "chosen with --as";
	}
	fprintf(w->info, "suggested: %s (%s)\n", w->choice ? w->choice : "none",
		w->why ? w->why : "");
	if (!w->o.yes && !w->o.as && new_ask_choice(w) < 0)
		return -1;
	if (w->choice && !(w->f = fbac_library_find(w->l.lib, w->choice))) {
		log_error(0, "unknown functionality '%s' (see 'fbac list')",
			  w->choice);
		return -1;
	}
	if (!w->f && w->o.n_defs) {
		log_error(0, "-D needs a high-level functionality with parameters");
		return -1;
	}
	return 0;
}

/* The parameters of the high-level functionality: guessed, given with -D,
 * or asked. */
static int new_params(struct new_run *w)
{
	const struct fbac_functionality *f = w->f;

	params_guess(f, &w->p, &w->l.env, w->a, w->ans);
	for (size_t i = 0; i < w->o.n_defs; i++)
		if (params_define(f, &w->o.defs[i], w->a, w->ans) < 0)
			return -1;
	for (size_t i = 0; i < f->n_params; i++)
		if (w->ans[i].filled)
			fprintf(w->info, "filled: %s = %s (%s)\n",
				f->params[i].name,
				params_text(w->a, &w->ans[i]), w->ans[i].why);
	if (!w->o.yes && params_ask(f, w->a, w->ans) < 0)
		return -1;
	for (size_t i = 0; w->o.yes && i < f->n_params; i++)
		if (!w->ans[i].filled && !w->ans[i].given &&
		    !w->ans[i].from_default) {
			log_error(0, "no guess for '%s' of %s: give -D %s=VALUE",
				  f->params[i].name, f->name, f->params[i].name);
			return -1;
		}
	return 0;
}

/* The draft: its name, executables and source, the high-level
 * functionality and the building blocks it does not reach. */
static int new_draft_items(struct new_run *w)
{
	struct draft *d = &w->d;
	const struct probe *p = &w->p;
	char when[32];
	time_t now = time(NULL);

	d->name = p->name;
	d->description = p->have_pkg && p->pkg.summary ? p->pkg.summary :
							 p->desktop.comment;
	d->exes[d->n_exes++] = p->exe;
	if (!streq(p->exe, p->canon))
		d->exes[d->n_exes++] = p->canon;
	strftime(when, sizeof(when), "%Y-%m-%d", gmtime(&now));
	d->source = fbac_arena_printf(
		w->a, "Written by 'fbac new %s' on %s for %s%s%s.", p->name,
		when, p->exe, p->have_pkg ? ", package " : "",
		p->have_pkg ? p->package : "");
	if (w->f &&
	    draft_add(d, w->f->name, hl_args(w->a, w->f, w->ans), w->why) < 0)
		return -1;
	for (size_t i = 0; i < w->blocks.n_votes; i++) {
		const char *b = w->blocks.votes[i].functionality;

		if (reaches(w->f, b, 0) || !fbac_library_find(w->l.lib, b))
			continue;
		if (draft_add(d, b, NULL,
			      join_reasons(w->a, &w->blocks.votes[i])) < 0)
			return -1;
	}
	if (d->n_items == 0 &&
	    draft_add(d, "Basic_Runtime", NULL, "no functionality chosen") < 0)
		return -1;
	return 0;
}

/* Write the draft to a temporary file and compile it, add what it still
 * lacks, and compile it again. */
static int new_draft_compile(struct new_run *w)
{
	if (!mkdtemp(w->dir)) {
		log_error(-errno, "cannot make a temporary directory");
		return -1;
	}
	w->have_dir = true;
	snprintf(w->file, sizeof(w->file), "%s/%s.yaml", w->dir, w->p.name);
	if (compile_draft(w->g, &w->d, w->dir, w->file, &w->l2, &w->pol) < 0)
		return -1;
	if (draft_fill(&w->d, &w->p, w->pol, &w->l2.env) < 0)
		return -1;
	for (size_t i = 0; i < w->d.n_notes; i++)
		fprintf(w->info, "note: %s\n", w->d.notes[i]);
	fbac_policy_free(w->pol);
	w->pol = NULL;
	layers_free(&w->l2);
	w->l2 = (struct layers){ 0 };
	if (compile_draft(w->g, &w->d, w->dir, w->file, &w->l2, &w->pol) < 0)
		return -1;
	return 0;
}

/* Ask whether to save the policy to w->dest: 1 yes, 0 no, -1 no answer. */
static int new_ask_save(struct new_run *w)
{
	for (;;) {
		char *line = NULL;
		bool yes;

		if (ask_line(fbac_arena_printf(w->a, "Save it to %s? (yes or no)",
					       w->dest),
			     "yes", &line) < 0) {
			log_error(0, "no answer: nothing saved");
			return -1;
		}
		yes = !*line || streq(line, "yes") || streq(line, "y");
		if (yes || streq(line, "no") || streq(line, "n")) {
			free(line);
			return yes;
		}
		free(line);
	}
}

/* Check the policy as fbac check does, show it, and save it where the
 * options say (after a confirmation). Return the exit status. */
static int new_check_save(struct new_run *w)
{
	bool to_stdout = w->o.output && streq(w->o.output, "-");
	char n0[] = "fbac check", n1[] = "-q";
	char *cargv[] = { n0, n1, w->file, NULL };
	int r;

	if (cmd_check(w->g, 3, cargv) != EXIT_OK) {
		log_error(0, "the policy for '%s' does not pass fbac check",
			  w->p.name);
		return EXIT_DENIED_OR_INVALID;
	}
	if (w->o.output)
		snprintf(w->dest, sizeof(w->dest), "%s", w->o.output);
	else if (user_file(&w->l, w->p.name, w->dest, sizeof(w->dest)) < 0)
		return EXIT_FAILURE_USAGE;
	if (!w->o.output && same_name_elsewhere(&w->l, w->p.name, w->dest) < 0)
		return EXIT_FAILURE_USAGE;
	if (!to_stdout) {
		fprintf(w->info, "\n");
		print_file(w->file);
		fprintf(w->info, "\n");
	}
	if (!w->o.yes && !to_stdout) {
		r = new_ask_save(w);
		if (r < 0)
			return EXIT_FAILURE_USAGE;
		if (r == 0) {
			fprintf(w->info, "nothing saved\n");
			return EXIT_OK;
		}
	}
	if (install_policy(w->file, w->dest, w->o.force) < 0)
		return EXIT_FAILURE_USAGE;
	if (!to_stdout) {
		fprintf(w->info, "wrote %s\n", w->dest);
		fprintf(w->info, "try it:  fbac-run %s [ARG...]\n", w->p.name);
		fprintf(w->info, "see it:  fbac show %s\n", w->p.name);
		fprintf(w->info, "wrap it: fbac wrap %s\n", w->p.name);
	}
	return EXIT_OK;
}

int cmd_new(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		options,
		parse_opt,
		"PROGRAM",
		"Write an application policy for PROGRAM before it ever runs: "
		"suggest a high-level functionality from its desktop entry, "
		"libraries and package, fill the parameters from the system, ask "
		"the rest, check it and save it in the user's layer.",
		NULL,
		NULL,
		NULL
	};
	struct new_run w = { .g = g,
			     .dir = "/tmp/fbac-new.XXXXXX",
			     .info = stdout };
	int r, ret = EXIT_FAILURE_USAGE;

	if (argp_parse(&argp, argc, argv, 0, NULL, &w.o) != 0 || w.o.bad)
		return EXIT_FAILURE_USAGE;
	_cleanup_(fbac_arena_freep) struct fbac_arena *a = fbac_arena_new();
	if (!a)
		return log_error(-ENOMEM, "out of memory"), EXIT_FAILURE_USAGE;
	w.a = a;
	r = global_load(g, &w.l);
	if (!w.l.lib)
		return EXIT_FAILURE_USAGE;
	if (r < 0) {
		log_error(0, "the profiles have errors: run 'fbac check'");
		goto out;
	}
	/* With -o -, standard output is the policy alone. */
	w.info = w.o.output && streq(w.o.output, "-") ? stderr : stdout;
	if (probe_program(w.o.program, a, &w.p) < 0)
		goto out;
	w.hl.arena = w.blocks.arena = w.d.a = a;
	if (new_probe(&w) < 0 || new_choose(&w) < 0)
		goto out;
	if (w.f && new_params(&w) < 0)
		goto out;
	if (new_draft_items(&w) < 0 || new_draft_compile(&w) < 0)
		goto out;
	ret = new_check_save(&w);
out:
	fbac_policy_free(w.pol);
	if (w.l2.lib || w.l2.arena)
		layers_free(&w.l2);
	layers_free(&w.l);
	if (w.have_dir) {
		unlink(w.file);
		rmdir(w.dir);
	}
	return ret;
}
