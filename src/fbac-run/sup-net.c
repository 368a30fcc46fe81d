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
#include "sup-net.h"
#include "sup.h"
#include "target.h"


int read_addr(struct call *c, uint64_t ptr, uint64_t len,
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

int sock_opt(int fd, int opt)
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
bool stream_ignores_address(int fd)
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
int decide_addr(struct call *c, int sock, enum fbac_op op,
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
		mode_t old = umask_enter(c);

		if (bind(sock, (struct sockaddr *)&a.ss, a.len) < 0)
			err = -errno;
		umask_leave(old);
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
		handle_sendto(c);
		return;
	case SYS_sendmsg:
		handle_sendmsg(c, false);
		return;
	case SYS_sendmmsg:
		handle_sendmsg(c, true);
		return;
	default:
		respond(c, 0, -ENOSYS);
	}
}
