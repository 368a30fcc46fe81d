/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Lexical path handling: normalisation of absolute paths and the glob
 * patterns of the profile language ('*', '?' within a component, '**' as
 * a whole component for zero or more components). Nothing here touches
 * the file system.
 */
#ifndef FBAC_PATH_H
#define FBAC_PATH_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Normalise an absolute path into out: collapse "//", drop "." and a
 * trailing "/". Return 0, or -EINVAL with *why set when the path is
 * relative, empty, contains "..", or is too long/deep (-ENAMETOOLONG).
 */
int fbac_path_normalize(const char *in, char *out, size_t size,
			const char **why);

/* Whether path is already in normal form (as fbac_path_normalize makes). */
bool fbac_path_is_normal(const char *path);

/* Whether s contains a wildcard character ('*' or '?'). */
bool fbac_has_wildcard(const char *s);

/*
 * Validate a normalised pattern: '**' only as a whole component.
 * Return: 0 or -EINVAL with *why set.
 */
int fbac_pattern_check(const char *pattern, const char **why);

/*
 * Length of the literal prefix of a normalised pattern: the leading
 * components without wildcards ("/a/b" for "/a/b/x*"; 1 for "/" alone).
 * For a pattern without wildcards, its whole length.
 */
size_t fbac_pattern_prefix_len(const char *pattern);

/* Whether a normalised pattern matches a normalised path. */
bool fbac_pattern_match(const char *pattern, const char *path);

/* Whether path equals dir or lies below it (both normalised). */
bool fbac_path_is_under(const char *path, const char *dir);

/* Number of components ("/" has 0, "/a/b" has 2). */
unsigned fbac_path_depth(const char *path, size_t len);

#endif
