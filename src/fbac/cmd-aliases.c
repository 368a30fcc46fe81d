/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac aliases: one shell alias per installed program that has an
 * application policy (in any layer), as firecfg confines every program
 * it has a profile for. Programs wrapped already are left to their
 * wrappers.
 */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fbac.h"
#include "output.h"
#include "wrap-cmd.h"

enum shell { SH_BASH, SH_ZSH, SH_FISH };

struct aliases_opts {
	const char *shell;
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct aliases_opts *o = st->input;

	switch (key) {
	case ARGP_KEY_ARG:
		if (o->shell)
			argp_error(st, "unexpected argument '%s'", arg);
		o->shell = arg;
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static bool plain(const char *s)
{
	return *s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/._+-") ==
			     strlen(s);
}

/* s for sh or fish, in single quotes unless it needs none. */
static void put_word(FILE *f, const char *s, enum shell sh)
{
	if (plain(s)) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs(sh == SH_FISH ? "\\'" : "'\\''", f);
		else if (*s == '\\' && sh == SH_FISH)
			fputs("\\\\", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

static void print_alias(enum shell sh, const char *name, const char *fbac_run,
			const char *program)
{
	if (sh == SH_FISH) {
		printf("function %s --wraps %s; ", name, name);
		put_word(stdout, fbac_run, sh);
		putchar(' ');
		put_word(stdout, program, sh);
		printf(" $argv; end\n");
		return;
	}
	/* The value is one sh word: each part quoted inside it. */
	printf("alias %s='", name);
	for (const char *parts[2] = { fbac_run, program }, **p = parts;
	     p < parts + 2; p++) {
		if (p > parts)
			putchar(' ');
		if (plain(*p)) {
			fputs(*p, stdout);
		} else {
			/* No ' inside (print_alias's caller checks). */
			printf("'\\''%s'\\''", *p);
		}
	}
	printf("'\n");
}

static bool alias_name(const char *s)
{
	return plain(s) && !strchr(s, '/') && s[0] != '-';
}

int cmd_aliases(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		NULL, parse_opt, "[bash|zsh|fish]",
		"Print one alias per installed program that has an application "
		"policy, each running it under fbac-run: eval \"$(fbac aliases)\" "
		"in ~/.bashrc (fish: fbac aliases fish | source). See fbac(1).",
		NULL, NULL, NULL
	};
	struct aliases_opts o = { NULL };
	struct wrap_dirs d;
	struct layers l;
	char fbac_run[PATH_MAX], seen[FBAC_MAX_APPLICATIONS][FBAC_MAX_NAME];
	size_t n_seen = 0;
	enum shell sh = SH_BASH;
	const char *name;
	int r;

	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &o) != 0)
		return EXIT_FAILURE_USAGE;
	name = o.shell;
	if (!name) {
		const char *s = getenv("SHELL");

		name = s && strrchr(s, '/') ? strrchr(s, '/') + 1 : "bash";
		if (!streq(name, "zsh") && !streq(name, "fish"))
			name = "bash";
	}
	if (streq(name, "bash"))
		sh = SH_BASH;
	else if (streq(name, "zsh"))
		sh = SH_ZSH;
	else if (streq(name, "fish"))
		sh = SH_FISH;
	else {
		log_error(0, "unknown shell '%s' (expected bash, zsh or fish)", name);
		return EXIT_FAILURE_USAGE;
	}
	if (wrap_dirs_get(false, &d) < 0 ||
	    wrap_fbac_run(fbac_run, sizeof(fbac_run)) < 0)
		return EXIT_FAILURE_USAGE;
	r = global_load(g, &l);
	if (r < 0) {
		if (l.lib)
			log_error(0, "refusing to print aliases: the profiles have errors (see above, or 'fbac check')");
		layers_free(&l);
		return EXIT_DENIED_OR_INVALID;
	}
	printf("# fbac aliases (%s): programs with an application policy run confined\n",
	       name);
	for (size_t i = 0; i < l.lib->n_apps; i++) {
		const struct fbac_application *a = l.lib->apps[i];

		for (size_t k = 0; k <= a->n_executables; k++) {
			const char *cand = k == 0 ? a->name : strrchr(a->executables[k - 1], '/') + 1;
			char program[PATH_MAX], wrapper[PATH_MAX];
			bool dup = false;
			int idx;

			if (!alias_name(cand) || strlen(cand) >= FBAC_MAX_NAME)
				continue;
			for (size_t s = 0; s < n_seen && !dup; s++)
				dup = streq(seen[s], cand);
			if (dup || n_seen >= FBAC_MAX_APPLICATIONS ||
			    wrap_find_program(&d, cand, program, sizeof(program),
					      &idx) < 0)
				continue;
			memcpy(seen[n_seen++], cand, strlen(cand) + 1);
			if (snprintf(wrapper, sizeof(wrapper), "%s/%s", d.bin,
				     cand) < (int)sizeof(wrapper) &&
			    wrap_ours(wrapper, false, NULL) == 1) {
				printf("# %s: wrapped in '%s' already\n", cand, d.bin);
				continue;
			}
			if (sh != SH_FISH &&
			    (strchr(fbac_run, '\'') || strchr(program, '\''))) {
				printf("# %s: a path with a ' in it: use fbac wrap instead\n",
				       cand);
				continue;
			}
			print_alias(sh, cand, fbac_run, program);
		}
	}
	layers_free(&l);
	return EXIT_OK;
}
