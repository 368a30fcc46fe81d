/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The parameters phase of resolution: a parameter's value bound from
 * "-D", the include's argument, its default or a placeholder, and
 * expanded strings checked and converted to a typed value.
 */
#include "resolve-int.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "path.h"

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
int rs_convert(struct resolver *rs, enum fbac_ptype t, struct strs *s,
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
		const struct fbac_mark *m = s->m && s->m[i].line ? &s->m[i] :
								   whole;
		struct fbac_port_range pr;

		switch (t) {
		case FBAC_PT_PATH:
		case FBAC_PT_PATHS:
			r = fbac_path_normalize(v, norm, sizeof(norm), &why);
			if (r < 0)
				return fbac_diag_at(rs->diag, m, -EINVAL,
						    "value '%s' of %s: %s", v,
						    pname, why);
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
			    strpbrk(v, "/*?") || strlen(v) > FBAC_MAX_STRING)
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
static const struct fbac_define *
find_define(struct resolver *rs, const struct frame *fr, const char *param)
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

int rs_eval_param(struct resolver *rs, const struct frame *fr, size_t idx,
		  const struct fbac_mark *use)
{
	const struct fbac_param *p = &fr->f->params[idx];
	struct fbac_value *val = &fr->node->values[idx];
	const struct fbac_define *d;
	struct strs s = { 0 };
	const struct fbac_mark *m = &p->mark;
	char what[FBAC_MAX_NAME + 16];
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
			if ((r = rs_expand(rs, NULL, &tmp, &s)) < 0)
				return r;
		}
		goto have;
	}
	for (size_t a = 0; fr->inc && a < fr->inc->n_args; a++)
		if (streq(fr->inc->arg_names[a], p->name)) {
			m = &fr->inc->arg_values[a]->mark;
			r = rs_expand_node(rs, fr->parent,
					   fr->inc->arg_values[a], &s);
			if (r < 0)
				return r;
			goto have;
		}
	if (p->def) {
		r = rs_expand_node(rs, fr, p->def, &s);
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
		if ((r = rs_strs_add(rs, &s, ph, NULL)) < 0)
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
	snprintf(what, sizeof(what), "parameter '%s'", p->name);
	r = rs_convert(rs, p->type, &s, what, m, val);
	if (r < 0)
		return r;
	fr->state[idx] = P_DONE;
	return 0;
}
