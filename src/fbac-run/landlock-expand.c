/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel rules the launcher lists when it starts: EXECUTE entry by
 * entry where a tree has exec carve-outs or a pattern names some entries
 * of a directory, and the program's narrow read rules (never wider than
 * the policy). The supervisor predicts from the same record whether the
 * kernel would let a read-only open through.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fbac-limits.h"
#include "landlock.h"
#include "landlock-list.h"
#include "macro.h"
#include "path.h"

int landlock_open_canonical(const char *path)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC | O_NOFOLLOW,
				.resolve = RESOLVE_NO_SYMLINKS };
	int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));

	return fd < 0 ? -errno : fd;
}

/* A narrow rule on a path that is canonical (no symlink on the way); the
 * object stays open for the rule (up to *held of them in all). */
static int narrow_rule(const struct fbac_ll_path *lp, struct landlock_grants *g,
		       struct landlock_grants *absent, size_t *held)
{
	struct stat st;
	_cleanup_close_ int fd = -1;
	int r;

	fd = landlock_open_canonical(lp->path);
	/* Missing with no symlink on the way: no rule can name it, in any
	 * ruleset (absent is asked before opening it again). */
	if (fd == -ENOENT)
		return landlock_grant_add(absent, lp->path, 0, NULL);
	if (fd < 0)
		return 0; /* reached through a symlink */
	if (fstat(fd, &st) < 0 || S_ISLNK(st.st_mode))
		return 0;
	/* A rule naming one object grants nothing below it. */
	if (S_ISDIR(st.st_mode) && lp->literal_only)
		return 0;
	size_t n = g->n;

	if ((r = landlock_grant_add(g, lp->path, lp->access, &st)) < 0)
		return r;
	if (g->n > n && *held < FBAC_MAX_HELD_FDS) {
		g->v[g->n - 1].fd = TAKE_FD(fd);
		++*held;
	}
	return 0;
}

size_t landlock_parent_len(const char *path, size_t len)
{
	if (len <= 1)
		return 0;
	while (len > 1 && path[len - 1] != '/')
		len--;
	return len > 1 ? len - 1 : 1; /* without its slash, but "/" */
}

/* The index of the element of base (n of size bytes, sorted by the
 * string at offset off) whose string is path[0..len), or SIZE_MAX: the
 * plan's paths and the launch-time grants alike. */
static size_t path_index(const void *base, size_t n, size_t size, size_t off,
			 const char *path, size_t len)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const char *m = *(const char *const *)((const char *)base +
						       mid * size + off);
		int c = strncmp(m, path, len);

		if (c == 0 && m[len])
			c = 1;
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
}

size_t landlock_ll_find(const struct fbac_ll_path *v, size_t n,
			const char *path, size_t len)
{
	return path_index(v, n, sizeof(*v), offsetof(struct fbac_ll_path, path),
			  path, len);
}

/*
 * Whether a tree rule above narrow[k] gives it all its rights: the kernel
 * takes the union of the rules above an object, and the supervisor's
 * prediction walks up to that rule (whose object it checks), so the rule
 * would add nothing. Should that tree not be granted at launch (missing,
 * a symlink, reached through one), neither would this path.
 */
static bool narrow_covered(const struct fbac_ll_path *v, size_t n, size_t k)
{
	const char *path = v[k].path;
	size_t len = strlen(path);

	while ((len = landlock_parent_len(path, len)) > 0) {
		size_t j = landlock_ll_find(v, n, path, len);

		if (j != SIZE_MAX && !v[j].literal_only &&
		    !(v[k].access & ~v[j].access))
			return true;
	}
	return false;
}

/*
 * The narrow rules of a directory listed entry by entry (a tree with a
 * hole, a pattern), at most FBAC_MAX_NARROW_LISTED entries: each costs
 * about five system calls at every start (a busy /tmp, listed for
 * Temporary_Files' holes, was most of a start-up). Beyond that none is
 * listed, and reads there are opened by the supervisor: only slower.
 */
static int narrow_expand(const struct fbac_ll_expand *e,
			 struct landlock_extra *x, struct listings *cache)
{
	size_t n0 = x->narrow.n, budget = FBAC_MAX_NARROW_LISTED;
	int r = landlock_expand_dir(e, e->dir, 0, true, &x->narrow, &budget,
				    cache);

	if (r != -E2BIG)
		return r;
	while (x->narrow.n > n0)
		free(x->narrow.v[--x->narrow.n].path);
	x->unlisted++;
	return 0;
}

static int cmp_grant(const void *a, const void *b)
{
	return strcmp(((const struct landlock_grant *)a)->path,
		      ((const struct landlock_grant *)b)->path);
}

static int expand_all(const struct fbac_stack *st,
		      struct landlock_extra *extras, struct listings *cache)
{
	size_t held = 0;
	int r;

	for (size_t i = 0; i < st->n; i++) {
		const struct fbac_landlock_plan *p = &st->entries[i].policy->ll;
		struct landlock_extra *x = &extras[i];

		*x = (struct landlock_extra){ 0 };
		for (size_t k = 0; k < p->n_expand; k++)
			if ((r = landlock_expand_dir(&p->expand[k],
						     p->expand[k].dir, 0, false,
						     &x->exec, NULL, cache)) < 0)
				return r;
		for (size_t k = 0; k < p->n_narrow; k++) {
			if (narrow_covered(p->narrow, p->n_narrow, k)) {
				x->implied++;
				continue;
			}
			if ((r = narrow_rule(&p->narrow[k], &x->narrow,
					     &x->absent, &held)) < 0)
				return r;
		}
		for (size_t k = 0; k < p->n_narrow_expand; k++)
			if ((r = narrow_expand(&p->narrow_expand[k], x, cache)) <
			    0)
				return r;
		if (x->narrow.n)
			qsort(x->narrow.v, x->narrow.n, sizeof(*x->narrow.v),
			      cmp_grant);
		if (x->absent.n)
			qsort(x->absent.v, x->absent.n, sizeof(*x->absent.v),
			      cmp_grant);
	}
	return 0;
}

int landlock_expand(const struct fbac_stack *st, struct landlock_extra *extras)
{
	struct listings cache = { .n = 0 };
	int r = expand_all(st, extras, &cache);

	landlock_listings_free(&cache);
	return r;
}

static void grants_release(struct landlock_grants *g)
{
	for (size_t k = 0; k < g->n; k++)
		if (g->v[k].fd >= 0) {
			close(g->v[k].fd);
			g->v[k].fd = -1;
		}
}

void landlock_extra_release(struct landlock_extra *extras, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		grants_release(&extras[i].exec);
		grants_release(&extras[i].narrow);
	}
}

static void grants_free(struct landlock_grants *g)
{
	grants_release(g);
	for (size_t k = 0; k < g->n; k++)
		free(g->v[k].path);
	free(g->v);
	*g = (struct landlock_grants){ 0 };
}

void landlock_extra_free(struct landlock_extra *extras, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		grants_free(&extras[i].exec);
		grants_free(&extras[i].exec_named);
		grants_free(&extras[i].narrow);
		grants_free(&extras[i].absent);
		extras[i].narrowed = false;
	}
}

/* The grant on exactly this path, or NULL. */
static const struct landlock_grant *grant_at(const struct landlock_grants *g,
					     const char *path, size_t len)
{
	size_t i = path_index(g->v, g->n, sizeof(*g->v),
			      offsetof(struct landlock_grant, path), path, len);

	return i == SIZE_MAX ? NULL : &g->v[i];
}

const struct landlock_grant *landlock_grant_at(const struct landlock_grants *g,
					      const char *path)
{
	return grant_at(g, path, strlen(path));
}

static bool layer_allows(const struct landlock_extra *extras, size_t n,
			 const struct landlock_grants *g, int root_fd,
			 uint64_t right, const char *path)
{
	size_t len = strlen(path);

	/* Landlock looks at the object and each directory above it. */
	for (;;) {
		const struct landlock_grant *hit = grant_at(g, path, len);

		if (hit && (hit->access & right) &&
		    (hit->dir || path[len] == 0))
			return landlock_still_names(extras, n, root_fd, hit);
		if ((len = landlock_parent_len(path, len)) == 0)
			return false;
	}
}

bool landlock_narrow_allows(const struct landlock_extra *extras, size_t n,
			    int root_fd, uint64_t right, const char *path)
{
	if (path[0] != '/')
		return false;
	for (size_t i = 0; i < n; i++)
		if (!extras[i].narrowed ||
		    !layer_allows(extras, n, &extras[i].narrow, root_fd, right,
				  path))
			return false;
	return n > 0;
}

/* ---- the kernel's answer to an exec ---- */

int landlock_note_exec(struct landlock_extra *x,
		       const struct fbac_landlock_plan *p,
		       const struct landlock_seen *seen)
{
	struct stat st;
	int r;

	/* The object the rule was made on, when it was opened for it (no
	 * second look: a stat(2) of each path cost ~1 us at start-up);
	 * else followed, as the rule's open follows symlinks. A file
	 * replaced between the rule and here is taken for the rule's: the
	 * check can then miss a refusal, never make one up. */
	for (size_t i = 0; i < p->n_paths; i++) {
		if (!(p->paths[i].access & FBAC_LL_FS_EXECUTE))
			continue;
		if (seen && seen[i].ok) {
			st = (struct stat){ .st_mode = seen[i].mode,
					    .st_dev = seen[i].dev,
					    .st_ino = seen[i].ino };
		} else if (stat(p->paths[i].path, &st) < 0) {
			continue;
		}
		if (S_ISREG(st.st_mode) &&
		    (r = landlock_grant_add(&x->exec_named, p->paths[i].path,
					    FBAC_LL_FS_EXECUTE, &st)) < 0)
			return r;
	}
	return 0;
}

#define EXEC_MAX_DEPTH 64 /* directories above a program, checked by identity */

struct exec_ids {
	struct stat file;
	struct stat up[EXEC_MAX_DEPTH];
	size_t n_up;
};

static bool same_obj(const struct stat *a, dev_t dev, ino_t ino)
{
	return a->st_dev == dev && a->st_ino == ino;
}

/* Whether an object a rule names, by identity, covers the program: it is
 * the program, or (tree) a directory above it. */
static bool ids_cover(const struct exec_ids *ids, dev_t dev, ino_t ino,
		      bool tree)
{
	if (same_obj(&ids->file, dev, ino))
		return true;
	for (size_t i = 0; tree && i < ids->n_up; i++)
		if (same_obj(&ids->up[i], dev, ino))
			return true;
	return false;
}

/* What names the program and each directory above it, now. */
static void exec_ids_read(struct exec_ids *ids, int root_fd, const char *path,
			  const struct stat *st)
{
	char up[PATH_MAX];
	size_t len = strlen(path);

	ids->file = *st;
	ids->n_up = 0;
	if (len >= sizeof(up))
		return;
	memcpy(up, path, len + 1);
	while (ids->n_up < EXEC_MAX_DEPTH &&
	       (len = landlock_parent_len(up, len)) > 0) {
		up[len] = 0;
		if (fstatat(root_fd, len > 1 ? up + 1 : ".",
			    &ids->up[ids->n_up], AT_SYMLINK_NOFOLLOW) == 0)
			ids->n_up++;
	}
}

/* Whether g holds a grant with EXECUTE on the object of st itself. */
static bool named_file(const struct landlock_grants *g, const struct stat *st)
{
	for (size_t i = 0; i < g->n; i++)
		if (!g->v[i].dir && (g->v[i].access & FBAC_LL_FS_EXECUTE) &&
		    same_obj(st, g->v[i].dev, g->v[i].ino))
			return true;
	return false;
}

/*
 * A rule with EXECUTE on the program or a directory above it, in one
 * entry (x its launch record). A rule naming a file counts only when it
 * named this very file at launch (by identity: a program made or
 * replaced since has no rule). Directories: by name first (the plan's
 * paths are the policy's, canonical); then, with ids, by what each names
 * now (a plan rule reached through a symlink) or named at launch (a
 * listed one).
 */
static bool entry_runs(const struct fbac_landlock_plan *p,
		       const struct landlock_extra *x, const char *path,
		       const struct stat *st, const struct exec_ids *ids)
{
	const struct landlock_grants *g = &x->exec;
	size_t len = strlen(path);

	if (named_file(&x->exec_named, st) || named_file(g, st))
		return true;
	for (size_t i = 0; i < p->n_paths; i++) {
		const struct fbac_ll_path *lp = &p->paths[i];
		size_t pl = strlen(lp->path);
		struct stat o;

		if (!(lp->access & FBAC_LL_FS_EXECUTE) ||
		    (lp->literal_only & FBAC_LL_FS_EXECUTE))
			continue;
		if (!ids) {
			if (pl < len && !strncmp(lp->path, path, pl) &&
			    (pl == 1 || path[pl] == '/'))
				return true;
		} else if (stat(lp->path, &o) == 0 && S_ISDIR(o.st_mode) &&
			   ids_cover(ids, o.st_dev, o.st_ino, true) &&
			   !same_obj(&ids->file, o.st_dev, o.st_ino)) {
			return true;
		}
	}
	for (size_t i = 0; i < g->n; i++) {
		const struct landlock_grant *d = &g->v[i];
		size_t pl = strlen(d->path);
		struct stat o;

		if (!(d->access & FBAC_LL_FS_EXECUTE))
			continue;
		if (!ids) {
			if (d->dir && pl < len && !strncmp(d->path, path, pl) &&
			    path[pl] == '/')
				return true;
		} else if (d->dir && ids_cover(ids, d->dev, d->ino, true)) {
			return true;
		} else if (lstat(d->path, &o) == 0 && S_ISLNK(o.st_mode) &&
			   same_obj(&o, d->dev, d->ino) && stat(d->path, &o) == 0 &&
			   ids_cover(ids, o.st_dev, o.st_ino, S_ISDIR(o.st_mode))) {
			/* The symlink listed, granted on what it names. */
			return true;
		}
	}
	return false;
}

size_t landlock_exec_refuser(const struct fbac_stack *stk,
			     const struct landlock_extra *extras, size_t n,
			     int root_fd, const char *path,
			     const struct stat *st, bool *made_since)
{
	struct exec_ids ids;
	bool read = false;

	*made_since = false;
	if (path[0] != '/' || !S_ISREG(st->st_mode))
		return SIZE_MAX;
	for (size_t i = 0; i < n && i < stk->n; i++) {
		const struct fbac_landlock_plan *p = &stk->entries[i].policy->ll;

		if (!(p->handled_fs & FBAC_LL_FS_EXECUTE) ||
		    entry_runs(p, &extras[i], path, st, NULL))
			continue;
		if (!read) {
			exec_ids_read(&ids, root_fd, path, st);
			read = true;
		}
		if (entry_runs(p, &extras[i], path, st, &ids))
			continue;
		/* In a directory listed at launch, or named by a rule of its
		 * own: made (or replaced) since. */
		for (size_t k = 0; k < p->n_expand; k++)
			if ((p->expand[k].access & FBAC_LL_FS_EXECUTE) &&
			    fbac_path_is_under(path, p->expand[k].dir))
				*made_since = true;
		for (size_t k = 0; k < p->n_paths; k++)
			if ((p->paths[k].access & FBAC_LL_FS_EXECUTE) &&
			    streq(p->paths[k].path, path))
				*made_since = true;
		return i;
	}
	return SIZE_MAX;
}
