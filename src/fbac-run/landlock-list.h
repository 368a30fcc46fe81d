/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Listing directories at launch (landlock-list.c), for landlock-expand.c.
 */
#ifndef FBAC_RUN_LANDLOCK_LIST_H
#define FBAC_RUN_LANDLOCK_LIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "landlock.h"

/*
 * The names in a directory, read once per start: Version_Control_Client
 * lists /usr/bin (1400 entries) for the EXECUTE rules of a pattern and
 * again for the read rules of the same pattern. At most LISTINGS_MAX
 * directories are kept; past that a listing is read for its one use.
 */
#define LISTINGS_MAX 16

struct listing {
	char *dir;
	char *buf;	    /* the names, each ending in NUL */
	const char **names; /* into buf */
	size_t n;
};

struct listings {
	struct listing v[LISTINGS_MAX];
	size_t n;
};

/* Free every listing kept in c. */
void landlock_listings_free(struct listings *c);

/* Add a grant of access on path (its object's identity from st, when
 * given) to g; past FBAC_MAX_EXPAND_RULES, nothing (fail closed).
 * Return: 0 or -ENOMEM. */
int landlock_grant_add(struct landlock_grants *g, const char *path,
		       uint64_t access, const struct stat *st);

/*
 * Grant in g the entries of dir that e's pattern names and no hole
 * covers, descending into directories with a hole inside (depth levels
 * down so far). narrow: the program's read rules (symlinks left out);
 * budget, when not NULL, the entries that may still be listed
 * (-E2BIG past it, found as the names are read: a big directory is given
 * up after its first batch, 4 kB of names). cache keeps the directories'
 * names.
 * Return: 0, -E2BIG or -ENOMEM.
 */
int landlock_expand_dir(const struct fbac_ll_expand *e, const char *dir,
			unsigned depth, bool narrow, struct landlock_grants *g,
			size_t *budget, struct listings *cache);

#endif
