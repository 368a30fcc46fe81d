/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/propose internals shared by its parts: the values inferred from
 * the accesses (propose-infer.c), candidate functionalities and their
 * scores (propose-eval.c), raw privileges (propose-raw.c) and the cover
 * (propose.c). Not an interface.
 */
#ifndef FBAC_PROPOSE_INT_H
#define FBAC_PROPOSE_INT_H

#include "propose.h"

#define WRITE_OPS                                                              \
	(FBAC_OP_BIT(FBAC_OP_FILE_WRITE) | FBAC_OP_BIT(FBAC_OP_FILE_APPEND) |   \
	 FBAC_OP_BIT(FBAC_OP_FILE_CREATE) | FBAC_OP_BIT(FBAC_OP_FILE_DELETE) |  \
	 FBAC_OP_BIT(FBAC_OP_FILE_RENAME) | FBAC_OP_BIT(FBAC_OP_FILE_LINK) |    \
	 FBAC_OP_BIT(FBAC_OP_FILE_TRUNCATE) | FBAC_OP_BIT(FBAC_OP_FILE_SETATTR) | \
	 FBAC_OP_BIT(FBAC_OP_DIR_MKDIR) | FBAC_OP_BIT(FBAC_OP_DIR_RMDIR) |      \
	 FBAC_OP_BIT(FBAC_OP_SPECIAL_CREATE))

struct values {
	const char *v[FBAC_MAX_LEARN_VALUES];
	size_t n;
};

struct cand {
	const struct fbac_functionality *f;
	const char *vals[FBAC_MAX_PARAMS]; /* NULL: the default */
	double cost;
	uint8_t *cov; /* one per observation: allowed */
	size_t n_cov;
	double gain; /* the weight of the accesses it covers */
	const char *prot[8];
	size_t n_prot;
	/* Its rules that reach protected paths the run did not touch:
	 * carved out of the proposal (denied). */
	struct fbac_prop_carve carve[FBAC_MAX_LEARN_CARVE];
	size_t n_carve;
	bool names_program; /* it lets the program run, by name or folder */
	bool valid;
};

struct ctx {
	const struct fbac_propose_input *in;
	struct fbac_arena *a;
	const struct fbac_obs *obs;
	size_t n;
	bool *universe; /* counted by the cover */
	double *weight; /* of each access */
	const char *home;
	struct values dirs, ports, names, hosts;
	struct fbac_diag *diag;
};

/* Whether a folder is too wide to grant or collapse into (/, /etc, the
 * home directory and what is above it, XDG base folders, protected). */
bool sensitive_dir(const struct ctx *c, const char *dir);
/* Add a value worth trying (once; the first FBAC_MAX_LEARN_VALUES kept). */
int values_add(struct ctx *c, struct values *v, const char *s);
/* The parent directory of an absolute path, into buf. */
void parent_of(const char *path, char *buf, size_t size);
/* Fill c->dirs, ports, names, hosts from the accesses. */
int infer_values(struct ctx *c);
/* What covering an access is worth. */
double obs_weight(const struct ctx *c, const struct fbac_obs *o);
/* Resolve and compile k->f with k->vals: coverage, cost, reach. */
int evaluate(struct ctx *c, struct cand *k);
/* The weight of a candidate's gain (it names the program: a little more). */
double bonus(const struct cand *k);
/* The best arguments for f into best (tmp: scratch with its own cov). */
int best_args(struct ctx *c, const struct fbac_functionality *f,
	      struct cand *best, struct cand *tmp);
/* The raw privileges for the accesses left[]. */
int raw_privileges(struct ctx *c, const bool *left, struct fbac_proposal *p);

#endif
