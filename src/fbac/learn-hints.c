/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac learn: what the system says the program is, for choosing the
 * proposal's high-level functionality. The same evidence as fbac new's
 * (new-probe.c, new-choose.c): the categories of its desktop entry, its
 * package's section and description.
 */
#include <errno.h>
#include <unistd.h>

#include "fbac.h"
#include "learn.h"
#include "new.h"
#include "wizard.h"

int learn_hints(const char *program, struct fbac_arena *a,
		const struct fbac_propose_hint **ret, size_t *n)
{
	struct fbac_wizard hl = { .arena = a }, blocks = { .arena = a };
	struct fbac_propose_hint *h;
	struct probe pr;
	int r;

	*ret = NULL;
	*n = 0;
	/* Logs from elsewhere may name a program this system does not
	 * have: no evidence, not an error. */
	if (access(program, X_OK) < 0)
		return 0;
	if ((r = probe_program(program, a, &pr)) < 0)
		return r == -ENOMEM ? r : 0;
	if ((r = tally(&pr, &hl, &blocks)) < 0)
		return r;
	if (!hl.n_votes)
		return 0;
	h = fbac_arena_array(a, hl.n_votes, sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < hl.n_votes; i++) {
		h[i] = (struct fbac_propose_hint){
			.functionality = hl.votes[i].functionality,
			.weight = hl.votes[i].score,
			.reason = join_reasons(a, &hl.votes[i]),
		};
		if (!h[i].reason)
			return -ENOMEM;
	}
	*ret = h;
	*n = hl.n_votes;
	return 0;
}
