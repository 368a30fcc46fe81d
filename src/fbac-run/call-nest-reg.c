/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Nested runs, the toolkit's registrations (call.h): a nested fbac-run's
 * stack taken (call_nest_register()), its end (call_nest_done()), and
 * the orphaned registrations retired once none of their processes can be
 * left. The registry and membership are call-nest.c's.
 */
#include <dirent.h>
#include <errno.h>
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

/* ---- registrations ---- */

/* Whether pid descends from fbac-run itself: a process of the sandbox. */
static bool ours(const struct sup *s, pid_t pid)
{
	struct target_stat ts;

	for (int depth = 0; depth < FBAC_MAX_NEST_DEPTH && pid > 1; depth++) {
		if (target_proc_stat(pid, &ts) < 0)
			return false;
		if ((pid = ts.ppid) == s->self)
			return true;
	}
	return false;
}

/* Whether a thread of process pid has more seccomp filters than
 * filters. */
static bool more_filters(pid_t pid, int filters)
{
	char path[64];
	struct dirent *e;
	bool more = false;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return false; /* gone */
	while (!more && (e = readdir(d))) {
		char *end;
		long tid = strtol(e->d_name, &end, 10);

		more = !*end && tid > 0 &&
		       target_seccomp_filters((pid_t)tid) > filters;
	}
	closedir(d);
	return more;
}

/*
 * Whether process pid of the sandbox may be one of orphaned registration
 * i's: it is not under a live registration whose registrant had as many
 * seccomp filters as i's or more (whose own processes have as many as
 * i's would). What cannot be told may be.
 */
static bool may_be_orphans(struct call *c, struct sup_nests *n, size_t i,
			   pid_t pid)
{
	struct target_stat ts;
	uint32_t m;

	if (target_proc_stat(pid, &ts) < 0)
		return false; /* gone */
	m = nest_mask_of(c, n, pid, ts, 0);
	if (m & (1u << i))
		return true; /* not told: under every registration */
	for (size_t j = 0; j < FBAC_MAX_NESTED; j++)
		if ((m & (1u << j)) && n->regs[j].filters >= n->regs[i].filters)
			return false;
	return true;
}

/*
 * Whether orphaned registration i may still have a process: a thread of
 * the sandbox with more seccomp filters than its registrant had, under no
 * live registration that explains them. Every thread is looked at: only
 * at a registration, while a registration is orphaned.
 */
static bool orphan_may_have_members(struct call *c, struct sup_nests *n,
				    size_t i)
{
	struct dirent *e;
	bool found = false;
	DIR *d = opendir("/proc");

	if (!d)
		return true;
	while (!found && (e = readdir(d))) {
		char *end;
		long pid = strtol(e->d_name, &end, 10);

		if (*end || pid <= 1 || pid == c->s->self)
			continue;
		found = more_filters((pid_t)pid, n->regs[i].filters) &&
			ours(c->s, (pid_t)pid) &&
			may_be_orphans(c, n, i, (pid_t)pid);
	}
	closedir(d);
	return found;
}

/* The orphaned registrations none of whose processes is left go (write
 * lock held; at a registration). Return: one of their places, or NULL. */
static struct nest_reg *retire_orphans(struct call *c, struct sup_nests *n)
{
	struct nest_reg *free_reg = NULL;

	for (size_t i = 0; i < FBAC_MAX_NESTED; i++) {
		struct nest_reg *r = &n->regs[i];

		if (!r->used ||
		    !__atomic_load_n(&r->orphaned, __ATOMIC_RELAXED) ||
		    orphan_may_have_members(c, n, i))
			continue;
		nest_reg_clear(r);
		n->n_cache = 0;
		n->gen++;
		__atomic_sub_fetch(&c->s->nested_runs, 1, __ATOMIC_RELEASE);
		free_reg = free_reg ? free_reg : r;
	}
	return free_reg;
}

int call_nest_register(struct call *c, struct fbac_stack *st)
{
	struct sup_nests *n = nests_get(c->s);
	pid_t tgid = call_tgid(c);
	struct target_stat ts, again;
	struct nest_reg *r = NULL;
	struct landlock_extra *extras;
	int pidfd, filters, err = 0;

	if (!n)
		return -ENOMEM;
	filters = target_seccomp_filters(tgid);
	if (filters == -ENOENT)
		return -EOPNOTSUPP; /* no count: the orphan rule cannot hold */
	if (filters < 0 || target_proc_stat(tgid, &ts) < 0)
		return -ESRCH;
	extras = nest_exec_extras(st);
	pidfd = (int)syscall(SYS_pidfd_open, tgid, 0);
	if (pidfd < 0)
		return -errno;
	/* The same start after: the pidfd is the caller's, not a reuse. */
	if (pidfd < 0) {
		nest_extras_free(extras);
		return -errno;
	}
	if (target_proc_stat(tgid, &again) < 0 || again.start != ts.start) {
		nest_extras_free(extras);
		close(pidfd);
		return -ESRCH;
	}
	pthread_rwlock_wrlock(&n->lock);
	nest_mark_orphans(n);
	for (size_t i = 0; i < FBAC_MAX_NESTED; i++) {
		if (n->regs[i].used && n->regs[i].tgid == tgid &&
		    n->regs[i].start == ts.start)
			err = -EEXIST;
		if (!n->regs[i].used && !r)
			r = &n->regs[i];
	}
	/* Orphaned registrations whose processes are all gone go first:
	 * the new run's processes will have more filters than theirs had. */
	if (!err) {
		struct nest_reg *freed = retire_orphans(c, n);

		r = r ? r : freed;
	}
	if (!err && !r)
		err = -EUSERS;
	if (err) {
		pthread_rwlock_unlock(&n->lock);
		nest_extras_free(extras);
		close(pidfd);
		return err;
	}
	r->extras = extras;
	r->st = *st;
	st->n = 0;
	for (size_t i = 0; i < r->st.n; i++) {
		snprintf(r->names[i], sizeof(r->names[i]),
			 "%s, a nested run's policy",
			 r->st.entries[i].layer_name &&
					 r->st.entries[i].layer_name[0] ?
				 r->st.entries[i].layer_name :
				 "?");
		r->st.entries[i].layer_name = r->names[i];
	}
	r->tgid = tgid;
	r->start = ts.start;
	r->pidfd = pidfd;
	r->filters = filters;
	r->mediated = fbac_stack_metadata(&r->st, NULL) != FBAC_META_VISIBLE;
	r->used = true;
	/* Processes seen before may be under it now (a registrant with
	 * children already): nothing remembered holds. */
	n->n_cache = 0;
	n->gen++;
	__atomic_add_fetch(&c->s->nested_runs, 1, __ATOMIC_RELEASE);
	pthread_rwlock_unlock(&n->lock);
	return 0;
}

int call_nest_done(struct call *c)
{
	struct sup_nests *n = __atomic_load_n(&c->s->nests, __ATOMIC_ACQUIRE);
	pid_t tgid = call_tgid(c);
	struct target_stat ts;
	int err = -ENOENT;

	if (!n)
		return -ENOENT;
	if (target_proc_stat(tgid, &ts) < 0)
		return -ESRCH;
	pthread_rwlock_wrlock(&n->lock);
	for (size_t i = 0; i < FBAC_MAX_NESTED; i++) {
		struct nest_reg *r = &n->regs[i];

		if (r->used && r->tgid == tgid && r->start == ts.start) {
			nest_reg_clear(r);
			n->n_cache = 0;
			n->gen++;
			__atomic_sub_fetch(&c->s->nested_runs, 1,
					   __ATOMIC_RELEASE);
			err = 0;
		}
	}
	pthread_rwlock_unlock(&n->lock);
	return err;
}
