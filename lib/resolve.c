/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "resolve.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "path.h"
#include "spell.h"

enum { P_UNSET, P_BUSY, P_DONE };

struct frame {
	const struct fbac_functionality *f;
	const struct frame *parent;	/* caller, for evaluating arguments */
	const struct fbac_include *inc; /* how it was included (or NULL) */
	const char *chain;
	struct fbac_rnode *node;
	unsigned char *state;
	bool top; /* granted directly: -D applies */
	unsigned depth;
};

struct memo {
	const struct fbac_functionality *f;
	const struct fbac_value *values;
};

struct resolver {
	const struct fbac_resolve_input *in;
	const struct fbac_env *env; /* the variables in force */
	struct fbac_resolved *out;
	struct fbac_arena *a;
	struct fbac_diag *diag;
	struct memo *memo;
	size_t n_memo, cap_memo;
	size_t frames;
	bool *define_used;
};

/* A growable list of strings in the arena, each with the position of
 * the scalar it came from. */
struct strs {
	const char **v;
	struct fbac_mark *m;
	size_t n, cap, mcap;
};

static int strs_add(struct resolver *rs, struct strs *s, const char *str,
		    const struct fbac_mark *mark)
{
	static const struct fbac_mark none = { NULL, 0, 0 };
	int r;

	if (s->n >= FBAC_MAX_LIST * 4)
		return -E2BIG;
	r = fbac_arena_grow(rs->a, (void **)&s->v, &s->cap, s->n + 1,
			    sizeof(char *));
	if (r == 0)
		r = fbac_arena_grow(rs->a, (void **)&s->m, &s->mcap, s->n + 1,
				    sizeof(*s->m));
	if (r < 0)
		return r;
	s->m[s->n] = mark ? *mark : none;
	s->v[s->n++] = str;
	return 0;
}

/* The position of byte off inside a scalar, when it is on one line. */
static struct fbac_mark mark_at(const struct fbac_ynode *n, size_t off)
{
	struct fbac_mark m = n->mark;

	if (!memchr(n->value, '\n', n->len))
		m.col += (unsigned)off + (n->plain ? 0 : 1);
	return m;
}

static int eval_param(struct resolver *rs, const struct frame *fr, size_t idx,
		      const struct fbac_mark *use);

static bool is_name_char(char c, bool first)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (!first && c >= '0' && c <= '9');
}

static int param_index(const struct fbac_functionality *f, const char *name,
		       size_t len)
{
	for (size_t i = 0; f && i < f->n_params; i++)
		if (strlen(f->params[i].name) == len &&
		    !strncmp(f->params[i].name, name, len))
			return (int)i;
	return -1;
}

/* One piece of a scalar: literal text, or the items of a value. */
struct piece {
	const char *text; /* literal (len bytes) when items is NULL */
	size_t len;
	const char **items;
	size_t n;
	bool list;
};

#define MAX_PIECES 64

/*
 * Expand the variables of scalar n in frame fr (NULL: built-ins only) and
 * append the resulting strings to out. See docs/profile-language.md.
 */
static int expand(struct resolver *rs, const struct frame *fr,
		  const struct fbac_ynode *n, struct strs *out)
{
	struct piece pc[MAX_PIECES];
	size_t np = 0, lists = 0, list_at = 0;
	const char *s = n->value;
	size_t i = 0, lit = 0;
	char buf[FBAC_MAX_PATH];
	int r;

#define FLUSH_LITERAL()                                                        \
	do {                                                                   \
		if (i > lit) {                                                 \
			if (np == MAX_PIECES)                                  \
				goto too_many;                                 \
			pc[np++] = (struct piece){ .text = s + lit,            \
						   .len = i - lit };           \
		}                                                              \
	} while (0)

	if (s[0] == '~' && (s[1] == '/' || s[1] == 0)) {
		const char *home = fbac_env_get(rs->env, "HOME", 4);

		pc[np++] = (struct piece){ .text = home, .len = strlen(home) };
		i = lit = 1;
	} else if (s[0] == '~') {
		struct fbac_mark m = mark_at(n, 0);
		return fbac_diag_at(rs->diag, &m, -EINVAL,
				    "'~user' is not supported; write the path");
	}
	while (s[i]) {
		size_t start = i, nl;
		const char *name;
		bool brace;

		if (s[i] != '$') {
			i++;
			continue;
		}
		FLUSH_LITERAL();
		if (s[i + 1] == '$') {
			if (np == MAX_PIECES)
				goto too_many;
			pc[np++] = (struct piece){ .text = "$", .len = 1 };
			i += 2;
			lit = i;
			continue;
		}
		brace = s[i + 1] == '{';
		name = s + i + 1 + brace;
		for (nl = 0; is_name_char(name[nl], nl == 0); nl++)
			;
		if (nl == 0 || (brace && name[nl] != '}')) {
			struct fbac_mark m = mark_at(n, start);
			return fbac_diag_at(
				rs->diag, &m, -EINVAL,
				"invalid variable reference (write '$name', '${name}', or '$$' for a dollar sign)");
		}
		i = (size_t)(name - s) + nl + brace;
		lit = i;
		if (np == MAX_PIECES)
			goto too_many;
		if (isupper((unsigned char)name[0])) {
			const char *v = fbac_env_get(rs->env, name, nl);

			if (!v) {
				struct fbac_mark m = mark_at(n, start);
				const char *close = NULL;
				unsigned best = UINT_MAX;
				char word[FBAC_MAX_NAME + 1];

				snprintf(word, sizeof(word), "%.*s", (int)nl,
					 name);
				for (size_t k = 0; k < rs->env->n; k++)
					if (fbac_spell_better(word,
							      rs->env->names[k],
							      &best))
						close = rs->env->names[k];
				if (close)
					return fbac_diag_at(
						rs->diag, &m, -EINVAL,
						"unknown variable '$%.*s' (did you mean '$%s'?)",
						(int)nl, name, close);
				return fbac_diag_at(rs->diag, &m, -EINVAL,
						    "unknown variable '$%.*s'",
						    (int)nl, name);
			}
			pc[np++] = (struct piece){ .text = v, .len = strlen(v) };
			continue;
		}
		{
			int idx = fr ? param_index(fr->f, name, nl) : -1;
			struct fbac_mark m = mark_at(n, start);
			const struct fbac_value *val;

			if (idx < 0) {
				const char *close = NULL;
				unsigned best = UINT_MAX;
				char word[FBAC_MAX_NAME + 1];

				snprintf(word, sizeof(word), "%.*s", (int)nl,
					 name);
				for (size_t k = 0; fr && fr->f && k < fr->f->n_params;
				     k++)
					if (fbac_spell_better(word,
							      fr->f->params[k].name,
							      &best))
						close = fr->f->params[k].name;
				return fbac_diag_at(
					rs->diag, &m, -EINVAL,
					"unknown parameter '$%.*s'%s%s%s%s%s%s",
					(int)nl, name, fr && fr->f ? " of '" : "",
					fr && fr->f ? fr->f->name : "",
					fr && fr->f ? "'" : "",
					close ? " (did you mean '$" : "",
					close ? close : "", close ? "'?)" : "");
			}
			if ((r = eval_param(rs, fr, (size_t)idx, &m)) < 0)
				return r;
			val = &fr->node->values[idx];
			if (!fbac_ptype_is_list(val->type)) {
				pc[np++] = (struct piece){
					.text = val->items[0],
					.len = strlen(val->items[0])
				};
				continue;
			}
			pc[np] = (struct piece){ .items = val->items,
						 .n = val->n,
						 .list = true };
			{
				if (lists++) {
					return fbac_diag_at(
						rs->diag, &m, -EINVAL,
						"at most one list parameter can be used in one value");
				}
				list_at = np;
			}
			np++;
		}
	}
	FLUSH_LITERAL();

	/* One string per element of the list piece (just one without a list). */
	{
		size_t count = lists ? pc[list_at].n : 1;

		for (size_t e = 0; e < count; e++) {
			size_t o = 0;

			for (size_t k = 0; k < np; k++) {
				const char *t = pc[k].text;
				size_t len = pc[k].len;

				if (pc[k].list) {
					t = pc[k].items[e];
					len = strlen(t);
				}
				if (o + len >= sizeof(buf)) {
					return fbac_diag_at(
						rs->diag, &n->mark, -E2BIG,
						"value longer than %d bytes after substitution",
						FBAC_MAX_PATH - 1);
				}
				memcpy(buf + o, t, len);
				o += len;
			}
			buf[o] = 0;
			const char *copy = fbac_arena_strdup(rs->a, buf);
			if (!copy)
				return -ENOMEM;
			if ((r = strs_add(rs, out, copy, &n->mark)) < 0)
				return fbac_diag_at(rs->diag, &n->mark, r,
						    "value expands to too many items");
		}
	}
	return 0;
too_many:
	return fbac_diag_at(rs->diag, &n->mark, -E2BIG,
			    "too many variable references in one value");
#undef FLUSH_LITERAL
}

/* Expand a scalar or a sequence of scalars. */
static int expand_node(struct resolver *rs, const struct frame *fr,
		       const struct fbac_ynode *n, struct strs *out)
{
	int r;

	if (n->kind == FBAC_Y_SCALAR)
		return expand(rs, fr, n, out);
	if (n->kind != FBAC_Y_SEQ)
		return fbac_diag_at(rs->diag, &n->mark, -EINVAL,
				    "expected a scalar or a sequence");
	for (size_t i = 0; i < n->n; i++) {
		if (n->items[i]->kind != FBAC_Y_SCALAR)
			return fbac_diag_at(rs->diag, &n->items[i]->mark,
					    -EINVAL,
					    "expected a scalar, not %s",
					    fbac_ynode_kind_name(
						    n->items[i]->kind));
		if ((r = expand(rs, fr, n->items[i], out)) < 0)
			return r;
	}
	return 0;
}

int fbac_parse_port_range(const char *s, struct fbac_port_range *ret)
{
	unsigned long lo, hi;
	char *end;

	if (streq(s, "any")) {
		*ret = (struct fbac_port_range){ 1, 65535 };
		return 0;
	}
	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	lo = strtoul(s, &end, 10);
	hi = lo;
	if (*end == '-') {
		if (!isdigit((unsigned char)end[1]))
			return -EINVAL;
		hi = strtoul(end + 1, &end, 10);
	}
	if (errno || *end || lo < 1 || hi > 65535 || lo > hi)
		return -EINVAL;
	*ret = (struct fbac_port_range){ (uint16_t)lo, (uint16_t)hi };
	return 0;
}

bool fbac_host_is_valid(const char *s)
{
	unsigned char buf[16];
	char addr[64];
	const char *slash = strchr(s, '/');
	size_t len = strlen(s);

	if (streq(s, "any"))
		return true;
	if (slash) {
		unsigned long bits;
		char *end;
		bool v6;

		if ((size_t)(slash - s) >= sizeof(addr))
			return false;
		memcpy(addr, s, (size_t)(slash - s));
		addr[slash - s] = 0;
		v6 = strchr(addr, ':') != NULL;
		if (inet_pton(v6 ? AF_INET6 : AF_INET, addr, buf) != 1 ||
		    !isdigit((unsigned char)slash[1]))
			return false;
		errno = 0;
		bits = strtoul(slash + 1, &end, 10);
		return !errno && !*end && bits <= (v6 ? 128u : 32u);
	}
	if (inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1)
		return true;
	/* A DNS name: labels of letters, digits and '-', dot-separated; a
	 * name of digits and dots alone is a mistyped address. */
	if (len == 0 || len > 253 || s[0] == '.' || s[0] == '-' ||
	    strspn(s, "0123456789.") == len)
		return false;
	for (size_t i = 0, label = 0; i < len; i++) {
		char c = s[i];

		if (c == '.') {
			if (label == 0)
				return false;
			label = 0;
			continue;
		}
		if (!isalnum((unsigned char)c) && c != '-')
			return false;
		if (++label > 63)
			return false;
	}
	return true;
}

/*
 * Turn expanded strings into a value of type t, checking each item.
 * pname says what is converted ("parameter 'dir'", "'ports'"); errors
 * point at the item's own scalar when it has one, else at m.
 */
static int convert(struct resolver *rs, enum fbac_ptype t, struct strs *s,
		   const char *pname, const struct fbac_mark *whole,
		   struct fbac_value *ret)
{
	char norm[FBAC_MAX_PATH];
	const char *why;
	int r;

	if (!fbac_ptype_is_list(t) && s->n != 1)
		return fbac_diag_at(rs->diag, whole, -EINVAL,
				    "%s takes one %s value, got %zu", pname,
				    fbac_ptype_name(t), s->n);
	if (s->n > FBAC_MAX_LIST)
		return fbac_diag_at(rs->diag, whole, -E2BIG,
				    "%s has more than %d values", pname,
				    FBAC_MAX_LIST);
	for (size_t i = 0; i < s->n; i++) {
		const char *v = s->v[i];
		const struct fbac_mark *m =
			s->m && s->m[i].line ? &s->m[i] : whole;
		struct fbac_port_range pr;

		switch (t) {
		case FBAC_PT_PATH:
		case FBAC_PT_PATHS:
			r = fbac_path_normalize(v, norm, sizeof(norm), &why);
			if (r < 0)
				return fbac_diag_at(
					rs->diag, m, -EINVAL,
					"value '%s' of %s: %s", v, pname,
					why);
			if (fbac_has_wildcard(norm))
				return fbac_diag_at(
					rs->diag, m, -EINVAL,
					"value '%s' of %s contains a wildcard",
					v, pname);
			s->v[i] = fbac_arena_strdup(rs->a, norm);
			if (!s->v[i])
				return -ENOMEM;
			break;
		case FBAC_PT_PORTS:
			if (fbac_parse_port_range(v, &pr) < 0)
				return fbac_diag_at(
					rs->diag, m, -EINVAL,
					"value '%s' of %s is not a port, a range 'lo-hi' of 1..65535, or 'any'",
					v, pname);
			break;
		case FBAC_PT_HOSTS:
			if (!fbac_host_is_valid(v))
				return fbac_diag_at(
					rs->diag, m, -EINVAL,
					"value '%s' of %s is not an address, a CIDR, a host name or 'any'",
					v, pname);
			break;
		case FBAC_PT_STRING:
			if (!v[0] || streq(v, ".") || streq(v, "..") ||
			    strpbrk(v, "/*?") ||
			    strlen(v) > FBAC_MAX_STRING)
				return fbac_diag_at(
					rs->diag, m, -EINVAL,
					"value '%s' of %s must be 1-%d bytes without '/', '*', '?', and not '.' or '..'",
					v, pname, FBAC_MAX_STRING);
			break;
		case FBAC_PT_BOOL:
			if (!streq(v, "true") && !streq(v, "false"))
				return fbac_diag_at(
					rs->diag, m, -EINVAL,
					"value '%s' of %s must be true or false",
					v, pname);
			break;
		}
	}
	ret->type = t;
	ret->items = s->v;
	ret->n = s->n;
	return 0;
}

/*
 * A command-line value for param of this frame: "-D FUNC.param=v" sets
 * it wherever FUNC is resolved, "-D param=v" only for what is granted
 * directly. The person at the command line has the last word over the
 * policy's own arguments (never over the administrator's layer, which
 * is resolved without defines).
 */
static const struct fbac_define *find_define(struct resolver *rs,
					     const struct frame *fr,
					     const char *param)
{
	for (size_t i = 0; i < rs->in->n_defines; i++) {
		const struct fbac_define *d = &rs->in->defines[i];

		if ((d->func ? streq(d->func, fr->f->name) : fr->top) &&
		    streq(d->param, param)) {
			rs->define_used[i] = true;
			return d;
		}
	}
	return NULL;
}

static const char *placeholder(enum fbac_ptype t)
{
	switch (t) {
	case FBAC_PT_PATH:
	case FBAC_PT_PATHS:
		return "/fbac-placeholder";
	case FBAC_PT_PORTS:
		return "1";
	case FBAC_PT_HOSTS:
		return "127.0.0.1";
	case FBAC_PT_STRING:
		return "placeholder";
	case FBAC_PT_BOOL:
		return "false";
	}
	return "";
}

static int eval_param(struct resolver *rs, const struct frame *fr, size_t idx,
		      const struct fbac_mark *use)
{
	const struct fbac_param *p = &fr->f->params[idx];
	struct fbac_value *val = &fr->node->values[idx];
	const struct fbac_define *d;
	struct strs s = { 0 };
	const struct fbac_mark *m = &p->mark;
	int r;

	if (fr->state[idx] == P_DONE)
		return 0;
	if (fr->state[idx] == P_BUSY)
		return fbac_diag_at(rs->diag, use, -ELOOP,
				    "parameter '%s' of '%s' depends on itself",
				    p->name, fr->f->name);
	fr->state[idx] = P_BUSY;

	if ((d = find_define(rs, fr, p->name))) {
		/* Command-line values are comma-separated for list types. */
		_cleanup_free_ char *copy = strdup(d->value);
		struct fbac_ynode tmp = { .kind = FBAC_Y_SCALAR, .plain = true };
		static const struct fbac_mark cli = { "<command line>", 0, 0 };
		char *save = NULL;

		if (!copy)
			return -ENOMEM;
		tmp.mark = cli;
		m = &cli;
		for (char *tok = fbac_ptype_is_list(p->type) ?
					 strtok_r(copy, ",", &save) :
					 copy;
		     tok; tok = fbac_ptype_is_list(p->type) ?
				       strtok_r(NULL, ",", &save) :
				       NULL) {
			tmp.value = tok;
			tmp.len = strlen(tok);
			if ((r = expand(rs, NULL, &tmp, &s)) < 0)
				return r;
		}
		goto have;
	}
	for (size_t a = 0; fr->inc && a < fr->inc->n_args; a++)
		if (streq(fr->inc->arg_names[a], p->name)) {
			m = &fr->inc->arg_values[a]->mark;
			r = expand_node(rs, fr->parent, fr->inc->arg_values[a],
					&s);
			if (r < 0)
				return r;
			goto have;
		}
	if (p->def) {
		r = expand_node(rs, fr, p->def, &s);
		if (r < 0)
			return r;
		m = &p->def->mark;
		val->from_default = true;
		goto have;
	}
	if (rs->in->placeholders && fr->top) {
		const char *ph = placeholder(p->type);

		if ((p->type == FBAC_PT_PATH || p->type == FBAC_PT_PATHS) &&
		    rs->in->fill_path)
			ph = rs->in->fill_path;
		if ((r = strs_add(rs, &s, ph, NULL)) < 0)
			return r;
		goto have;
	}
	if (fr->top)
		return fbac_diag_at(
			rs->diag, fr->inc ? &fr->inc->mark : use, -EINVAL,
			"missing argument '%s' of '%s' (set it with -D %s.%s=VALUE)",
			p->name, fr->f->name, fr->f->name, p->name);
	return fbac_diag_at(rs->diag, fr->inc ? &fr->inc->mark : use, -EINVAL,
			    "missing argument '%s' of '%s'", p->name,
			    fr->f->name);
have:
	{
		char what[FBAC_MAX_NAME + 16];

		snprintf(what, sizeof(what), "parameter '%s'", p->name);
		r = convert(rs, p->type, &s, what, m, val);
	}
	if (r < 0)
		return r;
	fr->state[idx] = P_DONE;
	return 0;
}

static int add_rule(struct resolver *rs, struct fbac_rule **ret)
{
	int r;

	if (rs->out->n_rules >= FBAC_MAX_EXPANSIONS)
		return -E2BIG;
	r = fbac_arena_grow(rs->a, (void **)&rs->out->rules,
			    &rs->out->cap_rules, rs->out->n_rules + 1,
			    sizeof(struct fbac_rule));
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

		if ((r = expand(rs, fr, p->values[i], &s)) < 0)
			return r;
		for (size_t k = 0; k < s.n; k++) {
			const char *pat = s.v[k];
			struct fbac_rule *rule;

			if (pat[0] == '@' && pat[1] == 0 && !(p->ops & ~unix_ops))
				return fbac_diag_at(rs->diag, &p->values[i]->mark,
						    -EINVAL,
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
					return fbac_diag_at(
						rs->diag, &p->values[i]->mark,
						-EINVAL, "path '%s': %s", pat,
						why);
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

	if ((r = expand(rs, fr, p->protocol, &proto)) < 0)
		return r;
	if (proto.n != 1 || (!streq(proto.v[0], "tcp") &&
			     !streq(proto.v[0], "udp")))
		return fbac_diag_at(rs->diag, &p->protocol->mark, -EINVAL,
				    "protocol must be tcp or udp, not '%s'",
				    proto.n ? proto.v[0] : "");
	if ((r = expand_node(rs, fr, p->ports, &ports)) < 0)
		return r;
	if ((r = convert(rs, FBAC_PT_PORTS, &ports, "'ports'", &p->ports->mark,
			 &pv)) < 0)
		return r;
	if (p->hosts) {
		if ((r = expand_node(rs, fr, p->hosts, &hosts)) < 0)
			return r;
		if ((r = convert(rs, FBAC_PT_HOSTS, &hosts, "'hosts'",
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
	rule->proto = streq(proto.v[0], "tcp") ? FBAC_PROTO_TCP :
						  FBAC_PROTO_UDP;
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

static int privileges(struct resolver *rs, const struct frame *fr,
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
static int executables(struct resolver *rs, const char *name,
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
					    "executable '%s': %s", exes[i],
					    why);
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
static int lookups(struct resolver *rs, const char *name,
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
			return fbac_diag_at(rs->diag, &o->mark, -EINVAL,
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

/* Whether two frames of the same functionality got the same arguments. */
static bool same_values(const struct fbac_functionality *f,
			const struct fbac_value *a, const struct fbac_value *b)
{
	for (size_t i = 0; i < f->n_params; i++) {
		if (a[i].n != b[i].n)
			return false;
		for (size_t k = 0; k < a[i].n; k++)
			if (strcmp(a[i].items[k], b[i].items[k]))
				return false;
	}
	return true;
}

static int resolve_frame(struct resolver *rs, struct frame *fr);

static int include(struct resolver *rs, const struct frame *parent,
		   const struct fbac_include *inc, bool top)
{
	struct frame fr = { .f = inc->target, .parent = parent, .inc = inc,
			    .top = top, .depth = parent->depth + 1 };
	struct fbac_rnode *node;
	int r;

	/* Missing arguments are reported by eval_param, after -D had its say. */
	if ((r = fbac_check_include(rs->in->lib, inc, false, rs->diag)) < 0)
		return r;
	for (const struct frame *p = parent; p; p = p->parent)
		if (p->f == inc->target)
			return fbac_diag_at(rs->diag, &inc->mark, -ELOOP,
					    "include cycle through '%s'",
					    inc->name);
	if (fr.depth > FBAC_MAX_INCLUDE_DEPTH)
		return fbac_diag_at(rs->diag, &inc->mark, -E2BIG,
				    "includes nested deeper than %d levels",
				    FBAC_MAX_INCLUDE_DEPTH);
	if (++rs->frames > FBAC_MAX_EXPANSIONS)
		return fbac_diag_at(rs->diag, &inc->mark, -E2BIG,
				    "more than %d functionalities resolved",
				    FBAC_MAX_EXPANSIONS);
	node = fbac_arena_alloc(rs->a, sizeof(*node));
	fr.state = fbac_arena_alloc(rs->a, fr.f->n_params + 1);
	if (!node || !fr.state)
		return -ENOMEM;
	node->f = fr.f;
	node->name = fr.f->name;
	node->at = inc->mark;
	node->values = fbac_arena_array(rs->a, fr.f->n_params + 1,
					sizeof(*node->values));
	if (!node->values)
		return -ENOMEM;
	fr.node = node;
	fr.chain = parent->chain ? fbac_arena_printf(rs->a, "%s > %s",
						     parent->chain, fr.f->name) :
				   fr.f->name;
	if (!fr.chain)
		return -ENOMEM;
	r = fbac_arena_grow(rs->a, (void **)&parent->node->children,
			    &parent->node->cap_children,
			    parent->node->n_children + 1, sizeof(node));
	if (r < 0)
		return r;
	parent->node->children[parent->node->n_children++] = node;
	return resolve_frame(rs, &fr);
}

/* A functionality's own choice: mediated wins, the first visible stays. */
static void frame_metadata(struct resolver *rs, const struct frame *fr)
{
	struct fbac_resolved *o = rs->out;

	if (fr->f->metadata == FBAC_META_UNSET ||
	    o->metadata == FBAC_META_MEDIATED ||
	    (o->metadata == FBAC_META_VISIBLE &&
	     fr->f->metadata == FBAC_META_VISIBLE))
		return;
	o->metadata = fr->f->metadata;
	o->metadata_why = fr->chain;
	o->metadata_mark = fr->f->metadata_mark;
}

/*
 * The application's own 'metadata', then "-D metadata=", then a layer's
 * settings ban, each over what came before.
 */
static int root_metadata(struct resolver *rs, bool *used)
{
	static const struct fbac_mark cli = { "<command line>", 0, 0 };
	const struct fbac_resolve_input *in = rs->in;
	const struct fbac_library *lib = in->lib;
	struct fbac_resolved *o = rs->out;

	if (in->app && in->app->metadata != FBAC_META_UNSET) {
		o->metadata = in->app->metadata;
		o->metadata_why = in->root_name ? in->root_name : in->app->name;
		o->metadata_mark = in->app->metadata_mark;
	}
	for (size_t i = 0; i < in->n_defines; i++) {
		const struct fbac_define *d = &in->defines[i];

		if (d->func || !streq(d->param, "metadata"))
			continue;
		if (streq(d->value, "visible"))
			o->metadata = FBAC_META_VISIBLE;
		else if (streq(d->value, "mediated"))
			o->metadata = FBAC_META_MEDIATED;
		else
			return fbac_diag_at(
				rs->diag, &cli, -EINVAL,
				"'-D metadata=%s': expected visible or mediated",
				d->value);
		o->metadata_why = fbac_arena_printf(rs->a, "-D metadata=%s",
						    d->value);
		if (!o->metadata_why)
			return -ENOMEM;
		o->metadata_mark = cli;
		used[i] = true;
	}
	if (lib->metadata_banned) {
		o->metadata = FBAC_META_MEDIATED;
		o->metadata_why = fbac_arena_printf(
			rs->a, "the settings of layer %s",
			lib->layers[lib->metadata_ban_layer].name);
		if (!o->metadata_why)
			return -ENOMEM;
		o->metadata_mark = lib->metadata_ban_mark;
	}
	return 0;
}

static int resolve_frame(struct resolver *rs, struct frame *fr)
{
	int r;

	/* Every parameter is evaluated, so unused ones are checked too. */
	for (size_t i = 0; i < fr->f->n_params; i++)
		if ((r = eval_param(rs, fr, i, &fr->f->params[i].mark)) < 0)
			return r;
	for (size_t i = 0; i < rs->n_memo; i++)
		if (rs->memo[i].f == fr->f &&
		    same_values(fr->f, rs->memo[i].values, fr->node->values)) {
			fr->node->repeated = true;
			return 0;
		}
	r = fbac_arena_grow(rs->a, (void **)&rs->memo, &rs->cap_memo,
			    rs->n_memo + 1, sizeof(*rs->memo));
	if (r < 0)
		return r;
	rs->memo[rs->n_memo++] = (struct memo){ fr->f, fr->node->values };
	frame_metadata(rs, fr);

	for (size_t i = 0; i < fr->f->n_includes; i++)
		if ((r = include(rs, fr, &fr->f->includes[i], false)) < 0)
			return r;
	return privileges(rs, fr, fr->f->privs, fr->f->n_privs, rs->in->layer);
}

static int protected_paths(struct resolver *rs)
{
	const struct fbac_library *lib = rs->in->lib;
	char norm[FBAC_MAX_PATH];
	const char *why;
	int r;

	rs->out->protected = fbac_arena_array(
		rs->a, lib->n_protected + 1, sizeof(*rs->out->protected));
	if (!rs->out->protected)
		return -ENOMEM;
	for (size_t i = 0; i < lib->n_protected; i++) {
		struct strs s = { 0 };

		/* The administrator's entries never follow the caller's
		 * environment: it could move what they protect. */
		if (lib->layers[lib->protected[i].layer].kind ==
			    FBAC_LAYER_ADMIN &&
		    rs->in->trusted_env)
			rs->env = rs->in->trusted_env;
		r = expand(rs, NULL, lib->protected[i].path, &s);
		rs->env = rs->in->env;
		if (r < 0)
			return r;
		for (size_t k = 0; k < s.n; k++) {
			struct fbac_resolved_protected *p;

			r = fbac_path_normalize(s.v[k], norm, sizeof(norm),
						&why);
			if (r == 0 && fbac_has_wildcard(norm)) {
				why = "protected paths cannot have wildcards";
				r = -EINVAL;
			}
			if (r < 0)
				return fbac_diag_at(rs->diag,
						    &lib->protected[i].mark,
						    -EINVAL, "path '%s': %s",
						    s.v[k], why);
			if (k > 0) {
				/* Only reachable through a list variable: none exist. */
				return -EINVAL;
			}
			p = &rs->out->protected[rs->out->n_protected++];
			p->path = fbac_arena_strdup(rs->a, norm);
			p->allow = lib->protected[i].allow;
			p->reason = lib->protected[i].reason;
			p->mark = lib->protected[i].mark;
			if (!p->path)
				return -ENOMEM;
		}
	}
	return 0;
}

struct fbac_resolved *fbac_resolved_free(struct fbac_resolved *r)
{
	if (r) {
		fbac_arena_free(r->arena);
		free(r);
	}
	return NULL;
}

int fbac_resolve(const struct fbac_resolve_input *in,
		 struct fbac_resolved **ret, struct fbac_diag *diag)
{
	_cleanup_(fbac_resolved_freep) struct fbac_resolved *out = NULL;
	_cleanup_free_ bool *used = NULL;
	struct resolver rs = { .in = in, .env = in->env, .diag = diag };
	struct frame root = { 0 };
	const struct fbac_include *grants = in->app ? in->app->grants :
						      in->grants;
	size_t n_grants = in->app ? in->app->n_grants : in->n_grants;
	int r;

	if (!in->lib->linked || in->env->n == 0)
		return -EINVAL;
	out = calloc(1, sizeof(*out));
	if (!out)
		return -ENOMEM;
	out->arena = fbac_arena_new();
	used = calloc(in->n_defines + 1, sizeof(*used));
	if (used && in->define_used)
		memcpy(used, in->define_used, in->n_defines * sizeof(*used));
	if (!out->arena || !used)
		return -ENOMEM;
	rs.out = out;
	rs.a = out->arena;
	rs.define_used = used;

	out->root = fbac_arena_alloc(rs.a, sizeof(*out->root));
	if (!out->root)
		return -ENOMEM;
	/* Without a root name, chains start at the granted functionality. */
	out->root->name = in->root_name ? in->root_name : "";
	if (in->app)
		out->root->at = in->app->mark;
	root.node = out->root;
	root.chain = in->root_name;

	for (size_t i = 0; i < n_grants; i++)
		if ((r = include(&rs, &root, &grants[i], true)) < 0)
			return r;
	if (in->app &&
	    (r = privileges(&rs, &root, in->app->privs, in->app->n_privs,
			    in->layer)) < 0)
		return r;
	if (in->app &&
	    (r = executables(&rs, in->app->name, in->app->executables,
			     in->app->exe_marks, in->app->n_executables,
			     in->layer)) < 0)
		return r;
	if (!in->app && in->n_executables &&
	    (r = executables(&rs, in->root_name ? in->root_name : "--as",
			     in->executables, NULL, in->n_executables,
			     in->layer)) < 0)
		return r;
	if (!in->app && in->n_lookups &&
	    (r = lookups(&rs, in->root_name ? in->root_name : "--as", in,
			 in->layer)) < 0)
		return r;
	if ((r = root_metadata(&rs, used)) < 0)
		return r;
	if (in->define_used) {
		memcpy(in->define_used, used, in->n_defines * sizeof(*used));
		goto protected;
	}
	for (size_t i = 0; i < in->n_defines; i++)
		if (!used[i])
			return fbac_define_unused(&in->defines[i], diag);
protected:
	if ((r = protected_paths(&rs)) < 0)
		return r;
	*ret = TAKE_PTR(out);
	return 0;
}

int fbac_define_unused(const struct fbac_define *d, struct fbac_diag *diag)
{
	static const struct fbac_mark cli = { "<command line>", 0, 0 };

	return fbac_diag_at(
		diag, &cli, -EINVAL,
		"'-D %s%s%s=%s' sets nothing: no granted functionality%s%s has a parameter '%s'",
		d->func ? d->func : "", d->func ? "." : "", d->param, d->value,
		d->func ? " named " : "", d->func ? d->func : "", d->param);
}

int fbac_define_parse(char *arg, const char *default_func,
		      struct fbac_define *ret)
{
	char *eq = strchr(arg, '='), *dot;

	if (!eq || eq == arg)
		return -EINVAL;
	*eq = 0;
	dot = strchr(arg, '.');
	if (dot) {
		*dot = 0;
		if (!*arg || !dot[1])
			return -EINVAL;
		ret->func = arg;
		ret->param = dot + 1;
	} else {
		ret->func = default_func;
		ret->param = arg;
	}
	ret->value = eq + 1;
	return 0;
}
