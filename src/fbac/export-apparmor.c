/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A compiled policy as an AppArmor profile (ABI 3.0, apparmor.d(5)).
 *
 * fbac patterns become AppArmor globs: '**' as a whole component matches
 * zero or more components, so a trailing one becomes "{,/" "**}" and one
 * in the middle "/{," "**" "/}". Operations become modes: file_read r, the changes w,
 * file_append a (w includes it), file_link l, file_execute ix (the child
 * keeps the profile, as fbac's authority is inherited across exec; a
 * program named by a rule that has a policy of its own stacks its profile,
 * "pix -> &NAME", as fbac-run intersects both), and k
 * and m with what may be opened, because fbac does not mediate locking or
 * mapping. Each rule is preceded by the functionality chain it came from.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export-aa.h"
#include "export.h"
#include "fbac.h"
#include "macro.h"
#include "ops.h"
#include "path.h"

/* The application policy (of another program) whose executable path is:
 * in the highest discretionary layer that has one. */
static const struct fbac_application *other_app(const struct out *o,
						 const char *path)
{
	for (unsigned i = o->lib->n_layers; i-- > 0;) {
		const struct fbac_application *a;

		if (o->lib->layers[i].kind == FBAC_LAYER_ADMIN)
			continue;
		a = fbac_library_find_app(o->lib, i, path);
		if (a && !streq(a->name, o->self->name))
			return a;
	}
	return NULL;
}

/* Whether running path may stack a's profile: a named transition, of
 * which a profile has only so many (else it is noted, and the program
 * runs under this profile alone, as a program without a policy would). */
static bool may_stack(struct out *o, const struct fbac_application *a,
		      const char *path)
{
	for (size_t i = 0; i < o->n_targets; i++)
		if (streq(o->targets[i], a->name))
			return true;
	if (o->n_targets < FBAC_MAX_AA_TARGETS) {
		o->targets[o->n_targets++] = a->name;
		return true;
	}
	note(o,
	     "%s has the policy '%s' of its own: AppArmor takes at most %d profile transitions in a profile, so here it runs under this profile alone",
	     path, a->name, FBAC_MAX_AA_TARGETS);
	return false;
}

/* The executables of other application policies that the policy lets the
 * program run through a pattern (all of /usr/bin, say): listed. A literal
 * rule for each would stack its profile, but AppArmor takes only so many
 * transitions in a profile. */
static void other_programs(struct out *o, const struct fbac_policy *pol)
{
	for (size_t i = 0; i < o->lib->n_apps; i++) {
		const struct fbac_application *a = o->lib->apps[i];

		if (streq(a->name, o->self->name) ||
		    o->lib->layers[a->layer].kind == FBAC_LAYER_ADMIN)
			continue;
		for (size_t k = 0; k < a->n_executables; k++) {
			const char *e = a->executables[k];
			struct fbac_verdict v;
			bool literal = false;

			if (other_app(o, e) != a ||
			    fbac_policy_check_path(pol, FBAC_OP_FILE_EXECUTE, e, &v) < 0 ||
			    !v.allowed)
				continue;
			for (size_t r = 0; r < pol->n_prules && !literal; r++)
				literal = (pol->prules[r].ops & OPB(FILE_EXECUTE)) &&
					  streq(pol->prules[r].pattern, e);
			if (!literal)
				add_to(o, &o->unstacked, e);
		}
	}
}

/* One path rule (or carve-out): a line for files and, when the rule names
 * directories, one for them. */
static void path_rule(struct out *o, const char *pattern, uint32_t ops, bool deny,
		      bool tree, const struct fbac_origin *or)
{
	char glob[2 * FBAC_MAX_PATH + 32], m[16];
	uint32_t widened = 0;
	const struct fbac_application *other;

	if (aa_glob(pattern, tree, false, glob, sizeof(glob)) < 0) {
		note(o, "%s %s '%s' from %s: the path has a character AppArmor paths cannot hold",
		     deny ? "denied" : "allowed", op_names(ops & FBAC_PATH_OPS), pattern,
		     origin_text(or));
		return;
	}
	if (!deny && (ops & OPB(FILE_GETATTR)))
		add_to(o, &o->getattr, pattern);
	if (!deny && (ops & OPB(FILE_IOCTL)))
		add_to(o, &o->ioctl, pattern);
	if (!deny && (ops & W_FILE_OPS) && !(ops & OPB(FILE_WRITE)))
		widened = ops & W_FILE_OPS;
	modes(ops, tree ? BOTH : FILES, deny, m);
	other = !deny && (ops & OPB(FILE_EXECUTE)) && !fbac_has_wildcard(pattern) ?
			other_app(o, pattern) : NULL;
	if (other && !may_stack(o, other, pattern))
		other = NULL;
	if (*m) {
		from(o, or);
		if (widened)
			fprintf(o->f, "  # wider here: AppArmor grants %s only with w, which also allows writing\n",
				op_names(widened));
		if (other) {
			/* "mrkix" -> "mrkpix -> &NAME" */
			m[strlen(m) - 2] = '\0';
			fprintf(o->f, "  # %s has a policy of its own: it runs under both\n", pattern);
			fprintf(o->f, "  %s %spix -> &%s,\n", glob, m, other->name);
		} else {
			fprintf(o->f, "  %s%s %s,\n", deny ? "deny " : "", glob, m);
		}
	}
	if (tree || !(ops & DIR_OPS))
		return;
	aa_glob(pattern, false, true, glob, sizeof(glob));
	modes(ops, DIRS, deny, m);
	if (*m) {
		from(o, or);
		fprintf(o->f, "  %s%s %s,\n", deny ? "deny " : "", glob, m);
	}
}

/* Whether a rule's literal part lies at or below dir. */
static bool below(const struct fbac_prule *r, const char *dir)
{
	size_t n = strlen(dir), lit = strcspn(r->pattern, "*?");

	return lit >= n && !strncmp(r->pattern, dir, n) &&
	       (r->pattern[n] == '/' || !r->pattern[n]);
}

/* Remove from deny the mode letters that keep names. */
static void without(char *deny, const char *keep)
{
	char *o = deny;

	for (const char *p = deny; *p; p++)
		if (!strchr(keep, *p))
			*o++ = *p;
	*o = '\0';
}

static void protected_paths(struct out *o, const struct fbac_policy *pol)
{
	for (size_t i = 0; i < pol->n_protected; i++) {
		const struct fbac_resolved_protected *pp = &pol->protected[i];
		uint32_t named = 0, deny;

		for (size_t k = 0; k < pol->n_prules; k++)
			if (!pol->prules[k].deny && below(&pol->prules[k], pp->path))
				named |= pol->prules[k].ops;
		deny = FBAC_PATH_OPS & ~pp->allow & ~named & ~NO_AA_OPS;
		fprintf(o->f, "\n  # protected: %s (%s:%u)\n", pp->reason, pp->mark.file,
			pp->mark.line);
		o->last = NULL;
		if (named)
			fprintf(o->f, "  # named by this policy's own rules for %s: AppArmor cannot cut those out of the broader rules\n",
				op_names(named));
		if (named & ~pp->allow & FBAC_PATH_OPS)
			note(o, "protected '%s': fbac keeps broad rules out of it for %s; AppArmor cannot, since this policy names it",
			     pp->path, op_names(named & ~pp->allow & FBAC_PATH_OPS));
		{
			char glob[2 * FBAC_MAX_PATH + 32], m[16], keep[16];

			modes(deny, BOTH, true, m);
			modes(named, BOTH, false, keep);
			without(m, keep);
			if (aa_glob(pp->path, true, false, glob, sizeof(glob)) < 0)
				note(o, "protected '%s': a path AppArmor cannot hold", pp->path);
			else if (*m)
				fprintf(o->f, "  deny %s %s,\n", glob, m);
		}
		o->last = NULL;
	}
}

static const char *ports_text(const struct fbac_rule *r)
{
	static char buf[512];

	buf[0] = '\0';
	for (size_t i = 0; i < r->n_ports && strlen(buf) < sizeof(buf) - 16; i++) {
		size_t n = strlen(buf);

		if (r->ports[i].lo == r->ports[i].hi)
			snprintf(buf + n, sizeof(buf) - n, "%s%u", i ? "," : "", r->ports[i].lo);
		else
			snprintf(buf + n, sizeof(buf) - n, "%s%u-%u", i ? "," : "",
				 r->ports[i].lo, r->ports[i].hi);
	}
	return r->n_ports ? buf : "any";
}

static void net_rules(struct out *o, const struct fbac_policy *pol)
{
	bool types[2] = { false, false }; /* stream, dgram */

	for (size_t i = 0; i < pol->n_net; i++) {
		const struct fbac_rule *r = pol->net[i];
		bool tcp = r->proto == FBAC_PROTO_TCP;
		char hosts[512] = "any host";

		if (r->n_hosts) {
			hosts[0] = '\0';
			for (size_t k = 0; k < r->n_hosts && strlen(hosts) < 400; k++)
				snprintf(hosts + strlen(hosts), sizeof(hosts) - strlen(hosts),
					 "%s%s", k ? "," : "", r->hosts[k]);
		}
		from(o, r->origin);
		fprintf(o->f, "  # %s %s ports %s, %s\n", op_names(r->ops), tcp ? "tcp" : "udp",
			ports_text(r), hosts);
		fprintf(o->f, "  network inet %s,\n  network inet6 %s,\n",
			tcp ? "stream" : "dgram", tcp ? "stream" : "dgram");
		types[tcp ? 0 : 1] = true;
		note(o, "%s %s ports %s to %s from %s: AppArmor 3 network rules name no port or host; any %s address is allowed",
		     op_names(r->ops), tcp ? "tcp" : "udp", ports_text(r), hosts,
		     origin_text(r->origin), tcp ? "tcp" : "udp");
	}
	(void)types;
}

static void abstract_rules(struct out *o, const struct fbac_policy *pol)
{
	for (size_t i = 0; i < pol->n_abstract; i++) {
		const struct fbac_rule *r = pol->abstract[i];
		char glob[2 * FBAC_MAX_PATH + 32];

		/* "@name": the name, an absolute-looking path or not. */
		if (strpbrk(r->pattern + 1, "\"\\\n") ||
		    (size_t)snprintf(glob, sizeof(glob), "%s", r->pattern) >= sizeof(glob)) {
			note(o, "%s '%s' from %s: a name AppArmor cannot quote",
			     op_names(r->ops), r->pattern, origin_text(r->origin));
			continue;
		}
		from(o, r->origin);
		if (r->ops & OPB(UNIX_CONNECT))
			fprintf(o->f, "  unix (connect, send, receive) peer=(addr=\"%s\"),\n", glob);
		if (r->ops & OPB(UNIX_BIND))
			fprintf(o->f, "  unix (bind, listen, accept, send, receive) addr=\"%s\",\n", glob);
	}
}

int export_apparmor(FILE *f, const struct layers *l,
		    const struct fbac_application *app,
		    const struct fbac_policy *pol)
{
	struct out o = { .f = f, .lib = l->lib, .self = app };
	char glob[2 * FBAC_MAX_PATH + 32];
	const char *home = fbac_env_get(&l->env, "HOME", 4);

	fprintf(f, "# AppArmor profile of the fbac application policy '%s' (layer '%s', %s:%u),\n",
		app->name, l->lib->layers[app->layer].name, app->mark.file, app->mark.line);
	fprintf(f, "# written by 'fbac export --apparmor %s' for the home %s.\n", app->name, home);
	fprintf(f, "# Each rule names the functionality it came from; the protected paths\n"
		   "# are deny rules; what AppArmor cannot say is listed at the end.\n");
	for (unsigned i = 0; i < l->lib->n_layers; i++) {
		const struct fbac_application *other =
			fbac_library_find_app(l->lib, i, app->name);

		if (other && other != app)
			fprintf(f, "# Layer '%s' has a policy for it too (%s:%u), %s; not in this profile.\n",
				l->lib->layers[i].name, other->mark.file, other->mark.line,
				l->lib->layers[i].kind == FBAC_LAYER_ADMIN ?
					"which fbac-run intersects with this one" :
					"which this one replaces");
	}
	fprintf(f, "abi <abi/3.0>,\n\nprofile %s ", app->name);
	if (app->n_executables == 1) {
		aa_glob(app->executables[0], false, false, glob, sizeof(glob));
		fprintf(f, "%s", glob);
	} else {
		/* "/{usr/bin/a,usr/games/b}": an attachment starts with '/'. */
		char *all = NULL;
		size_t len = 0;
		bool quote = false;
		FILE *m = open_memstream(&all, &len);

		if (!m)
			return -ENOMEM;
		for (size_t i = 0; i < app->n_executables; i++) {
			const char *g = glob;

			aa_glob(app->executables[i], false, false, glob, sizeof(glob));
			if (*g == '"') {
				quote = true;
				g++;
				glob[strlen(glob) - 1] = '\0';
			}
			fprintf(m, "%s%s", i ? "," : "", g + 1);
		}
		fclose(m);
		fprintf(f, quote ? "\"/{%s}\"" : "/{%s}", all ? all : "");
		free(all);
	}
	fprintf(f, " {\n");
	fprintf(f, "  # fbac-run drops every capability and denies ptrace, mount, bpf,\n"
		   "  # keyrings and io_uring: this profile grants none of them either.\n");
	/* Grouped by origin, in the order each first appears. */
	for (size_t i = 0; i < pol->n_prules; i++) {
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = pol->prules[k].origin == pol->prules[i].origin;
		for (size_t k = i; !seen && k < pol->n_prules; k++) {
			const struct fbac_prule *r = &pol->prules[k];
			size_t n = strlen(r->pattern);

			if (r->origin != pol->prules[i].origin)
				continue;
			path_rule(&o, r->pattern, r->ops, r->deny,
				  n >= 3 && streq(r->pattern + n - 3, "/**"), r->origin);
		}
	}
	other_programs(&o, pol);
	net_rules(&o, pol);
	abstract_rules(&o, pol);
	fprintf(f, "\n  # unix sockets: fbac decides connect and bind only (above); the\n"
		   "  # rest is open, and its own processes talk to each other\n"
		   "  unix (create, getattr, setattr, getopt, setopt, shutdown),\n"
		   "  unix (send, receive) peer=(label=%s),\n",
		app->name);
	fprintf(f, "\n  # signals: %s\n", pol->signal_origin ?
		origin_text(pol->signal_origin) : "its own processes only (fbac's signal scope)");
	if (pol->signal_origin)
		fprintf(f, "  signal (send),\n");
	else
		fprintf(f, "  signal (send) peer=%s,\n", app->name);
	fprintf(f, "  signal (receive),\n");
	o.last = NULL;
	protected_paths(&o, pol);
	fprintf(f, "}\n");
	if (o.n_notes || o.getattr.n || o.ioctl.n || o.unstacked.n) {
		fprintf(f, "\n# Not expressible in AppArmor 3 (listed, not dropped):\n");
		print_list(f, "file_getattr (stat, access, readlink): AppArmor does not mediate it,\n"
			   "#   so this profile lets the program see the metadata of every path;\n"
			   "#   fbac grants it only on:", &o.getattr);
		print_list(f, "file_ioctl: AppArmor 3 has no ioctl rule, so this profile allows\n"
			   "#   ioctl(2) on whatever the program opens; fbac grants it only on:",
			   &o.ioctl);
		print_list(f, "programs with a policy of their own that this one runs through a\n"
			   "#   pattern: under this profile alone here, where fbac-run would\n"
			   "#   intersect both policies (a rule naming one stacks its profile):",
			   &o.unstacked);
		for (size_t i = 0; i < o.n_notes; i++)
			fprintf(f, "#   %s\n", o.notes[i]);
	}
	free(o.getattr.v);
	free(o.ioctl.v);
	free(o.unstacked.v);
	for (size_t i = 0; i < o.n_notes; i++)
		free(o.notes[i]);
	free(o.notes);
	if (o.err)
		return o.err;
	return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}
