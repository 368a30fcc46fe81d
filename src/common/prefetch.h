/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The files of a layer directory, read and parsed as YAML side by side,
 * before the layers are loaded one file at a time in their order: libyaml
 * is most of the start-up of fbac-run, and the machine has more than one
 * CPU. Loading looks each file up here and parses only what is missing.
 */
#ifndef FBAC_PREFETCH_H
#define FBAC_PREFETCH_H

#include "profile.h"

struct prefetch;

/*
 * Find the .yaml files under dir as the loader walks it, and parse them
 * on up to FBAC_MAX_LOAD_THREADS threads, each into an arena that lib
 * adopts. Anything unusual (an unreadable directory, a thread that does
 * not start) only means less is prefetched: the loader reports it.
 * Return: 0 with *out set (NULL when nothing was prefetched), or -ENOMEM.
 */
int prefetch_dir(struct fbac_library *lib, const char *dir,
		 struct prefetch **out);

/* What was parsed for path (the loader's own spelling of it), or NULL. */
const struct fbac_parsed *prefetch_get(struct prefetch *pf, const char *path);

struct prefetch *prefetch_free(struct prefetch *pf);
DEFINE_TRIVIAL_CLEANUP_FUNC(struct prefetch *, prefetch_free)

#endif
