/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The filter's ioctl block (filter-int.h): which requests the supervisor
 * is told of.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "filter-int.h"
#include "nest-abi.h"

/*
 * ioctl, in the supervisor's filter only, right after the prologue (a
 * call made on every terminal and by stdio on every file it opens, so
 * decided in a few instructions rather than in libseccomp's tree):
 * TIOCSTI and TIOCLINUX are notified to be refused (sup-refused.c), a
 * nested fbac-run's two requests to be registered (sup-nest.c), and
 * every other request runs in the kernel. Landlock refuses a device's
 * ioctls by the right the device was opened with, which the supervisor
 * told when it opened the device for the program (sup-ioctl.c): no
 * request needs to be seen for that. The kernel takes the request as an
 * unsigned int: only the low word of the argument is compared. Like the
 * prologue, native calls only.
 */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define ARG1_LOW offsetof(struct seccomp_data, args[1])
#else
#define ARG1_LOW (offsetof(struct seccomp_data, args[1]) + 4)
#endif

static const uint32_t ioctl_notified[] = {
	TIOCSTI,
	TIOCLINUX,
	FBAC_IOC_NEST_REGISTER,
	FBAC_IOC_NEST_DONE,
};
#define N_NOTIFIED ((int)(sizeof(ioctl_notified) / sizeof(ioctl_notified[0])))
_Static_assert(FILTER_IOCTL_BLOCK_LEN == 5 + N_NOTIFIED + 2,
	       "the block: arch, nr, the request, the notified, two returns");

void filter_ioctl_block(struct sock_filter *insns, uint32_t native_arch)
{
	size_t i = 0;

	/* A jump from insn i goes to i + 1 + offset: past the block is
	 * FILTER_IOCTL_BLOCK_LEN. */
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
	/* Each notified request jumps to the NOTIFY, the last insn. */
	for (int k = 0; k < N_NOTIFIED; k++)
		insns[i++] = (struct sock_filter)
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ioctl_notified[k],
				 (unsigned char)(N_NOTIFIED - k), 0);
	insns[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						  SECCOMP_RET_ALLOW);
	insns[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						  SECCOMP_RET_USER_NOTIF);
}
