/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac: inspect, check and explain functionality-based confinement
 * policies. Global options come before the sub-command.
 */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fbac.h"
#include "output.h"

const char *argp_program_version = "fbac " FBAC_VERSION;
const char *argp_program_bug_address = "<https://github.com/fbac/fbac/issues>";

static const char doc[] =
	"Inspect, check and explain functionality-based confinement policies."
	"\vCommands:\n"
	"  list       functionalities of the library (high-level first), or a man page\n"
	"  show       a functionality or application: tree, privileges, kernel rules\n"
	"  check      validate profile files and directories\n"
	"  explain    is an operation allowed, and by which functionality?\n"
	"  new        write a policy for a program: the wizard\n"
	"  export     write a policy in another system's language (AppArmor)\n"
	"  wrap       make a program start confined (wrapper, desktop entry)\n"
	"  unwrap     remove what wrap wrote\n"
	"  aliases    shell aliases that run programs confined\n"
	"  learn      propose a policy from fbac-run --learn logs\n"
	"  compare    how much of what one application policy grants another grants\n"
	"  log        read the denials of every run (the per-user log)\n"
	"  set        save parameter values for 'fbac-run --as TYPE PROGRAM'\n"
	"  unset      remove saved values\n"
	"\nRun 'fbac COMMAND --help' for a command's options. See fbac(1).";

static const struct argp_option options[] = {
	{ "profile-dir", 'P', "DIR", 0,
	  "Load DIR as an extra policy layer (repeatable)", 0 },
	{ 0 }
};

struct state {
	struct global *g;
	int cmd_index;
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct state *s = st->input;

	switch (key) {
	case 'P':
		if (s->g->n_extra >= FBAC_MAX_LAYERS - 4)
			argp_error(st, "too many -P directories (at most %d)",
				   FBAC_MAX_LAYERS - 4);
		s->g->extra_dirs[s->g->n_extra++] = arg;
		return 0;
	case ARGP_KEY_ARG:
		s->cmd_index = st->next - 1;
		st->next = st->argc; /* the rest belongs to the command */
		return 0;
	case ARGP_KEY_END:
		if (s->cmd_index < 0)
			argp_error(st, "missing command");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(struct global *, int, char **);
	} cmds[] = {
		{ "list", cmd_list },
		{ "show", cmd_show },
		{ "check", cmd_check },
		{ "explain", cmd_explain },
		{ "new", cmd_new },
		{ "export", cmd_export },
		{ "wrap", cmd_wrap },
		{ "unwrap", cmd_unwrap },
		{ "aliases", cmd_aliases },
		{ "learn", cmd_learn },
		{ "compare", cmd_compare },
		{ "log", cmd_log },
		{ "set", cmd_set },
		{ "unset", cmd_unset },
	};
	struct argp argp = { options, parse_opt, "COMMAND [ARG...]", doc,
			     NULL, NULL, NULL };
	struct global g = { .n_extra = 0 };
	struct state s = { &g, -1 };
	const char *cmd;

	argp_err_exit_status = EXIT_FAILURE_USAGE;
	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &s) != 0)
		return EXIT_FAILURE_USAGE;
	cmd = argv[s.cmd_index];
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
		if (streq(cmd, cmds[i].name)) {
			/* Usage and errors then say "fbac show", not "show". */
			char name[32];

			snprintf(name, sizeof(name), "fbac %s", cmds[i].name);
			argv[s.cmd_index] = name;
			return cmds[i].fn(&g, argc - s.cmd_index,
					  argv + s.cmd_index);
		}
	log_error(0, "unknown command '%s' (expected list, show, check, explain, set or unset)",
		  cmd);
	return EXIT_FAILURE_USAGE;
}

/*
 * The checks that need the whole library (includes, arguments, cycles),
 * as fbac check makes them: list, show and explain refuse a library that
 * fbac check would refuse. Each problem is printed once.
 */
static int check_linked(struct layers *l)
{
	const struct fbac_library *lib = l->lib;
	unsigned bad = 0;

	for (size_t i = 0; i < lib->n_funcs; i++) {
		const struct fbac_functionality *f = lib->funcs[i];
		bool inc_bad = false;

		for (size_t k = 0; k < f->n_includes; k++) {
			struct fbac_diag d = { 0 };
			int r = fbac_check_include(lib, &f->includes[k], true, &d);

			if (r < 0) {
				log_problem(r, &d);
				bad++;
				inc_bad = true;
			}
		}
		if (!inc_bad) {
			struct fbac_diag d = { 0 };
			int r = fbac_check_functionality(lib, f, &d);

			if (r == -ENOMEM)
				return log_error(r, "out of memory");
			if (r < 0) {
				log_problem(r, &d);
				bad++;
			}
		}
	}
	for (size_t i = 0; i < lib->n_apps; i++) {
		const struct fbac_application *a = lib->apps[i];

		for (size_t k = 0; k < a->n_grants; k++) {
			struct fbac_diag d = { 0 };
			int r = fbac_check_include(lib, &a->grants[k], true, &d);

			if (r < 0) {
				log_problem(r, &d);
				bad++;
			}
		}
	}
	l->errors += bad;
	return bad ? -EINVAL : 0;
}

int global_load(struct global *g, struct layers *l)
{
	struct layers_options o = { .extra_dirs = g->extra_dirs,
				    .n_extra = g->n_extra };
	int r = layers_load(&o, l);

	if (r < 0 || !l->lib->linked)
		return r;
	return check_linked(l);
}

int parse_define(char *arg, struct fbac_define *defs, size_t *n)
{
	if (*n >= FBAC_MAX_DEFINES)
		return log_error(-E2BIG, "too many -D options (at most %d)",
				 FBAC_MAX_DEFINES);
	char copy[FBAC_MAX_PATH];

	/* Parsing cuts arg in place: keep it whole for the message. */
	snprintf(copy, sizeof(copy), "%s", arg);
	if (fbac_define_parse(arg, NULL, &defs[*n]) < 0)
		return log_error(-EINVAL,
				 "invalid -D '%s' (expected [FUNCTIONALITY.]PARAMETER=VALUE)",
				 copy);
	(*n)++;
	return 0;
}
