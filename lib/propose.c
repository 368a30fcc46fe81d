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
 * directory weighs most, reading system files next to nothing. Greedy
 * cover then picks the functionality with the most new accesses per cost
 * until none pays for itself; what is left becomes raw privileges.
 */
#include "propose.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "macro.h"
#include "path.h"

#define WRITE_OPS                                                              \
	(FBAC_OP_BIT(FBAC_OP_FILE_WRITE) | FBAC_OP_BIT(FBAC_OP_FILE_APPEND) |   \
	 FBAC_OP_BIT(FBAC_OP_FILE_CREATE) | FBAC_OP_BIT(FBAC_OP_FILE_DELETE) |  \
	 FBAC_OP_BIT(FBAC_OP_FILE_RENAME) | FBAC_OP_BIT(FBAC_OP_FILE_LINK) |    \
	 FBAC_OP_BIT(FBAC_OP_FILE_TRUNCATE) | FBAC_OP_BIT(FBAC_OP_FILE_SETATTR) | \
	 FBAC_OP_BIT(FBAC_OP_DIR_MKDIR) | FBAC_OP_BIT(FBAC_OP_DIR_RMDIR) |      \
	 FBAC_OP_BIT(FBAC_OP_SPECIAL_CREATE))

/* A functionality pays for itself when it replaces this many accesses'
 * worth of raw privileges per unit of cost. */
#define MIN_RATIO 1.5
#define MIN_GAIN 2.0

bool fbac_ops_write(uint32_t ops)
{
	return ops & WRITE_OPS;
}

struct values {
	const char *v[FBAC_MAX_LEARN_VALUES];
	size_t n;
};

struct cand {
	const struct fbac_functionality *f;
	const char *vals[FBAC_MAX_PARAMS]; /* NULL: the default */
	double cost;
	uint8_t *cov; /* one per observation: allowed */
	size_t n_cov;
	double gain; /* the weight of the accesses it covers */
	const char *prot[8];
	size_t n_prot;
	/* Its rules that reach protected paths the run did not touch:
	 * carved out of the proposal (denied). */
	struct fbac_prop_carve carve[FBAC_MAX_LEARN_CARVE];
	size_t n_carve;
	bool names_program; /* it lets the program run, by name or folder */
	bool valid;
};

struct ctx {
	const struct fbac_propose_input *in;
	struct fbac_arena *a;
	const struct fbac_obs *obs;
	size_t n;
	bool *universe; /* counted by the cover */
	double *weight; /* of each access */
	const char *home;
	struct values dirs, ports, names, hosts;
	struct fbac_diag *diag;
};

static bool sensitive_dir(const struct ctx *c, const char *dir)
{
	static const char *const fixed[] = { "/", "/tmp", "/var/tmp", "/etc",
					     "/usr", "/proc", "/sys", "/dev",
					     "/run", "/var", "/home", "/root",
					     "/opt", "/usr/local", "/usr/share",
					     "/usr/lib", "/bin", "/lib",
					     "/usr/bin", "/dev/shm", "/run/user" };
	static const char *const home_rel[] = { "", ".config", ".cache",
						".local", ".local/share",
						".local/state", ".local/bin" };
	char buf[FBAC_MAX_PATH];

	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		if (streq(dir, fixed[i]))
			return true;
	for (size_t i = 0; c->home && i < ARRAY_SIZE(home_rel); i++) {
		snprintf(buf, sizeof(buf), "%s%s%s", c->home,
			 home_rel[i][0] ? "/" : "", home_rel[i]);
		if (streq(dir, buf))
			return true;
	}
	/* Above the home directory. */
	if (c->home && fbac_path_is_under(c->home, dir))
		return true;
	for (size_t i = 0; i < c->n; i++)
		if (c->obs[i].prot && fbac_path_is_under(dir, c->obs[i].prot->path))
			return true;
	return false;
}

static int values_add(struct ctx *c, struct values *v, const char *s)
{
	for (size_t i = 0; i < v->n; i++)
		if (streq(v->v[i], s))
			return 0;
	if (v->n >= FBAC_MAX_LEARN_VALUES)
		return 0; /* enough to choose from; the first found are kept */
	if (!(v->v[v->n] = fbac_arena_strdup(c->a, s)))
		return -ENOMEM;
	v->n++;
	return 0;
}

static void parent_of(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');

	snprintf(buf, size, "%.*s", (int)(slash == path ? 1 : slash - path), path);
}

/* The values worth trying: folders written, then folders read, in the
 * order of their first access; ports and hosts connected to; names. */
static int infer_values(struct ctx *c)
{
	char dir[FBAC_MAX_PATH], list[FBAC_MAX_PATH] = "";
	size_t n_written = 0;
	int r;

	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < c->n; i++) {
			const struct fbac_obs *o = &c->obs[i];
			uint32_t bit = FBAC_OP_BIT(o->q.op);

			if (!o->q.path || o->q.path[0] != '/' || o->prot)
				continue;
			if (pass == 0 ? !(bit & WRITE_OPS) :
					!(bit & (FBAC_OP_BIT(FBAC_OP_FILE_READ) |
						 FBAC_OP_BIT(FBAC_OP_DIR_READ))))
				continue;
			if (!c->home || !fbac_path_is_under(o->q.path, c->home) ||
			    streq(o->q.path, c->home)) {
				/* Outside the home directory: only folders
				 * written, never system ones. */
				if (pass)
					continue;
			}
			if (o->q.op == FBAC_OP_DIR_READ || o->q.op == FBAC_OP_DIR_MKDIR)
				snprintf(dir, sizeof(dir), "%s", o->q.path);
			else
				parent_of(o->q.path, dir, sizeof(dir));
			if (sensitive_dir(c, dir) || !strncmp(dir, "/proc/", 6) ||
			    !strncmp(dir, "/sys/", 5) || !strncmp(dir, "/dev/", 5) ||
			    !strncmp(dir, "/usr/", 5) || !strncmp(dir, "/etc/", 5))
				continue;
			if ((r = values_add(c, &c->dirs, dir)) < 0)
				return r;
			if (pass == 0 && c->dirs.n > n_written) {
				n_written = c->dirs.n;
				if (strlen(list) + strlen(dir) + 2 < sizeof(list))
					snprintf(list + strlen(list),
						 sizeof(list) - strlen(list), "%s%s",
						 list[0] ? "," : "", dir);
			}
		}
	if (strchr(list, ',') && (r = values_add(c, &c->dirs, list)) < 0)
		return r;
	/* A protected folder the run used: where a functionality that names
	 * it (a browser's profile) may be pointed. */
	for (size_t i = 0; i < c->n; i++)
		if (c->obs[i].prot && !streq(c->obs[i].q.path, c->obs[i].prot->path) &&
		    (r = values_add(c, &c->dirs, c->obs[i].prot->path)) < 0)
			return r;
	/* Every folder read or written, together. */
	list[0] = 0;
	for (size_t i = 0; i < c->dirs.n; i++)
		if (!strchr(c->dirs.v[i], ',') && !sensitive_dir(c, c->dirs.v[i]) &&
		    strlen(list) + strlen(c->dirs.v[i]) + 2 < sizeof(list))
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s%s", list[0] ? "," : "", c->dirs.v[i]);
	if (strchr(list, ',') && (r = values_add(c, &c->dirs, list)) < 0)
		return r;
	for (size_t i = 0; i < c->n; i++) {
		const struct fbac_obs *o = &c->obs[i];
		char port[16];

		if (o->q.op != FBAC_OP_NETWORK_OUTGOING &&
		    o->q.op != FBAC_OP_NETWORK_INCOMING)
			continue;
		if (o->q.port == 0 ||
		    (o->q.op == FBAC_OP_NETWORK_INCOMING && o->q.port >= 32768))
			continue;
		snprintf(port, sizeof(port), "%u", o->q.port);
		if ((r = values_add(c, &c->ports, port)) < 0)
			return r;
		if (o->q.host && (r = values_add(c, &c->hosts, o->q.host)) < 0)
			return r;
	}
	if (c->in->program) {
		const char *base = strrchr(c->in->program, '/');

		if ((r = values_add(c, &c->names, base ? base + 1 : c->in->program)) < 0)
			return r;
	}
	/* ~/.NAME, ~/.config/NAME, ~/.cache/NAME, ~/.local/share/NAME. */
	for (size_t i = 0; c->home && i < c->n; i++) {
		const char *p = c->obs[i].q.path, *rest, *e;
		static const char *const bases[] = { "/.config/", "/.cache/",
						     "/.local/share/", "/." };

		if (!p || c->obs[i].prot || !fbac_path_is_under(p, c->home) ||
		    streq(p, c->home))
			continue;
		rest = p + strlen(c->home);
		for (size_t b = 0; b < ARRAY_SIZE(bases); b++) {
			size_t bl = strlen(bases[b]);
			char name[FBAC_MAX_NAME];

			if (strncmp(rest, bases[b], bl))
				continue;
			e = strchr(rest + bl, '/');
			snprintf(name, sizeof(name), "%.*s",
				 (int)(e ? (size_t)(e - rest - bl) : strlen(rest + bl)),
				 rest + bl);
			/* Not the XDG folders themselves. */
			if (b == ARRAY_SIZE(bases) - 1 &&
			    (streq(name, "config") || streq(name, "cache") ||
			     streq(name, "local")))
				break;
			if (name[0] && !strchr(name, '.') &&
			    (r = values_add(c, &c->names, name)) < 0)
				return r;
			break;
		}
	}
	return 0;
}

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
static double obs_weight(const struct ctx *c, const struct fbac_obs *o)
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

/* Resolve and compile f with the values, and see what it allows. */
static int evaluate(struct ctx *c, struct cand *k)
{
	struct fbac_include inc = { .name = k->f->name, .target = k->f };
	struct fbac_define defs[FBAC_MAX_PARAMS];
	/* Without the program's own executables: whether the functionality
	 * itself names the program is one of the things to learn. */
	struct fbac_resolve_input ri = {
		.lib = c->in->lib, .env = c->in->env, .root_name = "--learn",
		.grants = &inc, .n_grants = 1, .defines = defs,
	};
	_cleanup_free_ struct uo *used = NULL;
	_cleanup_free_ struct uw *unused = NULL;
	size_t n_unused = 0;
	struct fbac_resolved *res = NULL;
	struct fbac_policy *pol = NULL;
	size_t n_used = 0;
	int r;

	for (size_t i = 0; i < k->f->n_params; i++)
		if (k->vals[i])
			defs[ri.n_defines++] = (struct fbac_define){
				NULL, k->f->params[i].name, k->vals[i] };
	k->valid = false;
	k->n_cov = 0;
	k->gain = 0;
	k->n_prot = 0;
	k->n_carve = 0;
	r = fbac_resolve(&ri, &res, NULL);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0; /* not with these values */
	r = fbac_policy_compile_flags(&res, k->f->name, FBAC_COMPILE_NO_GAPS,
				      &pol, NULL);
	if (r == -ENOMEM)
		return r;
	if (r < 0)
		return 0;
	used = calloc(c->n + 1, sizeof(*used));
	unused = calloc(pol->n_prules + 1, sizeof(*unused));
	if (!used || !unused) {
		fbac_policy_free(pol);
		return -ENOMEM;
	}
	for (size_t i = 0; i < c->n; i++) {
		struct fbac_verdict v = { 0 };

		k->cov[i] = fbac_policy_query(pol, &c->obs[i].q, &v) == 0 &&
			    v.allowed;
		if (k->cov[i]) {
			if (c->universe[i]) {
				k->n_cov++;
				k->gain += c->weight[i];
			}
			if (v.origin)
				used[n_used++] = (struct uo){ v.origin,
							      FBAC_OP_BIT(c->obs[i].q.op) };
		}
	}
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
	qsort(used, n_used, sizeof(*used), cmp_uo);
	{
		size_t w = 0;

		for (size_t i = 0; i < n_used; i++) {
			if (w && used[w - 1].origin == used[i].origin)
				used[w - 1].ops |= used[i].ops;
			else
				used[w++] = used[i];
		}
		n_used = w;
	}
	k->cost = 1.0;
	for (size_t i = 0; i < pol->n_prules; i++) {
		const struct fbac_prule *pr = &pol->prules[i];
		char prefix[FBAC_MAX_PATH];
		uint32_t uops;

		if (pr->deny)
			continue;
		snprintf(prefix, sizeof(prefix), "%.*s", (int)pr->plen, pr->pattern);
		if (strlen(prefix) > 1 && prefix[strlen(prefix) - 1] == '/')
			prefix[strlen(prefix) - 1] = 0;
		if (prefix[0] != '/')
			continue;
		/* A protected path it reaches: only if the run went there. */
		for (size_t p = 0; p < pol->n_protected; p++) {
			const struct fbac_resolved_protected *pp = &pol->protected[p];
			bool touched = false;

			if (!fbac_path_is_under(prefix, pp->path) ||
			    !(pr->ops & ~pp->allow))
				continue;
			for (size_t o = 0; o < c->n && !touched; o++)
				touched = c->obs[o].prot &&
					  streq(c->obs[o].prot->path, pp->path);
			if (!touched) {
				/* Only with that reach carved out: what it
				 * grants there is denied, each rule by its
				 * own pattern (a literal rule below would
				 * decide before a tree). */
				bool dup = false;

				for (size_t q = 0; q < k->n_carve; q++)
					if (streq(k->carve[q].pattern, pr->pattern)) {
						k->carve[q].ops |= pr->ops & ~pp->allow;
						dup = true;
					}
				if (dup)
					continue;
				if (k->n_carve >= FBAC_MAX_LEARN_CARVE)
					goto out; /* too much to carve: not it */
				/* A carve-out is one more thing to read, once
				 * per protected path. */
				for (size_t q = 0; q < k->n_carve && !dup; q++)
					dup = streq(k->carve[q].prot_path, pp->path);
				if (!dup)
					k->cost += 1.5;
				k->carve[k->n_carve++] = (struct fbac_prop_carve){
					pr->pattern, pr->ops & ~pp->allow, NULL };
				if (!(k->carve[k->n_carve - 1].pattern =
					      fbac_arena_strdup(c->a, pr->pattern)) ||
				    !(k->carve[k->n_carve - 1].prot_path =
					      fbac_arena_strdup(c->a, pp->path))) {
					r = -ENOMEM;
					goto out;
				}
				continue;
			}
			if (k->n_prot < ARRAY_SIZE(k->prot)) {
				bool dup = false;

				for (size_t q = 0; q < k->n_prot; q++)
					dup |= streq(k->prot[q], pp->path);
				if (!dup && !(k->prot[k->n_prot++] =
						      fbac_arena_strdup(c->a, pp->path))) {
					r = -ENOMEM;
					goto out;
				}
			}
		}
		uops = used_ops(used, n_used, pr->origin);
		/* Writing a whole sensitive folder (the home directory, /etc)
		 * is too wide however much of it the run used. */
		if ((pr->ops & WRITE_OPS) && !pr->literal && sensitive_dir(c, prefix))
			k->cost += 3.0;
		/* Used only for reading, it also grants writing or running:
		 * that is granted beyond what was observed too. */
		if (uops && !(uops & (WRITE_OPS | FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE))) &&
		    (pr->ops & (WRITE_OPS | FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE))))
			uops = 0;
		if (!uops) {
			/* One privilege entry is one thing to read: its
			 * heaviest rule counts. */
			double w = rule_weight(c, prefix, pr->ops);
			size_t j;

			for (j = 0; j < n_unused; j++)
				if (unused[j].origin == pr->origin)
					break;
			if (j == n_unused)
				unused[n_unused++] = (struct uw){ pr->origin, 0 };
			if (w > unused[j].w)
				unused[j].w = w;
		}
	}
	for (size_t j = 0; j < n_unused; j++)
		k->cost += unused[j].w;
	for (size_t i = 0; i < pol->n_net; i++)
		if (!used_ops(used, n_used, pol->net[i]->origin))
			/* A program that never connected gains a
			 * network: that is a lot beyond what it did. */
			k->cost += pol->net[i]->ops &
					   FBAC_OP_BIT(FBAC_OP_NETWORK_INCOMING) ?
					   3.0 :
					   2.0;
	k->valid = true;
	r = 0;
out:
	fbac_policy_free(pol);
	return r;
}

/* A functionality written for the program (it names it) is worth a
 * little more than one that merely covers as much. */
static double bonus(const struct cand *k)
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
static int best_args(struct ctx *c, const struct fbac_functionality *f,
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

struct rawent {
	char *pattern;
	char *parent; /* of the path it came from */
	uint32_t ops;
	size_t covers;
};

static int cmp_raw(const void *x, const void *y)
{
	const struct fbac_prop_raw *a = x, *b = y;

	if (!a->pattern != !b->pattern)
		return a->pattern ? -1 : 1;
	if (a->pattern)
		return strcmp(a->pattern, b->pattern);
	if (a->net_op != b->net_op)
		return a->net_op < b->net_op ? -1 : 1;
	return a->port - b->port;
}

/* What no functionality covers, as a person would write it. */
static int raw_privileges(struct ctx *c, const bool *left,
			  struct fbac_proposal *p)
{
	_cleanup_free_ struct rawent *e = calloc(c->n + 1, sizeof(*e));
	size_t n = 0, cap = 0;
	char pat[FBAC_MAX_PATH], dir[FBAC_MAX_PATH];
	int r;

	if (!e)
		return -ENOMEM;
	for (size_t i = 0; i < c->n; i++) {
		const struct fbac_obs *o = &c->obs[i];
		size_t j;

		if (!left[i] || fbac_op_info(o->q.op)->kind != FBAC_KIND_PATH)
			continue;
		if ((r = fbac_generalize_path(o->q.path, FBAC_OP_BIT(o->q.op),
					      pat, sizeof(pat))) < 0)
			return r;
		for (j = 0; j < n; j++)
			if (streq(e[j].pattern, pat))
				break;
		if (j == n) {
			parent_of(o->q.path, dir, sizeof(dir));
			e[n].pattern = fbac_arena_strdup(c->a, pat);
			e[n].parent = fbac_arena_strdup(c->a, o->q.path[0] == '/' ? dir : "");
			if (!e[n].pattern || !e[n].parent)
				return -ENOMEM;
			n++;
		}
		e[j].ops |= FBAC_OP_BIT(o->q.op);
		/* A file it makes or writes, it reads back another time. */
		if (e[j].ops & (FBAC_OP_BIT(FBAC_OP_FILE_CREATE) |
				FBAC_OP_BIT(FBAC_OP_FILE_WRITE)))
			e[j].ops |= FBAC_OP_BIT(FBAC_OP_FILE_READ) |
				    FBAC_OP_BIT(FBAC_OP_FILE_GETATTR);
		e[j].covers++;
	}
	/* A folder's many files: the folder. */
	for (size_t i = 0; i < n; i++) {
		size_t same = 0;

		if (!e[i].parent[0] || sensitive_dir(c, e[i].parent) ||
		    !strncmp(e[i].parent, "/proc/", 6) ||
		    !strncmp(e[i].parent, "/sys/", 5) || strchr(e[i].parent, '*'))
			continue;
		bool dir_too = false;

		for (size_t j = 0; j < n; j++) {
			same += e[j].parent[0] && streq(e[j].parent, e[i].parent);
			dir_too |= e[j].ops && streq(e[j].pattern, e[i].parent);
		}
		/* Three files, or the folder itself and something in it. */
		if (same < 3 && !(dir_too && same >= 1))
			continue;
		snprintf(pat, sizeof(pat), "%s/**", e[i].parent);
		for (size_t j = 0; j < n; j++)
			if (j != i && e[j].ops &&
			    ((e[j].parent[0] && streq(e[j].parent, e[i].parent)) ||
			     streq(e[j].pattern, e[i].parent))) {
				e[i].ops |= e[j].ops;
				e[i].covers += e[j].covers;
				e[j].parent = (char *)"";
				e[j].ops = 0;
			}
		if (!(e[i].pattern = fbac_arena_strdup(c->a, pat)))
			return -ENOMEM;
		e[i].parent = (char *)"";
	}
	for (size_t i = 0; i < n; i++) {
		if (!e[i].ops)
			continue;
		if ((r = fbac_arena_grow(c->a, (void **)&p->raw, &cap, p->n_raw + 1,
					 sizeof(*p->raw))) < 0)
			return r;
		p->raw[p->n_raw++] = (struct fbac_prop_raw){
			.ops = e[i].ops, .pattern = e[i].pattern, .covers = e[i].covers };
	}
	for (size_t i = 0; i < c->n; i++) {
		const struct fbac_obs *o = &c->obs[i];
		size_t j;

		if (!left[i] || fbac_op_info(o->q.op)->kind != FBAC_KIND_NET)
			continue;
		/* Ephemeral ports (a listening socket bound to port 0, or
		 * to one the kernel chose) are left out. */
		if (o->q.port == 0 ||
		    (o->q.op == FBAC_OP_NETWORK_INCOMING && o->q.port >= 32768))
			continue;
		for (j = 0; j < p->n_raw; j++)
			if (!p->raw[j].pattern && p->raw[j].net_op == o->q.op &&
			    p->raw[j].proto == o->q.proto && p->raw[j].port == o->q.port)
				break;
		if (j == p->n_raw) {
			if ((r = fbac_arena_grow(c->a, (void **)&p->raw, &cap,
						 p->n_raw + 1, sizeof(*p->raw))) < 0)
				return r;
			p->raw[p->n_raw++] = (struct fbac_prop_raw){
				.net_op = o->q.op, .proto = o->q.proto,
				.port = o->q.port };
		}
		p->raw[j].covers++;
	}
	if (p->n_raw)
		qsort(p->raw, p->n_raw, sizeof(*p->raw), cmp_raw);
	return 0;
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
		_cleanup_free_ bool *before = NULL;

		for (size_t k = 0; k < n_cand; k++) {
			double gain = 0, ratio;

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
			/* Ties: high-level first, then by name (stable). */
			if (!best || ratio > best_ratio + 1e-9 ||
			    (ratio > best_ratio - 1e-9 && cands[k].f->high_level &&
			     !best->f->high_level)) {
				best = &cands[k];
				best_ratio = ratio;
				best_gain = gain;
			}
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
