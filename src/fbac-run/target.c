/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "target.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "macro.h"
#include "procstat.h"

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

int target_read(pid_t tid, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	ssize_t n;

	if (len == 0)
		return 0;
	n = process_vm_readv(tid, &local, 1, &remote, 1, 0);
	return n == (ssize_t)len ? 0 : -EFAULT;
}

int target_read_string(pid_t tid, uint64_t addr, char *buf, size_t size)
{
	size_t got = 0;

	if (addr == 0)
		return -EFAULT;
	/* Page by page: a read may not cross into an unmapped page. The
	 * first read takes 256 bytes at most: most paths are shorter, and
	 * copying the rest of a page cost more than the call itself. */
	while (got < size) {
		size_t page = 4096 - ((addr + got) & 4095);
		size_t chunk = page < size - got ? page : size - got;

		if (got == 0 && chunk > 256)
			chunk = 256;
		char *nul;

		if (target_read(tid, addr + got, buf + got, chunk) < 0)
			return -EFAULT;
		nul = memchr(buf + got, 0, chunk);
		if (nul)
			return (int)(nul - buf);
		got += chunk;
	}
	return -ENAMETOOLONG;
}

int target_write(pid_t tid, uint64_t addr, const void *buf, size_t len)
{
	struct iovec local = { (void *)buf, len };
	struct iovec remote = { (void *)(uintptr_t)addr, len };
	ssize_t n;

	if (len == 0)
		return 0;
	n = process_vm_writev(tid, &local, 1, &remote, 1, 0);
	return n == (ssize_t)len ? 0 : -EFAULT;
}

/*
 * Thread pidfds, kept per receiver thread: a program working through
 * directory descriptors (find, tar) makes every call take one. A pidfd
 * names one task for good, so a cached one of a task that has exited
 * fails with ESRCH (its tid may be someone else's now) and is replaced.
 */
#define PIDFD_CACHE 16
static __thread struct {
	pid_t tid;
	int pidfd;
} pidfd_cache[PIDFD_CACHE];
static __thread unsigned pidfd_next;
/* Only in threads that live as long as the supervisor (the receivers):
 * a worker's cache would leak its descriptors when it ends. */
static __thread bool pidfd_caching;

void target_cache_pidfds(void)
{
	pidfd_caching = true;
}

bool target_caching_pidfds(void)
{
	return pidfd_caching;
}

static int open_pidfd(pid_t tid)
{
	/* A thread pidfd, so that a thread with its own fd table works. */
	int pidfd = (int)syscall(SYS_pidfd_open, tid, PIDFD_THREAD);

	if (pidfd < 0 && errno == EINVAL)
		pidfd = (int)syscall(SYS_pidfd_open, tid, 0);
	return pidfd < 0 ? -errno : pidfd; /* pidfds are close-on-exec */
}

int target_thread_pidfd(pid_t tid)
{
	return open_pidfd(tid);
}

int target_getfd(pid_t tid, int fd)
{
	unsigned slot = PIDFD_CACHE;
	int pidfd, r;

	for (unsigned i = 0; i < PIDFD_CACHE; i++)
		if (pidfd_cache[i].tid == tid && pidfd_cache[i].pidfd > 0) {
			r = (int)syscall(SYS_pidfd_getfd, pidfd_cache[i].pidfd,
					 fd, 0);
			if (r >= 0 || errno != ESRCH)
				return r < 0 ? -errno : r;
			slot = i; /* an earlier task with this tid */
			break;
		}
	if ((pidfd = open_pidfd(tid)) < 0)
		return pidfd;
	r = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	if (r < 0) {
		int e = errno;

		close(pidfd);
		return -e;
	}
	if (!pidfd_caching) {
		close(pidfd);
		return r;
	}
	if (slot == PIDFD_CACHE)
		slot = pidfd_next++ % PIDFD_CACHE;
	if (pidfd_cache[slot].pidfd > 0)
		close(pidfd_cache[slot].pidfd);
	pidfd_cache[slot].tid = tid;
	pidfd_cache[slot].pidfd = pidfd;
	return r;
}

static int proc_open(pid_t tid, const char *what)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)tid, what);
	fd = open(path, O_PATH | O_CLOEXEC | O_DIRECTORY);
	return fd < 0 ? -errno : fd;
}

int target_cwd(pid_t tid)
{
	return proc_open(tid, "cwd");
}

static int link_path(const char *link, char *buf, size_t size)
{
	ssize_t n = readlink(link, buf, size);

	if (n < 0)
		return -errno;
	if ((size_t)n >= size)
		return -ENAMETOOLONG;
	buf[n] = 0;
	return (int)n;
}

int target_cwd_path(pid_t tid, char *buf, size_t size)
{
	char link[64];

	snprintf(link, sizeof(link), "/proc/%d/cwd", (int)tid);
	return link_path(link, buf, size);
}

int target_fd_path(pid_t tid, int fd, char *buf, size_t size)
{
	char link[64];

	snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)tid, fd);
	return link_path(link, buf, size);
}

int target_root(pid_t tid)
{
	return proc_open(tid, "root");
}

static int status_field(pid_t tid, const char *field, char *out, size_t size)
{
	char path[64], line[256];
	_cleanup_fclose_ FILE *f = NULL;
	size_t n = strlen(field);

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, field, n) && line[n] == ':') {
			snprintf(out, size, "%s", line + n + 1);
			return 0;
		}
	return -ENOENT;
}

/* What the kernel checks a thread's file permissions with. */
struct fs_creds {
	uid_t fsuid;
	gid_t fsgid;
	bool capable; /* any effective capability */
};

/* Read them from one pass over /proc/TID/status. Return: 0, or -errno
 * when the file or a field cannot be read (nothing is then known). */
static int read_fs_creds(pid_t tid, struct fs_creds *out)
{
	char path[64], line[256];
	_cleanup_fclose_ FILE *f = NULL;
	unsigned long r, e, sv, fs;
	unsigned found = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (found != 7 && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Uid: %lu %lu %lu %lu", &r, &e, &sv, &fs) == 4) {
			out->fsuid = (uid_t)fs;
			found |= 1;
		} else if (sscanf(line, "Gid: %lu %lu %lu %lu", &r, &e, &sv,
				  &fs) == 4) {
			out->fsgid = (gid_t)fs;
			found |= 2;
		} else if (!strncmp(line, "CapEff:", 7)) {
			out->capable = strtoull(line + 7, NULL, 16) != 0;
			found |= 4;
		}
	}
	return found == 7 ? 0 : -EIO;
}

bool target_kernel_refuses_owner_op(pid_t tid, uid_t owner)
{
	struct fs_creds c;

	/* A thread we cannot read is not known to be refused by the
	 * kernel, and the policy decides as usual. */
	return read_fs_creds(tid, &c) == 0 && !c.capable && c.fsuid != owner;
}

bool target_has_our_creds(pid_t tid)
{
	struct fs_creds c;

	return read_fs_creds(tid, &c) == 0 && !c.capable &&
	       c.fsuid == geteuid() && c.fsgid == getegid();
}

pid_t target_tgid(pid_t tid)
{
	char v[64];
	int r = status_field(tid, "Tgid", v, sizeof(v));

	return r < 0 ? r : (pid_t)strtol(v, NULL, 10);
}

mode_t target_umask(pid_t tid)
{
	char v[64];

	if (status_field(tid, "Umask", v, sizeof(v)) < 0)
		return 022;
	return (mode_t)strtol(v, NULL, 8) & 0777;
}

/* The first size - 1 bytes of /proc/PID/NAME, NUL-terminated. Return:
 * their length or -errno. */
static ssize_t read_proc(pid_t pid, const char *name, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	return n;
}

int target_proc_stat(pid_t pid, struct target_stat *out)
{
	struct fbac_proc_stat st;
	char buf[1024];
	ssize_t n = read_proc(pid, "stat", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	if (fbac_proc_stat_parse(buf, (size_t)n, &st) < 0)
		return -EIO;
	out->ppid = (pid_t)st.ppid;
	out->session = (pid_t)st.session;
	out->tty_nr = st.tty_nr;
	out->flags = st.flags;
	out->start = st.start;
	return 0;
}

int target_seccomp_filters(pid_t pid)
{
	char buf[4096];
	ssize_t n = read_proc(pid, "status", buf, sizeof(buf));
	int r;

	if (n < 0)
		return (int)n;
	r = fbac_proc_status_seccomp_filters(buf, (size_t)n);
	return r == -EBADMSG ? -EIO : r;
}
