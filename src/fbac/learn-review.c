/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac learn on a terminal: the proposal reviewed item by item, as
 * aa-logprof does (line-based prompts, so they work in tmux); and the
 * delta for a program that already has a policy.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "learn.h"
#include "output.h"

static bool ask_line(const char *prompt, char *buf, size_t size)
{
	fputs(prompt, stderr);
	fflush(stderr);
	if (!fgets(buf, (int)size, stdin))
		return false;
	buf[strcspn(buf, "\n")] = 0;
	return true;
}

bool learn_confirm(const char *question, bool def)
{
	char buf[64], prompt[256];

	snprintf(prompt, sizeof(prompt), "%s [%s] ", question, def ? "Y/n" : "y/N");
	if (!ask_line(prompt, buf, sizeof(buf)))
		return false;
	if (!buf[0])
		return def;
	return buf[0] == 'y' || buf[0] == 'Y';
}

static void show_func(const struct fbac_prop_func *pf)
{
	fprintf(stderr, "\n%s%s", pf->f->name, pf->f->high_level ? " (high-level)" : "");
	for (size_t a = 0; a < pf->n_args; a++)
		fprintf(stderr, "%s%s: %s", a ? ", " : " {", pf->arg_names[a],
			pf->arg_values[a]);
	fprintf(stderr, "%s: %s\n", pf->n_args ? "}" : "", pf->f->description);
	if (pf->example)
		fprintf(stderr, "  covers %zu accesses, e.g. %s %s\n", pf->covers,
			fbac_op_info(pf->example->q.op)->name,
			pf->example->q.path ? pf->example->q.path : "(network)");
	if (pf->evidence)
		fprintf(stderr, "  chosen for what the program is: %s\n", pf->evidence);
	for (size_t k = 0; k < pf->n_protected; k++)
		fprintf(stderr, "  it also grants the protected path %s, which the run used\n",
			pf->protected_paths[k]);
}

/* Another functionality that allows the item's example access. */
static int choose_other(struct fbac_prop_func *pf, struct fbac_arena *a,
			const struct fbac_library *lib,
			const struct fbac_env *env)
{
	struct fbac_suggestion sug[8];
	size_t n = 0;
	char fill[FBAC_MAX_PATH], buf[32];
	int r;

	if (!pf->example) {
		fputs("no access to choose by\n", stderr);
		return 0;
	}
	r = fbac_suggest(lib, env, &pf->example->q,
			 fbac_suggest_fill_dir(&pf->example->q, fill, sizeof(fill)),
			 sug, 8, &n);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "  %zu) %s%s%s%s: %s\n", i + 1, sug[i].f->name,
			sug[i].fill ? " {" : "", sug[i].fill ? sug[i].fill : "",
			sug[i].fill ? "}" : "", sug[i].f->description);
	if (!n || !ask_line("number (Enter: keep)? ", buf, sizeof(buf)) || !buf[0])
		return 0;
	r = atoi(buf);
	if (r < 1 || (size_t)r > n)
		return 0;
	pf->f = sug[r - 1].f;
	pf->n_args = 0;
	pf->n_protected = 0;
	for (size_t i = 0; sug[r - 1].fill && i < pf->f->n_params; i++)
		if (!pf->f->params[i].def &&
		    (pf->f->params[i].type == FBAC_PT_PATH ||
		     pf->f->params[i].type == FBAC_PT_PATHS)) {
			pf->arg_names[pf->n_args] = pf->f->params[i].name;
			if (!(pf->arg_values[pf->n_args++] = fbac_arena_strdup(a, sug[r - 1].fill)))
				return -ENOMEM;
		}
	return 0;
}

static int narrow(struct fbac_prop_func *pf, struct fbac_arena *a)
{
	char name[FBAC_MAX_NAME], value[FBAC_MAX_PATH];
	size_t i;

	for (i = 0; i < pf->f->n_params; i++)
		fprintf(stderr, "  %s (%s)%s\n", pf->f->params[i].name,
			fbac_ptype_name(pf->f->params[i].type),
			pf->f->params[i].ask ? pf->f->params[i].ask : "");
	if (!pf->f->n_params) {
		fputs("it has no parameters\n", stderr);
		return 0;
	}
	if (!ask_line("parameter? ", name, sizeof(name)) || !name[0])
		return 0;
	for (i = 0; i < pf->f->n_params; i++)
		if (streq(pf->f->params[i].name, name))
			break;
	if (i == pf->f->n_params) {
		fprintf(stderr, "no parameter '%s'\n", name);
		return 0;
	}
	if (!ask_line("value (list items separated by commas)? ", value,
		      sizeof(value)) || !value[0])
		return 0;
	for (i = 0; i < pf->n_args; i++)
		if (streq(pf->arg_names[i], name))
			break;
	if (i == pf->n_args) {
		if (pf->n_args >= FBAC_MAX_PARAMS)
			return 0;
		pf->n_args++;
	}
	for (size_t k = 0; k < pf->f->n_params; k++)
		if (streq(pf->f->params[k].name, name))
			pf->arg_names[i] = pf->f->params[k].name;
	if (!(pf->arg_values[i] = fbac_arena_strdup(a, value)))
		return -ENOMEM;
	return 0;
}

int learn_review(struct learn_view *v, struct fbac_proposal *p,
		 const struct fbac_library *lib, const struct fbac_env *env)
{
	bool *keep_func = (bool *)v->keep_func, *keep_raw = (bool *)v->keep_raw,
	     *grant = (bool *)v->grant_prot;
	char buf[32];
	int r;

	fprintf(stderr, "fbac: %zu functionalities, %zu raw privileges and %zu protected accesses to review\n",
		p->n_funcs, p->n_raw, p->n_prot);
	for (size_t i = 0; i < p->n_funcs; i++) {
		for (;;) {
			show_func(&p->funcs[i]);
			if (!ask_line("[A]ccept, [d]rop, [c]hoose another, [n]arrow a parameter? ",
				      buf, sizeof(buf)))
				return 0; /* end of input: the rest as proposed */
			if (!buf[0] || buf[0] == 'a' || buf[0] == 'A')
				break;
			if (buf[0] == 'd' || buf[0] == 'D') {
				keep_func[i] = false;
				break;
			}
			if (buf[0] == 'c' || buf[0] == 'C')
				r = choose_other(&p->funcs[i], p->arena, lib, env);
			else if (buf[0] == 'n' || buf[0] == 'N')
				r = narrow(&p->funcs[i], p->arena);
			else
				r = 0;
			if (r < 0)
				return r;
		}
	}
	for (size_t i = 0; i < p->n_raw; i++) {
		const struct fbac_prop_raw *rp = &p->raw[i];

		if (rp->pattern)
			fprintf(stderr, "\nraw privilege: %s (%zu accesses)\n",
				rp->pattern, rp->covers);
		else
			fprintf(stderr, "\nraw privilege: %s %s port %u\n",
				fbac_op_info(rp->net_op)->name,
				rp->proto == FBAC_PROTO_TCP ? "tcp" : "udp", rp->port);
		if (!ask_line("[A]ccept, [d]rop? ", buf, sizeof(buf)))
			return 0;
		keep_raw[i] = !(buf[0] == 'd' || buf[0] == 'D');
	}
	for (size_t i = 0; i < p->n_prot; i++) {
		char q[FBAC_MAX_PATH + 128];

		snprintf(q, sizeof(q), "\nthe run used the PROTECTED path %s (%zu accesses, e.g. %s %s): grant them on %s%s%s%s?",
			 p->prot[i].prot_path, p->prot[i].covers,
			 fbac_op_info(p->prot[i].obs->q.op)->name, p->prot[i].obs->q.path,
			 p->prot[i].pattern, p->prot[i].suggestion ? " (as " : "",
			 p->prot[i].suggestion ? p->prot[i].suggestion : "",
			 p->prot[i].suggestion ? " would)" : "");
		grant[i] = learn_confirm(q, false);
	}
	return 0;
}

/* The indentation of the first list item after line i, or "  ". */
static const char *item_indent(char **lines, size_t n, size_t i, char *buf)
{
	for (size_t k = i + 1; k < n; k++) {
		size_t sp = strspn(lines[k], " ");

		if (lines[k][sp] == '-' && lines[k][sp + 1] == ' ') {
			snprintf(buf, 16, "%.*s", (int)(sp < 15 ? sp : 15), lines[k]);
			return buf;
		}
		if (lines[k][0] && lines[k][0] != ' ' && lines[k][0] != '#')
			break;
	}
	return "  ";
}

/* Insert items (written with two spaces of indentation) at the end of
 * the block of key, or as a new block at the end. */
static int insert_block(char **out, const char *text, const char *key,
			const char *items)
{
	_cleanup_free_ char *copy = strdup(text);
	char *lines[4096], indent[16];
	size_t n = 0, at = (size_t)-1, end;
	FILE *f;
	char *res = NULL;
	size_t size = 0;
	const char *ind;

	if (!copy)
		return -ENOMEM;
	for (char *s = copy, *e; s && *s && n < ARRAY_SIZE(lines); s = e) {
		e = strchr(s, '\n');
		if (e)
			*e++ = 0;
		lines[n++] = s;
	}
	for (size_t i = 0; i < n; i++) {
		if (!strcmp(lines[i], "---"))
			return -EINVAL; /* several documents: by hand */
		if (!strncmp(lines[i], key, strlen(key)) &&
		    lines[i][strlen(key)] == ':') {
			const char *after = lines[i] + strlen(key) + 1;

			if (after[strspn(after, " ")] && after[strspn(after, " ")] != '#')
				return -EINVAL; /* a flow list: by hand */
			at = i;
		}
	}
	end = n;
	if (at != (size_t)-1)
		for (end = at + 1; end < n; end++) {
			const char *l = lines[end];

			if (l[0] && l[0] != ' ' && l[0] != '#' && l[0] != '-')
				break;
		}
	ind = at != (size_t)-1 ? item_indent(lines, n, at, indent) : "  ";
	f = open_memstream(&res, &size);
	if (!f)
		return -ENOMEM;
	for (size_t i = 0; i < end; i++)
		fprintf(f, "%s\n", lines[i]);
	if (at == (size_t)-1)
		fprintf(f, "%s:\n", key);
	for (const char *s = items; *s;) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		if (len >= 2 && !strncmp(s, "  ", 2))
			fprintf(f, "%s%.*s\n", ind, (int)(len - 2), s + 2);
		else
			fprintf(f, "%.*s\n", (int)len, s);
		s += len + (e != NULL);
	}
	for (size_t i = end; i < n; i++)
		fprintf(f, "%s\n", lines[i]);
	fclose(f);
	*out = res;
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t n = 0;

	if (!f)
		return NULL;
	buf = malloc(FBAC_MAX_FILE_SIZE + 1);
	if (buf) {
		n = fread(buf, 1, FBAC_MAX_FILE_SIZE, f);
		buf[n] = 0;
	}
	fclose(f);
	return buf;
}

static char *items_text(const struct learn_view *v, int what)
{
	char *s = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&s, &n);

	if (!f)
		return NULL;
	learn_write_items(f, v, what);
	fclose(f);
	return s;
}

/* A block of lines to add, each marked '+'. */
static void print_plus(const char *key, const char *items)
{
	if (!items[0])
		return;
	printf("+%s:\n", key);
	for (const char *s = items; *s;) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);

		printf("+%.*s\n", (int)len, s);
		s += len + (e != NULL);
	}
}

int learn_delta(struct global *g, const struct learn_view *v,
		const struct layers *l, const struct fbac_stack *existing,
		const char *output, bool yes)
{
	const struct fbac_proposal *p = v->p;
	const struct fbac_application *app = NULL;
	const struct fbac_stack_entry *entry = NULL;
	_cleanup_free_ char *funcs = NULL, *raw = NULL, *denied = NULL,
			    *old = NULL, *mid = NULL, *mid2 = NULL, *new_text = NULL;
	char dest[PATH_MAX];
	int r;

	if (!p->n_funcs && !p->n_raw) {
		fprintf(stderr, "fbac: the policy of '%s' already allows every access of the run%s\n",
			v->program, p->n_prot ? " but the protected ones above" : "");
		return 0;
	}
	/*
	 * The entry to add to: the user's; else the shipped one, whose copy
	 * with the lines added goes to the user's layer, where it replaces
	 * the shipped policy (fbac-profile(5), LAYERS). An administrator's
	 * policy is never changed: the lines are printed for them.
	 */
	for (int pass = 0; pass < 2 && !app; pass++)
		for (size_t i = 0; i < existing->n && !app; i++) {
			const struct fbac_layer *layer = existing->entries[i].layer;

			if (!layer || layer->kind != (pass ? FBAC_LAYER_LIBRARY :
							     FBAC_LAYER_USER))
				continue;
			entry = &existing->entries[i];
			app = fbac_library_find_app(l->lib,
						    (unsigned)(layer - l->lib->layers),
						    entry->policy->name);
		}
	if (app && entry->layer->kind == FBAC_LAYER_LIBRARY) {
		r = user_policy_path(l, app->name, dest, sizeof(dest));
		if (r < 0)
			return r;
	} else if (app) {
		snprintf(dest, sizeof(dest), "%s", app->mark.file);
	}
	funcs = items_text(v, LEARN_FUNCS);
	raw = items_text(v, LEARN_PRIVILEGES);
	denied = items_text(v, LEARN_DENIED);
	if (!funcs || !raw || !denied)
		return log_error(-ENOMEM, "out of memory");
	printf("# What to add to the policy of %s (%zu accesses it already allows):\n",
	       v->program, p->n_already);
	if (!app) {
		print_plus("functionalities", funcs);
		print_plus("privileges", raw);
		print_plus("denied", denied);
		fprintf(stderr, "fbac: '%s' has its policy in layer %s, which fbac learn does not change: add these lines to it by hand%s%s%s\n",
			v->program, existing->entries[0].layer_name,
			output ? "; nothing written to '" : "", output ? output : "",
			output ? "' (fbac learn --full proposes a whole policy)" : "");
		return 0;
	}
	old = slurp(app->mark.file);
	if (!old)
		return log_error(-errno, "cannot read '%s': %m", app->mark.file);
	r = insert_block(&mid, old, "functionalities", funcs);
	if (r == 0 && raw[0])
		r = insert_block(&mid2, mid, "privileges", raw);
	else if (r == 0)
		mid2 = TAKE_PTR(mid);
	if (r == 0 && denied[0])
		r = insert_block(&new_text, mid2, "denied", denied);
	else if (r == 0)
		new_text = TAKE_PTR(mid2);
	if (r == -EINVAL) {
		print_plus("functionalities", funcs);
		print_plus("privileges", raw);
		print_plus("denied", denied);
		return log_error(r, "cannot apply the delta to '%s' (several documents or flow lists): add these lines by hand",
				 app->mark.file);
	}
	if (r < 0)
		return log_error(r, "out of memory");
	printf("--- %s\n+++ %s (proposed)\n", app->mark.file, dest);
	{
		/* Lines of the new text that the old one lacks, in order. */
		const char *o = old;

		for (const char *s = new_text; *s;) {
			const char *e = strchr(s, '\n');
			size_t len = e ? (size_t)(e - s) + 1 : strlen(s);

			if (!strncmp(o, s, len))
				o += len, printf(" %.*s", (int)len, s);
			else
				printf("+%.*s", (int)len, s);
			s += len;
		}
	}
	fflush(stdout);
	if ((r = learn_check_text(g, new_text, app->name, NULL, v)) < 0)
		return r;
	if (output)
		return learn_write_file(output, new_text);
	if (!yes && !(isatty(STDIN_FILENO) && learn_confirm("apply it?", true))) {
		fprintf(stderr, "fbac: not applied\n");
		return 0;
	}
	if ((r = learn_write_file(dest, new_text)) < 0)
		return r;
	if (strcmp(dest, app->mark.file))
		fprintf(stderr, "fbac: wrote '%s': the shipped policy with these lines, which replaces it for you\n",
			dest);
	else
		fprintf(stderr, "fbac: added to '%s'\n", dest);
	return 0;
}
