/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac learn: the proposal as YAML, its check, and its review. */
#ifndef FBAC_LEARN_H
#define FBAC_LEARN_H

#include <stdio.h>

#include "fbac.h"
#include "propose.h"

struct learn_view {
	const struct fbac_proposal *p;
	const char *home; /* written as ~ */
	const char *program;
	size_t n_logs;
	unsigned long events;
	/* Which items are kept (NULL: all); protected ones are granted only
	 * when grant_prot[i] is set. */
	const bool *keep_func, *keep_raw, *grant_prot;
	bool delta; /* only what to add to an existing policy */
};

/* The policy as commented YAML: the whole document, or (delta) only the
 * items to add, as "functionalities:" and "privileges:" blocks. */
void learn_write_yaml(FILE *f, const struct learn_view *v);

/* The summary comment: what the policy (compiled) denies that the run
 * did not need. */
void learn_write_summary(FILE *f, const struct learn_view *v,
			 const struct fbac_policy *pol,
			 const struct fbac_env *env);

enum { LEARN_FUNCS, LEARN_PRIVILEGES, LEARN_DENIED };

/* The items of a view as list entries ("  - Name: {...}" lines for
 * LEARN_FUNCS), with their comments. */
void learn_write_items(FILE *f, const struct learn_view *v, int what);

/* Print a YAML double-quoted scalar: $ doubled, home as ~. */
void learn_yaml_path(FILE *f, const char *home, const char *s);

/* Render the view (YAML, checked by loading it, and its summary) into
 * *ret. Return: 0, or -errno (printed). */
/* What the system says program is (fbac new's evidence), as hints for
 * fbac_propose, in a. Return: 0 (none when it cannot tell) or -ENOMEM. */
int learn_hints(const char *program, struct fbac_arena *a,
		const struct fbac_propose_hint **ret, size_t *n);
int learn_render(struct global *g, const struct learn_view *v, char **ret);
/* Load text as a policy file named NAME.yaml with every layer, and
 * compile its application NAME on its own; the summary goes to summary
 * (may be NULL). Return: 0, or -errno (printed). */
int learn_check_text(struct global *g, const char *text, const char *name,
		     FILE *summary, const struct learn_view *v);
int learn_write_file(const char *path, const char *text);
/* Where the user's layer keeps the application policy NAME (its folder
 * made). Return: 0 or -errno (printed). */
int user_policy_path(const struct layers *l, const char *name, char *out,
		     size_t size);
/* A line-based question on the terminal; Enter gives def. */
bool learn_confirm(const char *question, bool def);
/* Review the proposal item by item on the terminal (stdin, stderr).
 * Return: 0, or -ENOMEM. */
int learn_review(struct learn_view *v, struct fbac_proposal *p,
		 const struct fbac_library *lib, const struct fbac_env *env);
/* A policy exists: show what to add as a diff, and apply it on
 * confirmation (or --yes, or into output). Return: 0 or -errno. */
int learn_delta(struct global *g, const struct learn_view *v,
		const struct layers *l, const struct fbac_stack *existing,
		const char *output, bool yes);

#endif
