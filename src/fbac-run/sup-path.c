/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Resolving a path argument the way the kernel would for the target, but
 * in the supervisor, from one private copy: relative to the target's
 * root, cwd or descriptor, with the target's /proc/self, refusing magic
 * links, and reporting the kernel-resolved canonical path.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "call-parts.h"
#include "landlock.h"
#include "path.h"
#include "sup-own.h"
#include "sup-path.h"
#include "target.h"

void resolved_close(struct resolved *r)
{
	if (r->fd >= 0)
		close(r->fd);
	if (r->parent_fd >= 0)
		close(r->parent_fd);
	r->fd = r->parent_fd = -1;
}

/* Copy a string that must fit: no formatting on the path of every call. */
static int copy_path(char *out, size_t size, const char *in)
{
	size_t n = strlen(in);

	if (n >= size)
		return -ENAMETOOLONG;
	memcpy(out, in, n + 1);
	return 0;
}

/*
 * Rewrite the names that mean "the calling process" so that they name
 * the target and not the supervisor: /proc/self, /proc/thread-self,
 * /dev/fd, /dev/std{in,out,err}.
 */
static int rewrite_self(struct call *c, const char *in, char *out, size_t size)
{
	static const char *const names[] = {
		"/proc/self",  "/proc/thread-self", "/dev/fd",
		"/dev/stdin",  "/dev/stdout",	    "/dev/stderr",
		"/proc/mounts", "/proc/net",
	};
	int n = -1;

	/* Every name above begins "/p" or "/d": most paths go at once. */
	if (in[0] != '/' || (in[1] != 'p' && in[1] != 'd'))
		return copy_path(out, size, in);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t l = strlen(names[i]);
		const char *rest = in + l;
		int pid;

		if (strncmp(in, names[i], l) || (*rest && *rest != '/'))
			continue;
		pid = (int)call_tgid(c);
		switch (i) {
		case 0:
			n = snprintf(out, size, "/proc/%d%s", pid, rest);
			break;
		case 1:
			n = snprintf(out, size, "/proc/%d/task/%d%s", pid,
				     (int)c->tid, rest);
			break;
		case 2:
			n = snprintf(out, size, "/proc/%d/fd%s", pid, rest);
			break;
		case 6:
		case 7:
			/* Symlinks to self/...: they would name the supervisor. */
			n = snprintf(out, size, "/proc/%d/%s%s", pid,
				     names[i] + 6, rest);
			break;
		default:
			n = snprintf(out, size, "/proc/%d/fd/%zu%s", pid, i - 3,
				     rest);
			break;
		}
		return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
	}
	return copy_path(out, size, in);
}

static int openat2_how(int base, const char *path, bool follow,
		       uint64_t resolve)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW),
		.resolve = resolve,
	};
	int fd;

	do
		fd = (int)syscall(SYS_openat2, base, path, &how, sizeof(how));
	while (fd < 0 && errno == EAGAIN);
	return fd < 0 ? -errno : fd;
}

static int openat2_path(int base, const char *path, bool follow,
			bool in_root)
{
	return openat2_how(base, path, follow,
			   RESOLVE_NO_MAGICLINKS |
				   (in_root ? RESOLVE_IN_ROOT : 0));
}

/*
 * A normal absolute path walked without meeting a symlink is its own
 * canonical name: no need to ask the kernel for it (a readlink of
 * /proc/self/fd/N per call). -ELOOP: a symlink on the way, walk again
 * the general way; other errors are the walk's own.
 */
static int open_canonical(int root, const char *path, bool follow)
{
	if (path[0] != '/' || !fbac_path_is_normal(path))
		return -ELOOP;
	return openat2_how(root, path, follow,
			   RESOLVE_NO_SYMLINKS | RESOLVE_IN_ROOT);
}

/* Whether the caller is the child before its exec (struct sup). */
static bool is_launch(struct call *c)
{
	return c->tid == __atomic_load_n(&c->s->launch_pid, __ATOMIC_ACQUIRE);
}

/* The directory path is relative to; ours to close unless it is root_fd. */
static int base_fd(struct call *c, int dirfd, const char *path)
{
	/* Once a process has changed its root, ask each caller for its own. */
	if (path[0] == '/')
		return __atomic_load_n(&c->s->roots_vary, __ATOMIC_ACQUIRE) ?
			       target_root(c->tid) :
			       c->s->root_fd;
	if (dirfd == AT_FDCWD && is_launch(c)) {
		int fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);

		return fd < 0 ? -errno : fd;
	}
	if (dirfd == AT_FDCWD)
		return target_cwd(c->tid);
	return target_getfd(c->tid, dirfd);
}

/*
 * "/./" and "//" inside a name mean nothing to the walk (the directory
 * before them must exist as one either way), so "/proc/./self" is the
 * "/proc/self" that rewrite_self knows. A trailing "/." or "/" is kept:
 * it asks for a directory.
 */
static void collapse_dots(char *path)
{
	char *r = path, *w = path;

	while (*r) {
		if (r[0] == '/' && r[1] == '/') {
			r++;
			continue;
		}
		if (r[0] == '/' && r[1] == '.' && r[2] == '/') {
			r += 2;
			continue;
		}
		*w++ = *r++;
	}
	*w = 0;
}

/*
 * path (relative) made absolute from the caller's working directory, in
 * place: unless a process changed its root (names then differ from
 * ours), the directory is gone, or the result lies in /proc or /dev,
 * whose names depend on who asks (rewrite_self). Return: 0 when path
 * is absolute now, -1 when it is left as it was.
 */
static int cwd_absolute(struct call *c, char *path, size_t size)
{
	char abs[FBAC_MAX_PATH];
	int n;

	if (__atomic_load_n(&c->s->roots_vary, __ATOMIC_ACQUIRE))
		return -1;
	if (!is_launch(c))
		n = target_cwd_path(c->tid, abs, sizeof(abs));
	else
		n = getcwd(abs, sizeof(abs)) ? (int)strlen(abs) : -errno;
	if (n <= 0 || abs[0] != '/' || deleted_name(abs, (size_t)n))
		return -1;
	if (snprintf(abs + n, sizeof(abs) - (size_t)n, "%s%s",
		     n > 1 ? "/" : "", path) >= (int)(sizeof(abs) - (size_t)n))
		return -1;
	if (fbac_path_is_under(abs, "/proc") || fbac_path_is_under(abs, "/dev"))
		return -1;
	return copy_path(path, size, abs) == 0 ? 0 : -1;
}

/* "self" or "thread-self" first: relative to /proc, it means the caller. */
static bool starts_with_self(const char *path)
{
	size_t l = !strncmp(path, "self", 4)	    ? 4 :
		   !strncmp(path, "thread-self", 11) ? 11 :
						      0;

	return l && (path[l] == 0 || path[l] == '/');
}

/* A descriptor the program holds, or the descriptor's own directory
 * (AT_EMPTY_PATH: "" names dirfd itself). */
static int resolve_held(struct call *c, int dirfd, unsigned flags,
			struct resolved *out)
{
	int r;

	if (!(flags & RES_EMPTY_OK))
		return -ENOENT;
	out->fd = dirfd == AT_FDCWD ? target_cwd(c->tid) :
				      target_getfd(c->tid, dirfd);
	if (out->fd < 0)
		return out->fd;
	out->held = true;
	if (fstat(out->fd, &out->st) == 0)
		out->is_dir = S_ISDIR(out->st.st_mode);
	else
		out->st.st_mode = 0;
	if (flags & RES_HELD_NO_PATH)
		return 0;
	/* Pipes and sockets have no path; the program holds them. */
	r = fd_path(out->fd, out->path, sizeof(out->path));
	return r < 0 && r != -EACCES && r != -ENOENT ? r : 0;
}

/* /dev/tty: its own terminal, decided under the name that means it:
 * /dev/pts/N by number could be anyone's. */
static int resolve_dev_tty(struct call *c, char *path, size_t size,
			   struct resolved *out)
{
	int r;

	if ((r = own_tty(c, path, size)) < 0)
		return r;
	out->fd = open(path, O_PATH | O_CLOEXEC);
	if (out->fd < 0)
		return -errno;
	if (fstat(out->fd, &out->st) < 0 || !S_ISCHR(out->st.st_mode))
		return -ENXIO;
	snprintf(out->path, sizeof(out->path), "/dev/tty");
	return 0;
}

/*
 * The directory a name is walked from, in *base (ours to close unless it
 * is root_fd); path made absolute from the working directory. From a
 * descriptor of /proc, "self/..." is the caller's, and a name that means
 * one of its own descriptors or magic links is made absolute (Chromium's
 * sandbox stats each of self/fd/ from a descriptor of that directory,
 * proc_util.cc): then 1, for resolve_path to take it as such. Return:
 * 0, 1 or -errno.
 */
static int resolve_base(struct call *c, int dirfd, unsigned flags,
			char *path, size_t size, int *base)
{
	int r;

	/* A name relative to the working directory, as most programs use
	 * (git, make): named from the directory's canonical path, so that no
	 * /proc entry is opened and no descriptor's name read back per call.
	 * Should the directory move meanwhile, what is decided on is still
	 * what is used: the object found at that path. */
	if (path[0] != '/' && dirfd == AT_FDCWD && !starts_with_self(path))
		(void)cwd_absolute(c, path, size);
	*base = base_fd(c, dirfd, path);
	if (*base < 0)
		return *base;
	if (path[0] != '/' &&
	    (starts_with_self(path) ||
	     (dirfd != AT_FDCWD && maybe_proc_entry(path)))) {
		char dir[FBAC_MAX_PATH], abs[FBAC_MAX_PATH * 2],
			mine[FBAC_MAX_PATH];

		if (fd_path(*base, dir, sizeof(dir)) < 0 ||
		    !fbac_path_is_under(dir, "/proc"))
			return 0;
		snprintf(abs, sizeof(abs), "%s/%s", dir, path);
		if ((r = rewrite_self(c, abs, mine, sizeof(mine))) < 0)
			return r;
		if (own_name(c, flags, mine))
			return copy_path(path, size, mine) < 0 ? -ENAMETOOLONG : 1;
		/* Still from that descriptor, not from the root: a process
		 * may have made its root a directory that is gone
		 * (Chromium's sandbox, credentials.cc). */
		if (!strcmp(dir, "/proc") &&
		    (r = copy_path(path, size, mine + 6)) < 0)
			return r;
	}
	return 0;
}

/*
 * RES_PARENT: the parent of path pinned (followed) and its last
 * component in out->leaf; a new object named by parent + leaf.
 * ".", ".." and "/" exist; they have no parent entry to create or
 * remove, which the callers that need one see from parent_fd < 0.
 */
static int resolve_parent(int base, char *path, struct resolved *out)
{
	char *slash, parent[FBAC_MAX_PATH], pp[FBAC_MAX_PATH];
	size_t len = strlen(path);
	const char *leaf;
	int r;

	while (len > 1 && path[len - 1] == '/')
		path[--len] = 0;
	slash = strrchr(path, '/');
	leaf = slash ? slash + 1 : path;
	if (!*leaf || !strcmp(leaf, ".") || !strcmp(leaf, "..") ||
	    strlen(leaf) >= sizeof(out->leaf))
		return out->fd >= 0 ? 0 : !*leaf ? -EBUSY : -EINVAL;
	if (!slash)
		snprintf(parent, sizeof(parent), ".");
	else if (slash == path)
		snprintf(parent, sizeof(parent), "/");
	else
		snprintf(parent, sizeof(parent), "%.*s", (int)(slash - path),
			 path);
	snprintf(out->leaf, sizeof(out->leaf), "%s", leaf);
	out->parent_fd = openat2_path(base, parent, true, parent[0] == '/');
	if (out->parent_fd < 0)
		return out->parent_fd;
	/* An existing object is known by what it resolved to (a followed
	 * symlink's target); a new one by parent + leaf. */
	if (out->fd >= 0)
		return 0;
	r = fd_path(out->parent_fd, pp, sizeof(pp));
	if (r < 0)
		return r;
	if (snprintf(out->path, sizeof(out->path), "%s%s%s", pp,
		     strcmp(pp, "/") ? "/" : "", out->leaf) >=
	    (int)sizeof(out->path))
		return -ENAMETOOLONG;
	return 0;
}

/* A name walked from base: the object (if it exists, or must), its
 * canonical path, and with RES_PARENT its parent. */
static int resolve_name(struct call *c, int base, char *path,
			unsigned flags, struct resolved *out)
{
	int r;

	/* From another root than ours, the kernel's name for what the walk
	 * found is not the string walked. */
	out->fd = base == c->s->root_fd ?
			  open_canonical(base, path, flags & RES_FOLLOW) :
			  -ELOOP;
	if (out->fd >= 0) {
		/* path is normal, so it fits (it came from a buffer this size). */
		(void)copy_path(out->path, sizeof(out->path), path);
	} else if (out->fd == -ELOOP) {
		out->fd = openat2_path(base, path, flags & RES_FOLLOW,
				       path[0] == '/');
		if (out->fd >= 0 &&
		    (r = fd_path(out->fd, out->path, sizeof(out->path))) < 0)
			return r;
	}
	if (out->fd >= 0) {
		if (fstat(out->fd, &out->st) < 0)
			return -errno;
		out->is_dir = S_ISDIR(out->st.st_mode);
	} else if (out->fd != -ENOENT || !(flags & (RES_MAY_MISS | RES_PARENT))) {
		return out->fd;
	}
	if ((flags & RES_PARENT) &&
	    !((flags & RES_PARENT_IF_MISSING) && out->fd >= 0))
		return resolve_parent(base, path, out);
	return out->fd < 0 ? out->fd : 0;
}

/*
 * The one ending of call_resolve_path, for every way out: base closed; on
 * failure, everything opened closed; on success, the caller's own
 * terminal by another name decided as /dev/tty (not for a descriptor
 * it holds, names by number or reaches by a magic link of its own:
 * that is decided as what it is, under its own name), and the
 * supervisor's own /proc entries refused, whatever reached them.
 */
static int resolve_end(struct call *c, int base, int r, bool descriptor,
		       struct resolved *out)
{
	if (base >= 0 && base != c->s->root_fd)
		close(base);
	if (r < 0) {
		resolved_close(out);
		return r;
	}
	if (!descriptor)
		ctty_as_dev_tty(c, out);
	if (own_is_supervisors(c, out->path)) {
		resolved_close(out);
		return -EXDEV; /* call_resolve_path: remapped or told */
	}
	return 0;
}

/*
 * The supervisor's own /proc entry was reached. Named by its number (the
 * program's parent is fbac-run): refused with a line. Through "self": the
 * program's own entry is resolved instead, once.
 */
static int resolve_ours(struct call *c, int dirfd, const char *arg,
			unsigned flags, struct resolved *out)
{
	char mine[FBAC_MAX_PATH];
	long n = own_is_supervisors(c, out->path);
	int r;

	if (n > 0 && own_names_self(arg, n) &&
	    own_for_supervisors(c, out->path, n, mine, sizeof(mine)) == 0) {
		r = call_resolve_path(c, dirfd, mine, flags | RES_NO_REMAP, out);
		return r == -EXDEV ? -EACCES : r;
	}
	call_refuse_syscall(
		c,
		"it reaches fbac-run's own /proc entries (by number, or by a symbolic link to /proc/self), which are never the program's",
		false);
	return -EACCES;
}

/*
 * A walk refused a magic link (-ELOOP): was it one of the supervisor's
 * own, such as /proc/self/../self/fd/0 or a symlink to /proc/self/fd
 * made it? Then -EXDEV with its name in out->path, for resolve_ours;
 * else the walk's -ELOOP.
 */
static int link_ours(struct call *c, int dirfd, const char *arg,
		     struct resolved *out)
{
	struct resolved l;
	int r = call_resolve_path(c, dirfd, arg, RES_NO_REMAP, &l);

	if (r == 0)
		resolved_close(&l);
	if (r != -EXDEV)
		return -ELOOP;
	(void)copy_path(out->path, sizeof(out->path), l.path);
	return -EXDEV;
}

int call_resolve_path(struct call *c, int dirfd, const char *arg,
		      unsigned flags, struct resolved *out)
{
	char path[FBAC_MAX_PATH], typed[FBAC_MAX_PATH];
	bool descriptor = false;
	int base = -1, r;

	out->fd = out->parent_fd = -1;
	out->leaf[0] = out->path[0] = out->link[0] = 0;
	out->is_dir = false;
	out->st.st_mode = 0;
	out->held = false;

	if (!arg[0]) {
		descriptor = true;
		r = resolve_held(c, dirfd, flags, out);
	} else if ((r = copy_path(typed, sizeof(typed), arg)) < 0 ||
		   (collapse_dots(typed),
		    (r = rewrite_self(c, typed, path, sizeof(path))) < 0)) {
		/* nothing opened */
	} else if (!strcmp(path, "/dev/tty")) {
		r = resolve_dev_tty(c, path, sizeof(path), out);
	} else if ((r = own_entry(c, flags, path, out)) != 1) {
		descriptor = true;
	} else if ((r = resolve_dirfd_name(c, dirfd, path, flags, out)) <= 0) {
		/* named from the descriptor's canonical path */
	} else if ((r = resolve_base(c, dirfd, flags, path, sizeof(path),
				     &base)) == 0) {
		r = resolve_name(c, base, path, flags, out);
	} else if (r == 1) {
		/* Named from a descriptor of /proc: one of its own. */
		descriptor = true;
		r = own_entry(c, flags, path, out);
		if (r == 1)
			r = -ENOENT;
	}
	r = resolve_end(c, base, r, descriptor, out);
	if (r == -ELOOP && (flags & RES_FOLLOW) && !(flags & RES_NO_REMAP))
		r = link_ours(c, dirfd, arg, out);
	if (r == -EXDEV)
		return (flags & RES_NO_REMAP) ?
			       -EXDEV :
			       resolve_ours(c, dirfd, arg, flags, out);
	return r;
}

int call_resolve_known(struct call *c, const char *path, bool follow, bool hold,
		       struct resolved *out)
{
	const char *slash = strrchr(path, '/');
	size_t len;

	/* What call_resolve_path would name otherwise: another root, the
	 * names of /proc and /dev that depend on who asks, the terminal. */
	if (!landlock_watch_may_know() || path[0] != '/' || !slash ||
	    !slash[1] || __atomic_load_n(&c->s->roots_vary, __ATOMIC_ACQUIRE) ||
	    fbac_path_is_under(path, "/proc") ||
	    fbac_path_is_under(path, "/dev") || !fbac_path_is_normal(path) ||
	    strlen(path) >= sizeof(out->path))
		return 1;
	len = slash == path ? 1 : (size_t)(slash - path);
	if (!landlock_watch_stat(c->s->extras, c->s->n_extras, c->s->root_fd,
				 path, len, slash + 1, hold, &out->st))
		return 1;
	/* A regular file or a directory (a character device may be the
	 * caller's terminal; a symlink followed goes elsewhere). */
	if (!S_ISREG(out->st.st_mode) && !S_ISDIR(out->st.st_mode) &&
	    !(S_ISLNK(out->st.st_mode) && !follow)) {
		landlock_watch_release();
		return 1;
	}
	out->fd = out->parent_fd = -1;
	out->leaf[0] = out->link[0] = 0;
	out->held = false;
	out->is_dir = S_ISDIR(out->st.st_mode);
	memcpy(out->path, path, strlen(path) + 1);
	return 0;
}

void call_resolve_release(void)
{
	landlock_watch_release();
}

int call_resolve_arg(struct call *c, int dirfd, uint64_t addr, unsigned flags,
		     struct resolved *out)
{
	char path[FBAC_MAX_PATH];
	int r;

	out->fd = out->parent_fd = -1;
	if (addr == 0)
		return (flags & RES_EMPTY_OK) ?
			       call_resolve_path(c, dirfd, "", flags, out) :
			       -EFAULT;
	r = target_read_string(c->tid, addr, path, sizeof(path));
	if (r < 0)
		return r;
	return call_resolve_path(c, dirfd, path, flags, out);
}
