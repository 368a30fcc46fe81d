/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The policy a person would have written for a run: a weighted set cover
 * of its accesses by the library's functionalities, then raw privileges.
 *
 * Each functionality is tried with arguments inferred from the accesses
 * (folders written or read, ports connected to, names under the home
 * directory) and from the program's name, one parameter at a time, and
 * keeps the arguments that cover most for least. Its cost is 1 plus a
 * weight for each of its rules that no access used: writing in the home
 * directory weighs most, reading system files next to nothing; reaching
 * a protected path the run did not touch is carved out, at a cost. One
 * high-level functionality comes first: among those that fit the run,
 * the one that what the system says the program is (the hints: its
 * desktop entry, its package) names most strongly, else the most covered
 * for its cost; then greedy cover picks building blocks by new accesses per cost until
 * none pays for itself; what is left becomes raw privileges
 * (propose-raw.c), and protected accesses are shown apart.
 */
#include "propose.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "macro.h"
#include "path.h"
#include "propose-int.h"

/* A functionality pays for itself when it replaces this many accesses'
 * worth of raw privileges per unit of cost. */
#define MIN_RATIO 1.5
#define MIN_GAIN 2.0

bool fbac_ops_write(uint32_t ops)
{
	return ops & WRITE_OPS;
}

void fbac_proposal_clear(struct fbac_proposal *p)
{
	fbac_arena_free(p->arena);
	*p = (struct fbac_proposal){ 0 };
}

/* The protected paths of the library, as every policy compiled from it
 * has them: from a policy that grants nothing. */
static int protected_list(const struct fbac_propose_input *in,
			  struct fbac_policy **ret, struct fbac_diag *diag)
{
	struct fbac_resolve_input ri = { .lib = in->lib, .env = in->env,
					 .root_name = "--learn" };
	struct fbac_resolved *res = NULL;
	int r;

	if ((r = fbac_resolve(&ri, &res, diag)) < 0)
		return r;
	return fbac_policy_compile_flags(&res, "--learn", FBAC_COMPILE_NO_GAPS,
					 ret, diag);
}

static bool exe_access(const struct fbac_propose_input *in,
		       const struct fbac_obs *o)
{
	uint32_t bit = FBAC_OP_BIT(o->q.op);

	if (!(bit & (FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE) |
		     FBAC_OP_BIT(FBAC_OP_FILE_READ) |
		     FBAC_OP_BIT(FBAC_OP_FILE_GETATTR))) || !o->q.path)
		return false;
	return (in->program && streq(o->q.path, in->program)) ||
	       (in->canonical && streq(o->q.path, in->canonical));
}

/* An access the proposal keeps, in its own arena (it outlives the log). */
static struct fbac_obs *copy_obs(struct ctx *c, const struct fbac_obs *o)
{
	struct fbac_obs *copy = fbac_arena_alloc(c->a, sizeof(*copy));

	if (!copy)
		return NULL;
	*copy = *o;
	copy->prot = NULL;
	if ((o->q.path && !(copy->q.path = fbac_arena_strdup(c->a, o->q.path))) ||
	    (o->q.host && !(copy->q.host = fbac_arena_strdup(c->a, o->q.host))))
		return NULL;
	return copy;
}

/* How strongly the hints name f, and the first hint's reason. */
static unsigned hint_weight(const struct fbac_propose_input *in,
			    const struct fbac_functionality *f,
			    const char **reason)
{
	unsigned w = 0;

	for (size_t i = 0; i < in->n_hints; i++)
		if (in->hints[i].functionality &&
		    streq(in->hints[i].functionality, f->name)) {
			if (!w && reason)
				*reason = in->hints[i].reason;
			w += in->hints[i].weight;
		}
	return w;
}

static int take(struct ctx *c, const struct cand *k, const bool *covered_before,
		struct fbac_proposal *p, size_t *cap)
{
	struct fbac_prop_func *pf;
	double best_w = 0;
	int r;

	if ((r = fbac_arena_grow(c->a, (void **)&p->funcs, cap, p->n_funcs + 1,
				 sizeof(*p->funcs))) < 0)
		return r;
	pf = &p->funcs[p->n_funcs++];
	*pf = (struct fbac_prop_func){ .f = k->f, .cost = k->cost };
	for (size_t i = 0; i < k->f->n_params; i++)
		if (k->vals[i]) {
			pf->arg_names[pf->n_args] = k->f->params[i].name;
			pf->arg_values[pf->n_args++] = k->vals[i];
		}
	for (size_t i = 0; i < c->n; i++)
		if (k->cov[i] && c->universe[i] && !covered_before[i]) {
			pf->covers++;
			pf->events += c->obs[i].count;
			if (!pf->example || c->weight[i] > best_w) {
				struct fbac_obs *copy = copy_obs(c, &c->obs[i]);

				if (!copy)
					return -ENOMEM;
				pf->example = copy;
				best_w = c->weight[i];
			}
		}
	memcpy(pf->protected_paths, k->prot, sizeof(k->prot));
	pf->n_protected = k->n_prot;
	memcpy(pf->carve, k->carve, sizeof(k->carve));
	pf->n_carve = k->n_carve;
	return 0;
}

/* The state the cover shares between its steps. */
struct cover {
	struct ctx *c;
	struct fbac_proposal *p;
	struct fbac_obs *obs; /* c->obs, writable */
	struct cand *cands;   /* the valid candidates that cover something */
	size_t n_cand;
	bool *covered; /* by a chosen functionality */
	double total;  /* the weight of the accesses to cover */
	size_t cap;    /* of p->funcs */
};

/* Which accesses the cover counts (c->universe), their weight
 * (c->weight, the sum in v->total), and the protected path each is under
 * (obs[i].prot). */
static void classify_accesses(struct cover *v, const struct fbac_policy *prot)
{
	const struct fbac_propose_input *in = v->c->in;
	struct fbac_obs *obs = v->obs;

	for (size_t i = 0; i < v->c->n; i++) {
		struct fbac_verdict vd = { 0 };

		/* The innermost protected path above it, if any. */
		for (size_t j = 0; obs[i].q.path && obs[i].q.path[0] == '/' &&
				   j < prot->n_protected; j++)
			if (fbac_path_is_under(obs[i].q.path, prot->protected[j].path) &&
			    !(FBAC_OP_BIT(obs[i].q.op) & prot->protected[j].allow))
				obs[i].prot = &prot->protected[j];
		obs[i].is_protected = obs[i].prot != NULL;
		if (exe_access(in, &obs[i]))
			continue;
		if (in->existing &&
		    !fbac_stack_query(in->existing, &obs[i].q, &vd)) {
			v->p->n_already++;
			continue;
		}
		if (fbac_op_info(obs[i].q.op)->kind == FBAC_KIND_SIGNAL)
			continue;
		v->c->universe[i] = !obs[i].prot;
		v->c->weight[i] = obs_weight(v->c, &obs[i]);
		if (v->c->universe[i])
			v->total += v->c->weight[i];
	}
}

/* The best arguments of each functionality: the candidates that cover
 * something (v->cands), their coverage in covbuf. */
static int build_candidates(struct cover *v, uint8_t *covbuf)
{
	size_t n = v->c->n, nf = v->c->in->lib->n_funcs;
	struct cand tmp = { .cov = covbuf + nf * (n + 1) };
	int r;

	for (size_t i = 0; i < nf; i++) {
		struct cand *k = &v->cands[v->n_cand];

		k->cov = covbuf + i * (n + 1);
		if ((r = best_args(v->c, v->c->in->lib->funcs[i], k, &tmp)) < 0)
			return r;
		if (k->valid && k->n_cov)
			v->n_cand++;
	}
	return 0;
}

/* The candidate that pays most for itself in this phase (NULL: none), and
 * the weight of the hints that name it (*ret_hint). */
static struct cand *pick_best(const struct cover *v, bool high_phase,
			      unsigned *ret_hint)
{
	const struct ctx *c = v->c;
	struct cand *best = NULL;
	double best_ratio = 0;
	unsigned best_hint = 0;

	for (size_t k = 0; k < v->n_cand; k++) {
		struct cand *ck = &v->cands[k];
		double gain = 0, ratio;
		unsigned hint;

		if (!ck->valid)
			continue;
		/* High-level ones first: a building block only once
		 * no high-level one pays for itself. */
		if (!ck->f->high_level && high_phase)
			continue;
		for (size_t i = 0; i < c->n; i++)
			if (ck->cov[i] && c->universe[i] && !v->covered[i])
				gain += c->weight[i];
		gain *= bonus(ck);
		ratio = gain / ck->cost;
		if (gain < MIN_GAIN || ratio < MIN_RATIO)
			continue;
		/* The high-level one: the most covered for its cost,
		 * in absolute terms (a narrow one covering half is
		 * not the program's purpose). */
		if (high_phase)
			ratio = gain - ck->cost;
		if (high_phase && gain < v->total / 2)
			continue;
		/* Among those that fit the run, what the program is
		 * (the hints) decides; the run's cost only when the
		 * hints name none of them, or between equal hints. */
		hint = high_phase ? hint_weight(c->in, ck->f, NULL) : 0;
		if (best && hint != best_hint) {
			if (hint < best_hint)
				continue;
		} else if (best &&
			   !(ratio > best_ratio + 1e-9 ||
			     (ratio > best_ratio - 1e-9 && ck->f->high_level &&
			      !best->f->high_level))) {
			/* Ties: high-level first, then by name
			 * (stable). */
			continue;
		}
		best = ck;
		best_ratio = ratio;
		best_hint = hint;
	}
	*ret_hint = best_hint;
	return best;
}

/* Take best into the proposal, with the hint that named it as its
 * evidence, and mark what it covers. */
static int choose(struct cover *v, struct cand *best, unsigned best_hint)
{
	size_t n = v->c->n;
	_cleanup_free_ bool *before = malloc((n + 1) * sizeof(*before));
	int r;

	if (!before)
		return -ENOMEM;
	memcpy(before, v->covered, (n + 1) * sizeof(*before));
	if ((r = take(v->c, best, before, v->p, &v->cap)) < 0)
		return r;
	if (best_hint) {
		const char *why = NULL;

		hint_weight(v->c->in, best->f, &why);
		if (why && !(v->p->funcs[v->p->n_funcs - 1].evidence =
				     fbac_arena_strdup(v->c->a, why)))
			return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++)
		v->covered[i] |= best->cov[i] && v->c->universe[i];
	best->valid = false;
	return 0;
}

/* Greedy weighted set cover: one high-level functionality, then building
 * blocks until none pays for itself; high-level ones first in p->funcs,
 * then building blocks, each in the order chosen. */
static int greedy_cover(struct cover *v)
{
	struct fbac_proposal *p = v->p;
	bool high_phase = true;
	int r;

	for (;;) {
		unsigned best_hint;
		struct cand *best = pick_best(v, high_phase, &best_hint);

		if (!best && high_phase) {
			high_phase = false;
			continue;
		}
		if (!best)
			break;
		/* One high-level functionality; then building blocks. */
		high_phase = false;
		if ((r = choose(v, best, best_hint)) < 0)
			return r;
	}
	/* High-level ones first, then building blocks, each in the order
	 * chosen. */
	for (size_t i = 1; i < p->n_funcs; i++)
		for (size_t j = i; j > 0 && p->funcs[j].f->high_level &&
				   !p->funcs[j - 1].f->high_level;
		     j--) {
			struct fbac_prop_func t = p->funcs[j];

			p->funcs[j] = p->funcs[j - 1];
			p->funcs[j - 1] = t;
		}
	return 0;
}

/* Whether a chosen functionality reaches access i. */
static bool reached_by_chosen(const struct cover *v, size_t i)
{
	bool reached = false;

	for (size_t k = 0; k < v->n_cand; k++)
		for (size_t f = 0; f < v->p->n_funcs; f++)
			if (v->p->funcs[f].f == v->cands[k].f &&
			    v->cands[k].cov[i])
				reached = true;
	return reached;
}

/* List protected access o apart: one entry per protected path, its folder
 * when the run used several things in it, as a person would grant it,
 * with the functionality that would grant it. */
static int list_protected_one(struct cover *v, const struct fbac_obs *o)
{
	struct fbac_proposal *p = v->p;
	const struct fbac_propose_input *in = v->c->in;
	size_t cap_prot = p->n_prot, j;
	struct fbac_suggestion sug[1];
	size_t n_sug = 0;
	char fill[FBAC_MAX_PATH];
	struct fbac_obs *copy;
	int r;

	for (j = 0; j < p->n_prot; j++)
		if (p->prot[j].prot_path == o->prot->path)
			break;
	if (j < p->n_prot) {
		p->prot[j].ops |= FBAC_OP_BIT(o->q.op);
		p->prot[j].covers++;
		if (!streq(p->prot[j].obs->q.path, o->q.path))
			p->prot[j].several = true;
		return 0;
	}
	copy = copy_obs(v->c, o);
	if (!copy)
		return -ENOMEM;
	r = fbac_suggest(in->lib, in->env, &o->q,
			 fbac_suggest_fill_dir(&o->q, fill, sizeof(fill)), sug,
			 1, &n_sug);
	if (r < 0)
		return r;
	if ((r = fbac_arena_grow(v->c->a, (void **)&p->prot, &cap_prot,
				 p->n_prot + 1, sizeof(*p->prot))) < 0)
		return r;
	p->prot[p->n_prot] = (struct fbac_prop_protected){
		.obs = copy,
		.prot_path = o->prot->path,
		.ops = FBAC_OP_BIT(o->q.op),
		.covers = 1
	};
	if (n_sug && !(p->prot[p->n_prot].suggestion =
			       fbac_arena_strdup(v->c->a, sug[0].f->name)))
		return -ENOMEM;
	p->n_prot++;
	return 0;
}

/*
 * Protected accesses: never the reason to choose a functionality,
 * and shown on their own. One that a chosen functionality reaches
 * is named in its comment; the others are listed apart (the caller
 * asks, or grants each as a raw privilege on exactly that path,
 * flagged), with the functionality that would grant it. The pattern of
 * each: the path, or the protected folder's tree.
 */
static int list_protected(struct cover *v)
{
	struct fbac_proposal *p = v->p;
	int r;

	for (size_t i = 0; i < v->c->n; i++) {
		if (!v->obs[i].prot || exe_access(v->c->in, &v->obs[i]))
			continue;
		if (reached_by_chosen(v, i))
			continue;
		if ((r = list_protected_one(v, &v->obs[i])) < 0)
			return r;
	}
	/* The pattern of each: the path, or the protected folder's tree. */
	for (size_t j = 0; j < p->n_prot; j++) {
		const char *pp = p->prot[j].prot_path;

		p->prot[j].pattern = p->prot[j].several ?
					     fbac_arena_printf(v->c->a, "%s/**",
							       pp) :
					     p->prot[j].obs->q.path;
		p->prot[j].prot_path = fbac_arena_strdup(v->c->a, pp);
		if (!p->prot[j].pattern || !p->prot[j].prot_path)
			return -ENOMEM;
	}
	return 0;
}

int fbac_propose(const struct fbac_propose_input *in, struct fbac_proposal *ret,
		 struct fbac_diag *diag)
{
	struct fbac_proposal p = { .arena = fbac_arena_new() };
	_cleanup_(fbac_policy_freep) struct fbac_policy *prot = NULL;
	_cleanup_free_ struct cand *cands = NULL;
	_cleanup_free_ uint8_t *covbuf = NULL;
	_cleanup_free_ bool *universe = NULL, *covered = NULL;
	_cleanup_free_ struct fbac_obs *obs = NULL;
	_cleanup_free_ double *weight = NULL;
	struct ctx c = { .in = in, .diag = diag };
	struct cover v = { .c = &c, .p = &p };
	size_t n = in->obs->n, nf = in->lib->n_funcs;
	int r = -ENOMEM;

	if (!p.arena)
		return -ENOMEM;
	c.a = p.arena;
	c.home = fbac_env_get(in->env, "HOME", 4);
	obs = calloc(n + 1, sizeof(*obs));
	universe = calloc(n + 1, sizeof(*universe));
	covered = calloc(n + 1, sizeof(*covered));
	cands = calloc(nf + 1, sizeof(*cands));
	covbuf = calloc((nf + 1) * (n + 1), 1);
	weight = calloc(n + 1, sizeof(*weight));
	if (!obs || !universe || !covered || !cands || !covbuf || !weight)
		goto fail;
	if ((r = protected_list(in, &prot, diag)) < 0)
		goto fail;
	memcpy(obs, in->obs->v, n * sizeof(*obs));
	c.obs = v.obs = obs;
	c.n = n;
	c.universe = universe;
	c.weight = weight;
	v.cands = cands;
	v.covered = covered;
	p.n_obs = n;
	classify_accesses(&v, prot);
	if ((r = infer_values(&c)) < 0)
		goto fail;
	if ((r = build_candidates(&v, covbuf)) < 0)
		goto fail;
	if ((r = greedy_cover(&v)) < 0)
		goto fail;
	for (size_t i = 0; i < n; i++) {
		p.n_covered_funcs += covered[i];
		/* What is left: raw privileges. */
		covered[i] = universe[i] && !covered[i];
	}
	if ((r = raw_privileges(&c, covered, &p)) < 0)
		goto fail;
	for (size_t i = 0; i < n; i++)
		p.n_covered_raw += covered[i];
	if ((r = list_protected(&v)) < 0)
		goto fail;
	*ret = p;
	return 0;
fail:
	fbac_proposal_clear(&p);
	return r;
}
