/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device ioctls. Landlock (ABI 5) refuses the ioctls of a character or
 * block device opened without LANDLOCK_ACCESS_FS_IOCTL_DEV, a right the
 * open file gets when it is opened, from its opener's domain, for good
 * (a file opened outside the sandbox, the user's terminal, has every
 * right). So the refusal is decided at the open, and told there (issue
 * 17: no refusal fbac causes is silent): once, when the supervisor opens
 * such a device for the program, or lets the program open its terminal
 * in the kernel. Its ioctls then run in the kernel unseen (filter-ioctl.c:
 * notifying each one cost 4-10 us a call, on every isatty(3) of every
 * file a program opens).
 *
 * Whether Landlock will refuse them is asked of the file itself, when the
 * supervisor opened it: FS_IOC_SETFLAGS with a null argument. Landlock
 * checks that request like any other (it is not one of those it lets
 * through), before anything else: EACCES is its answer; otherwise the
 * kernel reads the null flags first and answers EFAULT, so the probe
 * never reaches the device nor changes anything. A wrong prediction
 * (another security module refusing the probe) could only add a line.
 * The requests Landlock never refuses (FIOCLEX, FIONBIO, ...) work all
 * the same.
 */
#include <errno.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "call.h"

#define ABOUT "its device ioctls"

/* Whether Landlock refuses device ioctls on fd (one of ours). */
static bool ioctl_refused(int fd)
{
	return ioctl(fd, FS_IOC_SETFLAGS, NULL) < 0 && errno == EACCES;
}

void call_tell_device_ioctls(struct call *c, int fd, mode_t mode,
			     const char *path)
{
	if (c->s->mode != MODE_ENFORCE || c->s->landlock_abi < 5 ||
	    !(S_ISCHR(mode) || S_ISBLK(mode)) || !path[0])
		return;
	c->about = ABOUT;
	if (fd < 0) {
		/* Opened by the program in the kernel (its terminal), with
		 * its own domain's rights: the policy's, for file_ioctl. */
		(void)call_decide_path(c, FBAC_OP_FILE_IOCTL, path);
	} else if (ioctl_refused(fd) &&
		   call_decide_path(c, FBAC_OP_FILE_IOCTL, path)) {
		(void)call_refuse(
			c, FBAC_OP_FILE_IOCTL, path,
			"the kernel refuses them: the device is opened where its policy does not grant file_ioctl");
	}
	c->about = NULL;
}
