/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The fbac command: shared state of the sub-commands. */
#ifndef FBAC_CMD_H
#define FBAC_CMD_H

#include <stdio.h>

#include "describe.h"
#include "layers.h"
#include "params.h"
#include "policy.h"
#include "stack.h"

/* Exit statuses of fbac. */
enum {
	EXIT_OK = 0,
	EXIT_DENIED_OR_INVALID = 1, /* explain denied; profiles invalid */
	EXIT_FAILURE_USAGE = 2,	    /* usage errors and fbac's own failures */
};

struct global {
	const char *extra_dirs[FBAC_MAX_LAYERS];
	size_t n_extra;
};

int cmd_list(struct global *g, int argc, char **argv);
int cmd_show(struct global *g, int argc, char **argv);
int cmd_check(struct global *g, int argc, char **argv);
int cmd_explain(struct global *g, int argc, char **argv);
int cmd_new(struct global *g, int argc, char **argv);
int cmd_export(struct global *g, int argc, char **argv);
int cmd_wrap(struct global *g, int argc, char **argv);
int cmd_unwrap(struct global *g, int argc, char **argv);
int cmd_aliases(struct global *g, int argc, char **argv);
int cmd_learn(struct global *g, int argc, char **argv);
int cmd_compare(struct global *g, int argc, char **argv);
int cmd_log(struct global *g, int argc, char **argv);
int cmd_set(struct global *g, int argc, char **argv);
int cmd_unset(struct global *g, int argc, char **argv);

/*
 * fbac show --for PROGRAM: fill pp with the values fbac-run --as f->name
 * PROGRAM would use (defs first), and print them with their sources.
 * Return: 0 or -errno (printed).
 */
int show_for_values(const struct layers *l, const char *program,
		    const struct fbac_functionality *f,
		    const struct fbac_define *defs, size_t n_defs,
		    struct params *pp);

/* The order of fbac list: high-level first, then by category and name
 * (qsort on an array of functionality pointers). */
int func_by_level(const void *x, const void *y);

/*
 * Print the functionalities, application policies and protected paths of
 * one layer as an mdoc page (fbac list --man, list-man.c).
 * Return: 0, or -ENOMEM with nothing printed.
 */
int list_man(FILE *f, const struct fbac_library *lib, unsigned layer);

/* Load all layers; prints problems. Return as layers_load. */
int global_load(struct global *g, struct layers *l);


/* Parse "-D [FUNC.]param=value" options into defines; returns 0/-EINVAL. */
int parse_define(char *arg, struct fbac_define *defs, size_t *n);

#endif
