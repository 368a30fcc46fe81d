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

int fbac_propose(const struct fbac_propose_input *in,
		 struct fbac_proposal *ret, struct fbac_diag *diag)
{
	struct fbac_proposal p = { .arena = fbac_arena_new() };
	_cleanup_(fbac_policy_freep) struct fbac_policy *prot = NULL;
	_cleanup_free_ struct cand *cands = NULL;
	_cleanup_free_ uint8_t *covbuf = NULL;
	_cleanup_free_ bool *universe = NULL, *covered = NULL;
	_cleanup_free_ struct fbac_obs *obs = NULL;
	_cleanup_free_ double *weight = NULL;
	double total = 0;
	bool high_phase = true;
	struct cand tmp = { 0 };
	struct ctx c = { .in = in, .diag = diag };
	size_t n = in->obs->n, nf = in->lib->n_funcs, cap = 0, n_cand = 0;
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
	c.obs = obs;
	c.n = n;
	c.universe = universe;
	c.weight = weight;
	p.n_obs = n;
	for (size_t i = 0; i < n; i++) {
		struct fbac_verdict v = { 0 };

		/* The innermost protected path above it, if any. */
		for (size_t j = 0; obs[i].q.path && obs[i].q.path[0] == '/' &&
				   j < prot->n_protected; j++)
			if (fbac_path_is_under(obs[i].q.path, prot->protected[j].path) &&
			    !(FBAC_OP_BIT(obs[i].q.op) & prot->protected[j].allow))
				obs[i].prot = &prot->protected[j];
		obs[i].is_protected = obs[i].prot != NULL;
		if (exe_access(in, &obs[i]))
			continue;
		if (in->existing && !fbac_stack_query(in->existing, &obs[i].q, &v)) {
			p.n_already++;
			continue;
		}
		if (fbac_op_info(obs[i].q.op)->kind == FBAC_KIND_SIGNAL)
			continue;
		universe[i] = !obs[i].prot;
		weight[i] = obs_weight(&c, &obs[i]);
		if (universe[i])
			total += weight[i];
	}
	if ((r = infer_values(&c)) < 0)
		goto fail;
	tmp.cov = covbuf + nf * (n + 1);
	for (size_t i = 0; i < nf; i++) {
		cands[n_cand].cov = covbuf + i * (n + 1);
		if ((r = best_args(&c, in->lib->funcs[i], &cands[n_cand], &tmp)) < 0)
			goto fail;
		if (cands[n_cand].valid && cands[n_cand].n_cov)
			n_cand++;
	}
	/* Greedy weighted set cover. */
	for (;;) {
		struct cand *best = NULL;
		double best_ratio = 0;
		double best_gain = 0;
		unsigned best_hint = 0;
		_cleanup_free_ bool *before = NULL;

		for (size_t k = 0; k < n_cand; k++) {
			double gain = 0, ratio;
			unsigned hint;

			if (!cands[k].valid)
				continue;
			/* High-level ones first: a building block only once
			 * no high-level one pays for itself. */
			if (!cands[k].f->high_level && high_phase)
				continue;
			for (size_t i = 0; i < n; i++)
				if (cands[k].cov[i] && universe[i] && !covered[i])
					gain += weight[i];
			gain *= bonus(&cands[k]);
			ratio = gain / cands[k].cost;
			if (gain < MIN_GAIN || ratio < MIN_RATIO)
				continue;
			/* The high-level one: the most covered for its cost,
			 * in absolute terms (a narrow one covering half is
			 * not the program's purpose). */
			if (high_phase)
				ratio = gain - cands[k].cost;
			if (high_phase && gain < total / 2)
				continue;
			/* Among those that fit the run, what the program is
			 * (the hints) decides; the run's cost only when the
			 * hints name none of them, or between equal hints. */
			hint = high_phase ? hint_weight(in, cands[k].f, NULL) : 0;
			if (best && hint != best_hint) {
				if (hint < best_hint)
					continue;
			} else if (best && !(ratio > best_ratio + 1e-9 ||
					     (ratio > best_ratio - 1e-9 &&
					      cands[k].f->high_level &&
					      !best->f->high_level))) {
				/* Ties: high-level first, then by name
				 * (stable). */
				continue;
			}
			best = &cands[k];
			best_ratio = ratio;
			best_gain = gain;
			best_hint = hint;
		}
		if (!best && high_phase) {
			high_phase = false;
			continue;
		}
		if (!best)
			break;
		/* One high-level functionality; then building blocks. */
		high_phase = false;
		(void)best_gain;
		before = malloc((n + 1) * sizeof(*before));
		if (!before) {
			r = -ENOMEM;
			goto fail;
		}
		memcpy(before, covered, (n + 1) * sizeof(*before));
		if ((r = take(&c, best, before, &p, &cap)) < 0)
			goto fail;
		if (best_hint) {
			const char *why = NULL;

			hint_weight(in, best->f, &why);
			if (why && !(p.funcs[p.n_funcs - 1].evidence =
					     fbac_arena_strdup(c.a, why))) {
				r = -ENOMEM;
				goto fail;
			}
		}
		for (size_t i = 0; i < n; i++)
			covered[i] |= best->cov[i] && universe[i];
		best->valid = false;
	}
	/* High-level ones first, then building blocks, each in the order
	 * chosen. */
	for (size_t i = 1; i < p.n_funcs; i++)
		for (size_t j = i; j > 0 && p.funcs[j].f->high_level &&
				   !p.funcs[j - 1].f->high_level; j--) {
			struct fbac_prop_func t = p.funcs[j];

			p.funcs[j] = p.funcs[j - 1];
			p.funcs[j - 1] = t;
		}
	for (size_t i = 0; i < n; i++) {
		p.n_covered_funcs += covered[i];
		/* What is left: raw privileges. */
		covered[i] = universe[i] && !covered[i];
	}
	if ((r = raw_privileges(&c, covered, &p)) < 0)
		goto fail;
	for (size_t i = 0; i < n; i++)
		p.n_covered_raw += covered[i];
	/*
	 * Protected accesses: never the reason to choose a functionality,
	 * and shown on their own. One that a chosen functionality reaches
	 * is named in its comment; the others are listed apart (the caller
	 * asks, or grants each as a raw privilege on exactly that path,
	 * flagged), with the functionality that would grant it.
	 */
	for (size_t i = 0; i < n; i++) {
		bool reached = false;
		size_t cap_prot = p.n_prot, j;
		struct fbac_suggestion sug[1];
		size_t n_sug = 0;
		char fill[FBAC_MAX_PATH];
		struct fbac_obs *copy;

		if (!obs[i].prot || exe_access(in, &obs[i]))
			continue;
		for (size_t k = 0; k < n_cand; k++)
			for (size_t f = 0; f < p.n_funcs; f++)
				if (p.funcs[f].f == cands[k].f &&
				    cands[k].cov[i])
					reached = true;
		if (reached)
			continue;
		/* One entry per protected path: its folder when the run
		 * used several things in it, as a person would grant it. */
		for (j = 0; j < p.n_prot; j++)
			if (p.prot[j].prot_path == obs[i].prot->path)
				break;
		if (j < p.n_prot) {
			p.prot[j].ops |= FBAC_OP_BIT(obs[i].q.op);
			p.prot[j].covers++;
			if (!streq(p.prot[j].obs->q.path, obs[i].q.path))
				p.prot[j].several = true;
			continue;
		}
		copy = copy_obs(&c, &obs[i]);
		if (!copy) {
			r = -ENOMEM;
			goto fail;
		}
		r = fbac_suggest(in->lib, in->env, &obs[i].q,
				 fbac_suggest_fill_dir(&obs[i].q, fill, sizeof(fill)),
				 sug, 1, &n_sug);
		if (r < 0)
			goto fail;
		if ((r = fbac_arena_grow(c.a, (void **)&p.prot, &cap_prot,
					 p.n_prot + 1, sizeof(*p.prot))) < 0)
			goto fail;
		p.prot[p.n_prot] = (struct fbac_prop_protected){
			.obs = copy, .prot_path = obs[i].prot->path,
			.ops = FBAC_OP_BIT(obs[i].q.op), .covers = 1 };
		if (n_sug && !(p.prot[p.n_prot].suggestion =
				       fbac_arena_strdup(c.a, sug[0].f->name))) {
			r = -ENOMEM;
			goto fail;
		}
		p.n_prot++;
	}
	/* The pattern of each: the path, or the protected folder's tree. */
	for (size_t j = 0; j < p.n_prot; j++) {
		const char *pp = p.prot[j].prot_path;

		p.prot[j].pattern = p.prot[j].several ?
					    fbac_arena_printf(c.a, "%s/**", pp) :
					    p.prot[j].obs->q.path;
		p.prot[j].prot_path = fbac_arena_strdup(c.a, pp);
		if (!p.prot[j].pattern || !p.prot[j].prot_path) {
			r = -ENOMEM;
			goto fail;
		}
	}
	*ret = p;
	return 0;
fail:
	fbac_proposal_clear(&p);
	return r;
}
