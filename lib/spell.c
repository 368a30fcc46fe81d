/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "spell.h"

#include <limits.h>
#include <string.h>

#include "fbac-limits.h"
#include "macro.h"

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

static unsigned min3(unsigned a, unsigned b, unsigned c)
{
	unsigned m = a < b ? a : b;

	return m < c ? m : c;
}

unsigned fbac_spell_distance(const char *a, const char *b)
{
	/* Three rows of the optimal string alignment table. */
	unsigned rows[3][FBAC_MAX_NAME + 2];
	size_t n = strlen(a), m = strlen(b);
	unsigned *pp = rows[0], *p = rows[1], *c = rows[2];

	if (n > FBAC_MAX_NAME || m > FBAC_MAX_NAME)
		return UINT_MAX / 2;
	for (size_t j = 0; j <= m; j++)
		p[j] = (unsigned)j;
	for (size_t i = 1; i <= n; i++) {
		unsigned *t;

		c[0] = (unsigned)i;
		for (size_t j = 1; j <= m; j++) {
			unsigned cost = lower(a[i - 1]) != lower(b[j - 1]);

			c[j] = min3(p[j] + 1, c[j - 1] + 1, p[j - 1] + cost);
			if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
			    lower(a[i - 2]) == lower(b[j - 1]) &&
			    pp[j - 2] + 1 < c[j])
				c[j] = pp[j - 2] + 1;
		}
		t = pp;
		pp = p;
		p = c;
		c = t;
	}
	return p[m];
}

bool fbac_spell_better(const char *word, const char *cand, unsigned *best)
{
	size_t len = strlen(word);
	unsigned d, max = len <= 4 ? 1 : len <= 8 ? 2 : 3;

	if (!cand || streq(word, cand))
		return false;
	d = fbac_spell_distance(word, cand);
	if (d > max || d >= *best)
		return false;
	*best = d;
	return true;
}

const char *fbac_spell_closest(const char *word, const char *const *names)
{
	const char *found = NULL;
	unsigned best = UINT_MAX;

	for (size_t i = 0; names[i]; i++)
		if (fbac_spell_better(word, names[i], &best))
			found = names[i];
	return found;
}
