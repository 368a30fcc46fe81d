/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ioctl on a device opened without LANDLOCK_ACCESS_FS_IOCTL_DEV (Landlock
 * ABI 5): the kernel refuses it with EACCES by the rights the file was
 * opened with, out of the supervisor's sight. Told here (issue 17: no
 * refusal fbac causes is silent), then left to the kernel.
 *
 * The filter notifies every ioctl but the requests Landlock never refuses
 * (filter_ioctl_unchecked()) and TIOCSTI and TIOCLINUX (sup-refused.c).
 * Whether Landlock will refuse this one is asked of the file itself: the
 * supervisor takes a copy of the descriptor (pidfd_getfd: the same open
 * file, with the rights it was opened with, whoever opened it: the
 * program, the supervisor for it, or a process outside the sandbox, whose
 * files have every right) and makes FS_IOC_SETFLAGS on it with a null
 * argument. Landlock checks that request like any other (it is not one of
 * those it lets through), before anything else: EACCES is its answer;
 * otherwise the kernel reads the null flags first and answers EFAULT, so
 * the probe never reaches the device nor changes anything. Whatever the
 * probe says, the call continues and the kernel decides: a wrong
 * prediction (another security module refusing the probe) could only add
 * a line, never change an answer. The copy is closed after the answer:
 * the program waits for two system calls of ours (a refusal told is
 * told first, while the program is there to be named).
 */
#include <errno.h>
#include <linux/fs.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "call.h"
#include "filter.h"
#include "sup-handlers.h"
#include "target.h"

/* Whether Landlock refuses device ioctls on fd (one of ours). */
static bool ioctl_refused(int fd)
{
	return ioctl(fd, FS_IOC_SETFLAGS, NULL) < 0 && errno == EACCES;
}

/* The line and event for the refusal Landlock will make of c on fd. */
static void tell(struct call *c, int fd, unsigned int cmd)
{
	char link[64], path[FBAC_MAX_PATH], about[48];
	ssize_t n;

	fdname(link, sizeof(link), fd);
	n = readlink(link, path, sizeof(path) - 1);
	path[n > 0 ? n : 0] = 0;
	snprintf(about, sizeof(about), "request %#x", cmd);
	c->about = about;
	if (path[0] != '/' || call_decide_path(c, FBAC_OP_FILE_IOCTL, path))
		(void)call_refuse(
			c, FBAC_OP_FILE_IOCTL, path[0] ? path : "?",
			"the kernel refused it: the device was opened where its policy did not grant file_ioctl");
	c->about = NULL;
}

bool handle_ioctl(struct call *c)
{
	unsigned int cmd = (unsigned int)ARG(c, 1);
	int fd;

	if (c->nr != SYS_ioctl)
		return false;
	/* No Landlock domain, or none that handles device ioctls: nothing
	 * to refuse. */
	if (c->s->mode != MODE_ENFORCE || c->s->landlock_abi < 5 ||
	    filter_ioctl_unchecked(cmd)) {
		call_continue(c);
		return true;
	}
	/* A descriptor that cannot be had is the kernel's to answer
	 * (EBADF). */
	fd = target_getfd(c->tid, (int)ARG(c, 0));
	if (fd >= 0 && ioctl_refused(fd))
		tell(c, fd, cmd);
	call_continue(c);
	if (fd >= 0)
		close(fd);
	return true;
}
