/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macro.h"

/*
 * Each cache of a start asks (the filter's, the stack's, the library's),
 * some from another thread: one stat(2) of /proc/self/exe serves them
 * all. The executable a process runs stays the same object; its size
 * cannot change while it runs (ETXTBSY), its mtime only by a touch,
 * which a later start sees.
 */
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static uint64_t key_words[CACHE_KEY_WORDS];
static int key_err;

static void key_read(void)
{
	struct stat st;

	if (stat("/proc/self/exe", &st) < 0) {
		key_err = -errno;
		return;
	}
	key_words[0] = st.st_dev;
	key_words[1] = st.st_ino;
	key_words[2] = (uint64_t)st.st_size;
	key_words[3] = cache_ns(&st.st_mtim);
}

int cache_key(uint64_t key[CACHE_KEY_WORDS])
{
	pthread_once(&key_once, key_read);
	if (key_err)
		return key_err;
	memcpy(key, key_words, sizeof(key_words));
	return 0;
}

int cache_path(const struct fbac_env *env, const char *name, char *out,
	       size_t size)
{
	/* The variable as the policies see it: protected.yaml names it. */
	const char *home = fbac_env_get(env, "XDG_CACHE_HOME", 14);

	if (!home || home[0] != '/')
		return -ENOENT;
	if (snprintf(out, size, "%s/fbac/%s", home, name) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

int cache_read(const char *path, size_t max,
	       void *(*alloc)(void *ctx, size_t size), void *ctx, void **ret,
	       size_t *len)
{
	_cleanup_close_ int fd = -1;
	struct stat st;
	size_t got = 0;
	char *buf;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022))
		return -EPERM;
	if ((uint64_t)st.st_size > max)
		return -E2BIG;
	buf = alloc(ctx, (size_t)st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	/* Read one byte more than its size to notice a file that grew. */
	while (got <= (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size + 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got != (size_t)st.st_size)
		return -EAGAIN;
	*ret = buf;
	*len = got;
	return 0;
}

/* The directory part of path, into out ("/" for a top-level name). */
static void parent_of(const char *path, char *out, size_t size)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash && slash != path ? (size_t)(slash - path) : 1;

	snprintf(out, size, "%.*s", (int)n, slash ? path : "/");
}

/*
 * The cache directory, made (0700) with the missing one above it; only
 * below a directory of ours: root running with another user's HOME (sudo
 * without -H) must not leave there files the user cannot replace.
 */
static int make_dirs(const char *path)
{
	char dirs[3][PATH_MAX]; /* the cache directory, its parent, theirs */
	struct stat st;
	int top;

	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	parent_of(path, dirs[0], sizeof(dirs[0]));
	parent_of(dirs[0], dirs[1], sizeof(dirs[1]));
	parent_of(dirs[1], dirs[2], sizeof(dirs[2]));
	for (top = 0; top < 3; top++) {
		if (lstat(dirs[top], &st) == 0)
			break;
		if (errno != ENOENT)
			return -errno;
	}
	if (top == 3)
		return -ENOENT;
	if (!S_ISDIR(st.st_mode) || st.st_uid != geteuid())
		return -EPERM;
	for (int i = top - 1; i >= 0; i--)
		if (mkdir(dirs[i], 0700) < 0 && errno != EEXIST)
			return -errno;
	return 0;
}

int cache_begin(const char *path, struct cache_tmp *t)
{
	int r;

	*t = (struct cache_tmp){ .fd = -1, .path = path };
	if ((r = make_dirs(path)) < 0)
		return r;
	if (snprintf(t->tmp, sizeof(t->tmp), "%s.%d.tmp", path,
		     (int)getpid()) >= (int)sizeof(t->tmp))
		return -ENAMETOOLONG;
	t->fd = open(t->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
		     0600);
	return t->fd < 0 ? -errno : 0;
}

int cache_commit(struct cache_tmp *t, const void *buf, size_t len)
{
	size_t off = 0;
	int r = 0;

	if (t->fd < 0)
		return -EBADF;
	while (off < len && r == 0) {
		ssize_t w = write(t->fd, (const char *)buf + off, len - off);

		if (w < 0 && errno != EINTR)
			r = -errno;
		else if (w > 0)
			off += (size_t)w;
	}
	if (close(t->fd) < 0 && r == 0)
		r = -errno;
	t->fd = -1;
	if (r == 0 && rename(t->tmp, t->path) < 0)
		r = -errno;
	if (r < 0)
		unlink(t->tmp);
	return r;
}

void cache_abort(struct cache_tmp *t)
{
	if (t->fd >= 0) {
		close(t->fd);
		t->fd = -1;
		unlink(t->tmp);
	}
}

int cache_write(const char *path,
		int (*encode)(void *ctx, void **buf, size_t *len), void *ctx)
{
	_cleanup_free_ void *buf = NULL;
	struct cache_tmp t;
	size_t len = 0;
	int r;

	/* No encoding for a cache that cannot be written (a read-only home). */
	if ((r = cache_begin(path, &t)) < 0)
		return r;
	if ((r = encode(ctx, &buf, &len)) < 0) {
		cache_abort(&t);
		return r;
	}
	return cache_commit(&t, buf, len);
}
