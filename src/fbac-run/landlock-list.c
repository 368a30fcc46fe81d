/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Listing directories at launch for the kernel rules (landlock-expand.c):
 * each directory read once, and its entries that a pattern names and no
 * hole covers granted one by one.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fbac-limits.h"
#include "landlock-list.h"
#include "macro.h"
#include "path.h"

/* The bytes of names asked of the kernel at a time. */
#define LISTING_BATCH 32768

int landlock_grant_add(struct landlock_grants *g, const char *path,
		       uint64_t access, const struct stat *st)
{
	if (g->n >= FBAC_MAX_EXPAND_RULES)
		return 0;
	if (g->n == g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 16;
		struct landlock_grant *v = realloc(g->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		g->v = v;
		g->cap = cap;
	}
	g->v[g->n] = (struct landlock_grant){ .access = access, .fd = -1 };
	g->v[g->n].path = strdup(path);
	if (!g->v[g->n].path)
		return -ENOMEM;
	if (st) {
		g->v[g->n].dir = S_ISDIR(st->st_mode);
		g->v[g->n].dev = st->st_dev;
		g->v[g->n].ino = st->st_ino;
		g->v[g->n].mode = st->st_mode;
	}
	g->n++;
	return 0;
}

static bool is_hole(const struct fbac_ll_expand *e, const char *path)
{
	for (size_t i = 0; i < e->n_holes; i++)
		if (fbac_pattern_match(e->holes[i], path))
			return true;
	return false;
}

/* Whether a hole lies strictly below path (then path must be listed). */
static bool hole_inside(const struct fbac_ll_expand *e, const char *path)
{
	size_t n = strlen(path);

	for (size_t i = 0; i < e->n_holes; i++) {
		const char *h = e->holes[i];
		size_t pl = fbac_pattern_prefix_len(h);

		if (pl > n && !strncmp(h, path, n) && (n == 1 || h[n] == '/'))
			return true;
	}
	return false;
}

/*
 * The names in a directory, read once per start: Version_Control_Client
 * lists /usr/bin (1400 entries, a third of its start-up's time in
 * getdents64) for the EXECUTE rules of a pattern and again for the read
 * rules of the same pattern. At most LISTINGS_MAX directories are kept;
 * past that a listing is read for its one use.
 */

static void listing_free(struct listing *l)
{
	free(l->dir);
	free(l->buf);
	free(l->names);
	*l = (struct listing){ 0 };
}

/* A listing read for a budget: given up once more of its names than
 * left are candidates (see candidate()). */
struct list_budget {
	const struct fbac_ll_expand *e;
	char *child; /* dir and its slash, dlen bytes */
	size_t dlen, lit, left;
};

static bool candidate(const struct fbac_ll_expand *e, char *child, size_t dlen,
		      size_t lit, const char *name);

/* Append name to l (used bytes of buf, *cap_off offsets in *off). */
static int listing_push(struct listing *l, const char *name, size_t *used,
			size_t *cap, size_t **off, size_t *cap_off)
{
	size_t len = strlen(name) + 1;

	if (*used + len > *cap) {
		size_t c = *cap ? *cap * 2 : 4096;
		char *b;

		while (c < *used + len)
			c *= 2;
		if (!(b = realloc(l->buf, c)))
			return -ENOMEM;
		l->buf = b;
		*cap = c;
	}
	if (l->n == *cap_off) {
		size_t c = *cap_off ? *cap_off * 2 : 64;
		size_t *o = realloc(*off, c * sizeof(*o));

		if (!o)
			return -ENOMEM;
		*off = o;
		*cap_off = c;
	}
	memcpy(l->buf + *used, name, len);
	(*off)[l->n++] = *used;
	*used += len;
	return 0;
}

/* The names of fd's directory into l, each batch of the kernel's
 * checked against b when given. Return: 0, -E2BIG, -errno. */
static int listing_fill(int fd, struct listing *l, size_t **off,
			struct list_budget *b)
{
	/* With a budget, a first small batch: /tmp, with 500 entries, was
	 * read whole (getdents64 and 500 names matched against the holes)
	 * to be given up for 64. */
	size_t want = b ? 4096 : LISTING_BATCH, used = 0, cap = 0, cap_off = 0;
	_cleanup_free_ char *batch = malloc(LISTING_BATCH);
	int r = 0;

	if (!batch)
		return -ENOMEM;
	for (;;) {
		ssize_t got = getdents64(fd, batch, want);

		if (got < 0)
			return -errno;
		if (got == 0)
			return 0;
		for (ssize_t pos = 0; pos < got;) {
			const struct dirent64 *de =
				(const struct dirent64 *)(batch + pos);
			const char *name = de->d_name;

			pos += de->d_reclen;
			if (!strcmp(name, ".") || !strcmp(name, ".."))
				continue;
			if ((r = listing_push(l, name, &used, &cap, off,
					      &cap_off)) < 0)
				return r;
			if (b &&
			    candidate(b->e, b->child, b->dlen, b->lit, name) &&
			    b->left-- == 0)
				return -E2BIG;
		}
		want = LISTING_BATCH;
	}
}

/* Return: 0, -errno of the open (nothing to list), -E2BIG (more
 * candidates than b allows: nothing kept), or -ENOMEM. */
static int listing_read(const char *dir, struct listing *l,
			struct list_budget *b)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ size_t *off = NULL;
	int r;

	*l = (struct listing){ 0 };
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = listing_fill(fd, l, &off, b);
	if (r == 0 && l->n && !(l->names = malloc(l->n * sizeof(*l->names))))
		r = -ENOMEM;
	for (size_t i = 0; r == 0 && i < l->n; i++)
		l->names[i] = l->buf + off[i];
	if (r == 0 && !(l->dir = strdup(dir)))
		r = -ENOMEM;
	if (r < 0)
		listing_free(l);
	return r;
}

/* dir's listing: kept in c, or read into *tmp (the caller frees it). */
static int listing_get(struct listings *c, const char *dir, struct listing *tmp,
		       struct list_budget *b, const struct listing **out)
{
	int r;

	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->v[i].dir, dir)) {
			*out = &c->v[i];
			return 0;
		}
	if ((r = listing_read(dir, tmp, b)) < 0)
		return r;
	if (c->n < LISTINGS_MAX) {
		c->v[c->n] = *tmp;
		*tmp = (struct listing){ 0 };
		*out = &c->v[c->n++];
	} else {
		*out = tmp;
	}
	return 0;
}

/*
 * List dir: grant each entry that matches and is no hole; descend into
 * entries with a hole inside. An entry a pattern names is granted as
 * itself: a directory among them would grant all below it, so it is left
 * to the supervisor. narrow: the rules must never exceed the policy, so
 * symlinks (which the kernel would grant on their target) are left out
 * too; for EXECUTE a symlink is granted on what it names when that is
 * here and no hole.
 */
/*
 * The path of dir's entry name into child (dir and its slash already
 * there, dlen bytes), when it fits and may be granted: the pattern's
 * literal start first (strncmp; 1400 names of /usr/bin for git-*), then
 * the pattern, then the holes.
 */
static bool candidate(const struct fbac_ll_expand *e, char *child, size_t dlen,
		      size_t lit, const char *name)
{
	size_t n = strlen(name);

	if (dlen + n >= PATH_MAX)
		return false;
	memcpy(child + dlen, name, n + 1);
	if (e->glob && (strncmp(child, e->glob, lit) ||
			!fbac_pattern_match(e->glob, child)))
		return false;
	return !is_hole(e, child);
}

int landlock_expand_dir(const struct fbac_ll_expand *e, const char *dir,
			unsigned depth, bool narrow, struct landlock_grants *g,
			size_t *budget, struct listings *cache)
{
	struct listing tmp = { 0 };
	const struct listing *l;
	char child[PATH_MAX];
	size_t dlen = strlen(dir), lit = e->glob ? strcspn(e->glob, "*?") : 0;
	struct list_budget b = { .e = e, .child = child, .lit = lit };
	int r;

	if (dlen + 1 >= PATH_MAX)
		return 0;
	memcpy(child, dir, dlen);
	if (strcmp(dir, "/"))
		child[dlen++] = '/';
	b.dlen = dlen;
	b.left = budget ? *budget : 0;
	r = listing_get(cache, dir, &tmp, budget ? &b : NULL, &l);
	if (r == -ENOMEM || r == -E2BIG)
		return r;
	if (r < 0)
		return 0; /* nothing there, nothing to grant */
	/* More names than the budget: give up before any costs a call. */
	if (budget && l->n > *budget) {
		size_t n = 0;

		for (size_t i = 0; i < l->n && n <= *budget; i++)
			n += candidate(e, child, dlen, lit, l->names[i]);
		if (n > *budget)
			r = -E2BIG;
	}
	for (size_t i = 0; r == 0 && i < l->n; i++) {
		char real[PATH_MAX];
		struct stat st;

		if (!candidate(e, child, dlen, lit, l->names[i]))
			continue;
		/* Past the budget, stop before the entry costs anything. */
		if (budget && (*budget)-- == 0) {
			r = -E2BIG;
			break;
		}
		if (lstat(child, &st) < 0)
			continue;
		if (hole_inside(e, child)) {
			if (S_ISDIR(st.st_mode) && depth < FBAC_MAX_EXPAND_DEPTH)
				r = landlock_expand_dir(e, child, depth + 1,
							narrow, g, budget,
							cache);
			continue;
		}
		/* A pattern of files never grants a tree; one of trees
		 * grants nothing but directories. */
		if (e->glob && S_ISDIR(st.st_mode) != e->trees)
			continue;
		if (S_ISLNK(st.st_mode) &&
		    (narrow || !realpath(child, real) || is_hole(e, real) ||
		     hole_inside(e, real) || !fbac_path_is_under(real, e->dir) ||
		     (e->glob && !fbac_pattern_match(e->glob, real))))
			continue;
		r = landlock_grant_add(g, child, e->access, &st);
	}
	listing_free(&tmp);
	return r;
}

void landlock_listings_free(struct listings *c)
{
	for (size_t i = 0; i < c->n; i++)
		listing_free(&c->v[i]);
	c->n = 0;
}
