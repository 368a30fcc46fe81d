/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac set PROGRAM TYPE.PARAM=VALUE...: save parameter values that
 * fbac-run --as TYPE PROGRAM uses when the command line sets none; fbac
 * unset PROGRAM [TYPE.PARAM...] removes them. They are kept in the user's
 * layer as a 'settings' document, one file per program:
 * $FBAC_USER_DIR/settings/PROGRAM.yaml.
 */
#include <argp.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "fbac.h"
#include "output.h"

struct entry {
	char func[FBAC_MAX_NAME + 1], param[FBAC_MAX_NAME + 1];
	char value[FBAC_MAX_SCALAR];
	enum fbac_ptype type;
};

struct set_opts {
	bool unset;
	const char *program;
	char **args;
	size_t n_args;
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct set_opts *o = st->input;

	switch (key) {
	case ARGP_KEY_ARG:
		o->program = arg;
		o->args = &st->argv[st->next];
		o->n_args = (size_t)(st->argc - st->next);
		st->next = st->argc;
		return 0;
	case ARGP_KEY_END:
		if (!o->program)
			argp_error(st, "missing PROGRAM");
		if (!o->unset && !o->n_args)
			argp_error(st, "missing TYPE.PARAM=VALUE");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* A saved YAML value as the comma-separated text fbac set takes. */
static int node_text(const struct fbac_ynode *n, char *out, size_t size)
{
	size_t o = 0;

	out[0] = 0;
	if (n->kind == FBAC_Y_SCALAR)
		return snprintf(out, size, "%s", n->value) < (int)size ? 0 :
									 -E2BIG;
	if (n->kind != FBAC_Y_SEQ)
		return -EINVAL;
	for (size_t i = 0; i < n->n; i++) {
		int w;

		if (n->items[i]->kind != FBAC_Y_SCALAR)
			return -EINVAL;
		w = snprintf(out + o, size - o, "%s%s", i ? "," : "",
			     n->items[i]->value);
		if (w < 0 || (size_t)w >= size - o)
			return -E2BIG;
		o += (size_t)w;
	}
	return 0;
}

/* A double-quoted YAML scalar; control characters are refused. */
static int put_quoted(FILE *f, const char *s, size_t len)
{
	fputc('"', f);
	for (size_t i = 0; i < len; i++) {
		if (iscntrl((unsigned char)s[i]))
			return -EINVAL;
		if (s[i] == '"' || s[i] == '\\')
			fputc('\\', f);
		fputc(s[i], f);
	}
	fputc('"', f);
	return 0;
}

static int put_value(FILE *f, const struct entry *e)
{
	const char *s = e->value;
	int r = 0;

	if (!fbac_ptype_is_list(e->type))
		return put_quoted(f, s, strlen(s));
	fputc('[', f);
	for (bool first = true; *s || first; first = false) {
		size_t n = strcspn(s, ",");

		if (!first)
			fputs(", ", f);
		if ((r = put_quoted(f, s, n)) < 0)
			return r;
		s += n;
		if (*s == ',')
			s++;
		else
			break;
	}
	fputc(']', f);
	return 0;
}

struct text {
	char *buf;
	size_t len;
};

static int encode_text(void *ctx, void **buf, size_t *len)
{
	struct text *t = ctx;

	*buf = t->buf;
	t->buf = NULL;
	*len = t->len;
	return 0;
}

static int write_settings(const char *path, const char *program,
			  const struct entry *e, size_t n)
{
	struct text t = { NULL, 0 };
	FILE *f = open_memstream(&t.buf, &t.len);
	int r = 0;

	if (!f)
		return -ENOMEM;
	fprintf(f, "# Saved by 'fbac set %s'; 'fbac unset %s' removes it.\n"
		   "fbac: 1\nsettings: %s\nfunctionalities:\n",
		program, program, program);
	for (size_t i = 0; i < n && r == 0; i++) {
		if (i == 0 || strcmp(e[i].func, e[i - 1].func))
			fprintf(f, "  - %s:\n", e[i].func);
		fprintf(f, "      %s: ", e[i].param);
		r = put_value(f, &e[i]);
		fputc('\n', f);
	}
	if (fclose(f) != 0 && r == 0)
		r = -ENOMEM;
	if (r == 0)
		r = cache_write(path, encode_text, &t);
	free(t.buf);
	return r;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c = strcmp(x->func, y->func);

	return c ? c : strcmp(x->param, y->param);
}

/* Check one value against its parameter: resolve the functionality with
 * it (the other required parameters filled with placeholders). */
static int check_value(const struct layers *l,
		       const struct fbac_functionality *f,
		       const struct fbac_define *d)
{
	struct fbac_include inc = { .name = f->name, .target = f,
				    .mark = { "<command line>", 0, 0 } };
	struct fbac_resolve_input ri = {
		.lib = l->lib, .env = &l->env, .trusted_env = &l->trusted_env,
		.grants = &inc, .n_grants = 1, .placeholders = true,
		.defines = d, .n_defines = 1,
	};
	_cleanup_(fbac_resolved_freep) struct fbac_resolved *res = NULL;
	struct fbac_diag diag = { 0 };
	int r = fbac_resolve(&ri, &res, &diag);

	return r < 0 ? log_diag(r, &diag) : 0;
}

static int set_one(const struct layers *l, char *arg, struct entry *e,
		   size_t *n)
{
	char copy[FBAC_MAX_SCALAR];
	struct fbac_define d;
	const struct fbac_functionality *f;
	const struct fbac_param *p = NULL;
	size_t i;
	int r;

	snprintf(copy, sizeof(copy), "%s", arg);
	if (fbac_define_parse(arg, NULL, &d) < 0 || !d.func)
		return log_error(-EINVAL, "invalid value '%s' (expected TYPE.PARAM=VALUE)",
				 copy);
	if (!(f = fbac_library_find(l->lib, d.func)))
		return log_error(-EINVAL, "unknown functionality '%s' (see 'fbac list')",
				 d.func);
	for (i = 0; i < f->n_params && !p; i++)
		if (streq(f->params[i].name, d.param))
			p = &f->params[i];
	if (!p)
		return log_error(-EINVAL, "'%s' has no parameter '%s' (see 'fbac show %s')",
				 f->name, d.param, f->name);
	if (strlen(d.value) >= sizeof(e->value))
		return log_error(-E2BIG, "value of '%s.%s' longer than %d bytes",
				 f->name, p->name, FBAC_MAX_SCALAR - 1);
	if ((r = check_value(l, f, &d)) < 0)
		return r;
	for (i = 0; i < *n; i++)
		if (streq(e[i].func, f->name) && streq(e[i].param, p->name))
			break;
	if (i == *n) {
		if (*n >= FBAC_MAX_DEFINES)
			return log_error(-E2BIG, "more than %d saved values",
					 FBAC_MAX_DEFINES);
		++*n;
	}
	snprintf(e[i].func, sizeof(e[i].func), "%s", f->name);
	snprintf(e[i].param, sizeof(e[i].param), "%s", p->name);
	snprintf(e[i].value, sizeof(e[i].value), "%s", d.value);
	e[i].type = p->type;
	return 0;
}

static int unset_one(const char *arg, struct entry *e, size_t *n)
{
	const char *dot = strchr(arg, '.');

	for (size_t i = 0; dot && i < *n; i++)
		if (!strncmp(e[i].func, arg, (size_t)(dot - arg)) &&
		    !e[i].func[dot - arg] && streq(e[i].param, dot + 1)) {
			e[i] = e[--*n];
			return 0;
		}
	return log_error(-ENOENT, "no saved value '%s'", arg);
}

static int run(struct global *g, struct set_opts *o)
{
	_cleanup_free_ struct infer_program *ip = calloc(1, sizeof(*ip));
	_cleanup_free_ struct entry *e = calloc(FBAC_MAX_DEFINES, sizeof(*e));
	char *argv[] = { (char *)o->program, NULL };
	const struct fbac_settings *s;
	const char *name, *userdir = NULL;
	char exe[PATH_MAX], path[PATH_MAX];
	struct layers l;
	size_t n = 0;
	int r, ret = EXIT_DENIED_OR_INVALID;

	if (!ip || !e)
		return log_error(-ENOMEM, "out of memory"), EXIT_FAILURE_USAGE;
	if ((r = infer_find_program(o->program, exe, sizeof(exe))) < 0) {
		errno = -r;
		log_error(r, "cannot find program '%s': %m", o->program);
		return EXIT_FAILURE_USAGE;
	}
	r = global_load(g, &l);
	if (!l.lib)
		return EXIT_FAILURE_USAGE;
	if (r < 0) {
		log_error(0, "the profiles have errors: run 'fbac check'");
		goto out;
	}
	infer_program(o->program, exe, argv, &l.env, true, ip);
	name = params_program_name(l.lib, ip);
	for (size_t i = 0; i < l.n_dirs; i++)
		if (l.dirs[i].kind == FBAC_LAYER_USER)
			userdir = l.dirs[i].dir;
	if (!userdir || snprintf(path, sizeof(path), "%s/settings/%s.yaml",
				 userdir, name) >= (int)sizeof(path)) {
		log_error(-ENAMETOOLONG, "no user layer to save into");
		goto out;
	}
	/* What is saved already (in this file, the user's layer). */
	s = fbac_library_find_settings(l.lib, name);
	for (size_t k = 0; s && s->mark.file && streq(s->mark.file, path) &&
			   k < s->n_values; k++) {
		const struct fbac_include *inc = &s->values[k];

		for (size_t a = 0; a < inc->n_args && n < FBAC_MAX_DEFINES; a++) {
			const struct fbac_functionality *f = inc->target;

			snprintf(e[n].func, sizeof(e[n].func), "%s", inc->name);
			snprintf(e[n].param, sizeof(e[n].param), "%s",
				 inc->arg_names[a]);
			e[n].type = FBAC_PT_STRING;
			for (size_t p = 0; f && p < f->n_params; p++)
				if (streq(f->params[p].name, inc->arg_names[a]))
					e[n].type = f->params[p].type;
			if (node_text(inc->arg_values[a], e[n].value,
				      sizeof(e[n].value)) == 0)
				n++;
		}
	}
	for (size_t i = 0; i < o->n_args; i++)
		if ((o->unset ? unset_one(o->args[i], e, &n) :
				set_one(&l, o->args[i], e, &n)) < 0)
			goto out;
	if (o->unset && (!o->n_args || !n)) {
		if (unlink(path) < 0 && errno != ENOENT) {
			log_error(-errno, "cannot remove '%s': %m", path);
			goto out;
		}
		printf("%s: no saved values (%s removed)\n", name, path);
		ret = EXIT_OK;
		goto out;
	}
	qsort(e, n, sizeof(*e), cmp_entry);
	if ((r = write_settings(path, name, e, n)) < 0) {
		errno = -r;
		log_error(r, "cannot write '%s': %m", path);
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		printf("%s: %s.%s=%s\n", name, e[i].func, e[i].param, e[i].value);
	printf("saved in %s\n", path);
	ret = EXIT_OK;
out:
	layers_free(&l);
	return ret;
}

int cmd_set(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		NULL, parse_opt, "PROGRAM TYPE.PARAM=VALUE...",
		"Save parameter values for 'fbac-run --as TYPE PROGRAM' (lists: "
		"comma-separated); they are used where the command line sets "
		"none, before the program's own policy and inference.",
		NULL, NULL, NULL
	};
	struct set_opts o = { .unset = false };

	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &o) != 0)
		return EXIT_FAILURE_USAGE;
	return run(g, &o);
}

int cmd_unset(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		NULL, parse_opt, "PROGRAM [TYPE.PARAM...]",
		"Remove the values 'fbac set' saved for PROGRAM: the ones named, "
		"or all of them.",
		NULL, NULL, NULL
	};
	struct set_opts o = { .unset = true };

	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &o) != 0)
		return EXIT_FAILURE_USAGE;
	return run(g, &o);
}
