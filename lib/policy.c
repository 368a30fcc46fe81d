/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "policy.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fbac-limits.h"
#include "path.h"
#include "sort.h"
#include "plan.h"

struct fbac_policy *fbac_policy_free(struct fbac_policy *p)
{
	if (p) {
		fbac_resolved_free(p->res);
		free(p);
	}
	return NULL;
}

static int cmp_prefix(const char *a, size_t alen, const char *b, size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c)
		return c;
	return alen < blen ? -1 : alen > blen;
}

static int cmp_prule(const void *x, const void *y)
{
	const struct fbac_prule *a = x, *b = y;
	int c = cmp_prefix(a->pattern, a->plen, b->pattern, b->plen);

	if (c)
		return c;
	c = strcmp(a->pattern, b->pattern);
	if (c)
		return c;
	return (int)a->deny - (int)b->deny;
}

/*
 * The path rules in cmp_prule's order, equal ones in their first order
 * (as glibc's qsort, a merge sort, leaves them): bottom-up merges that
 * call cmp_prule directly, where qsort's indirect calls and copies were
 * a quarter of decoding a stack cache. Return: 0 or -ENOMEM.
 */
static int sort_prules(struct fbac_prule *v, size_t n)
{
	struct fbac_prule *tmp, *src = v, *dst;

	if (n < 2)
		return 0;
	tmp = malloc(n * sizeof(*tmp));
	if (!tmp)
		return -ENOMEM;
	dst = tmp;
	for (size_t w = 1; w < n; w *= 2) {
		struct fbac_prule *t;

		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n,
			       hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t i = lo, j = mid, k = lo;

			/* The right one first only when it is smaller. */
			while (i < mid && j < hi)
				dst[k++] = cmp_prule(&src[j], &src[i]) < 0 ?
						   src[j++] :
						   src[i++];
			while (i < mid)
				dst[k++] = src[i++];
			while (j < hi)
				dst[k++] = src[j++];
		}
		t = src;
		src = dst;
		dst = t;
	}
	if (src != v)
		memcpy(v, src, n * sizeof(*v));
	free(tmp);
	return 0;
}

static int cmp_protected(const void *x, const void *y)
{
	const struct fbac_resolved_protected *a = x, *b = y;

	return strcmp(a->path, b->path);
}

bool fbac_prule_is_tree(const struct fbac_prule *r)
{
	size_t n = strlen(r->pattern);

	return !r->literal && n >= 3 && !strcmp(r->pattern + n - 3, "/**") &&
	       (size_t)r->plen == (n == 3 ? 1 : n - 3);
}

static int path_tables(struct fbac_policy *p)
{
	const struct fbac_resolved *res = p->res;
	size_t n = 0, na = 0;

	p->prules = fbac_arena_array(p->arena, res->n_rules + 1,
				     sizeof(*p->prules));
	p->abstract = fbac_arena_array(p->arena, res->n_rules + 1,
				       sizeof(*p->abstract));
	p->net = fbac_arena_array(p->arena, res->n_rules + 1,
				  sizeof(*p->net));
	if (!p->prules || !p->abstract || !p->net)
		return -ENOMEM;
	for (size_t i = 0; i < res->n_rules; i++) {
		const struct fbac_rule *r = &res->rules[i];

		if (r->kind == FBAC_PRIV_NET) {
			p->net[p->n_net++] = r;
		} else if (r->kind == FBAC_PRIV_SIGNAL) {
			if (!p->signal_origin)
				p->signal_origin = r->origin;
		} else if (r->pattern[0] == '@') {
			p->abstract[na++] = r;
		} else {
			struct fbac_prule *pr = &p->prules[n++];

			pr->pattern = r->pattern;
			pr->plen = (uint16_t)fbac_pattern_prefix_len(r->pattern);
			pr->llfs = fbac_ops_landlock_fs(r->ops);
			pr->literal = !fbac_has_wildcard(r->pattern);
			pr->deny = r->deny;
			pr->ops = r->ops;
			pr->origin = r->origin;
		}
	}
	p->n_abstract = na;
	if (sort_prules(p->prules, n) < 0)
		return -ENOMEM;
	/* Merge equal (pattern, deny) pairs: the first origin speaks for them. */
	p->n_prules = 0;
	for (size_t i = 0; i < n; i++) {
		struct fbac_prule *last = p->n_prules ?
						  &p->prules[p->n_prules - 1] :
						  NULL;

		if (last && last->deny == p->prules[i].deny &&
		    streq(last->pattern, p->prules[i].pattern)) {
			/* Keep an origin for every op: only merge the same ops. */
			if ((last->ops & p->prules[i].ops) == p->prules[i].ops)
				continue;
		}
		p->prules[p->n_prules++] = p->prules[i];
	}

	p->protected = res->protected;
	p->n_protected = 0;
	if (res->n_protected)
		fbac_sort_nearly(res->protected, res->n_protected,
				 sizeof(*res->protected), cmp_protected);
	for (size_t i = 0; i < res->n_protected; i++) {
		struct fbac_resolved_protected *last =
			p->n_protected ? &p->protected[p->n_protected - 1] :
					 NULL;

		/* Protected twice: only what both still allow. */
		if (last && streq(last->path, res->protected[i].path))
			last->allow &= res->protected[i].allow;
		else
			p->protected[p->n_protected++] = res->protected[i];
	}
	if (p->n_prules > FBAC_MAX_RULES)
		return -E2BIG;
	return 0;
}

/* Index of the first path rule whose literal prefix is path[0..len). */
size_t fbac_policy_lower_bound(const struct fbac_policy *p, const char *path,
			       size_t len)
{
	size_t lo = 0, hi = p->n_prules;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct fbac_prule *r = &p->prules[mid];

		if (cmp_prefix(r->pattern, r->plen, path, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int fbac_policy_compile(struct fbac_resolved **res, const char *name,
			struct fbac_policy **ret, struct fbac_diag *diag)
{
	return fbac_policy_compile_flags(res, name, 0, ret, diag);
}

int fbac_policy_compile_flags(struct fbac_resolved **res, const char *name,
			      unsigned flags, struct fbac_policy **ret,
			      struct fbac_diag *diag)
{
	_cleanup_(fbac_policy_freep) struct fbac_policy *p = NULL;
	int r;

	if (flags & ~FBAC_COMPILE_NO_GAPS) {
		*res = fbac_resolved_free(*res);
		return -EINVAL;
	}
	p = calloc(1, sizeof(*p));
	if (!p) {
		*res = fbac_resolved_free(*res);
		return -ENOMEM;
	}
	p->gaps_left_out = flags & FBAC_COMPILE_NO_GAPS;
	p->res = TAKE_PTR(*res);
	p->arena = p->res->arena;
	p->name = fbac_arena_strdup(p->arena, name ? name : "");
	if (!p->name)
		return -ENOMEM;
	r = path_tables(p);
	if (r == -E2BIG)
		return fbac_diag_at(diag, NULL, r,
				    "policy '%s' has more than %d path rules",
				    name, FBAC_MAX_RULES);
	if (r < 0)
		return r;
	if ((r = fbac_policy_plan(p)) < 0)
		return r;
	*ret = TAKE_PTR(p);
	return 0;
}

/* The protected entry for exactly path[0..len), or NULL. */
static const struct fbac_resolved_protected *
protected_at(const struct fbac_policy *p, const char *path, size_t len)
{
	size_t lo = 0, hi = p->n_protected;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *q = p->protected[mid].path;
		int c = strncmp(q, path, len);

		if (c == 0)
			c = q[len] ? 1 : 0;
		if (c == 0)
			return &p->protected[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Shorten len to the parent directory; false at the root. */
static bool parent_len(const char *path, size_t *len)
{
	if (*len <= 1)
		return false;
	while (*len > 0 && path[*len - 1] != '/')
		(*len)--;
	if (*len > 1)
		(*len)--; /* drop the '/' unless it is the root */
	return true;
}

/* The best rule for op at exactly this prefix level, or NULL. */
static const struct fbac_prule *best_at(const struct fbac_policy *p,
					uint32_t bit, const char *path,
					size_t len)
{
	const struct fbac_prule *best = NULL;

	for (size_t i = fbac_policy_lower_bound(p, path, len); i < p->n_prules;
	     i++) {
		const struct fbac_prule *r = &p->prules[i];

		if (r->plen != len || memcmp(r->pattern, path, len))
			break;
		if (!(r->ops & bit))
			continue;
		if (r->literal ? !streq(r->pattern, path) :
				 !fbac_pattern_match(r->pattern, path))
			continue;
		/* Literal beats wildcard; at equal literalness deny beats allow. */
		if (!best || (r->literal && !best->literal) ||
		    (r->literal == best->literal && r->deny && !best->deny))
			best = r;
	}
	return best;
}

int fbac_policy_check_path(const struct fbac_policy *p, enum fbac_op op,
			   const char *path, struct fbac_verdict *v)
{
	const struct fbac_resolved_protected *prot = NULL;
	bool inside_protected = false;
	uint32_t bit = FBAC_OP_BIT(op);
	size_t len = strlen(path);

	memset(v, 0, sizeof(*v));
	if ((unsigned)op >= FBAC_OP_COUNT ||
	    fbac_op_info(op)->kind != FBAC_KIND_PATH || len >= FBAC_MAX_PATH ||
	    !fbac_path_is_normal(path))
		return -EINVAL;
	/*
	 * One walk from the path up to "/": the first level with a matching
	 * rule decides. Once the walk has passed a protected directory, an
	 * allow rule found higher up does not reach below it.
	 */
	do {
		const struct fbac_prule *r = best_at(p, bit, path, len);
		const struct fbac_resolved_protected *here;

		if (r && prot && !r->deny) {
			v->protected = prot;
			v->cut_origin = r->origin;
			v->cut_rule = r->pattern;
			return 0;
		}
		if (r) {
			v->allowed = !r->deny;
			v->deny_rule = r->deny;
			v->origin = r->origin;
			v->rule = r->pattern;
			return 0;
		}
		/* The innermost protected directory alone decides. */
		here = p->n_protected && !inside_protected ?
			       protected_at(p, path, len) :
			       NULL;
		if (here) {
			inside_protected = true;
			if (!(here->allow & bit))
				prot = here;
		}
	} while (parent_len(path, &len));
	return 0;
}

int fbac_policy_check_abstract(const struct fbac_policy *p, enum fbac_op op,
			       const char *name, struct fbac_verdict *v)
{
	memset(v, 0, sizeof(*v));
	if (name[0] != '@')
		return -EINVAL;
	for (size_t i = 0; i < p->n_abstract; i++) {
		const struct fbac_rule *r = p->abstract[i];
		size_t n = strlen(r->pattern);
		bool match = r->pattern[n - 1] == '*' ?
				     !strncmp(r->pattern, name, n - 1) :
				     streq(r->pattern, name);

		if (!match || !(r->ops & FBAC_OP_BIT(op)))
			continue;
		if (r->deny || !v->origin) {
			v->allowed = !r->deny;
			v->deny_rule = r->deny;
			v->origin = r->origin;
			v->rule = r->pattern;
		}
		if (r->deny)
			break;
	}
	return 0;
}

/* Whether host (address or name) is one of the rule's hosts. */
static bool host_match(const struct fbac_rule *r, const char *host)
{
	unsigned char addr[16], net[16];
	int fam;

	if (!r->hosts)
		return true;
	if (!host)
		return false;
	fam = strchr(host, ':') ? AF_INET6 : AF_INET;
	if (inet_pton(fam, host, addr) != 1)
		fam = 0;
	for (size_t i = 0; i < r->n_hosts; i++) {
		const char *h = r->hosts[i], *slash = strchr(h, '/');
		char buf[64];
		unsigned bits, full = fam == AF_INET6 ? 128 : 32;

		if (streq(h, "any"))
			return true;
		if (!fam) {
			if (!strcasecmp(h, host))
				return true;
			continue;
		}
		snprintf(buf, sizeof(buf), "%.*s",
			 (int)(slash ? (size_t)(slash - h) : strlen(h)), h);
		if (inet_pton(fam, buf, net) != 1)
			continue;
		bits = slash ? (unsigned)atoi(slash + 1) : full;
		if (bits > full)
			continue;
		if (memcmp(addr, net, bits / 8))
			continue;
		if (bits % 8) {
			unsigned char mask = (unsigned char)(0xff << (8 - bits % 8));
			if ((addr[bits / 8] & mask) != (net[bits / 8] & mask))
				continue;
		}
		return true;
	}
	return false;
}

int fbac_policy_check_net(const struct fbac_policy *p, enum fbac_op op,
			  enum fbac_proto proto, const char *host,
			  uint16_t port, struct fbac_verdict *v)
{
	memset(v, 0, sizeof(*v));
	if (op != FBAC_OP_NETWORK_OUTGOING && op != FBAC_OP_NETWORK_INCOMING)
		return -EINVAL;
	for (size_t i = 0; i < p->n_net; i++) {
		const struct fbac_rule *r = p->net[i];
		bool port_ok = false;

		if (!(r->ops & FBAC_OP_BIT(op)) || r->proto != proto)
			continue;
		/* Port 0 is "whichever port the kernel picks": only a rule
		 * for every port covers it. */
		for (size_t k = 0; k < r->n_ports && !port_ok; k++)
			port_ok = port ? port >= r->ports[k].lo &&
						 port <= r->ports[k].hi :
					 r->ports[k].lo == 1 &&
						 r->ports[k].hi == 65535;
		if (!port_ok || !host_match(r, host))
			continue;
		if (r->deny || !v->origin) {
			v->allowed = !r->deny;
			v->deny_rule = r->deny;
			v->origin = r->origin;
			v->rule = fbac_op_info(op)->name;
		}
		if (r->deny)
			break;
	}
	return 0;
}

int fbac_policy_check_signal(const struct fbac_policy *p,
			     struct fbac_verdict *v)
{
	memset(v, 0, sizeof(*v));
	v->allowed = p->signal_origin != NULL;
	v->origin = p->signal_origin;
	v->rule = v->allowed ? "ipc_signal any" : NULL;
	return 0;
}

int fbac_policy_query(const struct fbac_policy *p, const struct fbac_query *q,
		      struct fbac_verdict *v)
{
	const struct fbac_op_info *oi = fbac_op_info(q->op);

	if (!oi)
		return -EINVAL;
	switch (oi->kind) {
	case FBAC_KIND_PATH:
		if (q->path && q->path[0] == '@')
			return fbac_policy_check_abstract(p, q->op, q->path, v);
		return fbac_policy_check_path(p, q->op, q->path, v);
	case FBAC_KIND_NET:
		return fbac_policy_check_net(p, q->op, q->proto, q->host,
					     q->port, v);
	case FBAC_KIND_SIGNAL:
		return fbac_policy_check_signal(p, v);
	}
	return -EINVAL;
}
