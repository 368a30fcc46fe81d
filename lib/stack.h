/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The effective policy of a program: one compiled policy per layer that
 * names it (or the --as grants), intersected. The launcher applies one
 * Landlock domain per entry; lookups allow only what every entry allows.
 */
#ifndef FBAC_STACK_H
#define FBAC_STACK_H

#include "policy.h"

struct fbac_stack_entry {
	const struct fbac_layer *layer; /* NULL for the command line, and
					 * from the stack cache */
	const char *layer_name;
	struct fbac_policy *policy;
	enum fbac_layer_kind kind;
	/* The layer whose application policy for the program this one set
	 * aside (the user's replaces the library's), or NULL. */
	const char *replaces;
};

struct fbac_vcache;

struct fbac_stack {
	struct fbac_stack_entry entries[FBAC_MAX_LAYERS + 1];
	size_t n;
	/* Path verdicts remembered, once the stack is final
	 * (fbac_stack_cache_verdicts()), else NULL. */
	struct fbac_vcache *vcache;
};

struct fbac_stack_input {
	const struct fbac_library *lib;
	const struct fbac_env *env;	    /* the caller's */
	const struct fbac_env *trusted_env; /* for the administrator's layer */
	/* The program: an application name, or a path matched against
	 * executables. May be NULL with grants. */
	const char *program;
	/* --as: these replace the discretionary layers' application policies;
	 * the administrator's layer still applies. */
	const struct fbac_include *grants;
	size_t n_grants;
	/* With grants: the program's executable paths (granted execute). */
	const char *const *executables;
	size_t n_executables;
	/* With grants: exact paths to look up (fbac_resolve_input). */
	const char *const *lookups;
	const uint32_t *lookup_ops;
	size_t n_lookups;
	const struct fbac_define *defines; /* not applied to the admin layer */
	size_t n_defines;
	unsigned compile_flags; /* FBAC_COMPILE_* for every entry */
	/* With no grants: one empty command-line policy in place of the
	 * discretionary layers' (learning a program that has no policy). */
	bool empty_grants;
};

/* Free the stack's compiled policies and its verdict cache; the stack is
 * empty after. */
void fbac_stack_clear(struct fbac_stack *s);

/*
 * Remember the stack's answers to path queries from now on (lib/vcache.h):
 * for a stack that no longer changes until fbac_stack_clear(), asked the
 * same questions many times (a supervisor). Return: 0 or -ENOMEM.
 */
int fbac_stack_cache_verdicts(struct fbac_stack *s);

/*
 * The application policy of each layer that is in force for program (a
 * name, or a path matched against executables, else by the name after the
 * last '/'): apps[i] for layer i, NULL when layer i does not name it or
 * its policy is set aside. The administrator's layers always apply; when
 * a user's layer names the program, its policy replaces the library's
 * (*replaced is then the library layer's index, else -1); the -p/-P
 * layers intersect with what applies. apps has lib->n_layers slots.
 * Return: how many layers are in force.
 */
size_t fbac_stack_layers(const struct fbac_library *lib, const char *program,
			 const struct fbac_application **apps, int *replaced);

/*
 * Return: 0; -ENOENT when nothing names the program (diag set);
 * resolution errors as fbac_resolve.
 */
int fbac_stack_build(const struct fbac_stack_input *in, struct fbac_stack *ret,
		     struct fbac_diag *diag);

/* The first entry that denies q (its verdict in *v; an invalid query is
 * denied), or NULL when all allow (*v is then the last entry's verdict). */
const struct fbac_stack_entry *fbac_stack_query(const struct fbac_stack *s,
					       const struct fbac_query *q,
					       struct fbac_verdict *v);

/* fbac_stack_query for a path operation. */
const struct fbac_stack_entry *
fbac_stack_check_path(const struct fbac_stack *s, enum fbac_op op,
		      const char *path, struct fbac_verdict *v);

/*
 * The stack's metadata visibility: mediated when an entry says mediated
 * (that entry in *why), visible when an entry says visible and none says
 * mediated (the first such entry), mediated otherwise (*why NULL: the
 * default). why may be NULL.
 */
enum fbac_metadata fbac_stack_metadata(const struct fbac_stack *s,
				       const struct fbac_stack_entry **why);

/*
 * The path operations every entry allows on path (a normalised absolute
 * path), as FBAC_OP_BIT()s.
 */
uint32_t fbac_stack_path_ops(const struct fbac_stack *s, const char *path);

/*
 * Whether every entry decides everything strictly below dir the way it
 * decides dir itself: no rule or protected path inside, no wildcard that
 * tells depths apart. Moving such a directory moves no carve-out.
 */
bool fbac_stack_uniform_below(const struct fbac_stack *s, const char *dir);

#endif
