/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The measured bound of an exact userspace supervisor: a supervisor with
 * no policy at all that does, for each notified call, only the work an
 * exact decision needs, and runs a real program under it. What fbac-run
 * costs above it is fbac-run's; what it costs above native no exact
 * supervisor on this machine can avoid (docs/performance.md).
 *
 * usage: bench-emulate-floor [-m bare|exact|inject] [-s] CMD [ARG...]
 *
 * The filter notifies open, openat and openat2, and with -s also the stat
 * family that a mediated policy sees (stat, lstat, newfstatat, statx).
 * Per notified call (one single-threaded receiver, synchronous wake-up):
 *   bare    receive and answer SECCOMP_USER_NOTIF_FLAG_CONTINUE without
 *           looking (the notification floor, as a real run);
 *   exact   receive; copy the name once (process_vm_readv); name it from
 *           the root: an absolute name as it is, a relative one after a
 *           readlink of /proc/TID/cwd or /proc/TID/fd/N; open it with
 *           openat2(O_PATH, RESOLVE_NO_MAGICLINKS); fstat it (the type a
 *           decision needs); answer CONTINUE (the fast path of a decided
 *           open); close. A stat is answered from that fstat, written
 *           back with process_vm_writev. A stat of a descriptor (empty
 *           name, AT_EMPTY_PATH) is continued after the copy;
 *   inject  as exact, but the open is made by the supervisor with the
 *           caller's flags and its descriptor injected
 *           (SECCOMP_IOCTL_NOTIF_ADDFD with SECCOMP_ADDFD_FLAG_SEND): the
 *           emulation path, one walk instead of two.
 * No policy, no log, no check that the notification is still valid: each
 * is work fbac-run must do and this bound leaves out. Exits with CMD's
 * status (128 + signal if killed).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/openat2.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

enum mode { BARE, EXACT, INJECT };

static volatile sig_atomic_t child_done;

static void on_chld(int sig)
{
	(void)sig;
	child_done = 1;
}

static int send_fd(int sock, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	char byte = 0;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sendmsg(sock, &msg, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	char byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	int fd;

	if (recvmsg(sock, &msg, 0) != 1 || !(cm = CMSG_FIRSTHDR(&msg)))
		return -1;
	memcpy(&fd, CMSG_DATA(cm), sizeof(int));
	return fd;
}

/* The child: the filter, its listener to the parent, then CMD. */
static int run_child(int sock, int stats, char **argv)
{
	static const int opens[] = { SYS_open, SYS_openat, SYS_openat2 };
	static const int statcalls[] = { SYS_stat, SYS_lstat, SYS_newfstatat,
					 SYS_statx };
	struct sock_filter insns[16];
	struct sock_fprog prog;
	unsigned n = 0, k, ncalls = 3 + (stats ? 4 : 0);
	int lfd;

	insns[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						  offsetof(struct seccomp_data,
							   nr));
	for (k = 0; k < ncalls; k++) {
		int nr = k < 3 ? opens[k] : statcalls[k - 3];

		/* Jump to the notify at the end. */
		insns[n] = (struct sock_filter)
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr,
				 (unsigned char)(ncalls - k), 0);
		n++;
	}
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						  SECCOMP_RET_ALLOW);
	insns[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						  SECCOMP_RET_USER_NOTIF);
	prog.len = (unsigned short)n;
	prog.filter = insns;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return 126;
	lfd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			   SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (lfd < 0 || send_fd(sock, lfd) < 0) {
		perror("bench-emulate-floor: cannot install the filter");
		return 126;
	}
	close(lfd);
	close(sock);
	execvp(argv[0], argv);
	perror(argv[0]);
	return 127;
}

/* Copies the caller's name at ADDR into BUF (one read while it fits in the
 * page). */
static int copy_name(pid_t pid, uint64_t addr, char *buf, size_t size)
{
	size_t got = 0;

	while (got < size) {
		size_t left = 4096 - ((addr + got) & 4095);
		struct iovec l, r;
		ssize_t rd;

		if (left > size - got)
			left = size - got;
		l = (struct iovec){ buf + got, left };
		r = (struct iovec){ (void *)(uintptr_t)(addr + got), left };
		rd = process_vm_readv(pid, &l, 1, &r, 1, 0);
		if (rd <= 0)
			return -EFAULT;
		if (memchr(buf + got, 0, (size_t)rd))
			return 0;
		got += (size_t)rd;
	}
	return -ENAMETOOLONG;
}

/* The name from the root: NAME as it is, or the caller's directory (its
 * cwd, or descriptor DIRFD) and NAME. */
static int absolute(pid_t pid, int dirfd, const char *name, char *out,
		    size_t size)
{
	char link[64];
	ssize_t len;

	if (name[0] == '/') {
		size_t l = strlen(name);

		if (l >= size)
			return -ENAMETOOLONG;
		memcpy(out, name, l + 1);
		return 0;
	}
	if (dirfd == AT_FDCWD)
		snprintf(link, sizeof(link), "/proc/%d/cwd", (int)pid);
	else
		snprintf(link, sizeof(link), "/proc/%d/fd/%d", (int)pid, dirfd);
	len = readlink(link, out, size - 1);
	if (len <= 0 || out[0] != '/')
		return -EBADF;
	if (snprintf(out + len, size - (size_t)len, "/%s", name) >=
	    (int)(size - (size_t)len))
		return -ENAMETOOLONG;
	return 0;
}

static void answer(int lfd, uint64_t id, int64_t val, int err, int cont)
{
	struct seccomp_notif_resp resp = { .id = id, .val = val, .error = err };

	if (cont) {
		resp.val = 0;
		resp.error = 0;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	}
	(void)ioctl(lfd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

static void write_stat(pid_t pid, uint64_t addr, const void *st, size_t size)
{
	struct iovec l = { (void *)(uintptr_t)st, size };
	struct iovec r = { (void *)(uintptr_t)addr, size };

	(void)process_vm_writev(pid, &l, 1, &r, 1, 0);
}

/* One notified call, exactly. */
static void handle(int lfd, const struct seccomp_notif *req, enum mode mode)
{
	const __u64 *a = req->data.args;
	char name[PATH_MAX], path[PATH_MAX];
	struct open_how how = { .resolve = RESOLVE_NO_MAGICLINKS };
	int nr = req->data.nr, dirfd = AT_FDCWD, atflags = 0, fd, r;
	int is_open = nr == SYS_open || nr == SYS_openat;
	uint64_t uname, flags = 0;
	struct stat st;

	switch (nr) {
	case SYS_open:
		uname = a[0];
		flags = a[1];
		break;
	case SYS_openat:
		dirfd = (int)a[0];
		uname = a[1];
		flags = a[2];
		break;
	case SYS_stat:
	case SYS_lstat:
		uname = a[0];
		atflags = nr == SYS_lstat ? AT_SYMLINK_NOFOLLOW : 0;
		break;
	case SYS_newfstatat:
	case SYS_statx:
		dirfd = (int)a[0];
		uname = a[1];
		atflags = (int)(nr == SYS_statx ? a[2] : a[3]);
		break;
	default: /* openat2: its struct is another copy; not timed here */
		answer(lfd, req->id, 0, 0, 1);
		return;
	}
	r = copy_name(req->pid, uname, name, sizeof(name));
	if (r < 0 || (!name[0] && (atflags & AT_EMPTY_PATH))) {
		answer(lfd, req->id, 0, 0, 1); /* a descriptor's stat */
		return;
	}
	r = absolute(req->pid, dirfd, name, path, sizeof(path));
	if (r < 0) {
		answer(lfd, req->id, -1, r, 0);
		return;
	}
	if (is_open && mode == INJECT) {
		how.flags = flags | O_CLOEXEC;
		if ((flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE)
			how.mode = a[nr == SYS_open ? 2 : 3] & 07777;
	} else if (is_open) {
		how.flags = O_PATH | O_CLOEXEC | (flags & O_NOFOLLOW);
	} else {
		how.flags = O_PATH | O_CLOEXEC |
			    ((atflags & AT_SYMLINK_NOFOLLOW) ? O_NOFOLLOW : 0);
	}
	fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
	if (fd < 0) {
		/* A magic link, or (exact) a name to create: what fbac-run
		 * decides another way; the kernel answers. Else its error. */
		if (errno == ELOOP || errno == EXDEV ||
		    (is_open && mode == EXACT))
			answer(lfd, req->id, 0, 0, 1);
		else
			answer(lfd, req->id, -1, -errno, 0);
		return;
	}
	if (nr == SYS_statx) {
		struct statx stx;

		r = statx(fd, "", AT_EMPTY_PATH | (atflags & AT_STATX_SYNC_TYPE),
			  (unsigned)a[3], &stx);
		if (r == 0)
			write_stat(req->pid, a[4], &stx, sizeof(stx));
	} else {
		r = fstat(fd, &st);
		if (r == 0 && !is_open)
			write_stat(req->pid, nr == SYS_newfstatat ? a[2] : a[1],
				   &st, sizeof(st));
	}
	if (r < 0)
		answer(lfd, req->id, -1, -errno, 0);
	else if (!is_open)
		answer(lfd, req->id, 0, 0, 0);
	else if (mode == EXACT)
		answer(lfd, req->id, 0, 0, 1);
	else {
		struct seccomp_notif_addfd add = {
			.id = req->id,
			.flags = SECCOMP_ADDFD_FLAG_SEND,
			.srcfd = (unsigned)fd,
			.newfd_flags = (flags & O_CLOEXEC) ? O_CLOEXEC : 0,
		};

		if (ioctl(lfd, SECCOMP_IOCTL_NOTIF_ADDFD, &add) < 0)
			answer(lfd, req->id, -1, -errno, 0);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	enum mode mode = EXACT;
	int stats = 0, sv[2], lfd, status = 0, opt;
	uint64_t sync = SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP;
	struct sigaction sa = { .sa_handler = on_chld };
	pid_t pid;

	while ((opt = getopt(argc, argv, "+m:s")) != -1) {
		if (opt == 's')
			stats = 1;
		else if (opt == 'm' && !strcmp(optarg, "bare"))
			mode = BARE;
		else if (opt == 'm' && !strcmp(optarg, "exact"))
			mode = EXACT;
		else if (opt == 'm' && !strcmp(optarg, "inject"))
			mode = INJECT;
		else
			optind = argc + 1;
	}
	if (optind >= argc) {
		fprintf(stderr,
			"usage: bench-emulate-floor [-m bare|exact|inject] [-s] CMD [ARG...]\n");
		return 64;
	}
	/* No SA_RESTART: the child's end interrupts NOTIF_RECV. */
	sigaction(SIGCHLD, &sa, NULL);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return 126;
	pid = fork();
	if (pid < 0)
		return 126;
	if (pid == 0)
		_exit(run_child(sv[1], stats, argv + optind));
	close(sv[1]);
	lfd = recv_fd(sv[0]);
	close(sv[0]);
	if (lfd >= 0)
		(void)ioctl(lfd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, sync);
	while (lfd >= 0 && !child_done) {
		struct seccomp_notif req;

		memset(&req, 0, sizeof(req));
		if (ioctl(lfd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			break;
		}
		if (mode == BARE)
			answer(lfd, req.id, 0, 0, 1);
		else
			handle(lfd, &req, mode);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 126;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
