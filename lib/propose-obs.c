/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The accesses of a run, from fbac-run's JSON log: one flat object per
 * line, written by src/fbac-run/events.c and read by lib/jsonl.c, strictly
 * (a line that is not one of those is an error with its column); only the
 * keys this needs are kept.
 */
#include "propose.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "jsonl.h"
#include "macro.h"
#include "path.h"

int fbac_obs_init(struct fbac_observations *o)
{
	*o = (struct fbac_observations){ .arena = fbac_arena_new() };
	return o->arena ? 0 : -ENOMEM;
}

void fbac_obs_clear(struct fbac_observations *o)
{
	fbac_arena_free(o->arena);
	*o = (struct fbac_observations){ 0 };
}

enum { K_EXE, K_SYSCALL, K_OP, K_OBJECT, K_DECISION, K_REASON, K_N };

static const char *const names[K_N] = { "exe",	  "syscall",  "operation",
					"object", "decision", "reason" };

static int parse_net(const char *object, struct fbac_query *q, char *host,
		     size_t size)
{
	const char *colon = strchr(object, ':'), *last = strrchr(object, ':');
	char *end;
	long port;

	if (!colon || colon == last)
		return -EINVAL;
	if (!strncmp(object, "tcp:", 4))
		q->proto = FBAC_PROTO_TCP;
	else if (!strncmp(object, "udp:", 4))
		q->proto = FBAC_PROTO_UDP;
	else
		return -EINVAL;
	errno = 0;
	port = strtol(last + 1, &end, 10);
	if (*end || end == last + 1 || port < 0 || port > 65535)
		return -EINVAL;
	q->port = (uint16_t)port;
	colon++;
	if (*colon == '[' && last > colon + 1 && last[-1] == ']')
		snprintf(host, size, "%.*s", (int)(last - colon - 2), colon + 1);
	else
		snprintf(host, size, "%.*s", (int)(last - colon), colon);
	return 0;
}

/* The members of one line this needs into v[], each once and a string;
 * the others checked and skipped. */
static int read_members(const char *line, size_t len, char **v, bool *have,
			struct fbac_diag *diag)
{
	struct fbac_jsonl j;
	char key[32];
	int r;

	if ((r = fbac_jsonl_open(&j, line, len, true, diag)) < 0)
		return r;
	while ((r = fbac_jsonl_next(&j, key, sizeof(key))) > 0) {
		int k = K_N;

		for (int i = 0; i < K_N; i++)
			if (streq(key, names[i]))
				k = i;
		if (k < K_N && have[k])
			return fbac_jsonl_error(&j, "duplicate key");
		r = fbac_jsonl_value(&j, k < K_N ? v[k] : NULL, FBAC_MAX_PATH,
				     k < K_N);
		if (r < 0)
			return -EINVAL;
		if (k < K_N)
			have[k] = true;
	}
	return r;
}

/* An operation of the vocabulary; or "syscall", a system call refused as
 * such, which is one of fbac-run's own refusals (they give a reason). */
static bool known_op(const char *name, bool reason, enum fbac_op *op)
{
	return fbac_op_from_name(name, op) == 0 ||
	       (streq(name, "syscall") && reason);
}

int fbac_obs_add_line(struct fbac_observations *o, const char *line,
		      size_t len, struct fbac_diag *diag)
{
	_cleanup_free_ char *vals = NULL;
	bool have[K_N] = { false };
	char *v[K_N];
	struct fbac_query q = { 0 };
	char host[FBAC_MAX_PATH];
	enum fbac_op op;
	int r;

	if (len > FBAC_MAX_LOG_LINE)
		return fbac_diag_at(diag, NULL, -EINVAL,
				    "line longer than %d bytes", FBAC_MAX_LOG_LINE);
	vals = malloc((size_t)K_N * FBAC_MAX_PATH + 64);
	if (!vals)
		return -ENOMEM;
	for (int i = 0; i < K_N; i++)
		v[i] = vals + (size_t)i * FBAC_MAX_PATH;
	if ((r = read_members(line, len, v, have, diag)) < 0)
		return r;
	for (int i = K_EXE; i <= K_DECISION; i++)
		if (!have[i])
			return fbac_diag_at(diag, NULL, -EINVAL, "missing key '%s'",
					    names[i]);
	if (!known_op(v[K_OP], have[K_REASON], &op))
		return fbac_diag_at(diag, NULL, -EINVAL, "unknown operation '%s'",
				    v[K_OP]);
	if (!streq(v[K_DECISION], "allow") && !streq(v[K_DECISION], "deny") &&
	    !streq(v[K_DECISION], "would-deny"))
		return fbac_diag_at(diag, NULL, -EINVAL, "unknown decision '%s'",
				    v[K_DECISION]);
	o->events++;
	/* fbac-run's own refusals (the dynamic loader as the program, its
	 * own /proc entries, the filter's) are not the policy's to grant. */
	if (have[K_REASON]) {
		o->skipped++;
		return 0;
	}
	q.op = op;
	switch (fbac_op_info(op)->kind) {
	case FBAC_KIND_PATH:
		if (v[K_OBJECT][0] != '@' && !fbac_path_is_normal(v[K_OBJECT]))
			return fbac_diag_at(diag, NULL, -EINVAL,
					    "object '%s' is not a normalised absolute path",
					    v[K_OBJECT]);
		q.path = v[K_OBJECT];
		break;
	case FBAC_KIND_NET:
		if (parse_net(v[K_OBJECT], &q, host, sizeof(host)) < 0)
			return fbac_diag_at(diag, NULL, -EINVAL,
					    "object '%s' is not PROTO:HOST:PORT",
					    v[K_OBJECT]);
		q.host = streq(host, "?") ? NULL : host;
		break;
	case FBAC_KIND_SIGNAL:
		break;
	}
	/* The program itself: its first exec, by fbac-run. */
	if (!o->program && op == FBAC_OP_FILE_EXECUTE &&
	    (streq(v[K_EXE], "fbac-run") ||
	     (strlen(v[K_EXE]) > 9 &&
	      streq(v[K_EXE] + strlen(v[K_EXE]) - 9, "/fbac-run")))) {
		o->program = fbac_arena_strdup(o->arena, q.path);
		if (!o->program)
			return -ENOMEM;
	}
	if (o->n >= FBAC_MAX_LEARN_OBS && !o->finished) {
		/* Merge repeats before refusing. */
		if ((r = fbac_obs_finish(o)) < 0)
			return r;
	}
	if (o->n >= FBAC_MAX_LEARN_OBS)
		return fbac_diag_at(diag, NULL, -E2BIG,
				    "more than %d distinct accesses",
				    FBAC_MAX_LEARN_OBS);
	if ((r = fbac_arena_grow(o->arena, (void **)&o->v, &o->cap, o->n + 1,
				 sizeof(*o->v))) < 0)
		return r;
	if (q.path && !(q.path = fbac_arena_strdup(o->arena, q.path)))
		return -ENOMEM;
	if (q.host && !(q.host = fbac_arena_strdup(o->arena, q.host)))
		return -ENOMEM;
	o->v[o->n++] = (struct fbac_obs){ .q = q, .count = 1 };
	o->finished = false;
	return 0;
}

static int strcmp0(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

static int cmp_obs(const void *x, const void *y)
{
	const struct fbac_obs *a = x, *b = y;
	int c;

	if (a->q.op != b->q.op)
		return a->q.op < b->q.op ? -1 : 1;
	if ((c = strcmp0(a->q.path, b->q.path)))
		return c;
	if (a->q.proto != b->q.proto)
		return a->q.proto < b->q.proto ? -1 : 1;
	if (a->q.port != b->q.port)
		return a->q.port < b->q.port ? -1 : 1;
	return strcmp0(a->q.host, b->q.host);
}

int fbac_obs_finish(struct fbac_observations *o)
{
	size_t w = 0;

	if (o->n)
		qsort(o->v, o->n, sizeof(*o->v), cmp_obs);
	for (size_t i = 0; i < o->n; i++) {
		if (w && !cmp_obs(&o->v[w - 1], &o->v[i])) {
			o->v[w - 1].count += o->v[i].count;
			continue;
		}
		o->v[w++] = o->v[i];
	}
	o->n = w;
	o->finished = true;
	return 0;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * In one component: a run of digits and dots that is a version (two
 * numbers joined by a dot) or a long number (4 digits or more, or the
 * whole component) becomes '*'.
 */
static size_t generalize_component(const char *c, size_t len, char *out)
{
	size_t n = 0;

	for (size_t i = 0; i < len;) {
		size_t j = i, digits = 0;
		bool dotted = false;

		if (!is_digit(c[i])) {
			out[n++] = c[i++];
			continue;
		}
		while (j < len && (is_digit(c[j]) ||
				   (c[j] == '.' && j + 1 < len && is_digit(c[j + 1])))) {
			if (c[j] == '.')
				dotted = true;
			else
				digits++;
			j++;
		}
		if (dotted || digits >= 4 || (i == 0 && j == len)) {
			if (!n || out[n - 1] != '*')
				out[n++] = '*';
		} else {
			memcpy(out + n, c + i, j - i);
			n += j - i;
		}
		i = j;
	}
	return n;
}

int fbac_generalize_path(const char *path, uint32_t ops, char *out,
			 size_t size)
{
	size_t n = 0, len = strlen(path);

	if (len + 1 > size)
		return -ENAMETOOLONG;
	if (path[0] != '/' || (ops & FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE))) {
		memcpy(out, path, len + 1);
		return 0;
	}
	for (const char *p = path; *p;) {
		const char *e;
		size_t clen;

		p++; /* the '/' */
		e = strchr(p, '/');
		clen = e ? (size_t)(e - p) : strlen(p);
		out[n++] = '/';
		/* /proc/self and /proc/thread-self stay; the first component
		 * stays as written (/2024 is a name, not a version). */
		if (p == path + 1)
			memcpy(out + n, p, clen), n += clen;
		else
			n += generalize_component(p, clen, out + n);
		p += clen;
	}
	out[n] = 0;
	/* A pattern made only of '*' would say nothing of the path. */
	if (!strcmp(out + (strrchr(out, '/') - out), "/*") && !strchr(path, '*') &&
	    strncmp(path, "/proc/", 6))
		memcpy(out, path, len + 1);
	return 0;
}
