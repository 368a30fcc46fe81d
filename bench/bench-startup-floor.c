/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's share of a confined start: the Landlock rules and the
 * seccomp filter that fbac-run makes for a policy, made by a program that
 * does nothing else, then CMD run under them. Timed next to `true` and to
 * fbac-run with the same policy (bench/bench-run.sh), it says how much of
 * a start no launcher that makes these rules at each start can avoid:
 * Landlock keeps no rule set across runs.
 *
 * usage: bench-startup-floor [-v] RULES FILTER CMD [ARG...]
 * RULES is a file of lines "LAYER PATH" (LAYER 0 or 1: fbac-run's two
 * rule sets, the supervisor's and the program's), as bench-run.sh writes
 * them from `strace -y -e trace=landlock_add_rule` of fbac-run. For each
 * line: open(PATH, O_PATH), fstat, landlock_add_rule, close; a PATH of
 * "@port" is a rule for a TCP port instead (a distinct one a line). Then: no
 * new privileges, layer 0 enforced on this process; a fork; in the child
 * layer 1 enforced, the seccomp filter FILTER loaded with a listener
 * (taken by this process with pidfd_getfd, which continues every
 * notified call without a look), CMD executed; this process waits and exits with CMD's status. FILTER is a file of lines
 * "CODE JT JF K" (fbac-run's filter, which bench-run.sh reads from
 * `strace -v -e trace=seccomp`), or a number: a chain of that many
 * comparisons (the kernel's work on load depends on the filter's shape:
 * at load it runs the filter for every system call number to find the
 * ones it always allows). -v prints to standard error
 * the microseconds of the rules and of the filter.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/landlock.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_FILTER 4096
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
/* ABI 4's structures, which older headers lack. */
struct ruleset_attr {
	uint64_t handled_access_fs, handled_access_net;
};
struct net_port_attr {
	uint64_t allowed_access, port;
};
#define NET_BIND_TCP (1ULL << 0)
#define NET_CONNECT_TCP (1ULL << 1)
#define RULE_NET_PORT 2
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif

static double now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

/* Every file-system right the running kernel's ABI knows. */
static uint64_t fs_rights(int abi)
{
	uint64_t r = (LANDLOCK_ACCESS_FS_MAKE_SYM << 1) - 1;

	if (abi >= 2)
		r |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		r |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		r |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return r;
}

static int add_rules(const char *file, const int rs[2], uint64_t handled)
{
	const uint64_t file_only = LANDLOCK_ACCESS_FS_EXECUTE |
				   LANDLOCK_ACCESS_FS_WRITE_FILE |
				   LANDLOCK_ACCESS_FS_READ_FILE |
				   LANDLOCK_ACCESS_FS_TRUNCATE |
				   LANDLOCK_ACCESS_FS_IOCTL_DEV;
	char line[4200];
	FILE *f = fopen(file, "re");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct landlock_path_beneath_attr pb;
		char *path = strchr(line, ' ');
		struct stat st;
		int layer = line[0] == '1';

		if (!path)
			continue;
		path++;
		path[strcspn(path, "\n")] = 0;
		if (!strcmp(path, "@port")) { /* a port rule */
			struct net_port_attr np = {
				.allowed_access = NET_BIND_TCP | NET_CONNECT_TCP,
				.port = (uint64_t)(1024 + n),
			};

			if (syscall(SYS_landlock_add_rule, rs[layer],
				    RULE_NET_PORT, &np, 0) == 0)
				n++;
			continue;
		}
		pb.parent_fd = open(path, O_PATH | O_CLOEXEC);
		if (pb.parent_fd < 0)
			continue;
		if (fstat(pb.parent_fd, &st) == 0) {
			pb.allowed_access = handled;
			if (!S_ISDIR(st.st_mode))
				pb.allowed_access &= file_only;
			if (syscall(SYS_landlock_add_rule, rs[layer],
				    LANDLOCK_RULE_PATH_BENEATH, &pb, 0) == 0)
				n++;
		}
		close(pb.parent_fd);
	}
	fclose(f);
	return n;
}

/* The filter: FILTER's lines "CODE JT JF K" (decimal), or, if FILTER is a
 * number, that many instructions that compare the system call's number
 * against numbers that are no system call's, then allow. */
static int load_filter(const char *filter, unsigned *len)
{
	static struct sock_filter insns[MAX_FILTER];
	struct sock_fprog prog = { 0, insns };
	char *end;
	unsigned long n = strtoul(filter, &end, 10), i;

	if (!*end && n >= 3 && n <= MAX_FILTER) {
		insns[0] = (struct sock_filter)
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
				 offsetof(struct seccomp_data, nr));
		for (i = 1; i + 2 < n; i++)
			insns[i] = (struct sock_filter)
				BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 100000 + i,
					 (unsigned char)(n - 2 - i), 0);
		insns[n - 2] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
							    SECCOMP_RET_ALLOW);
		insns[n - 1] = (struct sock_filter)
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF);
	} else {
		FILE *f = fopen(filter, "re");
		unsigned code, jt, jf, k;

		if (!f)
			return -1;
		n = 0;
		while (n < MAX_FILTER &&
		       fscanf(f, "%u %u %u %u", &code, &jt, &jf, &k) == 4)
			insns[n++] = (struct sock_filter){ (unsigned short)code,
							   (unsigned char)jt,
							   (unsigned char)jf,
							   k };
		fclose(f);
		if (n == 0)
			return -1;
	}
	prog.len = (unsigned short)n;
	*len = (unsigned)n;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
}

static volatile sig_atomic_t child_done;

static void on_chld(int sig)
{
	(void)sig;
	child_done = 1;
}

/* Until CMD ends: every notified call continued without a look. The
 * listener wakes the caller synchronously, as fbac-run's does
 * (supervise.c): the floor is what fbac-run's own round trips cost. */
static void answer_all(int lfd)
{
	uint64_t sync = SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP;

	(void)ioctl(lfd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, sync);
	while (!child_done) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;

		memset(&req, 0, sizeof(req));
		if (ioctl(lfd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			return;
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		(void)ioctl(lfd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

int main(int argc, char **argv)
{
	int verbose = 0, abi, rs[2], n, status, lfd, sv[2], ack[2], pidfd;
	struct sigaction sa = { .sa_handler = on_chld };
	struct ruleset_attr attr = { 0, 0 };
	double t0, t1;
	unsigned len = 0;
	size_t size;
	pid_t pid;

	if (argc > 1 && !strcmp(argv[1], "-v")) {
		verbose = 1;
		argv++;
		argc--;
	}
	if (argc < 4) {
		fprintf(stderr,
			"usage: bench-startup-floor [-v] RULES FILTER CMD [ARG...]\n");
		return 64;
	}
	t0 = now_us();
	abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0,
			   LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 1) {
		perror("bench-startup-floor: landlock");
		return 126;
	}
	attr.handled_access_fs = fs_rights(abi);
	if (abi >= 4)
		attr.handled_access_net = NET_BIND_TCP | NET_CONNECT_TCP;
	size = abi >= 4 ? sizeof(attr) : sizeof(attr.handled_access_fs);
	rs[0] = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	rs[1] = (int)syscall(SYS_landlock_create_ruleset, &attr, size, 0);
	n = rs[0] < 0 || rs[1] < 0 ?
		    -1 :
		    add_rules(argv[1], rs, attr.handled_access_fs);
	if (n < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_landlock_restrict_self, rs[0], 0) < 0) {
		perror("bench-startup-floor: rules");
		return 126;
	}
	t1 = now_us();
	/* No SA_RESTART: the child's end interrupts NOTIF_RECV. */
	sigaction(SIGCHLD, &sa, NULL);
	if (pipe2(sv, O_CLOEXEC) < 0 || pipe2(ack, O_CLOEXEC) < 0)
		return 126;
	pid = fork();
	if (pid < 0)
		return 126;
	if (pid == 0) {
		if (syscall(SYS_landlock_restrict_self, rs[1], 0) < 0 ||
		    (lfd = load_filter(argv[2], &len)) < 0 ||
		    write(sv[1], &lfd, sizeof(lfd)) != sizeof(lfd) ||
		    read(ack[0], &lfd, sizeof(lfd)) != sizeof(lfd)) {
			perror("bench-startup-floor: filter");
			_exit(126);
		}
		if (verbose)
			fprintf(stderr,
				"bench-startup-floor: %d rules in %.0f us, filter of %u in %.0f us\n",
				n, t1 - t0, len, now_us() - t1);
		close(rs[0]);
		close(rs[1]);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	/* The listener taken from the child (a message would be notified by
	 * fbac-run's filter, and answered by no one). */
	close(sv[1]);
	lfd = -1;
	if (read(sv[0], &n, sizeof(n)) == sizeof(n) &&
	    (pidfd = (int)syscall(SYS_pidfd_open, pid, 0)) >= 0)
		lfd = (int)syscall(SYS_pidfd_getfd, pidfd, n, 0);
	if (write(ack[1], &n, sizeof(n)) != sizeof(n) || lfd < 0)
		perror("bench-startup-floor: listener");
	else
		answer_all(lfd);
	if (waitpid(pid, &status, 0) < 0)
		return 126;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
