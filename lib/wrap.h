/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The texts fbac wrap writes and reads back: the wrapper script (with the
 * marker and the record of what it runs) and the copy of a program's
 * .desktop entry whose Exec= runs the wrapper. Pure: no file is touched.
 */
#ifndef FBAC_WRAP_H
#define FBAC_WRAP_H

#include <stdbool.h>
#include <stddef.h>

#include "fbac-limits.h"

/* The second line of every wrapper (the first is "#!/bin/sh"). */
#define FBAC_WRAPPER_MARKER "# fbac-wrapper 1"
/* The key every desktop entry copy has in its [Desktop Entry] group. */
#define FBAC_DESKTOP_MARKER "X-Fbac-Wrapped=true"

/* What a wrapper records (fbac_wrapper_parse). */
struct fbac_wrapper {
	char program[FBAC_MAX_PATH]; /* the real program, absolute */
	char options[FBAC_MAX_PATH]; /* fbac-run's options, shell-quoted */
	char desktop[FBAC_MAX_PATH]; /* the desktop entry copy, or "" */
	char fbac_run[FBAC_MAX_PATH]; /* the fbac-run it execs */
};

/**
 * fbac_wrapper_format() - the text of a wrapper script
 * @fbac_run: absolute path of the fbac-run to exec
 * @program: absolute path of the real program
 * @opts: fbac-run's options, one argument each (--as, X, -D, Y)
 * @n_opts: their number
 * @desktop: absolute path of the desktop entry copy, or NULL
 * @out: the text (malloc'd, NUL-terminated), set on success only
 *
 * Every argument is single-quoted; none may hold a newline.
 * Return: 0, -EINVAL (a newline, a relative path), -E2BIG (longer than
 * FBAC_MAX_WRAPPER_SIZE or a field than FBAC_MAX_PATH), -ENOMEM.
 */
int fbac_wrapper_format(const char *fbac_run, const char *program,
			const char *const *opts, size_t n_opts,
			const char *desktop, char **out);

/**
 * fbac_wrapper_parse() - read back what fbac_wrapper_format wrote
 * @text: the file's bytes (need not be NUL-terminated)
 * @len: their number
 * @w: filled on success
 *
 * Return: 0; -ENOMSG when the text is not a wrapper of fbac's (no
 * marker); -EINVAL when it has the marker but a record line is missing or
 * malformed; -E2BIG above FBAC_MAX_WRAPPER_SIZE.
 */
int fbac_wrapper_parse(const char *text, size_t len, struct fbac_wrapper *w);

/*
 * Whether an Exec= or TryExec= program is the wrapped one: the caller
 * decides (by name, or by following symlinks).
 */
typedef bool (*fbac_desktop_match)(const char *program, void *ctx);

/**
 * fbac_desktop_rewrite() - a desktop entry that runs the wrapper
 * @in: the entry's bytes
 * @len: their number
 * @match: which programs are the wrapped one
 * @ctx: for @match
 * @wrapper: absolute path of the wrapper
 * @out: the new text (malloc'd, NUL-terminated), set on success only
 * @n_rewritten: how many Exec=/TryExec= lines now run the wrapper
 *
 * Every Exec= (its program, after an optional "env VAR=VALUE ...") and
 * TryExec= of every group whose program @match accepts runs @wrapper
 * instead; DBusActivatable=true becomes false (a menu would otherwise
 * start the program over D-Bus, not through Exec=); a comment and
 * FBAC_DESKTOP_MARKER are added, the marker right after the
 * "[Desktop Entry]" line (a marker already there is dropped).
 * Return: 0 (@n_rewritten may be 0), -EINVAL (no [Desktop Entry] group,
 * a NUL byte, a wrapper path a desktop entry cannot quote), -E2BIG
 * (above FBAC_MAX_DESKTOP_SIZE), -ENOMEM.
 */
int fbac_desktop_rewrite(const char *in, size_t len, fbac_desktop_match match,
			 void *ctx, const char *wrapper, char **out,
			 size_t *n_rewritten);

/* Whether a desktop entry has FBAC_DESKTOP_MARKER in its [Desktop Entry]
 * group (as a line of its own). */
bool fbac_desktop_is_wrapped(const char *in, size_t len);

#endif
