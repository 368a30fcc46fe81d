/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Landlock: probe the ABI and turn each layer's plan into one domain, so
 * that layers intersect in the kernel.
 */
#ifndef FBAC_RUN_LANDLOCK_H
#define FBAC_RUN_LANDLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "stack.h"

#define FBAC_LANDLOCK_ABI_WANTED 6

/* The ABI version, 0 when Landlock is unavailable or disabled. */
int landlock_abi(void);

/*
 * What the policy needs that this ABI cannot enforce, as a human list in
 * buf (empty when nothing is missing).
 */
void landlock_missing(const struct fbac_stack *st, int abi, char *buf,
		      size_t size);

/* One kernel rule made at launch, with the object its path named then. */
struct landlock_grant {
	char *path;
	uint64_t access; /* FBAC_LL_FS_* */
	bool dir;
	dev_t dev;
	ino_t ino;
	mode_t mode; /* 0: not known (no object) */
	/* The object as an O_PATH descriptor until its rule is made (-1:
	 * opened again then, and compared): a second open of every path
	 * cost ~4 us each at start-up. */
	int fd;
	/* A narrow rule's path found to name the object, and watched since
	 * (landlock-watch.c): it still does. */
	bool named;
	/* A narrow rule made already, in the plan rule on the same path
	 * and object (landlock_prepare). */
	bool made;
};

struct landlock_grants {
	struct landlock_grant *v;
	size_t n, cap;
};

/* What the launcher lists for one stack entry. */
struct landlock_extra {
	/* EXECUTE entry by entry (struct fbac_ll_expand). */
	struct landlock_grants exec;
	/* The program's read rights (plan->narrow), sorted by path. */
	struct landlock_grants narrow;
	/* The regular files the plan's rules with EXECUTE named at launch
	 * (symlinks followed), by identity: landlock_note_exec(). */
	struct landlock_grants exec_named;
	/* Narrow rule paths found missing (ENOENT, no symlink on the way),
	 * sorted: landlock_prepare does not look for them again. */
	struct landlock_grants absent;
	/* Whether the program's domain reads through narrow alone (set by
	 * the launcher when its domain is enforced). */
	bool narrowed;
	/* Rules not made as a rule on a directory above gives all they
	 * would (narrow rules, and each ruleset's plan rules): for -v. */
	size_t implied;
	/* Plan paths missing at launch whose rights the supervisor's domain
	 * holds on the nearest directory above (add_missing_sup): for -v. */
	size_t missing;
	/* Directories with more than FBAC_MAX_NARROW_LISTED entries to list
	 * for narrow rules, left to the supervisor (narrow_expand): for -v. */
	size_t unlisted;
};

/*
 * List the directories the plans expand and record the narrow read
 * rules, before any domain restricts us. extras has one element per
 * stack entry. Return: 0 or -ENOMEM.
 */
int landlock_expand(const struct fbac_stack *st, struct landlock_extra *extras);
/* An O_PATH descriptor on path itself, reached through no symlink (not
 * even a last one), or -errno: the object a launch-time rule names. */
int landlock_open_canonical(const char *path);

/* The length of path[0..len)'s parent ("/" for a top directory), 0 for
 * "/" itself: walks a path's ancestors in place. */
size_t landlock_parent_len(const char *path, size_t len);
/* The index of the path equal to path[0..len) in v (n, sorted by strcmp),
 * or SIZE_MAX. */
size_t landlock_ll_find(const struct fbac_ll_path *v, size_t n,
			const char *path, size_t len);

/* The grant on exactly path in g (sorted: narrow), or NULL. */
const struct landlock_grant *landlock_grant_at(const struct landlock_grants *g,
					      const char *path);

/* The object a plan path's rule was made on, as fstat(2) saw it then. */
struct landlock_seen {
	bool ok; /* false: none opened (implied, missing): stat(2) it */
	mode_t mode;
	dev_t dev;
	ino_t ino;
};

/* Record in x->exec_named the regular file each rule of p with EXECUTE
 * names, once its rules are made: seen[i] (NULL: none) for paths[i]
 * where it was opened for its rule. Return: 0 or -ENOMEM. */
int landlock_note_exec(struct landlock_extra *x,
		       const struct fbac_landlock_plan *p,
		       const struct landlock_seen *seen);
/* Close the rule objects landlock_expand held open for landlock_prepare. */
void landlock_extra_release(struct landlock_extra *extras, size_t n);
void landlock_extra_free(struct landlock_extra *extras, size_t n);

/*
 * Whether the program's own domains let it open path (canonical) for
 * reading: right is FBAC_LL_FS_READ_FILE or FBAC_LL_FS_READ_DIR. Each
 * layer's deciding rule is checked to still name the object it named at
 * launch (landlock_still_names()), so a true answer is the kernel's.
 */
bool landlock_narrow_allows(const struct landlock_extra *extras, size_t n,
			    int root_fd, uint64_t right, const char *path);

/*
 * Whether hit, a narrow rule of one of extras (n of them), still names the
 * object it named at launch, walked from root_fd: its path walked once,
 * then the directories above it watched until they change, and the mount
 * table (landlock-watch.c); the walk each time where they cannot be.
 */
bool landlock_still_names(const struct landlock_extra *extras, size_t n,
			  int root_fd, const struct landlock_grant *hit);

/* Whether landlock_watch_stat() may answer at all: false, at the cost of
 * an atomic count, while the watch has not begun (and never will, or not
 * yet), before the checks and the lock that asking it costs. */
bool landlock_watch_may_know(void);

/*
 * The stat of leaf (one component, not followed) in the directory
 * dir[0..len) (canonical), looked up in that directory without walking to
 * it, when it is known to still be there: opened by a walk without a
 * symlink (the second time it is asked about), every directory above it
 * watched since, as for landlock_still_names(), and no change seen.
 * With hold, a true answer keeps the watch locked, as it was then, for
 * the rest of the call: landlock_still_names() asks nothing new (the call
 * took the news before its lookup) until landlock_watch_release().
 * Return: true with *st; false when it does not apply or fails (walk).
 */
struct stat;
bool landlock_watch_stat(const struct landlock_extra *extras, size_t n,
			 int root_fd, const char *dir, size_t len,
			 const char *leaf, bool hold, struct stat *st);
/* The end of a hold of landlock_watch_stat() (nothing when none). */
void landlock_watch_release(void);

/*
 * Whether the kernel's rules of the program's domains let it run the
 * regular file at path (canonical; st its stat): in each entry that
 * handles EXECUTE, a plan rule or a rule listed at launch must name it or
 * a directory above it (by name, else by what each names now, and a
 * listed program must be the very file listed). Return: SIZE_MAX when
 * they do; else the index of the first entry that does not, with
 * *made_since set when the file is in a directory listed at launch or a
 * rule names it (what was made or replaced since has no rule). Cost:
 * identity and string compares unless the answer is no.
 */
struct stat;
size_t landlock_exec_refuser(const struct fbac_stack *stk,
			     const struct landlock_extra *extras, size_t n,
			     int root_fd, const char *path,
			     const struct stat *st, bool *made_since);
/*
 * Build the Landlock rulesets of every stack entry, opening each rule's
 * path once for both: sup_fds[i], the supervisor's own layer (which also
 * lets it read /proc: the target's status, cwd, fds), and, when prog_fds
 * is not NULL, prog_fds[i], the program's exact layer (narrowed per
 * extras, whose held objects it takes and closes). Paths of rules that do
 * not exist are skipped (they grant nothing). sup_reads (n_sup_reads) are
 * paths the supervisor's layers alone may read too: the policy layers,
 * read late for suggestions. The supervisor restricts itself with its
 * layers, then the child adds the program's beneath them, so the supervisor's domain is an
 * ancestor of the program's and it may read the program's memory and take
 * its descriptors. Return: 0 (every fd -1 when abi < 1) or -errno (logged;
 * nothing left open).
 */
int landlock_prepare(const struct fbac_stack *st, int abi,
		     struct landlock_extra *extras,
		     const char *const *sup_reads, size_t n_sup_reads,
		     int *sup_fds, int *prog_fds);

/* Close the rulesets that are open (set to -1). */
void landlock_close(int *fds, size_t n);

/*
 * Restrict the calling thread with one domain per ruleset (-1: none), after
 * setting no_new_privs: the supervisor's layers. (The child restricts itself
 * with raw system calls of its own: it shares our memory and errno until
 * its exec, see launch.c.) Return: 0 or -errno (not logged).
 */
int landlock_restrict(const int *fds, size_t n);

#endif
