/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/resolve internals shared by its phases: expanding a scalar's
 * variables (resolve-expand.c), binding and checking a parameter's value
 * (resolve-param.c), turning privileges into rules with their origin
 * (resolve-rules.c), and the walk over includes with the protected paths
 * (resolve.c). Not an interface.
 */
#ifndef FBAC_RESOLVE_INT_H
#define FBAC_RESOLVE_INT_H

#include "resolve.h"

/* The evaluation state of one parameter of a frame. */
enum { P_UNSET, P_BUSY, P_DONE };

struct frame {
	const struct fbac_functionality *f;
	const struct frame *parent;	/* caller, for evaluating arguments */
	const struct fbac_include *inc; /* how it was included (or NULL) */
	const char *chain;
	struct fbac_rnode *node;
	unsigned char *state;
	bool top; /* granted directly: -D applies */
	unsigned depth;
};

struct memo {
	const struct fbac_functionality *f;
	const struct fbac_value *values;
};

struct resolver {
	const struct fbac_resolve_input *in;
	const struct fbac_env *env; /* the variables in force */
	struct fbac_resolved *out;
	struct fbac_arena *a;
	struct fbac_diag *diag;
	struct memo *memo;
	size_t n_memo, cap_memo;
	size_t frames;
	bool *define_used;
};

/* A growable list of strings in the arena, each with the position of
 * the scalar it came from. */
struct strs {
	const char **v;
	struct fbac_mark *m;
	size_t n, cap, mcap;
};

/* Append str (with the position mark, or none) to s. */
int rs_strs_add(struct resolver *rs, struct strs *s, const char *str,
		const struct fbac_mark *mark);
/* Expand the variables of scalar n in frame fr (NULL: built-ins only). */
int rs_expand(struct resolver *rs, const struct frame *fr,
	      const struct fbac_ynode *n, struct strs *out);
/* Expand a scalar or a sequence of scalars. */
int rs_expand_node(struct resolver *rs, const struct frame *fr,
		   const struct fbac_ynode *n, struct strs *out);
/* Turn expanded strings into a value of type t, checking each item. */
int rs_convert(struct resolver *rs, enum fbac_ptype t, struct strs *s,
	       const char *pname, const struct fbac_mark *whole,
	       struct fbac_value *ret);
/* Bind parameter idx of fr (-D, include argument, default), once. */
int rs_eval_param(struct resolver *rs, const struct frame *fr, size_t idx,
		  const struct fbac_mark *use);
/* The rules of a list of privileges of frame fr. */
int rs_privileges(struct resolver *rs, const struct frame *fr,
		  const struct fbac_priv *privs, size_t n, unsigned layer);
/* Execute, read and getattr on an application's own executables. */
int rs_executables(struct resolver *rs, const char *name,
		   const char *const *exes, const struct fbac_mark *marks,
		   size_t n, unsigned layer);
/* The exact paths a program given --as may look up (resolve.h). */
int rs_lookups(struct resolver *rs, const char *name,
	       const struct fbac_resolve_input *in, unsigned layer);

#endif
