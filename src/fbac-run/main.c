/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac-run: run a program confined by functionalities. Options end at
 * the command; its own options are never parsed.
 */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "path.h"
#include "wrap.h"
#include "run.h"

enum {
	OPT_LEARN = 0x100,
	OPT_BEST_EFFORT,
	OPT_SUPERVISE_ALL,
	OPT_FULL,
	OPT_YES,
	OPT_NO_INFER,
};

const char *argp_program_version = "fbac-run " FBAC_VERSION;
const char *argp_program_bug_address = "<https://github.com/fbac/fbac/issues>";

static const struct argp_option options[] = {
	{ "as", 'a', "FUNCTIONALITY", 0,
	  "Confine as FUNCTIONALITY (repeatable); replaces the program's own application policy",
	  0 },
	{ "define", 'D', "FUNC.PARAM=VALUE", 0,
	  "Set a parameter of a granted functionality", 0 },
	{ "no-infer", OPT_NO_INFER, NULL, 0,
	  "With --as: take values from -D, fbac set, the program's policy and the defaults only, nothing from the program itself",
	  0 },
	{ "profile", 'p', "FILE", 0, "Load FILE as an extra policy layer", 0 },
	{ "profile-dir", 'P', "DIR", 0, "Load DIR as an extra policy layer", 0 },
	{ "mode", 'm', "MODE", 0,
	  "enforce (default), complain (log, allow) or learn (log everything, allow)",
	  1 },
	{ "learn", OPT_LEARN, NULL, 0, "Same as --mode learn", 1 },
	{ "log", 'l', "FILE", 0, "Write one JSON line per event to FILE", 1 },
	{ "output", 'o', "FILE", 0,
	  "With --learn: write the proposed policy to FILE", 1 },
	{ "yes", OPT_YES, NULL, 0,
	  "With --learn: save the proposed policy in the user's layer without questions",
	  1 },
	{ "quiet", 'q', NULL, 0, "Print no denial lines", 1 },
	{ "verbose", 'v', NULL, 0, "Print more", 1 },
	{ "check", 'n', NULL, 0,
	  "Print the effective policy (a summary) and exit without running anything",
	  2 },
	{ "full", OPT_FULL, NULL, 0,
	  "With --check: every rule with its origin, every kernel rule and what the supervisor decides",
	  2 },
	{ "best-effort", OPT_BEST_EFFORT, NULL, 0,
	  "Run even if the kernel lacks some Landlock features (printed)", 2 },
	{ "supervise-all", OPT_SUPERVISE_ALL, NULL, 0,
	  "Let no read-only open continue in the kernel: the supervisor opens everything (slower; to compare)",
	  2 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct options *o = st->input;

	switch (key) {
	case 'a':
		if (o->n_as >= FBAC_MAX_LIST)
			argp_error(st, "too many --as options");
		o->as[o->n_as++] = arg;
		return 0;
	case 'D': {
		char copy[FBAC_MAX_PATH];

		snprintf(copy, sizeof(copy), "%s", arg);
		if (o->n_defs >= FBAC_MAX_DEFINES ||
		    fbac_define_parse(arg, NULL, &o->defs[o->n_defs]) < 0)
			argp_error(st, "invalid -D '%s' (expected FUNC.PARAM=VALUE)",
				   copy);
		o->n_defs++;
		return 0;
	}
	case 'p':
	case 'P':
		if (o->n_dirs >= FBAC_MAX_LAYERS - 4)
			argp_error(st, "too many -p/-P options");
		o->dirs[o->n_dirs++] = arg;
		return 0;
	case 'm':
		if (streq(arg, "enforce"))
			o->mode = MODE_ENFORCE;
		else if (streq(arg, "complain"))
			o->mode = MODE_COMPLAIN;
		else if (streq(arg, "learn"))
			o->mode = MODE_LEARN;
		else
			argp_error(st, "unknown mode '%s' (expected enforce, complain or learn)",
				   arg);
		return 0;
	case OPT_LEARN:
		o->mode = MODE_LEARN;
		return 0;
	case 'l':
		o->log = arg;
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case OPT_YES:
		o->yes = true;
		return 0;
	case 'q':
		o->verbosity = -1;
		return 0;
	case 'v':
		o->verbosity = 1;
		return 0;
	case 'n':
		o->check = true;
		return 0;
	case OPT_FULL:
		o->full = true;
		return 0;
	case OPT_SUPERVISE_ALL:
		o->supervise_all = true;
		return 0;
	case OPT_NO_INFER:
		o->no_infer = true;
		return 0;
	case OPT_BEST_EFFORT:
		o->best_effort = true;
		return 0;
	case ARGP_KEY_ARG:
		/* The command and its arguments are not ours. */
		o->command = &st->argv[st->next - 1];
		st->next = st->argc;
		return 0;
	case ARGP_KEY_END:
		if (!o->command)
			argp_error(st, "missing COMMAND");
		if (o->full && !o->check)
			argp_error(st, "--full goes with --check");
		if ((o->output || o->yes) && o->mode != MODE_LEARN)
			argp_error(st, "--output and --yes go with --learn");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

int main(int argc, char **argv)
{
	struct argp argp = {
		options, parse_opt, "COMMAND [ARG...]",
		"Run COMMAND confined by functionalities: by its application "
		"policy from the policy layers, or by the --as functionalities."
		"\vExit status: COMMAND's own; 128+N if it was killed by signal "
		"N; 125 if fbac-run failed; 126 if COMMAND cannot be executed; "
		"127 if it was not found. See fbac-run(1).",
		NULL, NULL, NULL
	};
	struct options o = { .mode = MODE_ENFORCE };
	int ret;

	program_name_short = "fbac-run";
	argp_err_exit_status = EXIT_FBAC;
	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &o) != 0)
		return EXIT_FBAC;
	ret = run(&o);
	if (o.exit_now) {
		fflush(NULL);
		_exit(ret);
	}
	return ret;
}
