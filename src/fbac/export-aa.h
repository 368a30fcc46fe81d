/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac export --apparmor: the pieces of a profile's text shared by
 * export-apparmor.c (the rules) and export-aa-text.c (globs, modes, the
 * comments and the list of what AppArmor cannot say).
 */
#ifndef FBAC_EXPORT_AA_H
#define FBAC_EXPORT_AA_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "fbac-limits.h"
#include "macro.h"
#include "ops.h"
#include "resolve.h"

#define OPB(x) FBAC_OP_BIT(FBAC_OP_##x)
/* Operations AppArmor grants only with w. */
#define W_OPS                                                                  \
	(OPB(FILE_WRITE) | OPB(FILE_CREATE) | OPB(FILE_DELETE) |               \
	 OPB(FILE_RENAME) | OPB(FILE_TRUNCATE) | OPB(FILE_SETATTR) |           \
	 OPB(DIR_MKDIR) | OPB(DIR_RMDIR) | OPB(SPECIAL_CREATE) |               \
	 OPB(UNIX_CONNECT) | OPB(UNIX_BIND))
#define DIR_OPS (OPB(DIR_READ) | OPB(DIR_MKDIR) | OPB(DIR_RMDIR))
/* What AppArmor 3 has no path rule for. */
#define NO_AA_OPS (OPB(FILE_GETATTR) | OPB(FILE_IOCTL))

/* Operations AppArmor grants with w on a file, and on a directory. */
#define W_FILE_OPS (W_OPS & ~(OPB(DIR_MKDIR) | OPB(DIR_RMDIR)))
#define W_DIR_OPS                                                              \
	(OPB(DIR_MKDIR) | OPB(DIR_RMDIR) | OPB(FILE_CREATE) | OPB(FILE_DELETE) | \
	 OPB(FILE_RENAME) | OPB(SPECIAL_CREATE))

enum form { FILES, DIRS, BOTH };

struct out {
	FILE *f;
	const struct fbac_origin *last; /* of the last rule written */
	/* What AppArmor cannot say, listed at the end. */
	char **notes;
	size_t n_notes, cap;
	/* The patterns of file_getattr and file_ioctl rules. */
	struct list {
		const char **v;
		size_t n, cap;
	} getattr, ioctl, unstacked;
	/* Other application policies' executables: running one stacks its
	 * profile (fbac-run intersects both policies). */
	const struct fbac_library *lib;
	const struct fbac_application *self;
	const char *targets[FBAC_MAX_AA_TARGETS];
	size_t n_targets;
	int err;
};

/* Add a pattern to a list once. */
void add_to(struct out *o, struct list *l, const char *pattern);
/* A list of patterns as comment lines of at most about 78 columns. */
void print_list(FILE *f, const char *head, const struct list *l);
/* Something AppArmor cannot say, for the list after the profile. */
void note(struct out *o, const char *fmt, ...) _printf_(2, 3);
/* "chain (file:line)", in a static buffer. */
const char *origin_text(const struct fbac_origin *or);
/* The comment naming where the next rules come from, when it changed. */
void from(struct out *o, const struct fbac_origin *or);
/*
 * An fbac pattern as an AppArmor glob, quoted when it must be; with tree,
 * the subtree below it as well; with dir, the directory form (a trailing
 * '/'). Return: 0, -EINVAL for a character AppArmor paths cannot hold, or
 * -ENAMETOOLONG.
 */
int aa_glob(const char *pat, bool tree, bool dir, char *buf, size_t size);
/* The AppArmor modes of ops (at most 15 characters) into m. */
void modes(uint32_t ops, enum form fm, bool deny, char *m);
/* "file_read,dir_read", in a static buffer. */
const char *op_names(uint32_t ops);

#endif
