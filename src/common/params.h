/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A value for every parameter of the functionalities a program runs --as,
 * from, in this order: -D; the user's saved settings ('fbac set'); the
 * program's own application policy; inference (inference.h); the
 * declared default. Paths named on the command line are added to the
 * parameter that holds the files the program works on. The result is a
 * list of -D defines for the resolver and one line per value saying where
 * it came from.
 */
#ifndef FBAC_PARAMS_H
#define FBAC_PARAMS_H

#include <stdbool.h>
#include <stdio.h>

#include "inference.h"
#include "profile.h"
#include "resolve.h"

struct param_line {
	const char *func, *param, *value, *source;
};

struct params {
	struct fbac_arena *arena;
	struct fbac_define defs[FBAC_MAX_DEFINES];
	size_t n_defs;
	struct param_line *lines;
	size_t n_lines, cap_lines;
	/* The folders the program may look up (fbac_stack_input): the
	 * working directory (and its listing), and the folders above it and
	 * above each path of the command line (file_getattr). */
	const char *lookups[FBAC_MAX_DEFINES];
	uint32_t lookup_ops[FBAC_MAX_DEFINES];
	size_t n_lookups;
	/* The name saved settings are kept under (fbac set), and the
	 * program as fbac set takes it (for messages). */
	const char *program, *cmd;
	bool asked; /* a value was typed at the terminal */
};

struct params_input {
	const struct fbac_library *lib;
	const struct fbac_env *env, *trusted_env;
	const char *const *as;
	size_t n_as;
	const struct fbac_define *defs; /* -D */
	size_t n_defs;
	const struct infer_program *ip;
	/* Ask for what has no value on the terminal (standard input is
	 * one; the question goes to /dev/tty); else a missing value is an
	 * error. */
	bool interactive;
};

/* The name settings of the program are saved under: its application
 * policy's name when one names it, else its short name. */
const char *params_program_name(const struct fbac_library *lib,
				const struct infer_program *ip);

/*
 * Fill out (freed with params_free). Return: 0; -EINVAL when a value is
 * missing (printed, naming the -D to use), -ENOMEM.
 */
int params_fill(const struct params_input *in, struct params *out);
void params_free(struct params *p);

/* One line per value not from the declared default, "PREFIX" first. */
void params_print(FILE *f, const char *prefix, const struct params *p);

#endif
