/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac wrap, unwrap and aliases: the files they find, read and write. */
#ifndef FBAC_WRAP_CMD_H
#define FBAC_WRAP_CMD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "wrap.h"

/* Where wrappers and desktop entry copies go. */
struct wrap_dirs {
	bool system;		/* /usr/local, for every user (root) */
	char bin[PATH_MAX];	/* ~/.local/bin or /usr/local/bin */
	char apps[PATH_MAX];	/* $XDG_DATA_HOME/applications or /usr/local/share/applications */
};

/* The directories for the caller (system: root's, refused otherwise).
 * Return: 0 or -errno (logged). */
int wrap_dirs_get(bool system, struct wrap_dirs *d);

/* bin shown as people write it in PATH ($HOME/.local/bin). */
const char *wrap_dir_display(const struct wrap_dirs *d, char *buf, size_t size);

/* The fbac-run next to this fbac executable. Return: 0 or -errno (logged). */
int wrap_fbac_run(char *out, size_t size);

/*
 * The real program NAME: an absolute path as given, or the first
 * executable NAME in PATH that is neither in the wrapper directory nor a
 * wrapper of fbac's. *dir_index: its PATH entry (-1 for a path given).
 * Return: 0, -ENOENT (logged by the caller), -ENAMETOOLONG.
 */
int wrap_find_program(const struct wrap_dirs *d, const char *name, char *out,
		      size_t size, int *dir_index);

/* Index of the wrapper directory in PATH, or -1. */
int wrap_dir_in_path(const struct wrap_dirs *d);

/*
 * Read a small file whole (at most max bytes, O_NOFOLLOW: a symlink is
 * refused with ELOOP). *owner: its owner. Return: 0 or -errno (-E2BIG
 * above max), with *out malloc'd and NUL-terminated.
 */
int wrap_read(const char *path, size_t max, char **out, size_t *len,
	      unsigned *owner);

/*
 * What an existing file at path is: 0 absent, 1 a wrapper (w filled) or
 * desktop entry copy of ours owned by the caller, -EEXIST someone
 * else's, other -errno. desktop: which kind to look for.
 */
int wrap_ours(const char *path, bool desktop, struct fbac_wrapper *w);

/* Replace path with text (mode), through a temporary file in the same
 * directory. Return: 0 or -errno (logged). */
int wrap_write(const char *path, const char *text, unsigned mode);

/*
 * The program's .desktop entry in $XDG_DATA_DIRS/applications (not d->apps):
 * named NAME.desktop (or after the real program's name), else the first
 * whose Exec= runs it. *text: it, rewritten to run wrapper; src: where it
 * was. Return: 1 found, 0 none, -errno (logged).
 */
int wrap_find_desktop(const struct wrap_dirs *d, const char *name,
		      const char *program, const char *wrapper, char *src,
		      size_t size, char **text);

#endif
