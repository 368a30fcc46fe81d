/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Terminals by number. devpts names every pseudo-terminal of the system
 * /dev/pts/N, the user's other terminals included: a program that opens
 * one reads what is typed there and writes to its screen. A policy that
 * grants every /dev/pts/N means the terminals the program makes for itself
 * (terminal emulators, script, expect; Pseudo_Terminals), which the
 * language cannot say. So a terminal reached by number must have its
 * master held by a process of the sandbox (an open /dev/ptmx whose fdinfo
 * says "tty-index: N"). The caller's own terminal is /dev/tty already
 * (sup-path.c), and a descriptor it holds is its own.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "call-parts.h"
#include "fbac-limits.h"
#include "target.h"

/* N when path is /dev/pts/N, else -1. */
static long pts_number(const char *path)
{
	const char *p = path + 9;
	char *end;
	long n;

	if (strncmp(path, "/dev/pts/", 9) || *p < '0' || *p > '9')
		return -1;
	n = strtol(p, &end, 10);
	return *end || n < 0 || n > 0xfffff ? -1 : n;
}

/* Whether fdinfo says the descriptor is the master of pty n. */
static bool fdinfo_says(pid_t pid, const char *fd, long n)
{
	char path[300], line[128];
	bool yes = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%s", (int)pid, fd);
	f = fopen(path, "re");
	if (!f)
		return false;
	while (!yes && fgets(line, sizeof(line), f)) {
		char *end;

		if (!strncmp(line, "tty-index:", 10))
			yes = strtol(line + 10, &end, 10) == n &&
			      (*end == '\n' || *end == 0);
	}
	fclose(f);
	return yes;
}

/* Whether process pid holds the master of pty n. */
static bool holds_master(pid_t pid, long n)
{
	char dir[64], link[32];
	struct dirent *e;
	bool yes = false;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)pid);
	d = opendir(dir);
	if (!d)
		return false;
	while (!yes && (e = readdir(d))) {
		ssize_t l;

		if (e->d_name[0] == '.')
			continue;
		l = readlinkat(dirfd(d), e->d_name, link, sizeof(link) - 1);
		if (l <= 0)
			continue;
		link[l] = 0;
		if (!strcmp(link, "/dev/ptmx") || !strcmp(link, "/dev/pts/ptmx"))
			yes = fdinfo_says(pid, e->d_name, n);
	}
	closedir(d);
	return yes;
}

/* Append the children of every thread of pid to the queue. */
static void add_children(pid_t pid, pid_t *queue, size_t *n, size_t cap)
{
	char dir[64], path[350];
	struct dirent *e;
	DIR *d;

	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		FILE *f;
		long child;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/children", dir, e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (*n < cap && fscanf(f, "%ld", &child) == 1)
			queue[(*n)++] = (pid_t)child;
		fclose(f);
	}
	closedir(d);
}

/*
 * The processes of the sandbox, breadth first from our children (the
 * program, and the orphans we reap as its subreaper). Past the limit,
 * the rest is not looked at: the terminal is then refused.
 */
static bool sandbox_holds_master(struct call *c, long n)
{
	_cleanup_free_ pid_t *queue =
		malloc(FBAC_MAX_SANDBOX_SCAN * sizeof(*queue));
	size_t head = 0, tail = 0;

	if (!queue)
		return false;
	add_children(c->s->self, queue, &tail, FBAC_MAX_SANDBOX_SCAN);
	while (head < tail) {
		pid_t pid = queue[head++];

		if (holds_master(pid, n))
			return true;
		add_children(pid, queue, &tail, FBAC_MAX_SANDBOX_SCAN);
	}
	return false;
}

bool call_pty_allowed(struct call *c, enum fbac_op op,
		      const struct resolved *r)
{
	long n = pts_number(r->path);

	if (n < 0 || r->held || r->link[0])
		return true;
	/* Most often the caller holds the master itself (it just made it). */
	if (holds_master(call_tgid(c), n) || sandbox_holds_master(c, n))
		return true;
	return call_refuse(c, op, r->path,
			   "a terminal of another session (no process of the sandbox holds its master)");
}

/* ---- the caller's controlling terminal (for sup-path.c) ---- */

/* The caller's controlling terminal, from tty_nr of /proc/<tid>/stat:
 * 1 and its device number, 0 without one, or -errno. */
static int ctty_of(struct call *c, dev_t *dev)
{
	struct target_stat ts;
	int r = target_proc_stat(c->tid, &ts);
	unsigned long nr;

	if (r < 0)
		return r;
	nr = ts.tty_nr;
	*dev = makedev((unsigned)((nr >> 8) & 0xfff),
		       (unsigned)((nr & 0xff) | ((nr >> 12) & 0xfff00)));
	return nr != 0;
}

/*
 * /dev/tty opened by us would be our controlling terminal: name the
 * caller's instead (ENXIO without one).
 */
int own_tty(struct call *c, char *out, size_t size)
{
	char path[64], link[PATH_MAX], *p;
	unsigned maj, min;
	dev_t dev;
	ssize_t n;
	int r = ctty_of(c, &dev);

	if (r <= 0)
		return r < 0 ? r : -ENXIO;
	maj = major(dev);
	min = minor(dev);
	if (maj >= 136 && maj <= 143) {
		n = snprintf(out, size, "/dev/pts/%u", (maj - 136) * 256 + min);
		return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
	}
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u", maj, min);
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return -ENXIO;
	link[n] = 0;
	p = strrchr(link, '/');
	n = snprintf(out, size, "/dev/%s", p ? p + 1 : link);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* Its own controlling terminal by another name (less opens ttyname(2)):
 * decided as /dev/tty, which means exactly that. */
void ctty_as_dev_tty(struct call *c, struct resolved *out)
{
	dev_t dev;

	if (out->fd >= 0 && S_ISCHR(out->st.st_mode) &&
	    ctty_of(c, &dev) > 0 && out->st.st_rdev == dev)
		snprintf(out->path, sizeof(out->path), "/dev/tty");
}
