/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * uid_map and gid_map of a nested user namespace. The kernel lets a map
 * be written through a descriptor opened from the namespace itself or
 * from its parent (proc_uid_map_write: the opener's credentials). The
 * supervisor opens what the program opens, from the initial namespace:
 * right for a namespace the program made directly (Firefox's content
 * processes, Chromium's zygote), EPERM for one made inside it (Chromium's
 * sandbox makes a second one in its zygote, credentials.cc). For that one
 * a short-lived child joins the parent namespace (which the supervisor
 * owns: it holds every capability there) and opens the file, already
 * decided, from there; the descriptor is injected as any other. The
 * child shares the descriptor table, never the file system state (a user
 * namespace is joined only by a process alone in both).
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/nsfs.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "call.h"

/* The pid whose map path names, "/proc/PID/[task/TID/]{uid,gid}_map". */
static pid_t map_owner(const char *path)
{
	const char *p, *leaf = strrchr(path, '/');
	char *end;
	long pid;

	if (!leaf || (strcmp(leaf, "/uid_map") && strcmp(leaf, "/gid_map")) ||
	    strncmp(path, "/proc/", 6))
		return 0;
	pid = strtol(path + 6, &end, 10);
	if (end == path + 6 || pid <= 0 || pid > INT32_MAX)
		return 0;
	p = end;
	if (!strncmp(p, "/task/", 6)) {
		pid = strtol(p + 6, &end, 10);
		if (end == p + 6 || pid <= 0 || pid > INT32_MAX)
			return 0;
		p = end;
	}
	return p == leaf ? (pid_t)pid : 0;
}

struct idmap_child {
	int parent_ns; /* the namespace to join */
	const char *name; /* /proc/self/fd/N of the decided object */
	int flags;
	int fd;	 /* out: the descriptor, or -errno */
};

static int idmap_child(void *arg)
{
	struct idmap_child *a = arg;
	int fd;

	if (syscall(SYS_setns, a->parent_ns, CLONE_NEWUSER) < 0) {
		a->fd = -errno;
		_exit(0);
	}
	fd = (int)syscall(SYS_openat, AT_FDCWD, a->name, a->flags, 0);
	a->fd = fd < 0 ? -errno : fd;
	_exit(0);
}

int call_open_idmap(const char *path, int obj_fd, int flags)
{
	char nsname[64], name[64];
	struct stat ours, parent;
	struct idmap_child a = { .flags = flags, .fd = -EIO };
	pid_t pid = map_owner(path), child;
	int nsfd, pfd, status;
	size_t stack_size = 64 * 1024;
	char *stack;

	if (!pid || (flags & O_ACCMODE) == O_RDONLY)
		return -ENOENT;
	snprintf(nsname, sizeof(nsname), "/proc/%d/ns/user", (int)pid);
	nsfd = open(nsname, O_RDONLY | O_CLOEXEC);
	if (nsfd < 0)
		return -ENOENT;
	/* EPERM: the program's namespace is ours (no parent we can see). */
	pfd = ioctl(nsfd, NS_GET_PARENT);
	close(nsfd);
	if (pfd < 0)
		return -ENOENT;
	if (fstat(pfd, &parent) < 0 || stat("/proc/self/ns/user", &ours) < 0 ||
	    (parent.st_dev == ours.st_dev && parent.st_ino == ours.st_ino)) {
		close(pfd);
		return -ENOENT; /* made directly: we open it ourselves */
	}
	stack = malloc(stack_size);
	if (!stack) {
		close(pfd);
		return -ENOMEM;
	}
	fdname(name, sizeof(name), obj_fd);
	a.parent_ns = pfd;
	a.name = name;
	child = clone(idmap_child, stack + stack_size,
		      CLONE_VM | CLONE_VFORK | CLONE_FILES, &a);
	if (child < 0)
		a.fd = -errno;
	else /* no exit signal: only a wait for clones reaps it */
		while (waitpid(child, &status, __WCLONE) < 0 && errno == EINTR)
			;
	free(stack);
	close(pfd);
	return a.fd;
}
