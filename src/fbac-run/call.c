/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-call toolkit's core (call.h): the answers (respond, continue,
 * inject a descriptor), each counted against the rule that a
 * notification is finished exactly once; the decisions, of a path (with
 * /proc/PID of the sandbox's own processes named /proc/self, as the
 * policy does) or an address over every entry of the program's stack,
 * the event logged, a unix socket's path resolved and reached through
 * our own descriptor of it; the program's umask around a creation; the
 * slow path, a worker thread for a call that would block the receiver.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "call-parts.h"
#include "output.h"
#include "path.h"
#include "target.h"

/* ---- answers ---- */

static int send_resp(struct call *c, struct seccomp_notif_resp *resp)
{
	resp->id = c->req->id;
	if (ioctl(c->s->listener, SECCOMP_IOCTL_NOTIF_SEND, resp) < 0) {
		/* ENOENT: the target died or its call was interrupted. */
		return -errno;
	}
	return 0;
}

/* One more answer to c (THE RULE of call.h: exactly one). */
static void finish(struct call *c)
{
	c->finished++;
#ifdef FBAC_DEBUG
	if (c->finished > 1)
		call_check_finished(c);
#endif
}

void call_respond(struct call *c, int64_t val, int error)
{
	struct seccomp_notif_resp resp = { 0 };

	finish(c);
	resp.val = val;
	resp.error = error;
	send_resp(c, &resp);
}

void call_continue(struct call *c)
{
	struct seccomp_notif_resp resp = { 0 };

	finish(c);
	resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	send_resp(c, &resp);
}

void call_inject_fd(struct call *c, int fd, bool cloexec)
{
	struct seccomp_notif_addfd addfd = {
		.id = c->req->id,
		.flags = SECCOMP_ADDFD_FLAG_SEND,
		.srcfd = (unsigned)fd,
		.newfd = 0,
		.newfd_flags = cloexec ? O_CLOEXEC : 0,
	};

	finish(c);
	/* On success the target's call returns the new descriptor. */
	if (ioctl(c->s->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &addfd) < 0) {
		int e = errno;
		struct seccomp_notif_resp resp = { .error = -e };

		if (e != ENOENT)
			send_resp(c, &resp);
	}
}

void call_drop(struct call *c)
{
	finish(c);
}

#ifdef FBAC_DEBUG
void call_check_finished(const struct call *c)
{
	if (c->finished == 1)
		return;
	log_error(0, "internal error: syscall %d of [%d] answered %u times, not once (the rule of call.h)",
		  c->nr, (int)c->tid, c->finished);
	abort();
}
#endif

bool call_valid(struct call *c)
{
	uint64_t id = c->req->id;

	return ioctl(c->s->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

/* ---- decisions ---- */

/*
 * Whether pid runs in this sandbox: fbac-run is a subreaper, so every
 * process of the sandbox, orphans included, descends from it.
 */
static bool in_sandbox(struct call *c, pid_t pid)
{
	struct target_stat ts;

	for (int depth = 0; depth < 64 && pid > 1; depth++) {
		if (target_proc_stat(pid, &ts) < 0)
			return false;
		pid = ts.ppid;
		if (pid == c->s->self)
			return true;
	}
	return false;
}

/*
 * Translate /proc/<pid>/... back into /proc/self/... when pid is the
 * caller, or another process of the same sandbox: what the policy calls
 * /proc/self is the sandbox's own processes (a browser reads and tunes
 * its content processes' entries). Other processes keep their number.
 */
static const char *policy_path(struct call *c, const char *path, char *buf,
			       size_t size)
{
	char pre[64], *end;
	long pid;
	size_t l;

	if (strncmp(path, "/proc/", 6))
		return path;
	l = (size_t)snprintf(pre, sizeof(pre), "/proc/%d/task/%d",
			     (int)call_tgid(c), (int)c->tid);
	if (!strncmp(path, pre, l) && (path[l] == 0 || path[l] == '/')) {
		snprintf(buf, size, "/proc/thread-self%s", path + l);
		return buf;
	}
	pid = strtol(path + 6, &end, 10);
	if (end == path + 6 || (*end && *end != '/') || pid <= 0)
		return path;
	if (pid == c->tgid || (pid != c->s->self && in_sandbox(c, (pid_t)pid))) {
		snprintf(buf, size, "/proc/self%s", end);
		return buf;
	}
	return path;
}

bool call_decide(struct call *c, const struct fbac_query *q)
{
	struct fbac_verdict v = { 0 };
	const struct fbac_stack_entry *denier =
		fbac_stack_query(c->s->stack, q, &v);

	/* Under a nested run: its policy must allow it too. */
	if (!denier && __atomic_load_n(&c->s->nested_runs, __ATOMIC_ACQUIRE))
		return nest_decide(c, q, &v, false);
	if (denier || c->s->mode == MODE_LEARN)
		event_log(c, q, !denier, denier, &v);
	if (!denier)
		return true;
	return c->s->mode != MODE_ENFORCE;
}

bool call_would_allow_path(struct call *c, enum fbac_op op, const char *path)
{
	char buf[FBAC_MAX_PATH];
	struct fbac_verdict v;

	path = policy_path(c, path, buf, sizeof(buf));
	if (!fbac_path_is_normal(path) ||
	    fbac_stack_check_path(c->s->stack, op, path, &v))
		return false;
	return !__atomic_load_n(&c->s->nested_runs, __ATOMIC_ACQUIRE) ||
	       nest_would_allow(c, op, path);
}

/* The query for op on path, as the policy names it (in buf); false for a
 * path we could not express canonically, which is never allowed. */
static bool path_query(struct call *c, enum fbac_op op, const char *path,
		       char *buf, size_t size, struct fbac_query *q)
{
	*q = (struct fbac_query){ .op = op };
	q->path = policy_path(c, path, buf, size);
	return q->path[0] != '/' || fbac_path_is_normal(q->path);
}

bool call_decide_path(struct call *c, enum fbac_op op, const char *path)
{
	char buf[FBAC_MAX_PATH];
	struct fbac_query q;

	return path_query(c, op, path, buf, sizeof(buf), &q) &&
	       call_decide(c, &q);
}

bool call_decide_getattr(struct call *c, const char *path)
{
	char buf[FBAC_MAX_PATH];
	struct fbac_query q;

	if (!c->s->metadata_visible)
		return call_decide_path(c, FBAC_OP_FILE_GETATTR, path);
	/* Visible to the program's policy: a nested run's that keeps
	 * metadata mediated still decides for its processes. */
	if (!__atomic_load_n(&c->s->nested_runs, __ATOMIC_ACQUIRE))
		return true;
	return path_query(c, FBAC_OP_FILE_GETATTR, path, buf, sizeof(buf), &q) &&
	       nest_decide(c, &q, NULL, true);
}

int call_read_addr(struct call *c, uint64_t ptr, uint64_t len, struct addr *a)
{
	memset(a, 0, sizeof(*a));
	if (len > sizeof(a->ss))
		return -EINVAL;
	if (len < sizeof(sa_family_t))
		return -EINVAL;
	if (target_read(c->tid, ptr, &a->ss, len) < 0)
		return -EFAULT;
	a->len = (socklen_t)len;
	return 0;
}

int sock_opt(int fd, int opt)
{
	int v = 0;
	socklen_t l = sizeof(v);

	if (getsockopt(fd, SOL_SOCKET, opt, &v, &l) < 0)
		return -errno;
	return v;
}

/*
 * Decide an address for op (outgoing or incoming). For unix paths, the
 * socket file is resolved and a name we can pass to the kernel (through
 * our descriptor of it) replaces the path in *a. Return: 0 to proceed,
 * or a negative errno.
 */
int call_decide_addr(struct call *c, int sock, enum fbac_op op,
		     struct addr *a, struct resolved *keep)
{
	struct fbac_query q = { .op = op };
	char host[INET6_ADDRSTRLEN], name[FBAC_MAX_PATH];
	int type, err;

	keep->fd = keep->parent_fd = -1;
	switch (a->ss.ss_family) {
	case AF_INET:
	case AF_INET6: {
		const void *ip;
		uint16_t port;
		int fam = a->ss.ss_family;
		struct sockaddr_in *in = (struct sockaddr_in *)&a->ss;
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&a->ss;

		if ((fam == AF_INET && a->len < sizeof(*in)) ||
		    (fam == AF_INET6 && a->len < sizeof(*in6)))
			return -EINVAL;
		type = sock_opt(sock, SO_TYPE);
		if (type < 0)
			return type;
		err = sock_opt(sock, SO_PROTOCOL);
		if (type == SOCK_STREAM && (err == IPPROTO_TCP || err == 0))
			q.proto = FBAC_PROTO_TCP;
		else if (type == SOCK_DGRAM && (err == IPPROTO_UDP || err == 0))
			q.proto = FBAC_PROTO_UDP;
		else
			return -EACCES; /* raw, SCTP, ICMP...: not in the vocabulary */
		if (fam == AF_INET) {
			ip = &in->sin_addr;
			port = ntohs(in->sin_port);
		} else if (IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
			/* Decide ::ffff:a.b.c.d as the IPv4 address it is. */
			ip = &in6->sin6_addr.s6_addr[12];
			fam = AF_INET;
			port = ntohs(in6->sin6_port);
		} else {
			ip = &in6->sin6_addr;
			port = ntohs(in6->sin6_port);
		}
		inet_ntop(fam, ip, host, sizeof(host));
		q.host = host;
		q.port = port;
		return call_decide(c, &q) ? 0 : -EACCES;
	}
	case AF_UNIX: {
		struct sockaddr_un *un = (struct sockaddr_un *)&a->ss;
		size_t plen = a->len - offsetof(struct sockaddr_un, sun_path);
		enum fbac_op uop = op == FBAC_OP_NETWORK_OUTGOING ?
					   FBAC_OP_UNIX_CONNECT :
					   FBAC_OP_UNIX_BIND;

		if (plen == 0)
			return 0; /* autobind / unnamed: nothing to decide */
		if (un->sun_path[0] == 0) {
			/* Abstract: the name is bytes, NULs included. */
			size_t o = 1;

			name[0] = '@';
			for (size_t i = 1; i < plen && o + 1 < sizeof(name); i++)
				name[o++] = un->sun_path[i] ? un->sun_path[i] : '@';
			name[o] = 0;
			return call_decide_path(c, uop, name) ? 0 : -EACCES;
		}
		if (plen >= sizeof(un->sun_path))
			plen = sizeof(un->sun_path) - 1;
		snprintf(name, sizeof(name), "%.*s", (int)plen, un->sun_path);
		err = call_resolve_path(c, AT_FDCWD, name,
				   uop == FBAC_OP_UNIX_CONNECT ?
					   RES_FOLLOW :
					   RES_PARENT | RES_MAY_MISS,
				   keep);
		if (err < 0)
			return err;
		if (!call_decide_path(c, uop, keep->path)) {
			resolved_close(keep);
			return -EACCES;
		}
		/* Reach the decided inode (or directory) through our fd. */
		if (uop == FBAC_OP_UNIX_CONNECT)
			err = snprintf(un->sun_path, sizeof(un->sun_path),
				       "/proc/self/fd/%d", keep->fd);
		else
			err = snprintf(un->sun_path, sizeof(un->sun_path),
				       "/proc/self/fd/%d/%s", keep->parent_fd,
				       keep->leaf);
		if (err < 0 || (size_t)err >= sizeof(un->sun_path)) {
			resolved_close(keep);
			return -ENAMETOOLONG;
		}
		a->len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
				     (size_t)err + 1);
		return 0;
	}
	case AF_NETLINK:
	case AF_UNSPEC:
		/* Talking to the kernel, or dissolving an association. */
		return 0;
	default:
		return -EAFNOSUPPORT;
	}
}

/* ---- the umask ---- */

static pthread_mutex_t umask_mutex = PTHREAD_MUTEX_INITIALIZER;

mode_t call_umask_enter(struct call *c)
{
	mode_t m = target_umask(c->tid);

	pthread_mutex_lock(&umask_mutex);
	return umask(m);
}

void call_umask_leave(mode_t old)
{
	umask(old);
	pthread_mutex_unlock(&umask_mutex);
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

int call_run_slow(struct call *c, void (*fn)(void *), void *arg)
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
	finish(c); /* the worker answers its copy */
	return 0;
}

