/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Nested runs, the toolkit's part (call.h): the registrations of nested
 * fbac-runs (sup-nest.c takes them), which processes are under which
 * (nests_of()), and the decisions for those processes, which every
 * registration they are under must allow too.
 *
 * A registrant is a nested fbac-run that stays, as a child subreaper, the
 * parent of what it runs until nothing of it is left (nested.c): every
 * member is its strict descendant, found by the parent chain in /proc,
 * and remembered by (process id, start time). The walk is race-free: a
 * process re-parented during it (its parent exited) is walked again.
 *
 * A registrant that dies without saying it is done (killed) leaves its
 * members to be re-parented outside it: its registration is then
 * orphaned, and a process not found under it whose seccomp filters
 * outnumber the registrant's at registration (the nested run's static
 * filter adds one) is taken to be under it. That may narrow a process of
 * the outer program that loaded a filter of its own: the safe side, as a
 * registration only ever narrows.
 *
 * Locking: the registrations are read under a read lock for the whole of
 * a decision (its event names an entry of their stack) and changed under
 * the write lock; the cache of members has a mutex of its own. Nothing
 * here costs a run without nested runs: call.c asks s->nested_runs first.
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "call-nest-int.h"
#include "procstat.h"
#include "target.h"

/* The registry, made by the first registration (a run without nested
 * runs never touches its 100-odd KiB): whichever receiver comes first
 * publishes its copy. Return: it, or NULL (out of memory). */
struct sup_nests *nests_get(struct sup *s)
{
	struct sup_nests *n = __atomic_load_n(&s->nests, __ATOMIC_ACQUIRE),
			 *none = NULL;

	if (n)
		return n;
	if (!(n = calloc(1, sizeof(*n))))
		return NULL;
	pthread_rwlock_init(&n->lock, NULL);
	pthread_mutex_init(&n->cache_lock, NULL);
	for (size_t i = 0; i < FBAC_MAX_NESTED; i++)
		n->regs[i].pidfd = -1;
	if (__atomic_compare_exchange_n(&s->nests, &none, n, false,
					__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		return n;
	pthread_rwlock_destroy(&n->lock);
	pthread_mutex_destroy(&n->cache_lock);
	free(n);
	return none;
}

void nest_extras_free(struct landlock_extra *x)
{
	if (!x)
		return;
	landlock_extra_free(x, FBAC_MAX_LAYERS + 1);
	free(x);
}

/* The nested run's EXECUTE rules, as it made them at its start; NULL when
 * they cannot be had (then its layers' refusals of a file made since go
 * untold, as before). */
struct landlock_extra *nest_exec_extras(const struct fbac_stack *st)
{
	struct landlock_extra *x = calloc(FBAC_MAX_LAYERS + 1, sizeof(*x));

	if (!x)
		return NULL;
	if (landlock_expand(st, x) < 0)
		goto fail;
	for (size_t i = 0; i < st->n; i++)
		if (landlock_note_exec(&x[i], &st->entries[i].policy->ll,
				       NULL) < 0)
			goto fail;
	/* Only names and identities are kept, no descriptor. */
	landlock_extra_release(x, st->n);
	return x;
fail:
	landlock_extra_release(x, st->n);
	nest_extras_free(x);
	return NULL;
}

void nest_reg_clear(struct nest_reg *r)
{
	nest_extras_free(r->extras);
	r->extras = NULL;
	fbac_stack_clear(&r->st);
	if (r->pidfd >= 0)
		close(r->pidfd);
	r->pidfd = -1;
	r->used = false;
	__atomic_store_n(&r->orphaned, false, __ATOMIC_RELAXED);
}

void nests_free(struct sup *s)
{
	struct sup_nests *n = s->nests;

	if (!n)
		return;
	for (size_t i = 0; i < FBAC_MAX_NESTED; i++)
		if (n->regs[i].used)
			nest_reg_clear(&n->regs[i]);
	pthread_rwlock_destroy(&n->lock);
	pthread_mutex_destroy(&n->cache_lock);
	free(n);
	s->nests = NULL;
}

/* ---- membership (under the read lock) ---- */

/*
 * A receiver's last caller, held by a pidfd of its thread: while that is
 * alive, the thread id is that task's, and its registrations are what was
 * found for it, unless the registrations changed since (gen). It spares
 * the read of /proc/TID/stat that tells a task from a later one with the
 * same id, on each call of a program that makes many. Per receiver, as
 * target.c's pidfds are; kept until the supervisor ends.
 */
static __thread struct {
	pid_t tid;
	int pidfd;
	uint64_t gen;
	uint32_t mask;
} last = { 0, -1, 0, 0 };

/* Whether the last caller is tid, still alive. */
static bool last_alive(pid_t tid)
{
	struct pollfd p = { last.pidfd, POLLIN, 0 };

	return last.tid == tid && last.pidfd >= 0 && poll(&p, 1, 0) == 0;
}

/* Remember mask for tid, the task whose stat said start. */
static void last_set(const struct sup_nests *n, pid_t tid,
		     unsigned long long start, uint32_t mask)
{
	struct target_stat again;

	if (!target_caching_pidfds())
		return;
	if (!last_alive(tid)) {
		if (last.pidfd >= 0)
			close(last.pidfd);
		last.tid = 0;
		last.pidfd = target_thread_pidfd(tid);
		/* Opened after the stat: the same start after, it is the
		 * task the stat was of (a pidfd names one for good). */
		if (last.pidfd < 0 || target_proc_stat(tid, &again) < 0 ||
		    again.start != start)
			return;
		last.tid = tid;
	}
	last.gen = n->gen;
	last.mask = mask;
}

static uint32_t used_mask(const struct sup_nests *n)
{
	uint32_t m = 0;

	for (size_t i = 0; i < FBAC_MAX_NESTED; i++)
		if (n->regs[i].used)
			m |= 1u << i;
	return m;
}

/* The bit of the live registration of process pid (start), or 0. */
static uint32_t reg_bit(const struct sup_nests *n, pid_t pid,
			unsigned long long start)
{
	for (size_t i = 0; i < FBAC_MAX_NESTED; i++) {
		const struct nest_reg *r = &n->regs[i];

		if (r->used && r->tgid == pid && r->start == start &&
		    !__atomic_load_n(&r->orphaned, __ATOMIC_RELAXED))
			return 1u << i;
	}
	return 0;
}

static bool cache_get(struct sup_nests *n, pid_t pid, unsigned long long start,
		      uint32_t *mask)
{
	bool hit = false;

	pthread_mutex_lock(&n->cache_lock);
	for (size_t i = 0; i < n->n_cache && !hit; i++)
		if (n->cache[i].tgid == pid && n->cache[i].start == start) {
			*mask = n->cache[i].mask;
			hit = true;
		}
	pthread_mutex_unlock(&n->cache_lock);
	return hit;
}

static void cache_put(struct sup_nests *n, pid_t pid, unsigned long long start,
		      uint32_t mask)
{
	size_t i;

	pthread_mutex_lock(&n->cache_lock);
	if (n->n_cache < FBAC_MAX_NEST_CACHE) {
		i = n->n_cache++;
	} else {
		i = n->next;
		n->next = (n->next + 1) % FBAC_MAX_NEST_CACHE;
	}
	n->cache[i] = (struct nest_member){ pid, start, mask };
	pthread_mutex_unlock(&n->cache_lock);
}

/*
 * The registrations whose registrant is a strict ancestor of pid (ps: its
 * stat), by the parent chain, up to fbac-run itself or pid 1. A parent
 * that exits meanwhile re-parents pid: then pid is walked again. What
 * cannot be read, or is too deep, is under every registration.
 */
uint32_t nest_mask_of(struct call *c, struct sup_nests *n, pid_t pid,
		      struct target_stat ps, int depth)
{
	uint32_t m = 0;

	if (cache_get(n, pid, ps.start, &m))
		return m;
	for (int tries = 0; tries < 8; tries++) {
		struct target_stat qs, again;
		pid_t q = ps.ppid;
		bool gone = false;

		if (q == c->s->self || q <= 1) {
			m = 0;
		} else if (depth >= FBAC_MAX_NEST_DEPTH) {
			return used_mask(n);
		} else if (target_proc_stat(q, &qs) < 0) {
			gone = true; /* the parent exited: pid is re-parented */
		} else {
			m = nest_mask_of(c, n, q, qs, depth + 1) |
			    reg_bit(n, q, qs.start);
		}
		if (target_proc_stat(pid, &again) < 0 || again.start != ps.start)
			return used_mask(n);
		if (!gone && again.ppid == q) {
			cache_put(n, pid, ps.start, m);
			return m;
		}
		ps = again;
	}
	return used_mask(n);
}

/* Mark the registrations whose registrant is gone as orphaned. */
void nest_mark_orphans(struct sup_nests *n)
{
	struct pollfd p[FBAC_MAX_NESTED];
	size_t idx[FBAC_MAX_NESTED], k = 0;

	for (size_t i = 0; i < FBAC_MAX_NESTED; i++)
		if (n->regs[i].used &&
		    !__atomic_load_n(&n->regs[i].orphaned, __ATOMIC_RELAXED)) {
			p[k] = (struct pollfd){ n->regs[i].pidfd, POLLIN, 0 };
			idx[k++] = i;
		}
	if (k == 0 || poll(p, k, 0) <= 0)
		return;
	for (size_t j = 0; j < k; j++)
		if (p[j].revents)
			__atomic_store_n(&n->regs[idx[j]].orphaned, true,
					 __ATOMIC_RELAXED);
}

/*
 * The registrations the caller is under: those of its ancestors, and
 * orphaned ones (or ones whose registrant is exiting, which re-parents its
 * children before its pidfd says so) when the caller has more seccomp
 * filters than their registrant had.
 */
static uint32_t nests_of(struct call *c, struct sup_nests *n)
{
	/* The thread itself: its parent is its process's, and its own stat
	 * spares a read of /proc/TID/status for the process id. */
	pid_t tid = c->tid;
	struct target_stat ts;
	uint32_t m, rest;
	bool fresh = false;
	int filters = -1;

	if (last.gen == n->gen && last_alive(tid)) {
		m = last.mask;
	} else {
		if (target_proc_stat(tid, &ts) < 0)
			return used_mask(n);
		if (!cache_get(n, tid, ts.start, &m)) {
			m = nest_mask_of(c, n, tid, ts, 0);
			fresh = true;
		}
		last_set(n, tid, ts.start, m);
	}
	nest_mark_orphans(n);
	rest = used_mask(n) & ~m;
	for (size_t i = 0; rest && i < FBAC_MAX_NESTED; i++) {
		struct nest_reg *r = &n->regs[i];
		struct target_stat rs;
		bool dying;

		if (!(rest & (1u << i)))
			continue;
		dying = __atomic_load_n(&r->orphaned, __ATOMIC_RELAXED);
		/* Only a process seen for the first time can have been
		 * re-parented before the pidfd said the registrant exited. */
		if (!dying && fresh)
			dying = target_proc_stat(r->tgid, &rs) < 0 ||
				rs.start != r->start ||
				(rs.flags & FBAC_PF_EXITING);
		if (!dying)
			continue;
		if (filters < 0)
			filters = target_seccomp_filters(tid);
		if (filters < 0 || filters > r->filters)
			m |= 1u << i;
	}
	return m;
}

/* ---- decisions ---- */

bool nest_decide(struct call *c, const struct fbac_query *q,
		 const struct fbac_verdict *outer, bool mediated_only)
{
	struct sup_nests *n = c->s->nests;
	const struct fbac_stack_entry *denier = NULL;
	struct fbac_verdict v = { 0 };
	uint32_t m;

	pthread_rwlock_rdlock(&n->lock);
	m = nests_of(c, n);
	for (size_t i = 0; m && !denier && i < FBAC_MAX_NESTED; i++)
		if ((m & (1u << i)) && (!mediated_only || n->regs[i].mediated))
			denier = fbac_stack_query(&n->regs[i].st, q, &v);
	if (denier) {
		for (size_t i = 0; i < FBAC_MAX_NESTED && !c->nested; i++)
			if (denier >= n->regs[i].st.entries &&
			    denier < n->regs[i].st.entries + n->regs[i].st.n)
				c->nested = &n->regs[i].st;
		event_log(c, q, false, denier, &v);
		c->nested = NULL;
	} else if (c->s->mode == MODE_LEARN)
		event_log(c, q, true, NULL, outer ? outer : &v);
	pthread_rwlock_unlock(&n->lock);
	return !denier || c->s->mode != MODE_ENFORCE;
}

bool nest_would_allow(struct call *c, enum fbac_op op, const char *path)
{
	struct sup_nests *n = c->s->nests;
	const struct fbac_stack_entry *denier = NULL;
	struct fbac_verdict v;
	uint32_t m;

	pthread_rwlock_rdlock(&n->lock);
	m = nests_of(c, n);
	for (size_t i = 0; m && !denier && i < FBAC_MAX_NESTED; i++)
		if (m & (1u << i))
			denier = fbac_stack_check_path(&n->regs[i].st, op, path,
						       &v);
	pthread_rwlock_unlock(&n->lock);
	return !denier;
}

bool call_nest_exec_refused(struct call *c, int root_fd, const char *path,
			    const struct stat *st, char *reason, size_t size)
{
	struct sup_nests *n = __atomic_load_n(&c->s->nests, __ATOMIC_ACQUIRE);
	bool refused = false;
	uint32_t m;

	if (!n || !__atomic_load_n(&c->s->nested_runs, __ATOMIC_ACQUIRE))
		return false;
	pthread_rwlock_rdlock(&n->lock);
	m = nests_of(c, n);
	for (size_t i = 0; m && !refused && i < FBAC_MAX_NESTED; i++) {
		struct nest_reg *r = &n->regs[i];
		bool made_since;
		size_t k;

		if (!(m & (1u << i)) || !r->extras)
			continue;
		k = landlock_exec_refuser(&r->st, r->extras, r->st.n, root_fd,
					  path, st, &made_since);
		if (k == SIZE_MAX)
			continue;
		call_exec_refusal(reason, size, &r->st.entries[k], made_since,
				  true);
		refused = true;
	}
	pthread_rwlock_unlock(&n->lock);
	return refused;
}
