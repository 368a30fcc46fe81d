/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Learning a policy: the accesses a run made (read from fbac-run's JSON
 * log), and the application policy a person would have written for them,
 * in the library's functionalities first and raw privileges for the rest.
 */
#ifndef FBAC_PROPOSE_H
#define FBAC_PROPOSE_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "fbac-limits.h"
#include "diag.h"
#include "env.h"
#include "stack.h"
#include "suggest.h"

/* One distinct access: an operation on an object, and how often. */
struct fbac_obs {
	struct fbac_query q;
	unsigned long count;
	bool is_protected; /* at or below a protected path */
	const struct fbac_resolved_protected *prot;
};

struct fbac_observations {
	struct fbac_arena *arena;
	struct fbac_obs *v;
	size_t n, cap;
	/* The program fbac-run started (the first execve it made), or NULL. */
	const char *program;
	unsigned long events; /* decisions read, repeats included */
	unsigned long skipped; /* lines that were not an access (refusals) */
	bool finished;
};

/* Start an empty set of observations. Return: 0 or -ENOMEM. */
int fbac_obs_init(struct fbac_observations *o);
/* Free what the observations hold (safe on a zeroed one). */
void fbac_obs_clear(struct fbac_observations *o);

/*
 * Add one line of a fbac-run --log file (one JSON object, without its
 * newline). Return: 0 (added, or not an access: counted in skipped),
 * -EINVAL (not a log line; diag says where), -E2BIG (too many distinct
 * accesses, FBAC_MAX_LEARN_OBS) or -ENOMEM.
 */
int fbac_obs_add_line(struct fbac_observations *o, const char *line,
		      size_t len, struct fbac_diag *diag);

/* Merge repeats and sort (by operation, then object). Return: 0 or -ENOMEM. */
int fbac_obs_finish(struct fbac_observations *o);

/*
 * The pattern a person would write for a path that no functionality
 * covers: numbers that are versions or process ids become '*' (/proc/self
 * stays), unless ops include file_execute (an exec pattern would need a
 * kernel rule per entry). Return: 0 or -ENAMETOOLONG.
 */
int fbac_generalize_path(const char *path, uint32_t ops, char *out,
			 size_t size);

/* What a functionality grants on a protected path the run did not touch,
 * denied by the proposal. */
struct fbac_prop_carve {
	const char *pattern; /* the rule's own pattern */
	uint32_t ops;
	const char *prot_path;
};

/* One functionality of the proposal, with the arguments chosen for it. */
struct fbac_prop_func {
	const struct fbac_functionality *f;
	const char *arg_names[FBAC_MAX_PARAMS];
	const char *arg_values[FBAC_MAX_PARAMS]; /* list items comma-separated */
	size_t n_args;
	size_t covers;	      /* distinct accesses first covered by it */
	unsigned long events; /* the same, repeats counted */
	const struct fbac_obs *example;
	double cost;
	/* Protected paths it reaches (the run touched each of them). */
	const char *protected_paths[8];
	size_t n_protected;
	struct fbac_prop_carve carve[FBAC_MAX_LEARN_CARVE];
	size_t n_carve;
	/* For the high-level one chosen by what the system says the program
	 * is: that reason (a hint's), else NULL. */
	const char *evidence;
};

/* A raw privilege: operations on a path or pattern. */
struct fbac_prop_raw {
	uint32_t ops;
	const char *pattern; /* path pattern, "@name"; NULL for network */
	enum fbac_op net_op;
	enum fbac_proto proto;
	uint16_t port;
	size_t covers;
};

/* A protected path the run touched that the chosen functionalities do not
 * reach: shown apart, granted only as its own flagged item. */
struct fbac_prop_protected {
	const struct fbac_obs *obs; /* the first access, as an example */
	const char *prot_path;	    /* the protected path */
	const char *pattern;	    /* what to grant: the path, or its tree */
	uint32_t ops;		    /* every operation used there */
	size_t covers;
	bool several;		    /* more than one path below prot_path */
	const char *suggestion; /* a functionality that would grant it, or NULL */
};

struct fbac_proposal {
	struct fbac_arena *arena;
	const char *name;	       /* application name */
	const char *executables[2];
	size_t n_executables;
	struct fbac_prop_func *funcs; /* high-level first */
	size_t n_funcs;
	struct fbac_prop_raw *raw;
	size_t n_raw;
	struct fbac_prop_protected *prot;
	size_t n_prot;
	size_t n_obs, n_covered_funcs, n_covered_raw, n_already;
};

/* Free what a proposal holds (safe on a zeroed one). */
void fbac_proposal_clear(struct fbac_proposal *p);

/* What the system says the program is (fbac new's evidence: its desktop
 * entry's categories, its package's section and description): a
 * high-level functionality, how strongly (enum fbac_wizard_weight, summed)
 * and why. */
struct fbac_propose_hint {
	const char *functionality;
	unsigned weight;
	const char *reason;
};

struct fbac_propose_input {
	const struct fbac_library *lib;
	const struct fbac_env *env;
	const struct fbac_observations *obs;
	/* The program's path as named and its canonical path (may be equal). */
	const char *program, *canonical;
	/* Accesses the program's current policy allows are left out (NULL:
	 * propose a whole policy). */
	const struct fbac_stack *existing;
	/* What the system says the program is (may be none). */
	const struct fbac_propose_hint *hints;
	size_t n_hints;
};

/*
 * The proposal for a run: a weighted set cover of the accesses by the
 * library's functionalities (each with arguments inferred from the
 * accesses and the program), a functionality's cost growing with what it
 * grants that the run did not use; one that reaches a protected path the
 * run did not touch is chosen only with that reach carved out (carve[]);
 * then the rest as raw privileges, generalised. The high-level one is,
 * among those that fit the run (cover at least half its weight and pay
 * for themselves), the one the hints name most strongly; when they name
 * none that fits, the one that covers most for least.
 * Return: 0, -ENOMEM, or a resolution error with diag set.
 */
int fbac_propose(const struct fbac_propose_input *in,
		 struct fbac_proposal *ret, struct fbac_diag *diag);

/* Whether an operation bit set writes or changes something. */
bool fbac_ops_write(uint32_t ops);

#endif
