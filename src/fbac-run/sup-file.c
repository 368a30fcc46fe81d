/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * File-system syscalls, emulated: the supervisor resolves the path,
 * decides on the kernel-resolved object, performs the call itself on
 * that object and hands back the result (a descriptor, a stat buffer,
 * a status). Only chdir, chroot and exec continue in the kernel here (and
 * some opens, sup-open.c): chdir and chroot grant nothing by themselves,
 * and exec is bounded by Landlock's EXECUTE right. This file dispatches,
 * and holds those, inotify and memfd_create.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <utime.h>

#include <sys/mman.h>

#include "sup.h"
#include "sup-refused.h"
#include "target.h"

/* ---- calls that continue in the kernel ---- */

/*
 * chdir and chroot: the directory is decided like its metadata
 * (file_getattr), then the call continues. A working directory grants
 * nothing: every later access is resolved and decided again. chroot only
 * narrows what the caller can name, and only a process with
 * CAP_SYS_CHROOT in a user namespace of its own may do it (browsers end
 * their sandbox so); from then on every path is resolved from the
 * caller's own root, as the supervisor can no longer assume it is ours.
 */
static void continue_into_dir(struct call *c, bool new_root)
{
	struct resolved r;
	int err = resolve_arg(c, AT_FDCWD, ARG(c, 0), RES_FOLLOW, &r);

	if (err < 0) {
		fail(c, err);
		return;
	}
	if (!r.is_dir)
		err = -ENOTDIR;
	else if (!decide_getattr(c, r.path))
		err = -EACCES;
	resolved_close(&r);
	if (err) {
		fail(c, err);
		return;
	}
	if (new_root)
		__atomic_store_n(&c->s->roots_vary, true, __ATOMIC_RELEASE);
	respond_continue(c);
}

/*
 * The dynamic loader run as the program maps any readable file and runs
 * it (ld.so /denied/prog): mmap is not something Landlock controls. So
 * the loader is never the program itself; programs still use it through
 * their PT_INTERP, which the kernel loads without an execve of its own.
 */
static bool is_loader(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, "ld-linux", 8) || !strncmp(base, "ld.so", 5) ||
	       (!strncmp(base, "ld-", 3) && strstr(base, ".so"));
}

static void do_exec(struct call *c, int dirfd, uint64_t path, int flags)
{
	struct resolved r;
	unsigned rf = (flags & AT_SYMLINK_NOFOLLOW) ? 0 : RES_FOLLOW;
	int err;

	if (flags & AT_EMPTY_PATH)
		rf |= RES_EMPTY_OK;
	err = resolve_arg(c, dirfd, path, rf, &r);
	/* The program's own exec (a relative name is resolved from our
	 * directory until now): from here on, the child is the program. */
	if (c->tid == c->s->launch_pid)
		__atomic_store_n(&c->s->launch_pid, 0, __ATOMIC_RELEASE);
	if (err < 0) {
		/* memfd, deleted files and other pathless programs: refused. */
		fail(c, err == -ENOENT || err == -EFAULT || err == -ENOTDIR ?
				err :
				-EACCES);
		return;
	}
	err = decide_path(c, FBAC_OP_FILE_EXECUTE, r.path) ? 0 : -EACCES;
	/* Its interpreter or loader, which Landlock would refuse unseen. */
	if (!err && !exec_needs_allowed(c, &r))
		err = -EACCES;
	if (!err && is_loader(r.path) &&
	    !refuse(c, FBAC_OP_FILE_EXECUTE, r.path,
		    "the dynamic loader run as a program would run files that may only be read"))
		err = -EACCES;
	resolved_close(&r);
	/* Landlock's EXECUTE right bounds what a swapped path could reach. */
	if (err) {
		__atomic_add_fetch(&c->s->exec_refused, 1, __ATOMIC_RELAXED);
		fail(c, err);
	}
	else
		respond_continue(c);
}

static void h_inotify(struct call *c)
{
	uint32_t mask = (uint32_t)ARG(c, 2);
	struct resolved r;
	char name[64];
	int ifd, wd, err;

	err = resolve_arg(c, AT_FDCWD, ARG(c, 1),
			  (mask & IN_DONT_FOLLOW) ? 0 : RES_FOLLOW, &r);
	if (err < 0) {
		fail(c, err);
		return;
	}
	if (!decide_path(c, r.is_dir ? FBAC_OP_DIR_READ : FBAC_OP_FILE_GETATTR,
			 r.path)) {
		resolved_close(&r);
		fail(c, -EACCES);
		return;
	}
	ifd = target_getfd(c->tid, (int)ARG(c, 0));
	if (ifd < 0) {
		resolved_close(&r);
		fail(c, ifd);
		return;
	}
	fdname(name, sizeof(name), r.fd);
	wd = inotify_add_watch(ifd, name, mask & ~IN_DONT_FOLLOW);
	err = wd < 0 ? -errno : 0;
	close(ifd);
	resolved_close(&r);
	respond(c, wd < 0 ? 0 : wd, err);
}

#define MFD_NOEXEC_SEAL_FLAG 0x0008U /* 6.3 */
#define MFD_EXEC_FLAG 0x0010U
#define MFD_HUGE_SHIFT_BITS 26
#define MFD_HUGE_MASK_BITS 0x3fU
#define MFD_KNOWN                                                              \
	(MFD_CLOEXEC | MFD_ALLOW_SEALING | MFD_HUGETLB | MFD_NOEXEC_SEAL_FLAG |  \
	 MFD_EXEC_FLAG | (MFD_HUGE_MASK_BITS << MFD_HUGE_SHIFT_BITS))

/*
 * memfd_create: memory files are not under any Landlock rule, so one that
 * may be executed would run anything. The supervisor makes it with
 * MFD_NOEXEC_SEAL (never executable, for good) and hands it over.
 */
static void h_memfd(struct call *c)
{
	unsigned flags = (unsigned)ARG(c, 1);
	char name[250];
	int fd, err;

	if ((err = target_read_string(c->tid, ARG(c, 0), name, sizeof(name))) <
	    0) {
		fail(c, err == -ENAMETOOLONG ? -EINVAL : err);
		return;
	}
	/* What the kernel refuses as invalid, refuse the same way first:
	 * programs probe with bad flags and expect EINVAL. */
	if ((flags & ~MFD_KNOWN) ||
	    ((flags & MFD_EXEC_FLAG) && (flags & MFD_NOEXEC_SEAL_FLAG)) ||
	    ((flags & (MFD_HUGE_MASK_BITS << MFD_HUGE_SHIFT_BITS)) &&
	     !(flags & MFD_HUGETLB))) {
		fail(c, -EINVAL);
		return;
	}
	if (flags & MFD_EXEC_FLAG) {
		fail(c, -EACCES);
		return;
	}
	fd = (int)syscall(SYS_memfd_create, name, flags | MFD_NOEXEC_SEAL_FLAG);
	if (fd < 0) {
		fail(c, -errno);
		return;
	}
	respond_fd(c, fd, flags & MFD_CLOEXEC);
	close(fd);
}

void handle_file(struct call *c)
{
	if (handle_open(c) || handle_meta(c) || handle_entry(c) ||
	    handle_attr(c) || handle_refused(c) || handle_ftruncate(c) ||
	    handle_signal(c))
		return;
	switch (c->nr) {
	case SYS_memfd_create:
		h_memfd(c);
		return;
	case SYS_chroot:
		continue_into_dir(c, true);
		return;
	case SYS_chdir:
		continue_into_dir(c, false);
		return;
	case SYS_execve:
		do_exec(c, AT_FDCWD, ARG(c, 0), 0);
		return;
	case SYS_execveat:
		do_exec(c, AT_FD(ARG(c, 0)), ARG(c, 1), (int)ARG(c, 4));
		return;
	case SYS_inotify_add_watch:
		h_inotify(c);
		return;
	default:
		/* A notified syscall without a handler is refused. */
		respond(c, 0, -ENOSYS);
	}
}
