/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What params.c shares with params-lookup.c: the state of one
 * params_fill() and the folders a run may look up.
 */
#ifndef FBAC_PARAMS_INT_H
#define FBAC_PARAMS_INT_H

#include <stdbool.h>

#include "params.h"

struct params_ctx {
	const struct params_input *in;
	struct params *out;
	const struct fbac_resolved *prot;
};

/* Whether an inferred path is protected (then it is not used). */
bool params_protected(const struct params_ctx *c, const char *path);

/* Add the folders above the working directory and the paths named on the
 * command line (and the working directory itself) to c->out's lookups. */
int params_lookups(struct params_ctx *c);

#endif
