/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * "Did you mean": the name in scope closest to a misspelt one, by edit
 * distance (insertions, deletions, substitutions and transpositions of
 * neighbours; letters compared without case).
 */
#ifndef FBAC_SPELL_H
#define FBAC_SPELL_H

#include <stdbool.h>
#include <stddef.h>

/* The edit distance of a and b, each at most FBAC_MAX_NAME bytes (longer:
 * a large value). */
unsigned fbac_spell_distance(const char *a, const char *b);

/*
 * Whether cand is a better suggestion for word than the best so far
 * (*best, start it at UINT_MAX): close enough for the word's length and
 * not the word itself. Updates *best.
 */
bool fbac_spell_better(const char *word, const char *cand, unsigned *best);

/* The closest of the NULL-terminated names to word, or NULL. */
const char *fbac_spell_closest(const char *word, const char *const *names);

#endif
