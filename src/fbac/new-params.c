/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac new: the high-level functionality's parameters. Each is filled
 * from the system (the program's per-user folders, the package's files,
 * the XDG user directories that exist), given with -D, or asked: the
 * parameter's `ask` text with the guess offered, one line at a time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fbac.h"
#include "new.h"
#include "output.h"

/* $NAME or ${NAME} at s (after the '$'): the variable's length, 0 if none. */
static size_t var_len(const char *s, const char **name, size_t *n)
{
	if (*s == '{') {
		const char *e = strchr(s, '}');

		if (!e)
			return 0;
		*name = s + 1;
		*n = (size_t)(e - s - 1);
		return *n + 2;
	}
	*name = s;
	*n = 0;
	while ((s[*n] >= 'A' && s[*n] <= 'Z') || (s[*n] >= 'a' && s[*n] <= 'z') ||
	       (s[*n] >= '0' && s[*n] <= '9') || s[*n] == '_')
		(*n)++;
	return *n;
}

/* A default's item with ~, the built-in variables and $app_name expanded
 * (NULL when it names another parameter or on no memory). */
static const char *expand(struct fbac_arena *a, const struct fbac_env *env,
			  const char *app_name, const char *s)
{
	char *out = fbac_arena_strdup(a, "");

	if (s[0] == '~' && (s[1] == '/' || !s[1])) {
		out = fbac_arena_strdup(a, fbac_env_get(env, "HOME", 4));
		s++;
	}
	while (out && *s) {
		const char *name, *v;
		size_t n, len;

		if (*s != '$' || !(len = var_len(s + 1, &name, &n))) {
			out = fbac_arena_printf(a, "%s%c", out, *s++);
			continue;
		}
		v = n == 8 && !strncmp(name, "app_name", 8) ? app_name :
							      fbac_env_get(env, name, n);
		if (!v)
			return NULL;
		out = fbac_arena_printf(a, "%s%s", out, v);
		s += len + 1;
	}
	return out;
}

static size_t def_items(const struct fbac_param *p, const char **items, size_t max)
{
	const struct fbac_ynode *d = p->def;
	size_t n = 0;

	if (!d)
		return 0;
	if (d->kind == FBAC_Y_SCALAR) {
		items[0] = d->value;
		return 1;
	}
	if (d->kind != FBAC_Y_SEQ)
		return 0;
	for (uint32_t i = 0; i < d->n && n < max; i++)
		if (d->items[i]->kind == FBAC_Y_SCALAR)
			items[n++] = d->items[i]->value;
	return n;
}

/* The guess for a string parameter naming the program's folders: a name
 * whose folder exists, else the program's name. */
static const char *guess_app_name(struct param_answer *ans, const struct probe *p,
				  const struct fbac_env *env, struct fbac_arena *a)
{
	const char *names[2] = { p->name, p->package };
	static const char *const bases[] = { "XDG_CONFIG_HOME", "XDG_DATA_HOME",
					     "XDG_CACHE_HOME" };
	struct stat st;

	for (size_t k = 0; k < 2; k++) {
		if (!names[k])
			continue;
		const char *dot = fbac_arena_printf(a, "%s/.%s",
						    fbac_env_get(env, "HOME", 4), names[k]);

		if (dot && stat(dot, &st) == 0) {
			ans->why = fbac_arena_printf(a, "~/.%s exists", names[k]);
			return names[k];
		}
		for (size_t i = 0; i < 3; i++) {
			const char *x = fbac_arena_printf(
				a, "%s/%s", fbac_env_get(env, bases[i], strlen(bases[i])),
				names[k]);

			if (x && stat(x, &st) == 0) {
				ans->why = fbac_arena_printf(a, "%s exists", x);
				return names[k];
			}
		}
	}
	ans->why = "the program's name";
	return p->name;
}

int params_guess(const struct fbac_functionality *f, const struct probe *p,
		 const struct fbac_env *env, struct fbac_arena *a,
		 struct param_answer *ans)
{
	const char *app_name = NULL;

	/* app_name first: the other defaults use it. */
	for (size_t i = 0; i < f->n_params; i++) {
		const struct fbac_param *pa = &f->params[i];

		ans[i] = (struct param_answer){ 0 };
		if (pa->type == FBAC_PT_STRING && streq(pa->name, "app_name")) {
			app_name = guess_app_name(&ans[i], p, env, a);
			ans[i].items[0] = app_name;
			ans[i].n = 1;
			ans[i].filled = true;
		}
	}
	for (size_t i = 0; i < f->n_params; i++) {
		const struct fbac_param *pa = &f->params[i];
		struct param_answer *an = &ans[i];
		bool all = true;

		if (an->filled)
			continue;
		an->n = def_items(pa, an->items, FBAC_MAX_ANSWER_ITEMS);
		an->from_default = pa->def != NULL;
		if (pa->type != FBAC_PT_PATH && pa->type != FBAC_PT_PATHS)
			continue;
		/* Paths the system has: filled, not asked. */
		for (size_t k = 0; k < an->n && all; k++) {
			const char *x = expand(a, env, app_name ? app_name : p->name,
					       an->items[k]);
			struct stat st;

			if (!x)
				all = false;
			else if (probe_pkg_has(p, x))
				an->why = fbac_arena_printf(a, "the package %s ships %s",
							    p->package, x);
			else if (stat(x, &st) == 0)
				an->why = fbac_arena_printf(a, "%s exists", x);
			else
				all = false;
		}
		an->filled = all && an->n > 0;
	}
	return 0;
}

/* Split a comma-separated answer into the items of a. */
static int split_answer(struct fbac_arena *ar, const struct fbac_param *pa,
			const char *text, struct param_answer *a)
{
	a->n = 0;
	if (!fbac_ptype_is_list(pa->type)) {
		a->items[a->n++] = fbac_arena_strdup(ar, text);
		return a->items[0] ? 0 : -ENOMEM;
	}
	for (const char *s = text; *s;) {
		size_t n = strcspn(s, ",");
		const char *b = s, *e = s + n;

		while (b < e && (*b == ' ' || *b == '\t'))
			b++;
		while (e > b && (e[-1] == ' ' || e[-1] == '\t'))
			e--;
		if (e > b) {
			if (a->n >= FBAC_MAX_ANSWER_ITEMS)
				return -E2BIG;
			if (!(a->items[a->n++] = fbac_arena_strndup(ar, b, (size_t)(e - b))))
				return -ENOMEM;
		}
		s += n + (s[n] == ',');
	}
	return 0;
}

/* Whether an answer's items have the parameter's type (printed if not). */
static bool valid(const struct fbac_param *pa, const struct param_answer *a)
{
	for (size_t i = 0; i < a->n; i++) {
		const char *s = a->items[i];
		struct fbac_port_range pr;
		bool ok = true;

		switch (pa->type) {
		case FBAC_PT_PATH:
		case FBAC_PT_PATHS:
			ok = s[0] == '/' || s[0] == '~' || s[0] == '$';
			break;
		case FBAC_PT_PORTS:
			ok = fbac_parse_port_range(s, &pr) == 0;
			break;
		case FBAC_PT_HOSTS:
			ok = fbac_host_is_valid(s);
			break;
		case FBAC_PT_BOOL:
			ok = streq(s, "true") || streq(s, "false");
			break;
		case FBAC_PT_STRING:
			ok = *s && strlen(s) < FBAC_MAX_STRING;
			break;
		}
		if (!ok) {
			log_error(0, "invalid %s '%s' for '%s'",
				  fbac_ptype_name(pa->type), s, pa->name);
			return false;
		}
	}
	if (a->n == 0 && !fbac_ptype_is_list(pa->type)) {
		log_error(0, "missing value for '%s'", pa->name);
		return false;
	}
	return true;
}

int params_define(const struct fbac_functionality *f, const struct fbac_define *d,
		  struct fbac_arena *ar, struct param_answer *ans)
{
	int r;

	if (d->func && !streq(d->func, f->name))
		return log_error(-EINVAL, "invalid -D '%s.%s': the functionality is %s",
				 d->func, d->param, f->name);
	for (size_t i = 0; i < f->n_params; i++) {
		if (!streq(f->params[i].name, d->param))
			continue;
		if ((r = split_answer(ar, &f->params[i], d->value, &ans[i])) < 0)
			return log_error(r, "invalid -D '%s': too many items", d->param);
		if (!valid(&f->params[i], &ans[i]))
			return -EINVAL;
		ans[i].why = "-D";
		ans[i].given = true;
		ans[i].from_default = false;
		return 0;
	}
	return log_error(-EINVAL, "unknown parameter '%s' of %s (see 'fbac show %s')",
			 d->param, f->name, f->name);
}

/* The items as one line: "a, b". */
const char *params_text(struct fbac_arena *ar, const struct param_answer *a)
{
	char *s = fbac_arena_strdup(ar, "");

	for (size_t i = 0; s && i < a->n; i++)
		s = fbac_arena_printf(ar, "%s%s%s", s, i ? ", " : "", a->items[i]);
	return s;
}

int ask_line(const char *question, const char *guess, char **ret)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	/* On standard error, as read -p does: standard output may be the
	 * policy (-o -). */
	fflush(stdout);
	fprintf(stderr, "%s [%s]: ", question, guess ? guess : "");
	n = getline(&line, &cap, stdin);
	if (n < 0) {
		free(line);
		fputc('\n', stderr);
		return -ENODATA;
	}
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = '\0';
	*ret = line;
	return 0;
}

int params_ask(const struct fbac_functionality *f, struct fbac_arena *ar,
	       struct param_answer *ans)
{
	for (size_t i = 0; i < f->n_params; i++) {
		const struct fbac_param *pa = &f->params[i];
		struct param_answer *a = &ans[i];

		if (a->filled || a->given)
			continue;
		for (;;) {
			const char *guess = a->n || a->from_default ? params_text(ar, a) : NULL;
			char *line = NULL;
			int r;
			char q[FBAC_MAX_STRING + 64];

			snprintf(q, sizeof(q), "%s (%s)",
				 pa->ask ? pa->ask : pa->name, pa->name);
			if ((r = ask_line(q, guess, &line)) < 0)
				return log_error(r, "no answer for '%s' (give -D %s=VALUE or --yes)",
						 pa->name, pa->name);
			if (!*line && guess) {
				free(line);
				break;
			}
			struct param_answer tmp = { 0 };

			r = split_answer(ar, pa, line, &tmp);
			free(line);
			if (r == -ENOMEM)
				return log_error(r, "out of memory");
			if (r == 0 && valid(pa, &tmp) && (tmp.n || guess)) {
				tmp.why = "your answer";
				tmp.given = true;
				*a = tmp;
				break;
			}
		}
	}
	return 0;
}
