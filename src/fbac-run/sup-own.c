/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The caller's own entries under /proc, for call_resolve_path (sup-path.c):
 * its magic links (exe, cwd, root, namespace files) and its descriptors
 * by number, decided as what they are, also when named relative to a
 * descriptor of /proc.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sup-own.h"
#include "target.h"

/* The canonical path of one of our descriptors, as the kernel sees it. */
int fd_path(int fd, char *out, size_t size)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, out, size - 1);
	if (n < 0)
		return -errno;
	if ((size_t)n >= size - 1)
		return -ENAMETOOLONG;
	out[n] = 0;
	/* Anonymous files (memfd, pipes, sockets) have no path to decide on. */
	if (out[0] != '/')
		return -EACCES;
	if (deleted_name(out, (size_t)n))
		return -ENOENT;
	return 0;
}

/* "/proc/<n>/fd/<m>" naming a descriptor of the target itself. */
static int target_fd_ref(struct call *c, const char *path)
{
	char pre[32];
	size_t l;
	char *end;
	long fd;

	/* Cheap test first: finding the tgid reads /proc. */
	if (strncmp(path, "/proc/", 6))
		return -1;
	l = (size_t)snprintf(pre, sizeof(pre), "/proc/%d/fd/", (int)call_tgid(c));
	if (strncmp(path, pre, l))
		return -1;
	fd = strtol(path + l, &end, 10);
	if (end == path + l || *end || fd < 0 || fd > 1 << 20)
		return -1;
	return (int)fd;
}

/*
 * The caller's own magic links under /proc/<tgid> (or a thread's):
 * exe, cwd, root and the namespace files. Followed, they reach what the
 * program already holds, like one of its descriptors.
 */
static bool own_magic_link(struct call *c, const char *path)
{
	static const char *const names[] = { "exe", "cwd", "root" };
	char pre[64];
	const char *rest;
	size_t l;

	if (strncmp(path, "/proc/", 6))
		return false;
	l = (size_t)snprintf(pre, sizeof(pre), "/proc/%d/", (int)call_tgid(c));
	if (strncmp(path, pre, l))
		return false;
	rest = path + l;
	if (!strncmp(rest, "task/", 5)) {
		char *end;
		long tid = strtol(rest + 5, &end, 10);

		if (end == rest + 5 || *end != '/' || tid <= 0)
			return false;
		rest = end + 1;
	}
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(rest, names[i]))
			return true;
	return !strncmp(rest, "ns/", 3) && rest[3] && !strchr(rest + 3, '/');
}

static void set_link(struct resolved *out, const char *path)
{
	size_t n = strlen(path);

	if (n < sizeof(out->link))
		memcpy(out->link, path, n + 1);
}

/* The caller's own exe, cwd, root or namespace file (own_magic_link). */
static int resolve_magic_link(const char *path, struct resolved *out)
{
	int r;

	set_link(out, path);
	out->fd = open(path, O_PATH | O_CLOEXEC);
	if (out->fd < 0)
		return -errno;
	out->held = true;
	if (fstat(out->fd, &out->st) == 0)
		out->is_dir = S_ISDIR(out->st.st_mode);
	else
		out->st.st_mode = 0;
	/* A namespace file has no path: held, like a pipe. */
	r = fd_path(out->fd, out->path, sizeof(out->path));
	if (r == -EACCES)
		out->path[0] = 0;
	else if (r < 0)
		return r;
	return 0;
}

/* The target's own descriptor by number: decide on what it is. */
static int resolve_target_fd(struct call *c, int tfd, const char *path,
			     struct resolved *out)
{
	int r;

	set_link(out, path);
	out->fd = target_getfd(c->tid, tfd);
	if (out->fd < 0)
		return out->fd == -EBADF ? -ENOENT : out->fd;
	/* A pipe or socket it holds has no path: reopening it is the
	 * program's own business (Linux allows it), so it is held. */
	r = fd_path(out->fd, out->path, sizeof(out->path));
	if (r == -EACCES) {
		out->path[0] = 0;
		out->held = true;
	} else if (r < 0) {
		return r;
	}
	if (fstat(out->fd, &out->st) == 0)
		out->is_dir = S_ISDIR(out->st.st_mode);
	else
		out->st.st_mode = 0;
	return 0;
}

/* Whether path, relative to a /proc directory, may name one of the
 * caller's descriptors or magic links: read the directory's name only
 * then. */
bool maybe_proc_entry(const char *path)
{
	static const char *const pre[] = { "fd", "task", "ns", "exe", "cwd",
					   "root" };

	if (path[0] >= '0' && path[0] <= '9')
		return true;
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++) {
		size_t l = strlen(pre[i]);

		if (!strncmp(path, pre[i], l) && (!path[l] || path[l] == '/'))
			return true;
	}
	return false;
}

/* path, absolute, names one of the caller's own magic links (exe, cwd,
 * root, a namespace) or descriptors: resolved as that (0 or -errno);
 * else 1, nothing done. */
int own_entry(struct call *c, unsigned flags, const char *path,
	      struct resolved *out)
{
	int tfd;

	if ((flags & RES_FOLLOW) && own_magic_link(c, path))
		return resolve_magic_link(path, out);
	if ((tfd = target_fd_ref(c, path)) >= 0)
		return resolve_target_fd(c, tfd, path, out);
	return 1;
}

bool own_name(struct call *c, unsigned flags, const char *path)
{
	return ((flags & RES_FOLLOW) && own_magic_link(c, path)) ||
	       target_fd_ref(c, path) >= 0;
}

/*
 * Is the resolved object one of the supervisor's own /proc entries (of
 * the process or of any of its threads)? Those are never the program's.
 * Return: the supervisor's process or thread id it names, else 0.
 */
long own_is_supervisors(struct call *c, const char *path)
{
	char task[64];
	const char *p;
	char *end;
	long n;

	if (strncmp(path, "/proc/", 6))
		return 0;
	p = path + 6;
	n = strtol(p, &end, 10);
	if (end == p || (*end && *end != '/') || n <= 0)
		return 0;
	if (n == c->s->self)
		return n;
	snprintf(task, sizeof(task), "/proc/self/task/%ld", n);
	return access(task, F_OK) == 0 ? n : 0;
}

/* Whether name has the component comp. */
static bool has_component(const char *name, const char *comp)
{
	size_t l = strlen(comp);

	for (const char *p = name; (p = strstr(p, comp)); p += l)
		if ((p == name || p[-1] == '/') && (!p[l] || p[l] == '/'))
			return true;
	return false;
}

/*
 * Whether the name as typed means the caller's own /proc entry: it says
 * "self" or "thread-self" and not the number n. A symbolic link into
 * /proc met on the way cannot be told from one to /proc/N by its name
 * alone, so it is refused (with a line) rather than guessed.
 */
bool own_names_self(const char *name, long n)
{
	char num[24];

	snprintf(num, sizeof(num), "%ld", n);
	return (has_component(name, "self") ||
		has_component(name, "thread-self")) &&
	       !has_component(name, num);
}

/*
 * A walk that met /proc's "self" or "thread-self" other than as the
 * leading name rewrite_self knows (/proc/./self, /proc/self/../self, a
 * symlink to /proc/self/status) found the supervisor's entry, as the
 * kernel answers "self" for whoever walks: the program meant its own.
 * Its own name for path into out ("/proc/TGID/..." or, for a thread's
 * directory, "/proc/TGID/task/TID/...").
 */
int own_for_supervisors(struct call *c, const char *path, long n, char *out,
			size_t size)
{
	char pre[64];
	const char *rest;
	int l;

	snprintf(pre, sizeof(pre), "/proc/%ld", n);
	rest = path + strlen(pre);
	if (n == c->s->self && !strncmp(rest, "/task/", 6)) {
		char *end;
		long t = strtol(rest + 6, &end, 10);

		if (t > 0 && (!*end || *end == '/')) {
			l = snprintf(out, size, "/proc/%d/task/%d%s",
				     (int)call_tgid(c), (int)c->tid, end);
			return l < 0 || (size_t)l >= size ? -ENAMETOOLONG : 0;
		}
	}
	l = snprintf(out, size, "/proc/%d%s", (int)call_tgid(c), rest);
	return l < 0 || (size_t)l >= size ? -ENAMETOOLONG : 0;
}
