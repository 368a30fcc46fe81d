/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Socket syscalls that carry an address: the supervisor copies the
 * address once, decides, and performs the call itself on a copy of the
 * target's socket (pidfd_getfd). Stream sockets ignore the address of
 * sendmsg (the kernel refuses one on a connected stream), so those
 * continue; TCP fast open, which connects from sendmsg, does not.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>
#include <linux/netlink.h>

#include "macro.h"
#include "sup.h"
#include "target.h"

#define MAX_SEND (4u << 20)
#define MAX_CONTROL 4096
#define MAX_IOV 1024

struct addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

static int read_addr(struct call *c, uint64_t ptr, uint64_t len,
		     struct addr *a)
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

static int sock_opt(int fd, int opt)
{
	int v = 0;
	socklen_t l = sizeof(v);

	if (getsockopt(fd, SOL_SOCKET, opt, &v, &l) < 0)
		return -errno;
	return v;
}

static int sock_type(int fd)
{
	return sock_opt(fd, SO_TYPE);
}

/*
 * Whether the kernel ignores (or refuses) the address of sendmsg on this
 * socket: TCP and unix streams. SCTP streams can set up an association
 * from sendmsg, so they do not qualify.
 */
static bool stream_ignores_address(int fd)
{
	int domain = sock_opt(fd, SO_DOMAIN), proto = sock_opt(fd, SO_PROTOCOL);

	if (sock_type(fd) != SOCK_STREAM)
		return false;
	if (domain == AF_UNIX)
		return true;
	return (domain == AF_INET || domain == AF_INET6) &&
	       (proto == IPPROTO_TCP || proto == 0);
}

/*
 * Decide an address for op (outgoing or incoming). For unix paths, the
 * socket file is resolved and a name we can pass to the kernel (through
 * our descriptor of it) replaces the path in *a. Return: 0 to proceed,
 * or a negative errno.
 */
static int decide_addr(struct call *c, int sock, enum fbac_op op,
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
		type = sock_type(sock);
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
		return decide(c, &q) ? 0 : -EACCES;
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
			return decide_path(c, uop, name) ? 0 : -EACCES;
		}
		if (plen >= sizeof(un->sun_path))
			plen = sizeof(un->sun_path) - 1;
		snprintf(name, sizeof(name), "%.*s", (int)plen, un->sun_path);
		err = resolve_path(c, AT_FDCWD, name,
				   uop == FBAC_OP_UNIX_CONNECT ?
					   RES_FOLLOW :
					   RES_PARENT | RES_MAY_MISS,
				   keep);
		if (err < 0)
			return err;
		if (!decide_path(c, uop, keep->path)) {
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

struct connect_req {
	struct call c;
	struct seccomp_notif req;
	int sock;
	struct addr a;
	struct resolved keep; /* the unix socket named through our fd */
};

static void connect_blocking(void *p)
{
	struct connect_req *r = p;

	r->c.req = &r->req;
	if (connect(r->sock, (struct sockaddr *)&r->a.ss, r->a.len) < 0)
		respond(&r->c, 0, -errno);
	else
		respond(&r->c, 0, 0);
	close(r->sock);
	resolved_close(&r->keep);
	free(r);
}

static void h_connect_bind(struct call *c, bool is_bind)
{
	struct resolved keep;
	struct addr a;
	int sock, err, fl;

	err = read_addr(c, ARG(c, 1), ARG(c, 2), &a);
	if (err < 0) {
		respond(c, 0, err);
		return;
	}
	sock = target_getfd(c->tid, (int)ARG(c, 0));
	if (sock < 0) {
		respond(c, 0, sock);
		return;
	}
	err = decide_addr(c, sock,
			  is_bind ? FBAC_OP_NETWORK_INCOMING :
				    FBAC_OP_NETWORK_OUTGOING,
			  &a, &keep);
	if (err < 0)
		goto out;
	if (is_bind) {
		mode_t old = umask(target_umask(c->tid));

		if (bind(sock, (struct sockaddr *)&a.ss, a.len) < 0)
			err = -errno;
		umask(old);
		goto out;
	}
	fl = fcntl(sock, F_GETFL);
	if (fl >= 0 && !(fl & O_NONBLOCK)) {
		/* A blocking connect may take seconds: not on our thread. */
		struct connect_req *r = calloc(1, sizeof(*r));

		if (!r) {
			err = -ENOMEM;
			goto out;
		}
		r->c = *c;
		r->req = *c->req;
		r->sock = sock;
		r->a = a;
		r->keep = keep; /* the worker closes it after connecting */
		if ((err = run_slow(connect_blocking, r)) < 0) {
			free(r);
			goto out;
		}
		return;
	}
	if (connect(sock, (struct sockaddr *)&a.ss, a.len) < 0)
		err = -errno;
out:
	resolved_close(&keep);
	close(sock);
	respond(c, 0, err);
}

static void h_sendto(struct call *c)
{
	struct resolved keep;
	_cleanup_free_ char *buf = NULL;
	uint64_t len = ARG(c, 2);
	struct addr a;
	ssize_t n = 0;
	int sock, err;

	err = read_addr(c, ARG(c, 4), ARG(c, 5), &a);
	if (err < 0) {
		respond(c, 0, err);
		return;
	}
	if (len > MAX_SEND) {
		respond(c, 0, -EMSGSIZE);
		return;
	}
	sock = target_getfd(c->tid, (int)ARG(c, 0));
	if (sock < 0) {
		respond(c, 0, sock);
		return;
	}
	err = decide_addr(c, sock, FBAC_OP_NETWORK_OUTGOING, &a, &keep);
	if (err < 0)
		goto out;
	buf = malloc(len ? len : 1);
	if (!buf) {
		err = -ENOMEM;
		goto out;
	}
	if (target_read(c->tid, ARG(c, 1), buf, len) < 0) {
		err = -EFAULT;
		goto out;
	}
	n = sendto(sock, buf, len, (int)ARG(c, 3) | MSG_NOSIGNAL,
		   (struct sockaddr *)&a.ss, a.len);
	if (n < 0)
		err = -errno;
out:
	resolved_close(&keep);
	close(sock);
	respond(c, err ? 0 : n, err);
}

/* Copy one msghdr's data and control (with the target's descriptors
 * translated into ours) and send it; return bytes sent or -errno. */
static ssize_t send_one(struct call *c, int sock, uint64_t mptr, int flags)
{
	struct msghdr m, out = { 0 };
	struct iovec riov[MAX_IOV];
	_cleanup_free_ char *data = NULL, *control = NULL;
	int fds[MAX_CONTROL / sizeof(int)], nfds = 0;
	struct resolved keep = { .fd = -1, .parent_fd = -1 };
	struct addr a;
	size_t total = 0;
	ssize_t n = 0;
	int err = 0;

	if (target_read(c->tid, mptr, &m, sizeof(m)) < 0)
		return -EFAULT;
	if (m.msg_iovlen > MAX_IOV || m.msg_controllen > MAX_CONTROL)
		return -EMSGSIZE;
	if (m.msg_name) {
		if ((err = read_addr(c, (uint64_t)(uintptr_t)m.msg_name,
				     m.msg_namelen, &a)) < 0)
			return err;
		if ((err = decide_addr(c, sock, FBAC_OP_NETWORK_OUTGOING, &a,
				       &keep)) < 0)
			return err;
		out.msg_name = &a.ss;
		out.msg_namelen = a.len;
	}
	if (target_read(c->tid, (uint64_t)(uintptr_t)m.msg_iov, riov,
			m.msg_iovlen * sizeof(*riov)) < 0) {
		err = -EFAULT;
		goto out;
	}
	for (size_t i = 0; i < m.msg_iovlen; i++) {
		total += riov[i].iov_len;
		if (total > MAX_SEND) {
			err = -EMSGSIZE;
			goto out;
		}
	}
	data = malloc(total ? total : 1);
	if (!data) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t i = 0, o = 0; i < m.msg_iovlen; i++) {
		if (target_read(c->tid, (uint64_t)(uintptr_t)riov[i].iov_base,
				data + o, riov[i].iov_len) < 0) {
			err = -EFAULT;
			goto out;
		}
		o += riov[i].iov_len;
	}
	if (m.msg_controllen) {
		struct msghdr tmp = { 0 };

		control = calloc(1, m.msg_controllen);
		if (!control) {
			err = -ENOMEM;
			goto out;
		}
		if (target_read(c->tid, (uint64_t)(uintptr_t)m.msg_control,
				control, m.msg_controllen) < 0) {
			err = -EFAULT;
			goto out;
		}
		tmp.msg_control = control;
		tmp.msg_controllen = m.msg_controllen;
		/* Descriptors passed along are the target's: take copies. */
		for (struct cmsghdr *cm = CMSG_FIRSTHDR(&tmp); cm;
		     cm = CMSG_NXTHDR(&tmp, cm)) {
			int *v;
			size_t k;

			if (cm->cmsg_level != SOL_SOCKET ||
			    cm->cmsg_type != SCM_RIGHTS)
				continue;
			/* The program wrote cmsg_len: trust nothing in it. */
			if (cm->cmsg_len < CMSG_LEN(0) ||
			    cm->cmsg_len > m.msg_controllen -
						   (size_t)((char *)cm - control)) {
				err = -EINVAL;
				goto out;
			}
			v = (int *)CMSG_DATA(cm);
			k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
			if (k > ARRAY_SIZE(fds) - (size_t)nfds) {
				err = -EINVAL;
				goto out;
			}
			for (size_t i = 0; i < k; i++) {
				int fd = target_getfd(c->tid, v[i]);

				if (fd < 0) {
					err = fd;
					goto out;
				}
				fds[nfds++] = fd;
				v[i] = fd;
			}
		}
		out.msg_control = control;
		out.msg_controllen = m.msg_controllen;
	}
	{
		struct iovec one = { data, total };

		out.msg_iov = &one;
		out.msg_iovlen = 1;
		n = sendmsg(sock, &out, flags | MSG_NOSIGNAL);
		if (n < 0)
			err = -errno;
	}
out:
	for (int i = 0; i < nfds; i++)
		close(fds[i]);
	resolved_close(&keep);
	return err ? err : n;
}

static void h_sendmsg(struct call *c, bool many)
{
	int flags = (int)ARG(c, many ? 3 : 2);
	int sock, type = 0;
	ssize_t n;

	sock = target_getfd(c->tid, (int)ARG(c, 0));
	if (sock < 0) {
		respond(c, 0, sock);
		return;
	}
	(void)type;
	if (stream_ignores_address(sock) && !(flags & MSG_FASTOPEN)) {
		close(sock);
		respond_continue(c);
		return;
	}
	if (!many) {
		n = send_one(c, sock, ARG(c, 1), flags);
		close(sock);
		respond(c, n < 0 ? 0 : n, n < 0 ? (int)n : 0);
		return;
	}
	{
		uint64_t vec = ARG(c, 1);
		unsigned vlen = (unsigned)ARG(c, 2), done = 0;
		int err = 0;

		if (vlen > MAX_IOV)
			vlen = MAX_IOV;
		for (; done < vlen; done++) {
			uint64_t at = vec + done * sizeof(struct mmsghdr);
			unsigned len;

			n = send_one(c, sock, at, flags);
			if (n < 0) {
				err = (int)n;
				break;
			}
			len = (unsigned)n;
			if (target_write(c->tid,
					 at + offsetof(struct mmsghdr, msg_len),
					 &len, sizeof(len)) < 0) {
				err = -EFAULT;
				break;
			}
		}
		close(sock);
		if (done)
			respond(c, done, 0);
		else
			respond(c, 0, err);
	}
}

/*
 * listen() on an unbound socket binds it to a port the kernel picks,
 * without a bind() we could decide: that needs incoming on any port.
 */
static void h_listen(struct call *c)
{
	struct sockaddr_storage ss;
	socklen_t len = sizeof(ss);
	int sock, err = 0;

	sock = target_getfd(c->tid, (int)ARG(c, 0));
	if (sock < 0) {
		respond(c, 0, sock);
		return;
	}
	if (getsockname(sock, (struct sockaddr *)&ss, &len) == 0 &&
	    (ss.ss_family == AF_INET || ss.ss_family == AF_INET6)) {
		uint16_t port = ss.ss_family == AF_INET ?
					ntohs(((struct sockaddr_in *)&ss)->sin_port) :
					ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
		int type = sock_type(sock), proto = sock_opt(sock, SO_PROTOCOL);
		struct fbac_query q = { .op = FBAC_OP_NETWORK_INCOMING,
					.proto = FBAC_PROTO_TCP,
					.port = 0 };

		if (type != SOCK_STREAM || (proto != IPPROTO_TCP && proto != 0))
			err = -EACCES;
		else if (port == 0 && !decide(c, &q))
			err = -EACCES;
	}
	if (!err && listen(sock, (int)ARG(c, 1)) < 0)
		err = -errno;
	close(sock);
	respond(c, 0, err);
}

void handle_net(struct call *c)
{
	switch (c->nr) {
	case SYS_connect:
		h_connect_bind(c, false);
		return;
	case SYS_bind:
		h_connect_bind(c, true);
		return;
	case SYS_listen:
		h_listen(c);
		return;
	case SYS_sendto:
		h_sendto(c);
		return;
	case SYS_sendmsg:
		h_sendmsg(c, false);
		return;
	case SYS_sendmmsg:
		h_sendmsg(c, true);
		return;
	default:
		respond(c, 0, -ENOSYS);
	}
}
