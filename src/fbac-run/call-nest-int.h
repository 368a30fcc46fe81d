/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Nested runs' registry, shared by call-nest.c (membership, decisions)
 * and call-nest-reg.c (registrations): toolkit-internal. */
#ifndef FBAC_RUN_CALL_NEST_INT_H
#define FBAC_RUN_CALL_NEST_INT_H
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "call-parts.h"
#include "landlock.h"

_Static_assert(FBAC_MAX_NESTED <= 32, "a registration is a bit of a u32");

#define NEST_NAME 160 /* a layer's name, with what says it is nested */

struct nest_reg {
	bool used, mediated;
	bool orphaned; /* atomic: set under the read lock */
	pid_t tgid;
	unsigned long long start;
	int pidfd, filters;
	struct fbac_stack st;
	/* What the nested run's kernel rules for EXECUTE were made on, made
	 * again here as it made them (landlock_expand, landlock_note_exec):
	 * an exec its layers will refuse is refused with a line first. */
	struct landlock_extra *extras;
	char names[FBAC_MAX_LAYERS + 1][NEST_NAME];
};

struct nest_member {
	pid_t tgid;
	unsigned long long start;
	uint32_t mask;
};

struct sup_nests {
	pthread_rwlock_t lock;
	uint64_t gen; /* changed with the registrations (write lock) */
	struct nest_reg regs[FBAC_MAX_NESTED];
	pthread_mutex_t cache_lock;
	struct nest_member cache[FBAC_MAX_NEST_CACHE];
	size_t n_cache, next;
};

/* The registry, made by the first registration. Return: it, or NULL. */
struct sup_nests *nests_get(struct sup *s);
/* What a registration holds, released (its slot free again). */
void nest_reg_clear(struct nest_reg *r);
/* The nested run's EXECUTE rules as it made them at its start, or NULL;
 * freed with nest_extras_free(). */
struct landlock_extra *nest_exec_extras(const struct fbac_stack *st);
void nest_extras_free(struct landlock_extra *x);
/* Under the read lock: the registrations whose registrant is a strict
 * ancestor of pid (ps: its stat), by the parent chain. */
struct target_stat;
uint32_t nest_mask_of(struct call *c, struct sup_nests *n, pid_t pid,
		      struct target_stat ps, int depth);
/* Mark the registrations whose registrant is gone as orphaned. */
void nest_mark_orphans(struct sup_nests *n);
#endif
