/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The filter's ioctl block (filter-int.h): which requests the supervisor
 * is told of.
 */
#include <linux/fiemap.h>
#include <linux/filter.h>
#include <linux/fs.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "filter-int.h"
#include "filter.h"

/*
 * ioctl, in the supervisor's filter only, right after the prologue (a
 * call made on every terminal, so decided in a few instructions rather
 * than in libseccomp's tree): TIOCSTI and TIOCLINUX are notified to be
 * refused (sup-refused.c); the requests Landlock never refuses, on any
 * file (is_masked_device_ioctl() in the kernel's security/landlock/fs.c),
 * run in the kernel; every other request is notified, so that the
 * supervisor can tell a device ioctl that Landlock refuses because the
 * device was opened without LANDLOCK_ACCESS_FS_IOCTL_DEV (sup-ioctl.c).
 * The kernel takes the request as an unsigned int: only the low word of
 * the argument is compared. Like the prologue, native calls only.
 */
#ifndef FS_IOC_GETFSUUID
#define FS_IOC_GETFSUUID 0x80111500 /* _IOR(0x15, 0, struct fsuuid2) */
#endif
#ifndef FS_IOC_GETFSSYSFSPATH
#define FS_IOC_GETFSSYSFSPATH                                                  \
	0x80811501 /* _IOR(0x15, 1, struct fs_sysfs_path) */
#endif
static const uint32_t ioctl_unchecked[] = {
	FIOCLEX,	  FIONCLEX,
	FIONBIO,	  FIOASYNC,
	FIOQSIZE,	  FIFREEZE,
	FITHAW,		  FS_IOC_FIEMAP,
	FIGETBSZ,	  FICLONE,
	FICLONERANGE,	  FIDEDUPERANGE,
	FS_IOC_GETFSUUID, FS_IOC_GETFSSYSFSPATH,
};
#define N_UNCHECKED                                                            \
	((int)(sizeof(ioctl_unchecked) / sizeof(ioctl_unchecked[0])))
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG1_LOW offsetof(struct seccomp_data, args[1])
#else
#define ARG1_LOW (offsetof(struct seccomp_data, args[1]) + 4)
#endif
_Static_assert(
	FILTER_IOCTL_BLOCK_LEN == 5 + 2 + N_UNCHECKED + 2,
	"the block: arch, nr, the request, two refused, the unchecked, two returns");

bool filter_ioctl_unchecked(unsigned int cmd)
{
	for (int i = 0; i < N_UNCHECKED; i++)
		if (ioctl_unchecked[i] == cmd)
			return true;
	return false;
}

void filter_ioctl_block(struct sock_filter *insns, uint32_t native_arch)
{
	size_t i = 0;

	/* A jump from insn i goes to i + 1 + offset: past the block is
	 * FILTER_IOCTL_BLOCK_LEN, the NOTIFY FILTER_IOCTL_BLOCK_LEN - 2. */
	insns[i++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						  offsetof(struct seccomp_data,
							   arch));
	insns[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						  native_arch, 0,
						  FILTER_IOCTL_BLOCK_LEN - 2);
	insns[i++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						  offsetof(struct seccomp_data,
							   nr));
	insns[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						  __NR_ioctl, 0,
						  FILTER_IOCTL_BLOCK_LEN - 4);
	insns[i++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						  ARG1_LOW);
	/* 5, 6: refused, to the NOTIFY. */
	insns[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						  TIOCSTI, N_UNCHECKED + 1, 0);
	insns[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
						  TIOCLINUX, N_UNCHECKED, 0);
	/* Each unchecked request jumps to the ALLOW. */
	for (int k = 0; k < N_UNCHECKED; k++)
		insns[i++] = (struct sock_filter)
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ioctl_unchecked[k],
				 (unsigned char)(N_UNCHECKED - k), 0);
	insns[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						  SECCOMP_RET_USER_NOTIF);
	insns[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						  SECCOMP_RET_ALLOW);
}
