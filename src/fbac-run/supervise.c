/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The notification loop: receive, dispatch, respond. Errors of the
 * supervisor itself fail the call, never allow it.
 */
#include <errno.h>
#include <linux/audit.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "filter.h"
#include "output.h"
#include "path.h"
#include "sup.h"
#include "suggest.h"

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

static int send_resp(struct call *c, struct seccomp_notif_resp *resp)
{
	resp->id = c->req->id;
	if (ioctl(c->s->listener, SECCOMP_IOCTL_NOTIF_SEND, resp) < 0) {
		/* ENOENT: the target died or its call was interrupted. */
		return -errno;
	}
	return 0;
}

void respond(struct call *c, int64_t val, int error)
{
	struct seccomp_notif_resp resp = { 0 };

	resp.val = val;
	resp.error = error;
	send_resp(c, &resp);
}

void respond_continue(struct call *c)
{
	struct seccomp_notif_resp resp = { 0 };

	resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	send_resp(c, &resp);
}

void respond_fd(struct call *c, int fd, bool cloexec)
{
	struct seccomp_notif_addfd addfd = {
		.id = c->req->id,
		.flags = SECCOMP_ADDFD_FLAG_SEND,
		.srcfd = (unsigned)fd,
		.newfd = 0,
		.newfd_flags = cloexec ? O_CLOEXEC : 0,
	};

	/* On success the target's call returns the new descriptor. */
	if (ioctl(c->s->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd) < 0) {
		int e = errno;

		if (e != ENOENT)
			respond(c, 0, -e);
	}
}

bool call_valid(struct call *c)
{
	uint64_t id = c->req->id;

	return ioctl(c->s->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

/* Translate /proc/<tgid>/... of the caller back into /proc/self/... */
static const char *policy_path(struct call *c, const char *path, char *buf,
			       size_t size)
{
	char pre[64];
	size_t l;

	if (strncmp(path, "/proc/", 6))
		return path;
	if (!c->tgid)
		return path; /* only rewritten names can reach here */
	l = (size_t)snprintf(pre, sizeof(pre), "/proc/%d/task/%d", (int)c->tgid,
			     (int)c->tid);
	if (!strncmp(path, pre, l) && (path[l] == 0 || path[l] == '/')) {
		snprintf(buf, size, "/proc/thread-self%s", path + l);
		return buf;
	}
	l = (size_t)snprintf(pre, sizeof(pre), "/proc/%d", (int)c->tgid);
	if (!strncmp(path, pre, l) && (path[l] == 0 || path[l] == '/')) {
		snprintf(buf, size, "/proc/self%s", path + l);
		return buf;
	}
	return path;
}

bool decide(struct call *c, const struct fbac_query *q)
{
	struct fbac_verdict v = { 0 };
	const struct fbac_stack_entry *denier =
		fbac_stack_query(c->s->stack, q, &v);

	c->decided = true;
	if (denier || c->s->mode == MODE_LEARN)
		event_log(c, q, !denier, denier, &v);
	if (!denier)
		return true;
	return c->s->mode != MODE_ENFORCE;
}

bool would_allow_path(struct call *c, enum fbac_op op, const char *path)
{
	char buf[FBAC_MAX_PATH];
	struct fbac_verdict v;

	path = policy_path(c, path, buf, sizeof(buf));
	return fbac_path_is_normal(path) &&
	       !fbac_stack_check_path(c->s->stack, op, path, &v);
}

bool decide_path(struct call *c, enum fbac_op op, const char *path)
{
	char buf[FBAC_MAX_PATH];
	struct fbac_query q = { .op = op };

	q.path = policy_path(c, path, buf, sizeof(buf));
	/* A path we could not express canonically is never allowed. */
	if (q.path[0] == '/' && !fbac_path_is_normal(q.path))
		return false;
	return decide(c, &q);
}

/* ---- slow calls in worker threads ---- */

struct slow {
	void (*fn)(void *);
	void *arg;
};

static void *slow_main(void *p)
{
	struct slow sl = *(struct slow *)p;

	free(p);
	sl.fn(sl.arg);
	return NULL;
}

int run_slow(void (*fn)(void *), void *arg)
{
	struct slow *sl = malloc(sizeof(*sl));
	pthread_attr_t attr;
	pthread_t t;
	int r;

	if (!sl)
		return -ENOMEM;
	sl->fn = fn;
	sl->arg = arg;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 256 * 1024);
	r = pthread_create(&t, &attr, slow_main, sl);
	pthread_attr_destroy(&attr);
	if (r) {
		free(sl);
		return -r;
	}
	return 0;
}

/* ---- the loop ---- */

static void dispatch(struct sup *s, struct seccomp_notif *req)
{
	struct call c = { .s = s, .req = req, .tid = (pid_t)req->pid,
			  .nr = req->data.nr };

#ifdef __x86_64__
	/* The filter kills other architectures; refuse anything odd anyway. */
	if (req->data.arch != AUDIT_ARCH_X86_64 || (req->data.nr & 0x40000000)) {
		respond(&c, 0, -ENOSYS);
		return;
	}
#endif
	switch (req->data.nr) {
	case SYS_connect:
	case SYS_bind:
	case SYS_listen:
	case SYS_sendto:
	case SYS_sendmsg:
	case SYS_sendmmsg:
		handle_net(&c);
		return;
	default:
		handle_file(&c);
		return;
	}
}

void supervised_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGUSR1);
	sigaddset(set, SIGUSR2);
	sigaddset(set, SIGCHLD);
}

static void forward_signal(pid_t child, const struct signalfd_siginfo *si)
{
	kill(child, (int)si->ssi_signo);
}

int supervise(struct sup *s, pid_t child, int *status)
{
	struct seccomp_notif_sizes sizes;
	_cleanup_free_ struct seccomp_notif *req = NULL;
	_cleanup_close_ int sfd = -1, pidfd = -1;
	uint64_t sync = SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP;
	sigset_t mask;
	bool child_done = false, hangup = false;

	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0)
		return log_error(-errno, "cannot get the notification sizes: %m");
	req = calloc(1, sizes.seccomp_notif > sizeof(*req) ?
				sizes.seccomp_notif :
				sizeof(*req));
	if (!req)
		return log_error(-ENOMEM, "out of memory");
	/* Same-CPU hand-over: a round trip costs ~8 us instead of ~60. */
	(void)ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, sync);

	supervised_signals(&mask);
	sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		return log_error(-errno, "cannot create a signalfd: %m");
	pidfd = (int)syscall(SYS_pidfd_open, child, 0);
	if (pidfd < 0)
		return log_error(-errno, "cannot open a pidfd: %m");

	/*
	 * Serve until the program has exited and no process is left that
	 * uses the filter (the listener then hangs up): what the program
	 * left running stays confined and served, not failed with ENOSYS.
	 */
	while (!child_done || !hangup) {
		struct pollfd pfd[3] = {
			{ s->listener, POLLIN, 0 },
			{ sfd, POLLIN, 0 },
			/* Readable for good once the program exited. */
			{ child_done ? -1 : pidfd, POLLIN, 0 },
		};

		(void)pidfd; /* its readiness only wakes the loop */

		if (poll(pfd, 3, -1) < 0) {
			if (errno == EINTR)
				continue;
			return log_error(-errno, "poll failed: %m");
		}
		if (pfd[0].revents & (POLLHUP | POLLERR))
			hangup = true;
		if (pfd[0].revents & POLLIN) {
			memset(req, 0, sizes.seccomp_notif);
			if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_RECV, req) ==
			    0)
				dispatch(s, req);
			else if (errno != EINTR && errno != ENOENT)
				return log_error(-errno,
						 "cannot receive a notification: %m");
		}
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			/* Once reaped, its pid may be someone else's. */
			while (read(sfd, &si, sizeof(si)) == sizeof(si))
				if (si.ssi_signo != SIGCHLD && !child_done)
					forward_signal(child, &si);
		}
		/* Reap the program, and orphans reparented to us (we are a
		 * subreaper) without taking the program's status by mistake. */
		for (;;) {
			siginfo_t si = { 0 };

			if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 ||
			    si.si_pid == 0)
				break;
			if (si.si_pid == child) {
				if (waitpid(child, status, 0) == child)
					child_done = true;
				break;
			}
			waitpid(si.si_pid, NULL, 0);
		}
	}
	return 0;
}
