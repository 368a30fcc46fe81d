/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The round-trip floor of seccomp user notification on this machine: a
 * minimal supervisor that answers a trapped syscall without looking at
 * it. What fbac-run adds per supervised call is measured against this
 * (bench/bench-run.sh prints both).
 *
 * usage: bench-notify-floor [N]
 * Prints, in microseconds per call (median of 5 rounds of N calls):
 *   native_us      getppid() untrapped
 *   answer_us      trapped, answered with a value (NOTIF_SEND)
 *   inject_us      trapped, answered by injecting a descriptor
 *                  (NOTIF_ADDFD with SEND, as the supervisor's opens are)
 * each for a supervisor that blocks in NOTIF_RECV and one that polls the
 * listener first, both with synchronous wake-up where the kernel has it.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

#define ROUNDS 5
#define LAST_CALL 0xfbac

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Child side: install the filter, hand the listener over, time calls. */
static int trapped_child(int sock, long n, int wfd)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			 offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(insns) / sizeof(insns[0]), insns };
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	char byte = 0;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);
	double t[ROUNDS];
	int lfd;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return 1;
	lfd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			   SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (lfd < 0)
		return 1;
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &lfd, sizeof(int));
	if (sendmsg(sock, &msg, 0) != 1)
		return 1;
	close(lfd);
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_us();

		for (long i = 0; i < n; i++) {
			long v = syscall(SYS_getppid);

			if (v > 2)
				close((int)v); /* an injected descriptor */
		}
		t[r] = (now_us() - t0) / (double)n;
	}
	(void)syscall(SYS_getppid, LAST_CALL); /* tells the supervisor to stop */
	qsort(t, ROUNDS, sizeof(t[0]), cmp_double);
	if (write(wfd, &t[ROUNDS / 2], sizeof(double)) != sizeof(double))
		return 1;
	return 0;
}

static int recv_listener(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	char byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1,
			      .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1 || !(cm = CMSG_FIRSTHDR(&msg)))
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* One measurement: inject (0/1), poll first (0/1). */
static double measure(long n, int inject, int use_poll)
{
	int sv[2], pfd[2], lfd, devnull, status;
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	uint64_t sync = SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP;
	double med = -1;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0 ||
	    pipe2(pfd, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid == 0)
		_exit(trapped_child(sv[1], n, pfd[1]));
	close(sv[1]);
	close(pfd[1]);
	lfd = recv_listener(sv[0]);
	devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (lfd < 0 || devnull < 0) {
		kill(pid, SIGKILL);
		goto out;
	}
	(void)ioctl(lfd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, sync);
	for (;;) {
		if (use_poll) {
			struct pollfd p = { lfd, POLLIN, 0 };

			if (poll(&p, 1, -1) < 0 && errno != EINTR)
				break;
			if (p.revents & POLLHUP)
				break;
			if (!(p.revents & POLLIN))
				continue;
		}
		memset(&req, 0, sizeof(req));
		if (ioctl(lfd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			break;
		}
		if (inject && req.data.args[0] != LAST_CALL) {
			struct seccomp_notif_addfd a = {
				.id = req.id,
				.flags = SECCOMP_ADDFD_FLAG_SEND,
				.srcfd = (unsigned)devnull,
				.newfd_flags = O_CLOEXEC,
			};

			(void)ioctl(lfd, SECCOMP_IOCTL_NOTIF_ADDFD, &a);
		} else {
			memset(&resp, 0, sizeof(resp));
			resp.id = req.id;
			resp.val = 1;
			(void)ioctl(lfd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
		}
		if (req.data.args[0] == LAST_CALL)
			break;
	}
out:
	if (pid > 0)
		waitpid(pid, &status, 0);
	if (read(pfd[0], &med, sizeof(med)) != sizeof(med))
		med = -1;
	close(pfd[0]);
	close(sv[0]);
	if (lfd >= 0)
		close(lfd);
	if (devnull >= 0)
		close(devnull);
	return med;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 20000;
	double native[ROUNDS];

	if (n <= 0) {
		fprintf(stderr, "usage: bench-notify-floor [N]\n");
		return 2;
	}
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_us();

		for (long i = 0; i < n; i++)
			(void)syscall(SYS_getppid);
		native[r] = (now_us() - t0) / (double)n;
	}
	qsort(native, ROUNDS, sizeof(native[0]), cmp_double);
	printf("native_us=%.3f\n", native[ROUNDS / 2]);
	printf("answer_us=%.3f answer_poll_us=%.3f\n", measure(n, 0, 0),
	       measure(n, 0, 1));
	printf("inject_us=%.3f inject_poll_us=%.3f\n", measure(n, 1, 0),
	       measure(n, 1, 1));
	return 0;
}
