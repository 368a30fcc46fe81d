/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac explain: allowed or denied, by which chain, and what would grant it. */
#include <argp.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fbac.h"
#include "hint.h"
#include "output.h"
#include "path.h"
#include "suggest.h"

#define MAX_SUGGESTIONS 5

struct explain_opts {
	const char *as[FBAC_MAX_LIST];
	size_t n_as;
	struct fbac_define defs[FBAC_MAX_DEFINES];
	size_t n_defs;
	const char *args[3];
	size_t n_args;
	bool bad;
};

static const struct argp_option options[] = {
	{ "as", 'a', "FUNCTIONALITY", 0,
	  "Grant FUNCTIONALITY instead of the application's policy (repeatable)",
	  0 },
	{ "define", 'D', "FUNC.PARAM=VALUE", 0,
	  "Set a parameter of a granted functionality", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct explain_opts *o = st->input;

	switch (key) {
	case 'a':
		if (o->n_as >= ARRAY_SIZE(o->as))
			argp_error(st, "too many --as options");
		o->as[o->n_as++] = arg;
		return 0;
	case 'D':
		if (parse_define(arg, o->defs, &o->n_defs) < 0)
			o->bad = true;
		return 0;
	case ARGP_KEY_ARG:
		if (o->n_args >= 3)
			argp_error(st, "unexpected argument '%s'", arg);
		o->args[o->n_args++] = arg;
		return 0;
	case ARGP_KEY_END:
		if (o->n_args < 2 || (o->n_args == 2 && !o->n_as))
			argp_error(st, "expected [APP] OPERATION OBJECT, and --as without APP");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* "tcp:HOST:PORT", "tcp:PORT", "udp:[::1]:53". */
static int parse_net_object(char *s, struct fbac_query *q)
{
	char *colon = strchr(s, ':'), *last, *host;
	struct fbac_port_range pr;

	if (!colon)
		return -EINVAL;
	*colon = 0;
	if (streq(s, "tcp"))
		q->proto = FBAC_PROTO_TCP;
	else if (streq(s, "udp"))
		q->proto = FBAC_PROTO_UDP;
	else
		return -EINVAL;
	host = colon + 1;
	last = strrchr(host, ':');
	if (last && host[0] == '[') {
		char *close = strchr(host, ']');
		if (!close || close + 1 != last)
			return -EINVAL;
		*close = 0;
		host++;
	}
	if (last) {
		*last = 0;
		q->host = host;
		if (!fbac_host_is_valid(host) || streq(host, "any"))
			return -EINVAL;
	} else {
		last = colon;
	}
	if (fbac_parse_port_range(last + 1, &pr) < 0 || pr.lo != pr.hi)
		return -EINVAL;
	q->port = pr.lo;
	return 0;
}

static int parse_object(const struct fbac_env *env, char *obj,
			struct fbac_query *q, char *buf, size_t size)
{
	const char *why;
	char tmp[FBAC_MAX_PATH];

	switch (fbac_op_info(q->op)->kind) {
	case FBAC_KIND_NET:
		snprintf(tmp, sizeof(tmp), "%s", obj);
		if (parse_net_object(obj, q) < 0)
			return log_error(-EINVAL,
					 "invalid object '%s' (expected tcp:HOST:PORT, tcp:PORT, udp:HOST:PORT)",
					 tmp);
		return 0;
	case FBAC_KIND_SIGNAL:
		return 0;
	case FBAC_KIND_PATH:
		break;
	}
	if (obj[0] == '@') {
		q->path = obj;
		return 0;
	}
	if (obj[0] == '~' && (obj[1] == '/' || !obj[1])) {
		snprintf(tmp, sizeof(tmp), "%s%s",
			 fbac_env_get(env, "HOME", 4), obj + 1);
		obj = tmp;
	}
	if (fbac_path_normalize(obj, buf, size, &why) < 0)
		return log_error(-EINVAL, "invalid object '%s': %s", obj, why);
	q->path = buf;
	return 0;
}

static void print_object(const struct fbac_query *q)
{
	switch (fbac_op_info(q->op)->kind) {
	case FBAC_KIND_PATH:
		printf("'%s'", q->path);
		break;
	case FBAC_KIND_NET:
		if (q->host && strchr(q->host, ':'))
			printf("%s:[%s]:%u",
			       q->proto == FBAC_PROTO_TCP ? "tcp" : "udp",
			       q->host, q->port);
		else
			printf("%s:%s%s%u",
			       q->proto == FBAC_PROTO_TCP ? "tcp" : "udp",
			       q->host ? q->host : "", q->host ? ":" : "",
			       q->port);
		break;
	case FBAC_KIND_SIGNAL:
		printf("processes outside the sandbox");
		break;
	}
}

static void print_entry(const struct fbac_stack_entry *e, const char *opname,
			const struct fbac_verdict *v)
{
	printf("  layer %s (%s): %s", e->layer_name, e->policy->name,
	       v->allowed ? "allowed" : "denied");
	if (v->protected) {
		printf("\n    '%s' is protected (%s, %s:%u:%u)\n    the rule '%s %s' from ",
		       v->protected->path, v->protected->reason,
		       v->protected->mark.file, v->protected->mark.line,
		       v->protected->mark.col, opname, v->cut_rule);
		print_origin(stdout, v->cut_origin);
		printf(" does not reach it\n");
		return;
	}
	if (v->origin) {
		if (streq(v->rule, opname))
			printf(" by a '%s' rule from ", opname);
		else
			printf(" by %s'%s %s' from ",
			       v->deny_rule ? "the carve-out " : "", opname,
			       v->rule);
		print_origin(stdout, v->origin);
		putchar('\n');
		return;
	}
	printf(": no rule grants it\n");
}

/* The --as functionalities as grants (an error for an unknown one). */
static int explain_grants(const struct layers *l, const struct explain_opts *o,
			  struct fbac_include *grants)
{
	for (size_t i = 0; i < o->n_as; i++) {
		grants[i] = (struct fbac_include){
			.name = o->as[i],
			.mark = { "<command line>", 0, 0 },
			.target = fbac_library_find(l->lib, o->as[i]),
		};
		if (!grants[i].target) {
			const char *close = fbac_library_closest(l->lib,
								 o->as[i]);

			log_error(0,
				  "unknown functionality '%s' (%s%s%ssee 'fbac list')",
				  o->as[i], close ? "did you mean '" : "",
				  close ?: "", close ? "'? " : "");
			return -1;
		}
	}
	return 0;
}

/* Print the verdict, the chain of each entry of the stack, the policies
 * that replace others, and why metadata is visible. */
static void print_verdict(const struct fbac_stack *st,
			  const struct fbac_query *q,
			  const struct fbac_verdict *verdicts,
			  const char *opname, const char *app, bool allowed,
			  const struct fbac_stack_entry *meta_why)
{
	printf("%s: %s ", allowed ? "allowed" : "denied", opname);
	print_object(q);
	printf(" for %s\n", app ? app : "--as");
	for (size_t i = 0; i < st->n; i++)
		print_entry(&st->entries[i], opname, &verdicts[i]);
	for (size_t i = 0; i < st->n; i++)
		if (st->entries[i].replaces)
			printf("  (layer %s's policy replaces layer %s's)\n",
			       st->entries[i].layer_name,
			       st->entries[i].replaces);
	if (meta_why) {
		printf("  metadata is visible (layer %s: ",
		       meta_why->layer_name);
		print_metadata_why(stdout, meta_why->policy->res);
		printf("): the kernel answers stat, statx, statfs, access and readlink on any path; extended attributes and inotify still follow the rules\n");
	}
}

/* Print the functionalities of the library that would grant q (never one
 * by a parameter when the path is protected, pp). */
static int print_suggestions(const struct layers *l, const struct fbac_query *q,
			     const char *fill_dir,
			     const struct fbac_resolved_protected *pp,
			     const struct fbac_verdict *dv)
{
	struct fbac_suggestion sug[MAX_SUGGESTIONS];
	size_t n_sug = 0;
	int r;

	r = fbac_suggest(l->lib, &l->env, q, fill_dir, sug, MAX_SUGGESTIONS,
			 &n_sug);
	if (r < 0)
		return r;
	/* Never a protected path given to a parameter of another. */
	if (pp)
		n_sug = fbac_suggest_drop_params(sug, n_sug);
	if (pp && !(dv && dv->protected))
		printf("  '%s' is protected (%s): only a functionality that names it grants it\n",
		       pp->path, pp->reason);
	if (n_sug)
		printf("  would be granted by:");
	for (size_t i = 0; i < n_sug; i++) {
		printf("%s %s", i ? "," : "", sug[i].f->name);
		if (sug[i].param)
			printf("(%s=%s)", sug[i].param, sug[i].value);
		else if (sug[i].fill)
			printf("(%s)", sug[i].fill);
	}
	printf(n_sug ? "\n" : "  no functionality of the library grants it\n");
	return 0;
}

/* Print what would grant a denied q: nothing when the policy's own
 * carve-out refuses it, else the -D that would, and the functionalities.
 * Return the exit status. */
static int explain_denied(const struct layers *l,
			  const struct fbac_stack_input *si,
			  const struct fbac_stack *st,
			  const struct fbac_query *q,
			  const struct fbac_verdict *verdicts, const char *app)
{
	const struct fbac_resolved_protected *pp = fbac_hint_protected(st, q);
	char fill[FBAC_MAX_PATH];
	const char *fill_dir = fbac_suggest_fill_dir(q, fill, sizeof(fill));
	const struct fbac_verdict *dv = NULL;
	struct fbac_define_hint hints[2];
	size_t n_hints = 0;
	int r;

	for (size_t i = 0; i < st->n && !dv; i++)
		if (!verdicts[i].allowed)
			dv = &verdicts[i];
	/* The policy's own carve-out beats any grant: nothing to add. */
	if (dv && dv->deny_rule && dv->origin) {
		printf("  no functionality can grant it: the policy's own 'denied:' rule refuses it; remove or narrow that rule to allow it\n");
		return EXIT_DENIED_OR_INVALID;
	}
	r = fbac_hint_defines(si, q, fill_dir, hints, ARRAY_SIZE(hints),
			      &n_hints);
	if (r < 0)
		return EXIT_FAILURE_USAGE;
	for (size_t i = 0; i < n_hints; i++)
		printf("  %s -D %s.%s=%s\n",
		       i   ? "or" :
		       app ? "granted for it with" :
			     "granted with",
		       hints[i].f->name, hints[i].param, hints[i].value);
	if (print_suggestions(l, q, fill_dir, pp, dv) < 0)
		return EXIT_FAILURE_USAGE;
	return EXIT_DENIED_OR_INVALID;
}

int cmd_explain(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		options, parse_opt,
		"[APP] OPERATION OBJECT",
		"Explain whether APP (or the --as functionalities) may perform "
		"OPERATION on OBJECT, which functionality chain decides, and when "
		"denied, which functionalities of the library would grant it."
		"\vOBJECT is a path ('~' is the home directory; taken as written, "
		"symbolic links are not followed), '@name' for an abstract unix "
		"socket, or tcp:HOST:PORT, tcp:PORT, udp:HOST:PORT.",
		NULL, NULL, NULL
	};
	struct explain_opts o = { .n_as = 0 };
	struct fbac_include grants[FBAC_MAX_LIST];
	struct fbac_stack st = { .n = 0 };
	struct fbac_stack_input si = { 0 };
	struct fbac_query q = { 0 };
	struct fbac_verdict verdicts[FBAC_MAX_LAYERS + 1];
	struct fbac_diag d = { 0 };
	char pathbuf[FBAC_MAX_PATH];
	const char *opname, *app = NULL;
	bool allowed = true, visible = false;
	const struct fbac_stack_entry *meta_why = NULL;
	struct layers l;
	int r, ret = EXIT_FAILURE_USAGE;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o) != 0 || o.bad)
		return EXIT_FAILURE_USAGE;
	if (o.n_args == 3)
		app = o.args[0];
	opname = o.args[o.n_args - 2];
	if (fbac_op_from_name(opname, &q.op) < 0)
		return log_error(EXIT_FAILURE_USAGE,
				 "unknown operation '%s' (see fbac-profile(5))",
				 opname);
	r = global_load(g, &l);
	if (!l.lib)
		return r == -ENOMEM ? EXIT_FAILURE_USAGE : EXIT_DENIED_OR_INVALID;
	if (r < 0) {
		log_error(0, "the profiles have errors: run 'fbac check'");
		ret = EXIT_DENIED_OR_INVALID;
		goto out;
	}
	if (parse_object(&l.env, (char *)o.args[o.n_args - 1], &q, pathbuf,
			 sizeof(pathbuf)) < 0)
		goto out;
	if (explain_grants(&l, &o, grants) < 0)
		goto out;
	si = (struct fbac_stack_input){
		.lib = l.lib, .env = &l.env, .trusted_env = &l.trusted_env,
		.program = app, .grants = grants, .n_grants = o.n_as,
		.defines = o.defs, .n_defines = o.n_defs,
	};
	r = fbac_stack_build(&si, &st, &d);
	if (r < 0) {
		log_diag(r, &d);
		/* A bad -D is a usage error, not a broken profile. */
		ret = r == -ENOMEM || streq(d.file, "<command line>") ?
			      EXIT_FAILURE_USAGE :
			      EXIT_DENIED_OR_INVALID;
		goto out;
	}
	for (size_t i = 0; i < st.n; i++) {
		if (fbac_policy_query(st.entries[i].policy, &q, &verdicts[i]) <
		    0) {
			log_error(0, "cannot decide this operation on this object");
			goto out;
		}
		allowed &= verdicts[i].allowed;
	}
	/* Visible metadata: the kernel answers the stat family anyway. */
	if (!allowed && q.op == FBAC_OP_FILE_GETATTR &&
	    fbac_stack_metadata(&st, &meta_why) == FBAC_META_VISIBLE)
		allowed = visible = true;
	print_verdict(&st, &q, verdicts, opname, app, allowed,
		      visible ? meta_why : NULL);
	ret = allowed ? EXIT_OK :
			explain_denied(&l, &si, &st, &q, verdicts, app);
out:
	fbac_stack_clear(&st);
	layers_free(&l);
	return ret;
}
