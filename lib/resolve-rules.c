/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rules phase of resolution: a functionality's privileges, an
 * application's executables and the folders --as looks up turned into
 * flat rules, each with its origin (chain, position, layer).
 */
#include "resolve-int.h"

#include <errno.h>
#include <string.h>

#include "fbac-limits.h"
#include "path.h"

static int add_rule(struct resolver *rs, struct fbac_rule **ret)
{
	int r;

	if (rs->out->n_rules >= FBAC_MAX_EXPANSIONS)
		return -E2BIG;
	r = fbac_arena_grow(rs->a, (void **)&rs->out->rules, &rs->out->cap_rules,
			    rs->out->n_rules + 1, sizeof(struct fbac_rule));
	if (r < 0)
		return r;
	*ret = &rs->out->rules[rs->out->n_rules++];
	return 0;
}

static int path_rules(struct resolver *rs, const struct frame *fr,
		      const struct fbac_priv *p, const struct fbac_origin *o)
{
	const uint32_t unix_ops = FBAC_OP_BIT(FBAC_OP_UNIX_CONNECT) |
				  FBAC_OP_BIT(FBAC_OP_UNIX_BIND);
	char norm[FBAC_MAX_PATH];
	const char *why;
	int r;

	for (size_t i = 0; i < p->n_values; i++) {
		struct strs s = { 0 };

		if ((r = rs_expand(rs, fr, p->values[i], &s)) < 0)
			return r;
		for (size_t k = 0; k < s.n; k++) {
			const char *pat = s.v[k];
			struct fbac_rule *rule;

			if (pat[0] == '@' && pat[1] == 0 && !(p->ops & ~unix_ops))
				return fbac_diag_at(
					rs->diag, &p->values[i]->mark, -EINVAL,
					"'@': an abstract socket name cannot be empty");
			if (pat[0] == '@') {
				if ((p->ops & ~unix_ops) ||
				    (strchr(pat, '*') &&
				     strchr(pat, '*')[1] != 0) ||
				    strchr(pat, '?'))
					return fbac_diag_at(
						rs->diag, &p->values[i]->mark,
						-EINVAL,
						"'%s': abstract socket names ('@name', optionally ending in '*') only go with unix_connect and unix_bind",
						pat);
			} else {
				r = fbac_path_normalize(pat, norm, sizeof(norm),
							&why);
				if (r == 0)
					r = fbac_pattern_check(norm, &why);
				if (r < 0)
					return fbac_diag_at(rs->diag,
							    &p->values[i]->mark,
							    -EINVAL,
							    "path '%s': %s",
							    pat, why);
				pat = fbac_arena_strdup(rs->a, norm);
				if (!pat)
					return -ENOMEM;
			}
			if ((r = add_rule(rs, &rule)) < 0)
				return fbac_diag_at(rs->diag,
						    &p->values[i]->mark, r,
						    "more than %d rules",
						    FBAC_MAX_EXPANSIONS);
			rule->kind = FBAC_PRIV_PATH;
			rule->ops = p->ops;
			rule->deny = p->deny;
			rule->pattern = pat;
			rule->origin = o;
		}
	}
	return 0;
}

static int net_rule(struct resolver *rs, const struct frame *fr,
		    const struct fbac_priv *p, const struct fbac_origin *o)
{
	struct strs proto = { 0 }, ports = { 0 }, hosts = { 0 };
	struct fbac_value pv, hv;
	struct fbac_rule *rule;
	bool any_host = false;
	int r;

	if ((r = rs_expand(rs, fr, p->protocol, &proto)) < 0)
		return r;
	if (proto.n != 1 ||
	    (!streq(proto.v[0], "tcp") && !streq(proto.v[0], "udp")))
		return fbac_diag_at(rs->diag, &p->protocol->mark, -EINVAL,
				    "protocol must be tcp or udp, not '%s'",
				    proto.n ? proto.v[0] : "");
	if ((r = rs_expand_node(rs, fr, p->ports, &ports)) < 0)
		return r;
	if ((r = rs_convert(rs, FBAC_PT_PORTS, &ports, "'ports'",
			    &p->ports->mark, &pv)) < 0)
		return r;
	if (p->hosts) {
		if ((r = rs_expand_node(rs, fr, p->hosts, &hosts)) < 0)
			return r;
		if ((r = rs_convert(rs, FBAC_PT_HOSTS, &hosts, "'hosts'",
				    &p->hosts->mark, &hv)) < 0)
			return r;
		for (size_t i = 0; i < hosts.n; i++)
			any_host |= streq(hosts.v[i], "any");
	} else {
		any_host = true;
	}
	if (pv.n == 0 || (!any_host && hosts.n == 0))
		return 0; /* an empty list grants nothing */
	if ((r = add_rule(rs, &rule)) < 0)
		return fbac_diag_at(rs->diag, &p->mark, r, "more than %d rules",
				    FBAC_MAX_EXPANSIONS);
	rule->kind = FBAC_PRIV_NET;
	rule->ops = p->ops;
	rule->deny = p->deny;
	rule->proto = streq(proto.v[0], "tcp") ? FBAC_PROTO_TCP : FBAC_PROTO_UDP;
	rule->ports = fbac_arena_array(rs->a, pv.n, sizeof(*rule->ports));
	if (!rule->ports)
		return -ENOMEM;
	for (size_t i = 0; i < pv.n; i++)
		(void)fbac_parse_port_range(pv.items[i], &rule->ports[i]);
	rule->n_ports = pv.n;
	if (!any_host) {
		rule->hosts = hosts.v;
		rule->n_hosts = hosts.n;
	}
	rule->origin = o;
	return 0;
}

int rs_privileges(struct resolver *rs, const struct frame *fr,
		  const struct fbac_priv *privs, size_t n, unsigned layer)
{
	int r;

	for (size_t i = 0; i < n; i++) {
		const struct fbac_priv *p = &privs[i];
		struct fbac_origin *o = fbac_arena_alloc(rs->a, sizeof(*o));
		struct fbac_rule *rule;

		if (!o)
			return -ENOMEM;
		o->chain = fr->chain;
		o->mark = p->mark;
		o->layer = layer;
		switch (p->kind) {
		case FBAC_PRIV_PATH:
			r = path_rules(rs, fr, p, o);
			break;
		case FBAC_PRIV_NET:
			r = net_rule(rs, fr, p, o);
			break;
		case FBAC_PRIV_SIGNAL:
			r = add_rule(rs, &rule);
			if (r == 0) {
				rule->kind = FBAC_PRIV_SIGNAL;
				rule->ops = p->ops;
				rule->origin = o;
			}
			break;
		default:
			r = -EINVAL;
		}
		if (r < 0)
			return r;
	}
	return 0;
}

/*
 * An application may always start its own program: its executables are
 * granted execute, read and getattr, with the 'executables' entry as
 * their origin.
 */
int rs_executables(struct resolver *rs, const char *name,
		   const char *const *exes, const struct fbac_mark *marks,
		   size_t n, unsigned layer)
{
	static const struct fbac_mark cli = { "<command line>", 0, 0 };
	const uint32_t ops = FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE) |
			     FBAC_OP_BIT(FBAC_OP_FILE_READ) |
			     FBAC_OP_BIT(FBAC_OP_FILE_GETATTR);
	const char *chain = fbac_arena_printf(rs->a, "%s (executables)", name);
	char norm[FBAC_MAX_PATH];
	const char *why;
	int r;

	if (!chain)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct fbac_origin *o = fbac_arena_alloc(rs->a, sizeof(*o));
		struct fbac_rule *rule;

		if (!o)
			return -ENOMEM;
		o->chain = chain;
		o->mark = marks ? marks[i] : cli;
		o->layer = layer;
		if (fbac_path_normalize(exes[i], norm, sizeof(norm), &why) < 0)
			return fbac_diag_at(rs->diag, &o->mark, -EINVAL,
					    "executable '%s': %s", exes[i], why);
		if ((r = add_rule(rs, &rule)) < 0)
			return r;
		rule->kind = FBAC_PRIV_PATH;
		rule->ops = ops;
		rule->pattern = fbac_arena_strdup(rs->a, norm);
		rule->origin = o;
		if (!rule->pattern)
			return -ENOMEM;
	}
	return 0;
}

/* The exact paths a program given --as may look up (resolve.h). */
int rs_lookups(struct resolver *rs, const char *name,
	       const struct fbac_resolve_input *in, unsigned layer)
{
	static const struct fbac_mark cli = { "<command line>", 0, 0 };
	const uint32_t allowed = FBAC_OP_BIT(FBAC_OP_FILE_GETATTR) |
				 FBAC_OP_BIT(FBAC_OP_DIR_READ);
	const char *chain = fbac_arena_printf(rs->a, "%s (folders looked up)",
					      name);
	char norm[FBAC_MAX_PATH];
	const char *why;
	int r;

	if (!chain)
		return -ENOMEM;
	for (size_t i = 0; i < in->n_lookups; i++) {
		struct fbac_origin *o = fbac_arena_alloc(rs->a, sizeof(*o));
		struct fbac_rule *rule;

		if (!o)
			return -ENOMEM;
		o->chain = chain;
		o->mark = cli;
		o->layer = layer;
		if (fbac_path_normalize(in->lookups[i], norm, sizeof(norm),
					&why) < 0)
			return fbac_diag_at(rs->diag, &o->mark, -EINVAL,
					    "folder '%s': %s", in->lookups[i],
					    why);
		if (fbac_has_wildcard(norm) || !in->lookup_ops[i] ||
		    (in->lookup_ops[i] & ~allowed))
			return fbac_diag_at(
				rs->diag, &o->mark, -EINVAL,
				"folder '%s': only a look-up of an exact path",
				norm);
		if ((r = add_rule(rs, &rule)) < 0)
			return r;
		rule->kind = FBAC_PRIV_PATH;
		rule->ops = in->lookup_ops[i];
		rule->pattern = fbac_arena_strdup(rs->a, norm);
		rule->origin = o;
		if (!rule->pattern)
			return -ENOMEM;
	}
	return 0;
}
