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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "env.h"

#define CACHE_KEY_WORDS 4

/* A time as nanoseconds: how the cache files store and compare times. */
static inline uint64_t cache_ns(const struct timespec *t)
{
	return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

/*
 * A file changed within the last CACHE_RACY_NS may change again within
 * the same tick of the clock that stamps it, keeping its size: its
 * identity would not tell the two versions apart, so nothing derived
 * from it is cached until it is older (git's "racily clean" entries).
 */
#define CACHE_RACY_NS 1000000000ull

static inline bool cache_racy(const struct timespec *mtime,
			      const struct timespec *ctime, uint64_t now_ns)
{
	return cache_ns(mtime) + CACHE_RACY_NS > now_ns ||
	       cache_ns(ctime) + CACHE_RACY_NS > now_ns;
}

/* The identity of the running executable (device, inode, size, mtime):
 * a rebuilt or upgraded fbac-run may compute differently. Read once per
 * process. */
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

/*
 * Replacing a cache file in two steps: cache_begin makes the cache
 * directory (0700) if needed and a new file (0600) beside path;
 * cache_commit writes it and renames it over path, so that a reader sees
 * the old file or the new one (cache_abort removes it instead). Both
 * steps must come before the caller confines itself with Landlock.
 * Return: 0 or -errno.
 */
struct cache_tmp {
	int fd;
	const char *path;
	char tmp[4096];
};

int cache_begin(const char *path, struct cache_tmp *t);
int cache_commit(struct cache_tmp *t, const void *buf, size_t len);
void cache_abort(struct cache_tmp *t);

/* Both steps at once, the content from encode(ctx, &buf, &len) (buf
 * malloc'd), called only once the new file could be made. */
int cache_write(const char *path,
		int (*encode)(void *ctx, void **buf, size_t *len), void *ctx);

#endif
