/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Learning: one candidate functionality with arguments, its coverage and its cost. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "macro.h"
#include "path.h"
#include "propose-int.h"

static double rule_weight(const struct ctx *c, const char *prefix, uint32_t ops)
{
	bool home = c->home && fbac_path_is_under(prefix, c->home);
	bool tmp = fbac_path_is_under(prefix, "/tmp") ||
		   fbac_path_is_under(prefix, "/var/tmp") ||
		   fbac_path_is_under(prefix, "/dev/shm") ||
		   fbac_path_is_under(prefix, "/run/user");
	bool kernel = fbac_path_is_under(prefix, "/dev") ||
		      fbac_path_is_under(prefix, "/proc") ||
		      fbac_path_is_under(prefix, "/sys");

	/* Seeing that something exists tells little. */
	if (!(ops & ~(FBAC_OP_BIT(FBAC_OP_FILE_GETATTR) |
		      FBAC_OP_BIT(FBAC_OP_DIR_READ))))
		return home ? 0.1 : 0.01;
	if (ops & WRITE_OPS)
		return home ? 1.0 : tmp ? 0.3 : kernel ? 0.1 : 0.5;
	if (ops & FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE))
		return 1.0;
	return home ? 0.5 : 0.03;
}

/* What covering an access is worth: what it changes, where it connects
 * and what it runs matter more than the libraries it loads. */
double obs_weight(const struct ctx *c, const struct fbac_obs *o)
{
	uint32_t bit = FBAC_OP_BIT(o->q.op);

	if (fbac_op_info(o->q.op)->kind == FBAC_KIND_NET)
		return 5.0;
	if (bit & WRITE_OPS)
		return 3.0;
	if (bit & FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE))
		return 2.0;
	if (c->home && o->q.path && fbac_path_is_under(o->q.path, c->home))
		return 2.0;
	if (bit & FBAC_OP_BIT(FBAC_OP_FILE_GETATTR))
		return 0.5;
	return 1.0;
}

struct uw {
	const struct fbac_origin *origin;
	double w;
};

struct uo {
	const struct fbac_origin *origin;
	uint32_t ops; /* the operations accesses used it for */
};

static int cmp_uo(const void *x, const void *y)
{
	const struct uo *a = x, *b = y;

	return a->origin < b->origin ? -1 : a->origin > b->origin;
}

/* The operations accesses used the rules of origin for (0: unused). */
static uint32_t used_ops(const struct uo *v, size_t n, const struct fbac_origin *o)
{
	struct uo key = { o, 0 };
	const struct uo *hit = n ? bsearch(&key, v, n, sizeof(*v), cmp_uo) : NULL;

	return hit ? hit->ops : 0;
}

/* The state one evaluation of a candidate shares between its steps. */
struct eval {
	struct ctx *c;
	struct cand *k;
	struct fbac_policy *pol;
	struct uo *used; /* the origins of the rules accesses used */
	size_t n_used;
	struct uw *unused; /* the privilege entries no access used */
	size_t n_unused;
};

/* Resolve and compile k's functionality with its values into *ret (NULL
 * when it does not compile with them). */
static int compile_candidate(struct cand *k, const struct ctx *c,
			     struct fbac_policy **ret)
{
	struct fbac_include inc = { .name = k->f->name, .target = k->f };
	struct fbac_define defs[FBAC_MAX_PARAMS];
	/* Without the program's own executables: whether the functionality
	 * itself names the program is one of the things to learn. */
	struct fbac_resolve_input ri = {
		.lib = c->in->lib,
		.env = c->in->env,
		.root_name = "--learn",
		.grants = &inc,
		.n_grants = 1,
		.defines = defs,
	};
	struct fbac_resolved *res = NULL;
	int r;

	*ret = NULL;
	for (size_t i = 0; i < k->f->n_params; i++)
		if (k->vals[i])
			defs[ri.n_defines++] = (struct fbac_define){
				NULL, k->f->params[i].name, k->vals[i]
			};
	r = fbac_resolve(&ri, &res, NULL);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0; /* not with these values */
	r = fbac_policy_compile_flags(&res, k->f->name, FBAC_COMPILE_NO_GAPS,
				      ret, NULL);
	if (r == -ENOMEM)
		return r;
	return 0;
}

/* Which accesses the policy allows (k->cov, k->n_cov, k->gain), and the
 * origins of the rules that allowed them (e->used). */
static void cover_accesses(struct eval *e)
{
	struct ctx *c = e->c;
	struct cand *k = e->k;

	for (size_t i = 0; i < c->n; i++) {
		struct fbac_verdict v = { 0 };

		k->cov[i] = fbac_policy_query(e->pol, &c->obs[i].q, &v) == 0 &&
			    v.allowed;
		if (k->cov[i]) {
			if (c->universe[i]) {
				k->n_cov++;
				k->gain += c->weight[i];
			}
			if (v.origin)
				e->used[e->n_used++] = (struct uo){
					v.origin, FBAC_OP_BIT(c->obs[i].q.op)
				};
		}
	}
}

/* Whether the policy lets the program run by its name or its own folder
 * (k->names_program). */
static void find_names_program(const struct ctx *c, struct cand *k,
			       const struct fbac_policy *pol)
{
	k->names_program = false;
	for (size_t e = 0; e < 2; e++) {
		const char *exe = e ? c->in->canonical : c->in->program;
		struct fbac_verdict v = { 0 };
		char dir[FBAC_MAX_PATH];

		if (!exe || fbac_policy_check_path(pol, FBAC_OP_FILE_EXECUTE, exe, &v) < 0 ||
		    !v.allowed || !v.rule)
			continue;
		/* Named by it (python3* in /usr/bin, its own folder), not
		 * through a whole system folder (all of /usr/bin). */
		snprintf(dir, sizeof(dir), "%.*s", (int)fbac_pattern_prefix_len(v.rule), v.rule);
		if (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
			dir[strlen(dir) - 1] = 0;
		if (!sensitive_dir(c, dir) ||
		    (strcmp(v.rule + strlen(dir), "/**") && strcmp(v.rule + strlen(dir), "/*")))
			k->names_program = true;
	}
}

/* Sort e->used by origin and merge the operations of each origin. */
static void merge_used(struct eval *e)
{
	size_t w = 0;

	qsort(e->used, e->n_used, sizeof(*e->used), cmp_uo);
	for (size_t i = 0; i < e->n_used; i++) {
		if (w && e->used[w - 1].origin == e->used[i].origin)
			e->used[w - 1].ops |= e->used[i].ops;
		else
			e->used[w++] = e->used[i];
	}
	e->n_used = w;
}

/* Carve the reach of rule pr into protected path pp, which the run did not
 * touch, out of k: what it grants there is denied, each rule by its own
 * pattern (a literal rule below would decide before a tree). Return 1 when
 * there is too much to carve (k is not it). */
static int carve_out(struct ctx *c, struct cand *k, const struct fbac_prule *pr,
		     const struct fbac_resolved_protected *pp)
{
	bool dup = false;

	for (size_t q = 0; q < k->n_carve; q++)
		if (streq(k->carve[q].pattern, pr->pattern)) {
			k->carve[q].ops |= pr->ops & ~pp->allow;
			dup = true;
		}
	if (dup)
		return 0;
	if (k->n_carve >= FBAC_MAX_LEARN_CARVE)
		return 1; /* too much to carve: not it */
	/* A carve-out is one more thing to read, once
	 * per protected path. */
	for (size_t q = 0; q < k->n_carve && !dup; q++)
		dup = streq(k->carve[q].prot_path, pp->path);
	if (!dup)
		k->cost += 1.5;
	k->carve[k->n_carve++] = (struct fbac_prop_carve){ pr->pattern,
							   pr->ops & ~pp->allow,
							   NULL };
	if (!(k->carve[k->n_carve - 1].pattern = fbac_arena_strdup(c->a,
								   pr->pattern)) ||
	    !(k->carve[k->n_carve - 1].prot_path = fbac_arena_strdup(c->a,
								     pp->path)))
		return -ENOMEM;
	return 0;
}

/* Note protected path pp, which the run touched, among k's (once). */
static int note_protected(struct ctx *c, struct cand *k,
			  const struct fbac_resolved_protected *pp)
{
	bool dup = false;

	if (k->n_prot >= ARRAY_SIZE(k->prot))
		return 0;
	for (size_t q = 0; q < k->n_prot; q++)
		dup |= streq(k->prot[q], pp->path);
	if (!dup && !(k->prot[k->n_prot++] = fbac_arena_strdup(c->a, pp->path)))
		return -ENOMEM;
	return 0;
}

/* The protected paths rule pr (with folder prefix) reaches: only if the
 * run went there, else carved out. Return 1 when k is not it. */
static int reach_protected(struct eval *e, const struct fbac_prule *pr,
			   const char *prefix)
{
	struct ctx *c = e->c;
	int r;

	for (size_t p = 0; p < e->pol->n_protected; p++) {
		const struct fbac_resolved_protected *pp = &e->pol->protected[p];
		bool touched = false;

		if (!fbac_path_is_under(prefix, pp->path) ||
		    !(pr->ops & ~pp->allow))
			continue;
		for (size_t o = 0; o < c->n && !touched; o++)
			touched = c->obs[o].prot &&
				  streq(c->obs[o].prot->path, pp->path);
		r = touched ? note_protected(c, e->k, pp) :
			      carve_out(c, e->k, pr, pp);
		if (r)
			return r;
	}
	return 0;
}

/* What rule pr (with folder prefix) costs: a sensitive folder written, and
 * a privilege entry no access used (its heaviest rule, in e->unused). */
static void cost_rule(struct eval *e, const struct fbac_prule *pr,
		      const char *prefix)
{
	uint32_t uops = used_ops(e->used, e->n_used, pr->origin);

	/* Writing a whole sensitive folder (the home directory, /etc)
	 * is too wide however much of it the run used. */
	if ((pr->ops & WRITE_OPS) && !pr->literal && sensitive_dir(e->c, prefix))
		e->k->cost += 3.0;
	/* Used only for reading, it also grants writing or running:
	 * that is granted beyond what was observed too. */
	if (uops && !(uops & (WRITE_OPS | FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE))) &&
	    (pr->ops & (WRITE_OPS | FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE))))
		uops = 0;
	if (!uops) {
		/* One privilege entry is one thing to read: its
		 * heaviest rule counts. */
		double w = rule_weight(e->c, prefix, pr->ops);
		size_t j;

		for (j = 0; j < e->n_unused; j++)
			if (e->unused[j].origin == pr->origin)
				break;
		if (j == e->n_unused)
			e->unused[e->n_unused++] = (struct uw){ pr->origin, 0 };
		if (w > e->unused[j].w)
			e->unused[j].w = w;
	}
}

/* The cost of the path rules that allow: their protected reach, their
 * width, and the entries no access used. Return 1 when k is not it. */
static int cost_path_rules(struct eval *e)
{
	int r;

	for (size_t i = 0; i < e->pol->n_prules; i++) {
		const struct fbac_prule *pr = &e->pol->prules[i];
		char prefix[FBAC_MAX_PATH];

		if (pr->deny)
			continue;
		snprintf(prefix, sizeof(prefix), "%.*s", (int)pr->plen, pr->pattern);
		if (strlen(prefix) > 1 && prefix[strlen(prefix) - 1] == '/')
			prefix[strlen(prefix) - 1] = 0;
		if (prefix[0] != '/')
			continue;
		if ((r = reach_protected(e, pr, prefix)))
			return r;
		cost_rule(e, pr, prefix);
	}
	for (size_t j = 0; j < e->n_unused; j++)
		e->k->cost += e->unused[j].w;
	return 0;
}

/* The cost of the network rules no access used. */
static void cost_network(struct eval *e)
{
	const struct fbac_policy *pol = e->pol;

	for (size_t i = 0; i < pol->n_net; i++) {
		bool incoming = pol->net[i]->ops &
				FBAC_OP_BIT(FBAC_OP_NETWORK_INCOMING);

		if (used_ops(e->used, e->n_used, pol->net[i]->origin))
			continue;
		/* A program that never connected gains a
		 * network: that is a lot beyond what it did. */
		e->k->cost += incoming ? 3.0 : 2.0;
	}
}

/* Resolve and compile f with the values, and see what it allows. */
int evaluate(struct ctx *c, struct cand *k)
{
	_cleanup_free_ struct uo *used = NULL;
	_cleanup_free_ struct uw *unused = NULL;
	struct eval e = { .c = c, .k = k };
	int r;

	k->valid = false;
	k->n_cov = 0;
	k->gain = 0;
	k->n_prot = 0;
	k->n_carve = 0;
	r = compile_candidate(k, c, &e.pol);
	if (r < 0 || !e.pol)
		return r;
	e.used = used = calloc(c->n + 1, sizeof(*used));
	e.unused = unused = calloc(e.pol->n_prules + 1, sizeof(*unused));
	if (!used || !unused) {
		fbac_policy_free(e.pol);
		return -ENOMEM;
	}
	cover_accesses(&e);
	find_names_program(c, k, e.pol);
	merge_used(&e);
	k->cost = 1.0;
	r = cost_path_rules(&e);
	if (r == 0) {
		cost_network(&e);
		k->valid = true;
	}
	fbac_policy_free(e.pol);
	return r < 0 ? r : 0;
}

/* A functionality written for the program (it names it) is worth a
 * little more than one that merely covers as much. */
double bonus(const struct cand *k)
{
	return k->names_program ? 1.05 : 1.0;
}

static double score(const struct cand *k)
{
	return k->valid ? bonus(k) * k->gain - k->cost : -1e9;
}

static const struct values *values_for(struct ctx *c, enum fbac_ptype t)
{
	switch (t) {
	case FBAC_PT_PATH:
	case FBAC_PT_PATHS:
		return &c->dirs;
	case FBAC_PT_PORTS:
		return &c->ports;
	case FBAC_PT_STRING:
		return &c->names;
	case FBAC_PT_HOSTS:
		return &c->hosts;
	case FBAC_PT_BOOL:
		break;
	}
	return NULL;
}

/* The best arguments for f: defaults first, then each parameter in turn
 * set to each value worth trying, keeping what scores better. */
int best_args(struct ctx *c, const struct fbac_functionality *f,
		     struct cand *best, struct cand *tmp)
{
	int r;

	best->f = tmp->f = f;
	memset(best->vals, 0, sizeof(best->vals));
	for (size_t i = 0; i < f->n_params; i++) {
		const struct values *v = values_for(c, f->params[i].type);

		if (f->params[i].def)
			continue;
		if (f->params[i].type == FBAC_PT_BOOL)
			best->vals[i] = "false";
		else if (v && v->n)
			best->vals[i] = v->v[0];
		else
			return 0; /* a required value we cannot guess */
	}
	if ((r = evaluate(c, best)) < 0)
		return r;
	for (size_t i = 0; i < f->n_params; i++) {
		const struct values *v = values_for(c, f->params[i].type);
		char joined[FBAC_MAX_PATH];

		for (size_t j = 0; v && j <= v->n; j++) {
			const char *val = j < v->n ? v->v[j] : NULL;

			/* Ports: also all of those seen, together. */
			if (j == v->n) {
				if (f->params[i].type != FBAC_PT_PORTS || v->n < 2)
					break;
				joined[0] = 0;
				for (size_t x = 0; x < v->n; x++)
					snprintf(joined + strlen(joined),
						 sizeof(joined) - strlen(joined),
						 "%s%s", x ? "," : "", v->v[x]);
				val = joined;
			}
			/* Lists of several only for list types. */
			if (strchr(val, ',') && !fbac_ptype_is_list(f->params[i].type))
				continue;
			memcpy(tmp->vals, best->vals, sizeof(tmp->vals));
			if (best->vals[i] && streq(best->vals[i], val))
				continue;
			tmp->vals[i] = val;
			if ((r = evaluate(c, tmp)) < 0)
				return r;
			if (score(tmp) > score(best) + 1e-9) {
				if (val == joined && !(tmp->vals[i] = fbac_arena_strdup(c->a, joined)))
					return -ENOMEM;
				{
					uint8_t *t = best->cov;

					best->cov = tmp->cov;
					tmp->cov = t;
				}
				memcpy(best->vals, tmp->vals, sizeof(best->vals));
				best->cost = tmp->cost;
				best->n_cov = tmp->n_cov;
				best->gain = tmp->gain;
				best->valid = tmp->valid;
				best->n_prot = tmp->n_prot;
				memcpy(best->prot, tmp->prot, sizeof(best->prot));
				best->n_carve = tmp->n_carve;
				best->names_program = tmp->names_program;
				memcpy(best->carve, tmp->carve, sizeof(best->carve));
			}
		}
	}
	return 0;
}

