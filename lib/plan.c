/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Landlock plan of a compiled policy (struct fbac_landlock_plan): the
 * kernel rules its path, port and scope tables imply, the narrow plan, and
 * the gaps, what the kernel cannot decide exactly and the supervisor must.
 */
#include "plan.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fbac-limits.h"
#include "path.h"
#include "sort.h"

int cmp_llpath(const void *x, const void *y)
{
	const struct fbac_ll_path *a = x, *b = y;

	return strcmp(a->path, b->path);
}

static int cmp_u16(const void *x, const void *y)
{
	return (int)*(const uint16_t *)x - (int)*(const uint16_t *)y;
}
/*
 * Record what the supervisor decides because the kernel cannot, and why
 * (printf-style). Gaps only explain (fbac show, fbac-run -n): nothing
 * decides by them, so they are not made at all with FBAC_COMPILE_NO_GAPS.
 */
_printf_(5, 6) static int
add_gap(struct fbac_policy *p, size_t *cap, uint32_t ops,
	const struct fbac_origin *o, const char *fmt, ...)
{
	const char *why;
	va_list ap;
	int r;

	if (p->gaps_left_out)
		return 0;
	va_start(ap, fmt);
	why = fbac_arena_vprintf(p->arena, fmt, ap);
	va_end(ap);
	if (!why)
		return -ENOMEM;
	/* The same reason once per origin is enough. */
	for (size_t i = 0; i < p->n_gaps; i++)
		if (p->gaps[i].origin == o && streq(p->gaps[i].why, why)) {
			p->gaps[i].ops |= ops;
			return 0;
		}
	r = fbac_arena_grow(p->arena, (void **)&p->gaps, cap, p->n_gaps + 1,
			    sizeof(*p->gaps));
	if (r < 0)
		return r;
	p->gaps[p->n_gaps++] = (struct fbac_gap){ ops, why, o };
	return 0;
}

static const char *ops_names(struct fbac_arena *a, uint32_t ops)
{
	char buf[512] = "";
	size_t o = 0;

	for (unsigned i = 0; i < FBAC_OP_COUNT; i++)
		if (ops & FBAC_OP_BIT(i)) {
			int w = snprintf(buf + o, sizeof(buf) - o, "%s%s",
					 o ? "," : "",
					 fbac_op_info((enum fbac_op)i)->name);
			if (w > 0 && (size_t)w < sizeof(buf) - o)
				o += (size_t)w;
		}
	return fbac_arena_strdup(a, buf);
}

static int ports_plan(struct fbac_policy *p, enum fbac_op op, bool *handle,
		      uint16_t **ports, size_t *n_ports, size_t *cap_gaps)
{
	size_t total = 0, cap = 0;
	int r;

	*handle = true;
	for (size_t i = 0; i < p->n_net; i++) {
		const struct fbac_rule *nr = p->net[i];

		if (nr->deny || nr->proto != FBAC_PROTO_TCP ||
		    !(nr->ops & FBAC_OP_BIT(op)))
			continue;
		for (size_t k = 0; k < nr->n_ports; k++) {
			size_t span = (size_t)nr->ports[k].hi -
				      nr->ports[k].lo + 1;

			total += span;
			if (total > FBAC_MAX_PORT_RULES) {
				*handle = false;
				*n_ports = 0;
				return add_gap(p, cap_gaps, FBAC_OP_BIT(op),
					       nr->origin,
					       "more than %d tcp ports: the kernel does not restrict %s",
					       FBAC_MAX_PORT_RULES,
					       fbac_op_info(op)->name);
			}
			r = fbac_arena_grow(p->arena, (void **)ports, &cap,
					    *n_ports + span, sizeof(uint16_t));
			if (r < 0)
				return r;
			for (uint32_t port = nr->ports[k].lo;
			     port <= nr->ports[k].hi; port++)
				(*ports)[(*n_ports)++] = (uint16_t)port;
		}
		if (nr->hosts &&
		    (r = add_gap(p, cap_gaps, nr->ops, nr->origin,
				 "host restriction: the kernel only checks the port")) <
			    0)
			return r;
	}
	if (*n_ports) {
		size_t o = 0;

		qsort(*ports, *n_ports, sizeof(uint16_t), cmp_u16);
		for (size_t i = 0; i < *n_ports; i++)
			if (!o || (*ports)[o - 1] != (*ports)[i])
				(*ports)[o++] = (*ports)[i];
		*n_ports = o;
	}
	return 0;
}

int push_expand(struct fbac_policy *p, struct fbac_ll_expand **v, size_t *n,
		const char *dir, const char *glob, const char **holes,
		size_t n_holes, uint64_t access)
{
	size_t cap = *n; /* grown one at a time: few of them */
	int r;

	r = fbac_arena_grow(p->arena, (void **)v, &cap, *n + 1, sizeof(**v));
	if (r < 0)
		return r;
	(*v)[(*n)++] = (struct fbac_ll_expand){
		dir, glob, (const char *const *)holes, n_holes, access, false
	};
	return 0;
}

static int add_expand(struct fbac_policy *p, const char *dir,
		      const char *glob, const char **holes, size_t n_holes)
{
	return push_expand(p, &p->ll.expand, &p->ll.n_expand, dir, glob, holes,
			   n_holes, FBAC_LL_FS_EXECUTE);
}

/* Whether path[0..plen) is dir[0..dlen) or below it. */
static bool prefix_under(const char *path, size_t plen, const char *dir,
			 size_t dlen)
{
	if (dlen == 1 && dir[0] == '/')
		return path[0] == '/';
	return plen >= dlen && !memcmp(path, dir, dlen) &&
	       (plen == dlen || path[dlen] == '/');
}

/* Whether a pattern has wildcards only in its last component. */
bool last_component_glob(const char *pattern, size_t plen)
{
	return !strchr(pattern + plen + 1, '/') &&
	       !strstr(pattern + plen + 1, "**");
}

/* An allow pattern with EXECUTE that the kernel cannot take as is. */
static int exec_glob(struct fbac_policy *p, const struct fbac_prule *pr,
		     size_t *cap_gaps)
{
	const char *comp = pr->pattern + pr->plen + 1,
		   *slash = strchr(comp, '/');
	bool under = pr->pattern[pr->plen] == '/' && pr->plen > 1;
	/* DIR/GLOB/ and two stars, wildcards in GLOB alone (/usr/lib/llvm-*
	 * and all below): each directory in DIR that GLOB matches, as a tree. */
	bool trees = under && slash && !strcmp(slash, "/**") &&
		     !memmem(comp, (size_t)(slash - comp), "**", 2);
	const char *dir = under ? fbac_arena_strndup(p->arena, pr->pattern,
						     pr->plen) :
				  "/";

	if (!dir)
		return -ENOMEM;
	if ((under || pr->plen == 1) &&
	    last_component_glob(pr->pattern, under ? pr->plen : 0))
		return add_expand(p, dir, pr->pattern, NULL, 0);
	if (trees) {
		const char *glob = fbac_arena_strndup(p->arena, pr->pattern,
						      (size_t)(slash -
							       pr->pattern));

		if (!glob || add_expand(p, dir, glob, NULL, 0) < 0)
			return -ENOMEM;
		p->ll.expand[p->ll.n_expand - 1].trees = true;
		return 0;
	}
	return add_gap(p, cap_gaps, FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE),
		       pr->origin,
		       "pattern '%s' is too wide for an exact kernel rule: the kernel refuses to execute what it names",
		       pr->pattern);
}

/* Index of the first protected path not before path (by strcmp). */
static size_t protected_lower_bound(const struct fbac_policy *p,
				    const char *path)
{
	size_t lo = 0, hi = p->n_protected;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(p->protected[mid].path, path) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The carve-outs below dir from the operations in bits: denied rules for
 * any of them written at or below dir (a denial written above dir is
 * never reached: the walk up from a path below dir stops at dir's own rule
 * first), and protected paths strictly below dir that do not allow them
 * all (as patterns of the path and all below it). *simple is cleared when
 * one is a pattern the launcher cannot match entry by entry; whole trees
 * count as simple only with trees_ok.
 */
int holes_below(struct fbac_policy *p, const char *dir, uint32_t bits,
		bool trees_ok, const char ***holes, size_t *n, bool *simple)
{
	size_t cap = 0, dlen = strlen(dir);
	int r;

	*holes = NULL;
	*n = 0;
	*simple = true;
	/* Both lists are sorted: what lies below dir starts with dir, and
	 * such entries are next to each other (once per kernel rule, this
	 * was a scan of every rule). */
	for (size_t i = fbac_policy_lower_bound(p, dir, dlen);
	     i < p->n_prules && p->prules[i].plen >= dlen &&
	     !memcmp(p->prules[i].pattern, dir, dlen);
	     i++) {
		const struct fbac_prule *d = &p->prules[i];

		if (!d->deny || !(d->ops & bits) ||
		    !prefix_under(d->pattern, d->plen, dir, dlen))
			continue;
		if (!d->literal && !(trees_ok && fbac_prule_is_tree(d)) &&
		    !last_component_glob(d->pattern, d->plen))
			*simple = false;
		r = fbac_arena_grow(p->arena, (void **)holes, &cap, *n + 1,
				    sizeof(**holes));
		if (r < 0)
			return r;
		(*holes)[(*n)++] = d->pattern;
	}
	for (size_t i = protected_lower_bound(p, dir);
	     i < p->n_protected && !strncmp(p->protected[i].path, dir, dlen);
	     i++) {
		const struct fbac_resolved_protected *pp = &p->protected[i];

		if ((pp->allow & bits) == bits ||
		    !fbac_path_is_under(pp->path, dir) || streq(pp->path, dir))
			continue;
		r = fbac_arena_grow(p->arena, (void **)holes, &cap, *n + 2,
				    sizeof(**holes));
		if (r < 0)
			return r;
		(*holes)[(*n)++] = pp->path;
		(*holes)[*n] = fbac_arena_printf(p->arena, "%s/**", pp->path);
		if (!(*holes)[(*n)++])
			return -ENOMEM;
	}
	return 0;
}

/*
 * A kernel rule granting EXECUTE on a tree with exec carve-outs inside:
 * take EXECUTE off the tree and list the tree at launch instead.
 */
static int exec_holes(struct fbac_policy *p, struct fbac_ll_path *lp,
		      size_t *cap_gaps)
{
	const uint32_t bit = FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE);
	const char **holes;
	size_t n;
	bool simple;
	int r;

	if ((r = holes_below(p, lp->path, bit, false, &holes, &n, &simple)) < 0)
		return r;
	if (!n)
		return 0;
	lp->access &= ~FBAC_LL_FS_EXECUTE;
	if (!simple)
		return add_gap(p, cap_gaps, bit, NULL,
			       "exec carve-outs under '%s' are too complex for the kernel: it refuses to execute anything there",
			       lp->path);
	return add_expand(p, lp->path, NULL, holes, n);
}

#define CREATE_RIGHTS                                                          \
	(FBAC_LL_FS_MAKE_CHAR | FBAC_LL_FS_MAKE_DIR | FBAC_LL_FS_MAKE_REG |      \
	 FBAC_LL_FS_MAKE_SOCK | FBAC_LL_FS_MAKE_FIFO | FBAC_LL_FS_MAKE_BLOCK |   \
	 FBAC_LL_FS_MAKE_SYM)

/* What is done to a name rather than to the object: rights of its
 * directory in the kernel. */
#define ENTRY_RIGHTS                                                           \
	(CREATE_RIGHTS | FBAC_LL_FS_REMOVE_FILE | FBAC_LL_FS_REMOVE_DIR |        \
	 FBAC_LL_FS_REFER)

/*
 * Creating, removing or renaming one named object is a right on its
 * directory in the kernel (a name about to exist can bear no rule, and
 * removal is asked of the directory); a file made is then opened for what
 * the rule grants. The supervisor does all of it after deciding on the
 * name, and nothing of it continues in the kernel, so the wider kernel
 * rule on the directory is only the backstop.
 */
static int create_in_parent(struct fbac_policy *p, const struct fbac_prule *pr,
			    uint64_t acc, size_t *cap_paths, size_t *cap_gaps)
{
	struct fbac_landlock_plan *ll = &p->ll;
	const char *slash = strrchr(pr->pattern, '/');
	size_t dlen;
	int r;

	if (!slash)
		return 0;
	dlen = slash == pr->pattern ? 1 : (size_t)(slash - pr->pattern);
	r = fbac_arena_grow(p->arena, (void **)&ll->paths, cap_paths,
			    ll->n_paths + 1, sizeof(*ll->paths));
	if (r < 0)
		return r;
	ll->paths[ll->n_paths].path =
		fbac_arena_strndup(p->arena, pr->pattern, dlen);
	if (!ll->paths[ll->n_paths].path)
		return -ENOMEM;
	ll->paths[ll->n_paths].literal_only = 0;
	ll->paths[ll->n_paths++].access =
		acc & (ENTRY_RIGHTS | FBAC_LL_FS_WRITE_FILE |
		       FBAC_LL_FS_TRUNCATE | FBAC_LL_FS_READ_FILE);
	return add_gap(p, cap_gaps, pr->ops, pr->origin,
		       "making or removing '%s' is a kernel right on all of '%.*s'",
		       pr->pattern, (int)dlen, pr->pattern);
}

/* The gaps of one path rule pr whose kernel rights are acc: a pattern
 * enforced as its folder, a directory rule that also covers what is below
 * it, and kernel rights that also allow related operations. */
static int path_rule_gaps(struct fbac_policy *p, const struct fbac_prule *pr,
			  uint64_t acc, size_t *cap_gaps)
{
	uint32_t inexact = 0;
	int r = 0;

	if (!pr->literal && !fbac_prule_is_tree(pr))
		r = add_gap(
			p, cap_gaps, pr->ops, pr->origin,
			"pattern '%s' is enforced in the kernel as all of '%.*s'",
			pr->pattern, pr->plen, pr->pattern);
	else if (pr->literal && (acc & FBAC_LL_FS_DIR_ONLY))
		r = add_gap(
			p, cap_gaps, pr->ops, pr->origin,
			"the kernel rule on directory '%s' also covers what is below it",
			pr->pattern);
	if (r < 0)
		return r;
	for (unsigned op = 0; op < FBAC_OP_COUNT && !p->gaps_left_out; op++)
		if ((pr->ops & FBAC_OP_BIT(op)) &&
		    fbac_op_info(op)->landlock_fs &&
		    !fbac_op_info(op)->landlock_exact)
			inexact |= FBAC_OP_BIT(op);
	if (inexact &&
	    (r = add_gap(p, cap_gaps, inexact, pr->origin,
			 "the kernel right for '%s' also allows related operations",
			 ops_names(p->arena, inexact))) < 0)
		return r;
	return 0;
}

/* The kernel rule of one allowing path rule pr (none when it grants no
 * kernel right), the rule to create in its parent, and its gaps. */
static int path_rule_plan(struct fbac_policy *p, const struct fbac_prule *pr,
			  size_t *cap_paths, size_t *cap_gaps)
{
	struct fbac_landlock_plan *ll = &p->ll;
	uint64_t acc = fbac_ops_landlock_fs(pr->ops);
	int r;

	if (pr->deny || !acc)
		return 0;
	if ((acc & FBAC_LL_FS_EXECUTE) && !pr->literal &&
	    !fbac_prule_is_tree(pr)) {
		/* Not as a superset (see struct fbac_ll_expand). */
		acc &= ~FBAC_LL_FS_EXECUTE;
		if ((r = exec_glob(p, pr, cap_gaps)) < 0)
			return r;
	}
	if (!acc)
		return 0;
	r = fbac_arena_grow(p->arena, (void **)&ll->paths, cap_paths,
			    ll->n_paths + 1, sizeof(*ll->paths));
	if (r < 0)
		return r;
	ll->paths[ll->n_paths].path = fbac_arena_strndup(p->arena, pr->pattern,
							 pr->plen);
	if (!ll->paths[ll->n_paths].path)
		return -ENOMEM;
	ll->paths[ll->n_paths].literal_only = pr->literal ?
						      acc & FBAC_LL_FS_EXECUTE :
						      0;
	ll->paths[ll->n_paths++].access = acc;
	if (pr->literal && (acc & ENTRY_RIGHTS) &&
	    (r = create_in_parent(p, pr, acc, cap_paths, cap_gaps)) < 0)
		return r;
	return path_rule_gaps(p, pr, acc, cap_gaps);
}

/* One kernel rule per path, with the union of rights. */
static void merge_paths(struct fbac_landlock_plan *ll)
{
	size_t o = 0;

	if (ll->n_paths)
		fbac_sort_nearly(ll->paths, ll->n_paths, sizeof(*ll->paths),
				 cmp_llpath);
	for (size_t i = 0; i < ll->n_paths; i++) {
		struct fbac_ll_path *last = o ? &ll->paths[o - 1] : NULL;

		if (last && streq(last->path, ll->paths[i].path)) {
			/* Literal-only while no tree rule grants it as well. */
			last->literal_only =
				(last->literal_only &
				 (ll->paths[i].literal_only |
				  ~ll->paths[i].access)) |
				(ll->paths[i].literal_only & ~last->access);
			last->access |= ll->paths[i].access;
		} else {
			ll->paths[o++] = ll->paths[i];
		}
	}
	ll->n_paths = o;
}

/* Carve-outs: a deny inside a kernel-granted tree (explained only: the
 * narrow plan keeps them out of the kernel). */
static int deny_gaps(struct fbac_policy *p, size_t *cap_gaps)
{
	int r;

	for (size_t i = 0; i < p->n_prules && !p->gaps_left_out; i++) {
		const struct fbac_prule *d = &p->prules[i];
		uint64_t dfs;

		if (!d->deny || !(dfs = fbac_ops_landlock_fs(d->ops)))
			continue;
		for (size_t k = 0; k < p->n_prules; k++) {
			const struct fbac_prule *a = &p->prules[k];

			if (a->deny || !(a->llfs & dfs) ||
			    !prefix_under(d->pattern, d->plen, a->pattern,
					  a->plen))
				continue;
			r = add_gap(p, cap_gaps, d->ops & a->ops, d->origin,
				    "denied '%s' is carved out of '%s' (%s)",
				    d->pattern, a->pattern, a->origin->chain);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* Carve-outs: a protected path inside a kernel-granted tree (explained
 * only, as deny_gaps). */
static int protected_gaps(struct fbac_policy *p, size_t *cap_gaps)
{
	int r;

	for (size_t i = 0; i < p->n_protected && !p->gaps_left_out; i++) {
		const struct fbac_resolved_protected *pp = &p->protected[i];
		size_t pl = strlen(pp->path);

		for (size_t k = 0; k < p->n_prules; k++) {
			const struct fbac_prule *a = &p->prules[k];
			char below[FBAC_MAX_PATH + 16];

			/* A literal above grants only itself. */
			if (a->deny || a->literal || !a->llfs ||
			    (a->plen == pl && !memcmp(a->pattern, pp->path, pl)) ||
			    !prefix_under(pp->path, pl, a->pattern, a->plen))
				continue;
			/* Only a pattern that reaches the protected path or
			 * below it (not a sibling like 'xauth_*') matters. */
			snprintf(below, sizeof(below), "%s/x", pp->path);
			if (!fbac_pattern_match(a->pattern, pp->path) &&
			    !fbac_pattern_match(a->pattern, below))
				continue;
			r = add_gap(p, cap_gaps, a->ops, a->origin,
				    "protected '%s' lies inside '%s'", pp->path,
				    a->pattern);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* The network part: the TCP ports, the gaps of UDP and denied network
 * rules, and the scopes (signals, abstract unix sockets). */
static int net_plan(struct fbac_policy *p, size_t *cap_gaps)
{
	struct fbac_landlock_plan *ll = &p->ll;
	int r;

	if ((r = ports_plan(p, FBAC_OP_NETWORK_OUTGOING,
			    &ll->handle_connect_tcp, &ll->connect_ports,
			    &ll->n_connect_ports, cap_gaps)) < 0 ||
	    (r = ports_plan(p, FBAC_OP_NETWORK_INCOMING, &ll->handle_bind_tcp,
			    &ll->bind_ports, &ll->n_bind_ports, cap_gaps)) < 0)
		return r;
	for (size_t i = 0; i < p->n_net; i++) {
		const struct fbac_rule *nr = p->net[i];

		if (nr->proto == FBAC_PROTO_UDP)
			r = add_gap(p, cap_gaps, nr->ops, nr->origin,
				    "udp: the kernel does not restrict it");
		else if (nr->deny)
			r = add_gap(p, cap_gaps, nr->ops, nr->origin,
				    "a denied network rule");
		if (r < 0)
			return r;
	}
	if (!p->signal_origin)
		ll->scope |= FBAC_LL_SCOPE_SIGNAL;
	if (p->n_abstract == 0)
		ll->scope |= FBAC_LL_SCOPE_ABSTRACT_UNIX;
	else if ((r = add_gap(p, cap_gaps, FBAC_OP_BIT(FBAC_OP_UNIX_CONNECT),
			      NULL,
			      "abstract unix sockets are allowed by name")) < 0)
		return r;
	return 0;
}

/* The Landlock plan of p (p->ll): the kernel rule of each path, merged,
 * with the holes for execution, the gaps the kernel cannot enforce, the
 * ports and the scopes. */
static int landlock_plan(struct fbac_policy *p)
{
	struct fbac_landlock_plan *ll = &p->ll;
	size_t cap_paths = 0, cap_gaps = 0;
	int r;

	ll->handled_fs = FBAC_LL_FS_ALL;
	for (size_t i = 0; i < p->n_prules; i++)
		if ((r = path_rule_plan(p, &p->prules[i], &cap_paths,
					&cap_gaps)) < 0)
			return r;
	merge_paths(ll);
	for (size_t i = 0; i < ll->n_paths; i++)
		if ((ll->paths[i].access & FBAC_LL_FS_EXECUTE) &&
		    (r = exec_holes(p, &ll->paths[i], &cap_gaps)) < 0)
			return r;
	if ((r = deny_gaps(p, &cap_gaps)) < 0 ||
	    (r = protected_gaps(p, &cap_gaps)) < 0)
		return r;
	for (unsigned op = 0; op < FBAC_OP_COUNT; op++) {
		const struct fbac_op_info *oi = fbac_op_info(op);

		if (oi->kind == FBAC_KIND_PATH && !oi->landlock_fs &&
		    (r = add_gap(p, &cap_gaps, FBAC_OP_BIT(op), NULL,
				 "'%s' has no kernel right", oi->name)) < 0)
			return r;
	}
	return net_plan(p, &cap_gaps);
}

int fbac_policy_plan(struct fbac_policy *p)
{
	int r;

	if ((r = landlock_plan(p)) < 0 || (r = narrow_plan(p)) < 0)
		return r;
	plan_drop_implied(&p->ll);
	return 0;
}
