/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac-run's cache files in $XDG_CACHE_HOME/fbac: what it would otherwise
 * compute at every start (the parsed library, the seccomp filter). A cache
 * file is only an accelerator: missing, stale, foreign or damaged, it is
 * ignored and written anew. It still decides the policy, so it lives where
 * protected.yaml keeps every confined program from writing, is read only
 * when it is ours and writable by no one else, and belongs to the fbac-run
 * executable that wrote it.
 */
#ifndef FBAC_CACHE_H
#define FBAC_CACHE_H

#include <stddef.h>
#include <stdint.h>

#include "env.h"

#define CACHE_KEY_WORDS 4

/* The identity of the running executable (device, inode, size, mtime):
 * a rebuilt or upgraded fbac-run may compute differently. */
int cache_key(uint64_t key[CACHE_KEY_WORDS]);

/* $XDG_CACHE_HOME/fbac/NAME as env has it, into out; -ENAMETOOLONG or
 * -ENOENT (no cache directory) otherwise. */
int cache_path(const struct fbac_env *env, const char *name, char *out,
	       size_t size);

/*
 * Read the whole file at path into memory from alloc(ctx, size) (at most
 * max bytes): a regular file of ours, written by no one else.
 * Return: 0, -EPERM for someone else's or a shared file, -E2BIG, -errno.
 */
int cache_read(const char *path, size_t max,
	       void *(*alloc)(void *ctx, size_t size), void *ctx, void **ret,
	       size_t *len);

/* Replace path with buf (mode 0600) by renaming a new file over it, making
 * the cache directory (0700) if needed: a reader sees the old file or the
 * new one. Return: 0 or -errno. */
int cache_write(const char *path, const void *buf, size_t len);

#endif
