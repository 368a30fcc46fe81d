/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * File-system syscalls, emulated: the supervisor resolves the path,
 * decides on the kernel-resolved object, performs the call itself on
 * that object and hands back the result (a descriptor, a stat buffer,
 * a status). Only chdir and chroot continue in the kernel here (and exec,
 * sup-exec.c, and some opens, sup-open.c): chdir and chroot grant nothing
 * by themselves. This file holds those, inotify and memfd_create.
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

#include "call.h"
#include "sup-handlers.h"
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
	int err = call_resolve_arg(c, AT_FDCWD, ARG(c, 0), RES_FOLLOW, &r);

	if (err < 0) {
		call_fail(c, err);
		return;
	}
	if (!r.is_dir)
		err = -ENOTDIR;
	else if (!call_decide_getattr(c, r.path))
		err = -EACCES;
	resolved_close(&r);
	if (err) {
		call_fail(c, err);
		return;
	}
	if (new_root)
		__atomic_store_n(&c->s->roots_vary, true, __ATOMIC_RELEASE);
	call_continue(c);
}

static void h_inotify(struct call *c)
{
	uint32_t mask = (uint32_t)ARG(c, 2);
	struct resolved r;
	char name[64];
	int ifd, wd, err;

	err = call_resolve_arg(c, AT_FDCWD, ARG(c, 1),
			       (mask & IN_DONT_FOLLOW) ? 0 : RES_FOLLOW, &r);
	if (err < 0) {
		call_fail(c, err);
		return;
	}
	if (!call_decide_path(c, r.is_dir ? FBAC_OP_DIR_READ :
					    FBAC_OP_FILE_GETATTR,
			      r.path)) {
		resolved_close(&r);
		call_fail(c, -EACCES);
		return;
	}
	ifd = target_getfd(c->tid, (int)ARG(c, 0));
	if (ifd < 0) {
		resolved_close(&r);
		call_fail(c, ifd);
		return;
	}
	fdname(name, sizeof(name), r.fd);
	wd = inotify_add_watch(ifd, name, mask & ~IN_DONT_FOLLOW);
	err = wd < 0 ? -errno : 0;
	close(ifd);
	resolved_close(&r);
	call_respond(c, wd < 0 ? 0 : wd, err);
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
		call_fail(c, err == -ENAMETOOLONG ? -EINVAL : err);
		return;
	}
	/* What the kernel refuses as invalid, refuse the same way first:
	 * programs probe with bad flags and expect EINVAL. */
	if ((flags & ~MFD_KNOWN) ||
	    ((flags & MFD_EXEC_FLAG) && (flags & MFD_NOEXEC_SEAL_FLAG)) ||
	    ((flags & (MFD_HUGE_MASK_BITS << MFD_HUGE_SHIFT_BITS)) &&
	     !(flags & MFD_HUGETLB))) {
		call_fail(c, -EINVAL);
		return;
	}
	if (flags & MFD_EXEC_FLAG) {
		call_fail(c, -EACCES);
		return;
	}
	fd = (int)syscall(SYS_memfd_create, name, flags | MFD_NOEXEC_SEAL_FLAG);
	if (fd < 0) {
		call_fail(c, -errno);
		return;
	}
	call_inject_fd(c, fd, flags & MFD_CLOEXEC);
	close(fd);
}

bool handle_file(struct call *c)
{
	switch (c->nr) {
	case SYS_memfd_create:
		h_memfd(c);
		return true;
	case SYS_chroot:
		continue_into_dir(c, true);
		return true;
	case SYS_chdir:
		continue_into_dir(c, false);
		return true;
	case SYS_inotify_add_watch:
		h_inotify(c);
		return true;
	default:
		return false;
	}
}
