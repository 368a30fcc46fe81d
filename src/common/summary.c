/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A compiled policy in a few dozen lines (fbac show, fbac-run --check):
 * what it grants by kind, the protected paths it does not reach, the
 * functionalities it includes, the kernel's part. --full prints every
 * rule with its origin instead (describe.c).
 */
#include "summary.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "describe.h"

/* Paths shown for one kind before "and N more". */
#define SUMMARY_PATHS 4
/* Width of the wrapped lists. */
#define SUMMARY_WIDTH 100

/* A list of items wrapped at SUMMARY_WIDTH, continued under its first;
 * a path under home is written "~/...". */
struct wrap {
	FILE *f;
	size_t col, indent, n;
	const char *home;
};

/* The home directory of the summary in progress (for wrap_begin). */
struct ctx {
	FILE *f;
	const struct fbac_policy *p;
	const char *home;
	size_t home_len;
};

static bool under_home(const struct ctx *c, const char *path)
{
	return c->home_len && !strncmp(path, c->home, c->home_len) &&
	       (path[c->home_len] == '/' || !path[c->home_len]);
}

/* A labelled line ("  label:        item, item"), or with a NULL label a
 * list of its own lines ("  item, item"). */
static void wrap_begin(struct wrap *w, const struct ctx *c, const char *label)
{
	int n = label ? fprintf(c->f, "  %-15s", label) : fprintf(c->f, "  ");

	*w = (struct wrap){ c->f, n > 0 ? (size_t)n : 0,
			    n > 0 ? (size_t)n : 0, 0, c->home };
}

static void wrap_item(struct wrap *w, const char *s)
{
	char buf[FBAC_MAX_PATH];
	size_t hl = w->home ? strlen(w->home) : 0, len;

	if (hl && !strncmp(s, w->home, hl) && (s[hl] == '/' || !s[hl])) {
		snprintf(buf, sizeof(buf), "~%s", s + hl);
		s = buf;
	}
	len = strlen(s) + (w->n ? 2 : 0);

	if (w->n && w->col + len > SUMMARY_WIDTH) {
		fprintf(w->f, ",\n%*s", (int)w->indent, "");
		w->col = w->indent;
		len -= 2;
	} else if (w->n) {
		fputs(", ", w->f);
	}
	fputs(s, w->f);
	w->col += len;
	w->n++;
}

static void wrap_end(struct wrap *w)
{
	fputc('\n', w->f);
}

/* The kinds of path grants, each a set of operations. */
static const struct kind {
	const char *label;
	uint32_t ops;
} kinds[] = {
	{ "read:", FBAC_OP_BIT(FBAC_OP_FILE_READ) | FBAC_OP_BIT(FBAC_OP_DIR_READ) },
	{ "write:", FBAC_OP_BIT(FBAC_OP_FILE_WRITE) |
			    FBAC_OP_BIT(FBAC_OP_FILE_APPEND) |
			    FBAC_OP_BIT(FBAC_OP_FILE_TRUNCATE) |
			    FBAC_OP_BIT(FBAC_OP_FILE_SETATTR) },
	{ "create/delete:", FBAC_OP_BIT(FBAC_OP_FILE_CREATE) |
				    FBAC_OP_BIT(FBAC_OP_FILE_DELETE) |
				    FBAC_OP_BIT(FBAC_OP_FILE_RENAME) |
				    FBAC_OP_BIT(FBAC_OP_FILE_LINK) |
				    FBAC_OP_BIT(FBAC_OP_DIR_MKDIR) |
				    FBAC_OP_BIT(FBAC_OP_DIR_RMDIR) |
				    FBAC_OP_BIT(FBAC_OP_SPECIAL_CREATE) },
	{ "execute:", FBAC_OP_BIT(FBAC_OP_FILE_EXECUTE) },
	{ "device ioctl:", FBAC_OP_BIT(FBAC_OP_FILE_IOCTL) },
	{ "unix sockets:", FBAC_OP_BIT(FBAC_OP_UNIX_CONNECT) |
				   FBAC_OP_BIT(FBAC_OP_UNIX_BIND) },
};

/* 0: a folder of the user's (~/Documents), 1: a hidden one of the home
 * (~/.cache), 2: elsewhere. */
static int area(const struct ctx *c, const char *path)
{
	if (!under_home(c, path))
		return 2;
	return path[c->home_len] == '/' && path[c->home_len + 1] == '.' ? 1 :
									    0;
}

static bool is_tree(const char *path)
{
	size_t n = strlen(path);

	return n >= 3 && streq(path + n - 3, "/**");
}

/* Which paths a person wants to see first: the user's folders, then
 * hidden ones of the home, then the rest; trees first, then the shortest,
 * then by name. */
static int rank(const void *a, const void *b, void *ctx)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	int ax = area(ctx, x), ay = area(ctx, y);
	size_t lx = strlen(x), ly = strlen(y);

	if (ax != ay)
		return ax < ay ? -1 : 1;
	if (is_tree(x) != is_tree(y))
		return is_tree(x) ? -1 : 1;
	if (lx != ly)
		return lx < ly ? -1 : 1;
	return strcmp(x, y);
}

/* Up to SUMMARY_PATHS of the n patterns, ranked, and how many more. */
static void ranked_list(const struct ctx *c, const char *label,
			const char **v, size_t n)
{
	struct wrap w;
	char more[64];

	qsort_r(v, n, sizeof(*v), rank, (void *)c);
	wrap_begin(&w, c, label);
	for (size_t i = 0; i < n && i < SUMMARY_PATHS; i++)
		wrap_item(&w, v[i]);
	if (n > SUMMARY_PATHS) {
		snprintf(more, sizeof(more), "and %zu more", n - SUMMARY_PATHS);
		wrap_item(&w, more);
	}
	wrap_end(&w);
}

static void paths_of_kind(const struct ctx *c, const struct kind *k)
{
	const struct fbac_policy *p = c->p;
	const char **v = calloc(p->n_prules + p->n_abstract + 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return;
	for (size_t i = 0; i < p->n_prules; i++)
		if (!p->prules[i].deny && (p->prules[i].ops & k->ops))
			v[n++] = p->prules[i].pattern;
	for (size_t i = 0; i < p->n_abstract; i++)
		if (!p->abstract[i]->deny && (p->abstract[i]->ops & k->ops))
			v[n++] = p->abstract[i]->pattern;
	if (n)
		ranked_list(c, k->label, v, n);
	free(v);
}

static void ports_text(const struct fbac_rule *r, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < r->n_ports && o < size; i++) {
		int n = r->ports[i].lo == r->ports[i].hi ?
				snprintf(buf + o, size - o, "%s%u", i ? "," : "",
					 r->ports[i].lo) :
				snprintf(buf + o, size - o, "%s%u-%u",
					 i ? "," : "", r->ports[i].lo,
					 r->ports[i].hi);
		if (n < 0)
			break;
		o += (size_t)n;
	}
}

static void network(const struct ctx *c)
{
	const struct fbac_policy *p = c->p;
	FILE *f = c->f;
	struct wrap w;
	bool any = false;

	for (size_t i = 0; i < p->n_net; i++)
		any |= !p->net[i]->deny;
	if (!any && !p->signal_origin)
		return;
	if (any) {
		wrap_begin(&w, c, "network:");
		for (size_t i = 0; i < p->n_net; i++) {
			const struct fbac_rule *r = p->net[i];
			char ports[256], item[512];

			if (r->deny)
				continue;
			ports_text(r, ports, sizeof(ports));
			snprintf(item, sizeof(item), "%s %s %s%s%s",
				 r->ops & FBAC_OP_BIT(FBAC_OP_NETWORK_INCOMING) ?
					 "incoming" :
					 "outgoing",
				 r->proto == FBAC_PROTO_TCP ? "tcp" : "udp",
				 ports, r->hosts ? " to " : "",
				 r->hosts && r->n_hosts ? r->hosts[0] : "");
			if (r->hosts && r->n_hosts > 1) {
				size_t l = strlen(item);

				snprintf(item + l, sizeof(item) - l,
					 " and %zu more hosts", r->n_hosts - 1);
			}
			wrap_item(&w, item);
		}
		wrap_end(&w);
	}
	if (p->signal_origin)
		fprintf(f, "  %-15sto processes outside the sandbox\n",
			"signals:");
}

static void carve_outs(const struct ctx *c)
{
	const struct fbac_policy *p = c->p;
	const char **v = calloc(p->n_prules + 1, sizeof(*v));
	size_t n = 0;

	if (!v)
		return;
	for (size_t i = 0; i < p->n_prules; i++)
		if (p->prules[i].deny)
			v[n++] = p->prules[i].pattern;
	if (n)
		ranked_list(c, "carved out:", v, n);
	free(v);
}

/* ops by kind, "read, write": what the summary's grants call them. */
static void print_kinds(FILE *f, uint32_t ops)
{
	bool first = true;

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (ops & kinds[i].ops) {
			fprintf(f, "%s%.*s", first ? "" : ", ",
				(int)strlen(kinds[i].label) - 1, kinds[i].label);
			first = false;
		}
	if (first)
		fprintf(f, "metadata");
}

/* The path operations p allows on a protected path or inside it. */
static uint32_t reaches(const struct fbac_policy *p, const char *path)
{
	char inside[FBAC_MAX_PATH];
	uint32_t ops = 0;

	snprintf(inside, sizeof(inside), "%s/%s", streq(path, "/") ? "" : path,
		 "fbac-summary-probe");
	for (unsigned op = 0; op < FBAC_OP_COUNT; op++) {
		struct fbac_verdict v;

		if (fbac_op_info((enum fbac_op)op)->kind != FBAC_KIND_PATH)
			continue;
		if ((fbac_policy_check_path(p, (enum fbac_op)op, path, &v) == 0 &&
		     v.allowed) ||
		    (fbac_policy_check_path(p, (enum fbac_op)op, inside, &v) ==
			     0 &&
		     v.allowed))
			ops |= FBAC_OP_BIT(op);
	}
	return ops;
}

static void protected_paths(const struct ctx *c)
{
	const struct fbac_policy *p = c->p;
	FILE *f = c->f;
	struct wrap w;
	bool any = false;

	for (size_t i = 0; i < p->n_protected; i++) {
		uint32_t ops = reaches(p, p->protected[i].path);

		if (!ops)
			continue;
		if (!any)
			fprintf(f, "protected paths it reaches:\n");
		any = true;
		size_t rl = strcspn(p->protected[i].reason, ":(");

		while (rl && p->protected[i].reason[rl - 1] == ' ')
			rl--;
		wrap_begin(&w, c, NULL);
		wrap_item(&w, p->protected[i].path);
		fprintf(f, ": ");
		print_kinds(f, ops);
		/* The reason's first words: the rest is in --full. */
		fprintf(f, " (%.*s)\n", (int)rl, p->protected[i].reason);
	}
	any = false;
	for (size_t i = 0; i < p->n_protected; i++) {
		if (reaches(p, p->protected[i].path))
			continue;
		if (!any) {
			fprintf(f, "protected paths it does not reach:\n");
			wrap_begin(&w, c, NULL);
		}
		any = true;
		wrap_item(&w, p->protected[i].path);
	}
	if (any)
		wrap_end(&w);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Add each name of an origin's chain "root > A > B" but the root. */
static void chain_names(const struct fbac_origin *o, const char **v, size_t *n,
			size_t max, char *buf, size_t *used, size_t size)
{
	const char *s;

	if (!o || !o->chain || !(s = strstr(o->chain, " > ")))
		return;
	while (s && *n < max) {
		const char *name = s + 3, *end = strstr(name, " > ");
		size_t len = end ? (size_t)(end - name) : strlen(name);
		bool seen = false;

		for (size_t i = 0; i < *n && !seen; i++)
			seen = strlen(v[i]) == len && !strncmp(v[i], name, len);
		if (!seen && *used + len + 1 <= size) {
			memcpy(buf + *used, name, len);
			buf[*used + len] = 0;
			v[(*n)++] = buf + *used;
			*used += len + 1;
		}
		s = end;
	}
}

static void includes(const struct ctx *c)
{
	const struct fbac_policy *p = c->p;
	FILE *f = c->f;
	enum { MAX = 512, SIZE = 32768 };
	const char **v = calloc(MAX, sizeof(*v));
	char *buf = malloc(SIZE);
	size_t n = 0, used = 0;
	struct wrap w;

	if (!v || !buf)
		goto out;
	for (size_t i = 0; i < p->n_prules; i++)
		chain_names(p->prules[i].origin, v, &n, MAX, buf, &used, SIZE);
	for (size_t i = 0; i < p->n_abstract; i++)
		chain_names(p->abstract[i]->origin, v, &n, MAX, buf, &used, SIZE);
	for (size_t i = 0; i < p->n_net; i++)
		chain_names(p->net[i]->origin, v, &n, MAX, buf, &used, SIZE);
	chain_names(p->signal_origin, v, &n, MAX, buf, &used, SIZE);
	if (!n)
		goto out;
	qsort(v, n, sizeof(*v), cmp_str);
	fprintf(f, "includes %zu functionalities:\n", n);
	wrap_begin(&w, c, NULL);
	for (size_t i = 0; i < n; i++)
		wrap_item(&w, v[i]);
	wrap_end(&w);
out:
	free(v);
	free(buf);
}

void print_policy_summary(FILE *f, const struct fbac_policy *p,
			  const char *home)
{
	struct ctx c = { f, p, home, home && home[0] == '/' && home[1] ?
					     strlen(home) :
					     0 };

	if (!c.home_len)
		c.home = NULL;
	print_policy_metadata(f, p);
	fprintf(f, "grants%s:\n", c.home ? " (~ is the home directory)" : "");
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		paths_of_kind(&c, &kinds[i]);
	network(&c);
	carve_outs(&c);
	protected_paths(&c);
	includes(&c);
	fprintf(f, "kernel: %zu Landlock rules; %zu decided by the supervisor; scoped: %s%s%s\n",
		p->ll.n_paths, p->n_gaps,
		(p->ll.scope & FBAC_LL_SCOPE_SIGNAL) ? "signals" : "",
		(p->ll.scope & FBAC_LL_SCOPE_SIGNAL) &&
				(p->ll.scope & FBAC_LL_SCOPE_ABSTRACT_UNIX) ?
			", " :
			"",
		(p->ll.scope & FBAC_LL_SCOPE_ABSTRACT_UNIX) ?
			"abstract unix sockets" :
			!(p->ll.scope & FBAC_LL_SCOPE_SIGNAL) ? "nothing" : "");
	print_kernel_ports(f, p);
}
