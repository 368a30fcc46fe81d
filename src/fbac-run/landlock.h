/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Landlock: probe the ABI and turn each layer's plan into one domain, so
 * that layers intersect in the kernel.
 */
#ifndef FBAC_RUN_LANDLOCK_H
#define FBAC_RUN_LANDLOCK_H

#include <stdbool.h>

#include "stack.h"

#define FBAC_LANDLOCK_ABI_WANTED 6

/* The ABI version, 0 when Landlock is unavailable or disabled. */
int landlock_abi(void);

/*
 * What the policy needs that this ABI cannot enforce, as a human list in
 * buf (empty when nothing is missing).
 */
void landlock_missing(const struct fbac_stack *st, int abi, char *buf,
		      size_t size);

/* EXECUTE rules listed entry by entry at launch (struct fbac_ll_expand). */
struct landlock_extra {
	char **paths;
	size_t n, cap;
};

/*
 * List the directories the plans expand, before any domain restricts us.
 * extras has one element per stack entry. Return: 0 or -ENOMEM.
 */
int landlock_expand(const struct fbac_stack *st, struct landlock_extra *extras);
void landlock_extra_free(struct landlock_extra *extras, size_t n);

/*
 * Restrict the calling thread with one domain per stack entry. Paths of
 * rules that do not exist are skipped (they grant nothing). The
 * supervisor's own layers also let it read /proc (the target's status,
 * cwd, fds); the child adds the exact layers beneath them, so the
 * supervisor's domain is an ancestor of the program's and it may read
 * the program's memory and take its descriptors.
 * Return: 0 or -errno (logged).
 */
int landlock_apply(const struct fbac_stack *st, int abi, bool supervisor,
		   const struct landlock_extra *extras);

#endif
