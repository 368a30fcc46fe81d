/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files of a layer directory, read and parsed as YAML side by side,
 * before the layers are loaded one file at a time in their order: libyaml
 * is most of the start-up of fbac-run, and the machine has more than one
 * CPU. Loading looks each file up here and parses only what is missing.
 *
 * fbac-run also keeps the parsed files in a cache ($XDG_CACHE_HOME/fbac,
 * which protected.yaml keeps from every confined program): a file whose
 * identity (device, inode, size, mtime, ctime) has not changed since, for
 * the same fbac-run executable, is not parsed again.
 */
#ifndef FBAC_PREFETCH_H
#define FBAC_PREFETCH_H

#include "profile.h"

struct prefetch;

struct prefetch_stats {
	size_t files;	      /* found under the directory */
	size_t from_cache;    /* of them, taken from the cache */
	size_t cache_entries; /* files the cache held */
	bool cache_written;   /* the cache was (re)written */
};

/*
 * Find the .yaml files under dir as the loader walks it, take those that
 * have not changed from the cache file (NULL: none), and parse the rest
 * on up to FBAC_MAX_LOAD_THREADS threads, each into an arena that lib
 * adopts (prefetch_store writes the cache later).
 * Anything unusual (an unreadable directory or cache, a thread that does
 * not start) only means less is prefetched: the loader reports it.
 * Return: 0 with *out set (NULL when nothing was prefetched), or -ENOMEM.
 */
int prefetch_dir(struct fbac_library *lib, const char *dir,
		 const char *cache, struct prefetch **out);

struct prefetch_stats prefetch_stats(const struct prefetch *pf);

/*
 * Rewrite the cache if it was missing anything that parsed: start makes
 * the new file and encodes the parsed files on a thread of its own (the
 * library they were loaded into is only read meanwhile); finish writes
 * it into place (stats then say whether it was written), and must come
 * before the caller confines itself with Landlock. A cache that cannot
 * be written is no error: nothing is encoded then.
 */
void prefetch_store_start(struct prefetch *pf);
void prefetch_store_finish(struct prefetch *pf);

/* What was parsed for path (the loader's own spelling of it), or NULL. */
const struct fbac_parsed *prefetch_get(struct prefetch *pf, const char *path);

/*
 * The files found under dir, in the loader's order, when the walk met
 * nothing the loader would report (a directory it could not read, one
 * nested too deep, too many files); else NULL: the loader walks again
 * and says what it finds.
 */
const char *const *prefetch_walk(const struct prefetch *pf, const char *dir,
				 size_t *n);

struct prefetch *prefetch_free(struct prefetch *pf);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct prefetch *, prefetch_free)

#endif
