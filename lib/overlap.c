/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The overlap of the grants of two compiled policies (overlap.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "overlap.h"

int fbac_pattern_sample(const char *pattern, char *buf, size_t size)
{
	size_t n = 0;

	for (const char *s = pattern; *s; s++) {
		char c = *s;

		if (c == '*' && s[1] == '*')
			s++;
		if (c == '*' || c == '?')
			c = 'x';
		if (n + 1 >= size)
			return -ENAMETOOLONG;
		buf[n++] = c;
	}
	if (!size)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

/* Whether an earlier allow rule of a names the same pattern with op. */
static bool seen_before(const struct fbac_policy *a, size_t i, uint32_t bit)
{
	for (size_t k = 0; k < i; k++)
		if (!a->prules[k].deny && (a->prules[k].ops & bit) &&
		    strcmp(a->prules[k].pattern, a->prules[i].pattern) == 0)
			return true;
	return false;
}

static void count_paths(const struct fbac_policy *a,
			const struct fbac_policy *b, struct fbac_overlap *out)
{
	char sample[FBAC_MAX_PATH];

	for (size_t i = 0; i < a->n_prules; i++) {
		const struct fbac_prule *r = &a->prules[i];

		if (r->deny ||
		    fbac_pattern_sample(r->pattern, sample, sizeof(sample)) < 0)
			continue;
		for (unsigned op = 0; op < FBAC_OP_COUNT; op++) {
			struct fbac_verdict v;

			if (!(r->ops & FBAC_OP_BIT(op)) ||
			    seen_before(a, i, FBAC_OP_BIT(op)))
				continue;
			out->grants[op]++;
			if (fbac_policy_check_path(b, op, sample, &v) == 0 &&
			    v.allowed)
				out->shared[op]++;
		}
	}
	for (size_t i = 0; i < a->n_abstract; i++) {
		const struct fbac_rule *r = a->abstract[i];

		if (r->deny)
			continue;
		if (fbac_pattern_sample(r->pattern, sample, sizeof(sample)) < 0)
			continue;
		for (unsigned op = 0; op < FBAC_OP_COUNT; op++) {
			struct fbac_verdict v;

			if (!(r->ops & FBAC_OP_BIT(op)))
				continue;
			out->grants[op]++;
			if (fbac_policy_check_abstract(b, op, sample, &v) == 0 &&
			    v.allowed)
				out->shared[op]++;
		}
	}
}

/* Whether b allows op of the net rule r on every sample of it. */
static bool net_shared(const struct fbac_policy *b, const struct fbac_rule *r,
		       enum fbac_op op)
{
	size_t nh = r->hosts ? r->n_hosts : 1, np = r->n_ports ? r->n_ports : 1;

	for (size_t h = 0; h < nh; h++) {
		char host[FBAC_MAX_PATH];
		const char *hp = NULL;

		if (r->hosts) {
			size_t len = strcspn(r->hosts[h], "/");

			if (len >= sizeof(host))
				return false;
			memcpy(host, r->hosts[h], len);
			host[len] = '\0';
			hp = host;
		}
		for (size_t p = 0; p < np; p++) {
			struct fbac_verdict v;
			uint16_t port = r->n_ports ? r->ports[p].lo : 0;

			if (fbac_policy_check_net(b, op, r->proto, hp, port,
						  &v) < 0 ||
			    !v.allowed)
				return false;
		}
	}
	return true;
}

int fbac_policy_overlap(const struct fbac_policy *a,
			const struct fbac_policy *b, struct fbac_overlap *out)
{
	memset(out, 0, sizeof(*out));
	count_paths(a, b, out);
	for (size_t i = 0; i < a->n_net; i++) {
		const struct fbac_rule *r = a->net[i];

		if (r->deny)
			continue;
		for (unsigned op = FBAC_OP_NETWORK_OUTGOING;
		     op <= FBAC_OP_NETWORK_INCOMING; op++) {
			if (!(r->ops & FBAC_OP_BIT(op)))
				continue;
			out->grants[op]++;
			if (net_shared(b, r, op))
				out->shared[op]++;
		}
	}
	if (a->signal_origin) {
		struct fbac_verdict v;

		out->grants[FBAC_OP_IPC_SIGNAL]++;
		if (fbac_policy_check_signal(b, &v) == 0 && v.allowed)
			out->shared[FBAC_OP_IPC_SIGNAL]++;
	}
	return 0;
}
