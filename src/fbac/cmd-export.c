/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac export --apparmor NAME: an application policy, compiled, as an
 * AppArmor profile (apparmor.d(5), ABI 3.0). Path rules keep their modes
 * and the functionality chain they came from; 'denied' entries and the
 * protected paths become deny rules; what AppArmor cannot say (stat,
 * ioctl, ports and hosts, creating without writing, ...) is listed as
 * comments, never dropped in silence. The rules themselves are in
 * export-apparmor.c.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "export.h"
#include "fbac.h"
#include "new.h"
#include "output.h"

struct export_opts {
	const char *name, *output;
	bool apparmor;
};

enum { OPT_APPARMOR = 0x100 };

static const struct argp_option options[] = {
	{ "apparmor", OPT_APPARMOR, NULL, 0, "Write an AppArmor profile (the only format)", 0 },
	{ "output", 'o', "FILE", 0, "Write to FILE instead of standard output", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct export_opts *o = st->input;

	switch (key) {
	case OPT_APPARMOR:
		o->apparmor = true;
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case ARGP_KEY_ARG:
		if (o->name)
			argp_error(st, "unexpected argument '%s'", arg);
		o->name = arg;
		return 0;
	case ARGP_KEY_END:
		if (!o->name)
			argp_error(st, "missing NAME");
		if (!o->apparmor)
			argp_error(st, "missing the format (--apparmor)");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

int cmd_export(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		options, parse_opt, "NAME",
		"Write the application policy NAME (the user's, else the "
		"library's) as an AppArmor profile.",
		NULL, NULL, NULL
	};
	struct export_opts o = { 0 };
	const struct fbac_application *app = NULL;
	struct fbac_policy *pol = NULL;
	struct layers l;
	FILE *f = stdout;
	int r, ret = EXIT_DENIED_OR_INVALID;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o) != 0)
		return EXIT_FAILURE_USAGE;
	r = global_load(g, &l);
	if (!l.lib)
		return r == -ENOMEM ? EXIT_FAILURE_USAGE : EXIT_DENIED_OR_INVALID;
	if (r < 0) {
		log_error(0, "the profiles have errors: run 'fbac check'");
		goto out;
	}
	/* The discretionary layers' policy: the highest one replaces the
	 * others (the administrator's is reported, not merged). */
	for (unsigned i = l.lib->n_layers; !app && i-- > 0;)
		if (l.lib->layers[i].kind != FBAC_LAYER_ADMIN)
			app = fbac_library_find_app(l.lib, i, o.name);
	if (!app) {
		log_error(0, "no application policy named '%s' (see 'fbac list -a')", o.name);
		ret = EXIT_FAILURE_USAGE;
		goto out;
	}
	if (compile_app(&l, app, &pol) < 0)
		goto out;
	if (o.output && !(f = fopen(o.output, "we"))) {
		log_error(-errno, "cannot write '%s'", o.output);
		ret = EXIT_FAILURE_USAGE;
		goto out;
	}
	r = export_apparmor(f, &l, app, pol);
	if (f != stdout && fclose(f) != 0 && r == 0)
		r = -EIO;
	if (r < 0) {
		log_error(r, "cannot write the profile");
		ret = EXIT_FAILURE_USAGE;
		goto out;
	}
	ret = EXIT_OK;
out:
	fbac_policy_free(pol);
	layers_free(&l);
	return ret;
}
