/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Resolution: bind parameters, substitute variables, walk includes, and
 * produce a flat list of rules, each remembering the functionality chain
 * and the position it came from. Also the resolved tree, for display.
 */
#ifndef FBAC_RESOLVE_H
#define FBAC_RESOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "env.h"
#include "profile.h"

/* A typed parameter value; every type is stored as a list of strings. */
struct fbac_value {
	enum fbac_ptype type;
	const char **items;
	size_t n;
	bool from_default;
};

/* Where a rule comes from, for explanations. */
struct fbac_origin {
	const char *chain; /* "firefox > Web_Browser > HTTP_Client" */
	struct fbac_mark mark;
	unsigned layer;
};

struct fbac_port_range {
	uint16_t lo, hi;
};

struct fbac_rule {
	enum fbac_priv_kind kind;
	uint32_t ops;
	bool deny;
	/* FBAC_PRIV_PATH: a normalised pattern, or "@name" (abstract unix) */
	const char *pattern;
	/* FBAC_PRIV_NET */
	enum fbac_proto proto;
	struct fbac_port_range *ports;
	size_t n_ports;
	const char **hosts; /* NULL when any host */
	size_t n_hosts;
	const struct fbac_origin *origin;
};

struct fbac_rnode {
	const struct fbac_functionality *f; /* NULL for the root */
	const char *name;		     /* functionality or root name */
	struct fbac_value *values;	     /* one per parameter of f */
	struct fbac_mark at;		     /* where it was included */
	struct fbac_rnode **children;
	size_t n_children, cap_children;
	bool repeated; /* resolved earlier with the same arguments */
};

struct fbac_resolved_protected {
	const char *path;
	uint32_t allow; /* operations broad rules may still grant */
	const char *reason;
	struct fbac_mark mark;
};

struct fbac_resolved {
	struct fbac_arena *arena;
	struct fbac_rnode *root;
	struct fbac_rule *rules;
	size_t n_rules, cap_rules;
	struct fbac_resolved_protected *protected;
	size_t n_protected;
	/*
	 * Metadata visibility and what decided it: a functionality's chain
	 * ("git > Version_Control_Client"), the application, "-D metadata"
	 * or a layer's settings, at metadata_mark. Mediated wins over
	 * visible among the functionalities; the application's own key, then
	 * -D, then a settings ban override in that order. UNSET: nothing
	 * said (mediated), why NULL.
	 */
	enum fbac_metadata metadata;
	const char *metadata_why;
	struct fbac_mark metadata_mark;
	/* The application's 'sandbox_fallback' (n 0: none), in the arena. */
	const char **sandbox_fallback;
	size_t n_sandbox_fallback;
};

/* A command-line argument "-D FUNC.param=value" (func NULL: any top level). */
struct fbac_define {
	const char *func, *param, *value;
};

struct fbac_resolve_input {
	const struct fbac_library *lib;
	const struct fbac_env *env;
	/* For the administrator's protected paths (NULL: env). */
	const struct fbac_env *trusted_env;
	/* Application name, or e.g. "--as"; NULL: chains start at the
	 * granted functionalities (showing one functionality). */
	const char *root_name;
	/* What is granted: an application's functionalities and privileges,
	 * or (app NULL) the includes given here. */
	const struct fbac_application *app;
	const struct fbac_include *grants;
	size_t n_grants;
	/* With grants: the program being confined, which may always be
	 * started (as an application's executables may). */
	const char *const *executables;
	size_t n_executables;
	/* With grants: paths the program may look up (FBAC_OP_BIT()s in
	 * lookup_ops, each rule on the exact path): the folders above the
	 * ones inferred from its command line (fbac-run --as). */
	const char *const *lookups;
	const uint32_t *lookup_ops;
	size_t n_lookups;
	const struct fbac_define *defines;
	size_t n_defines;
	/* When given (n_defines entries), defines used are marked here and
	 * an unused one is not an error: the caller judges over several
	 * resolutions (a stack of layers). */
	bool *define_used;
	/* Fill missing required parameters of the granted functionalities
	 * with placeholders, to lint a functionality on its own. */
	bool placeholders;
	/* With placeholders: the value given to missing path parameters
	 * (NULL: a fixed placeholder path). */
	const char *fill_path;
	unsigned layer; /* recorded in origins */
};

/* Free a resolution and its arena (NULL-safe); returns NULL. */
struct fbac_resolved *fbac_resolved_free(struct fbac_resolved *r);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct fbac_resolved *, fbac_resolved_free)

/* Return: 0, -EINVAL/-E2BIG/-ELOOP with diag set, or -ENOMEM. */
int fbac_resolve(const struct fbac_resolve_input *in,
		 struct fbac_resolved **ret, struct fbac_diag *diag);

/* Report a define that set nothing. Return: -EINVAL. */
int fbac_define_unused(const struct fbac_define *d, struct fbac_diag *diag);

/*
 * Parse "FUNC.param=value" (or "param=value" when default_func is given)
 * into a define whose strings point into arg. Return: 0 or -EINVAL.
 */
int fbac_define_parse(char *arg, const char *default_func,
		      struct fbac_define *ret);

/* Parse one port item ("80", "8000-8080", "any"). Return 0 or -EINVAL. */
int fbac_parse_port_range(const char *s, struct fbac_port_range *ret);
/* Whether s is an IP address, a CIDR, a host name, or "any". */
bool fbac_host_is_valid(const char *s);

#endif
