/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The compiled policy of one layer: frozen, sorted tables answering "is
 * operation X on object Y allowed, and by which rule?", plus the Landlock
 * rules the policy implies and the list of what Landlock cannot express
 * (which the supervisor must decide).
 */
#ifndef FBAC_POLICY_H
#define FBAC_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "resolve.h"

struct fbac_prule {
	const char *pattern;
	uint16_t plen; /* bytes of the literal prefix */
	bool literal;  /* no wildcard */
	bool deny;
	uint32_t ops;
	uint64_t llfs; /* fbac_ops_landlock_fs(ops), once */
	const struct fbac_origin *origin;
};

/* Whether a rule is a whole tree, "DIR" + "/" + "**": exactly what a
 * Landlock rule on DIR grants. */
bool fbac_prule_is_tree(const struct fbac_prule *r);

struct fbac_ll_path {
	const char *path;
	uint64_t access; /* FBAC_LL_FS_* */
	/* Rights granted by rules naming the path itself only: on a
	 * directory they would reach below it, so EXECUTE among them is
	 * given to the kernel only when the path is not a directory. */
	uint64_t literal_only;
};

/* Something Landlock cannot decide exactly: the supervisor must. */
struct fbac_gap {
	uint32_t ops;
	const char *why;
	const struct fbac_origin *origin; /* may be NULL */
};

/*
 * EXECUTE is given to the kernel exactly, never as a superset: exec
 * continues in the kernel, so a wider kernel rule would be a race away.
 * Where a tree holds exec carve-outs, or a pattern names some entries of
 * a directory, the launcher lists that directory when it starts and
 * grants EXECUTE entry by entry (what appears later may not run).
 */
struct fbac_ll_expand {
	const char *dir;
	const char *glob;	  /* entries must match it (NULL: all) */
	const char *const *holes; /* patterns of what may not be granted */
	size_t n_holes;
	uint64_t access; /* FBAC_LL_FS_* granted on each entry */
	/* glob names directories (a pattern DIR/GLOB/ and two stars): each one it
	 * matches is granted as a tree, and nothing else; otherwise it names
	 * files, and a directory it matches is left out. */
	bool trees;
};

struct fbac_landlock_plan {
	uint64_t handled_fs;
	struct fbac_ll_path *paths;
	size_t n_paths;
	struct fbac_ll_expand *expand;
	size_t n_expand;
	bool handle_connect_tcp, handle_bind_tcp;
	uint16_t *connect_ports, *bind_ports;
	size_t n_connect_ports, n_bind_ports;
	uint64_t scope; /* FBAC_LL_SCOPE_* */
	/*
	 * The read and write rights of the program's own domain (READ_FILE,
	 * READ_DIR, WRITE_FILE), never wider than the policy: where they
	 * allow what the supervisor decided to allow, the open may continue
	 * in the kernel (read-only opens; a session leader taking its
	 * terminal), and a path swapped in meanwhile still reaches only what
	 * the policy lets the program read or write. Rules on directories are trees; literal_only
	 * holds the rights of a rule naming one file (none if it turns out to
	 * be a directory). Trees with carve-outs and last-component patterns
	 * are listed at launch (narrow_expand); what cannot be expressed
	 * (other patterns, /proc, /sys, /dev but /dev/pts) is left out and
	 * served by the supervisor.
	 */
	struct fbac_ll_path *narrow;
	size_t n_narrow;
	struct fbac_ll_expand *narrow_expand;
	size_t n_narrow_expand;
};

struct fbac_policy {
	struct fbac_resolved *res; /* owned: origins and strings live there */
	struct fbac_arena *arena;
	const char *name;
	struct fbac_prule *prules; /* sorted by literal prefix */
	size_t n_prules;
	const struct fbac_rule **abstract; /* "@name" unix rules */
	size_t n_abstract;
	const struct fbac_rule **net;
	size_t n_net;
	const struct fbac_origin *signal_origin; /* non-NULL: ipc_signal any */
	struct fbac_resolved_protected *protected; /* sorted by path */
	size_t n_protected;
	struct fbac_landlock_plan ll;
	struct fbac_gap *gaps;
	size_t n_gaps;
	bool gaps_left_out; /* compiled with FBAC_COMPILE_NO_GAPS */
};

struct fbac_verdict {
	bool allowed;
	/* The deciding rule (NULL when nothing matched). */
	const struct fbac_origin *origin;
	const char *rule; /* its pattern, or a description for net rules */
	bool deny_rule;   /* decided by a 'denied' entry */
	/* Set when a protected path cut off an allow rule. */
	const struct fbac_resolved_protected *protected;
	const struct fbac_origin *cut_origin;
	const char *cut_rule;
};

/* Free a compiled policy (NULL-safe); returns NULL. */
struct fbac_policy *fbac_policy_free(struct fbac_policy *p);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct fbac_policy *, fbac_policy_free)

/*
 * Compile resolved rules; the policy takes ownership of *res (set to
 * NULL) whether or not compilation succeeds.
 * Return: 0, -E2BIG with diag set, or -ENOMEM.
 */
int fbac_policy_compile(struct fbac_resolved **res, const char *name,
			struct fbac_policy **ret, struct fbac_diag *diag);

enum fbac_compile_flags {
	/*
	 * Make no gaps (n_gaps 0, gaps_left_out set): they explain what the
	 * supervisor decides and why, and nothing decides by them. Making
	 * them (formatting, and comparing every carve-out and protected
	 * path with every rule) is about 50 us of a launch that prints none.
	 */
	FBAC_COMPILE_NO_GAPS = 1u << 0,
};

/* fbac_policy_compile with flags (-EINVAL for unknown ones). */
int fbac_policy_compile_flags(struct fbac_resolved **res, const char *name,
			      unsigned flags, struct fbac_policy **ret,
			      struct fbac_diag *diag);

/* Decide a path operation on a normalised absolute path (-EINVAL if not). */
int fbac_policy_check_path(const struct fbac_policy *p, enum fbac_op op,
			   const char *path, struct fbac_verdict *v);
/* Decide unix_connect/unix_bind on an abstract name ("@name"). */
int fbac_policy_check_abstract(const struct fbac_policy *p, enum fbac_op op,
			       const char *name, struct fbac_verdict *v);
/*
 * Decide a network operation. host is an address, or a name as written
 * in profiles, or NULL when unknown (only rules for any host match).
 */
int fbac_policy_check_net(const struct fbac_policy *p, enum fbac_op op,
			  enum fbac_proto proto, const char *host,
			  uint16_t port, struct fbac_verdict *v);
int fbac_policy_check_signal(const struct fbac_policy *p,
			     struct fbac_verdict *v);

/* One operation on one object. */
struct fbac_query {
	enum fbac_op op;
	const char *path; /* path ops: normalised path, or "@name" */
	enum fbac_proto proto;
	const char *host; /* net ops: address or name, NULL: unknown */
	uint16_t port;
};

/* Decide a query against one policy. Return: 0 or -EINVAL. */
int fbac_policy_query(const struct fbac_policy *p, const struct fbac_query *q,
		      struct fbac_verdict *v);

#endif
