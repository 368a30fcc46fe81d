/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Socket syscalls that carry an address: the supervisor copies the
 * address once, decides, and performs the call itself on a copy of the
 * target's socket (pidfd_getfd). Stream sockets ignore the address of
 * sendmsg (the kernel refuses one on a connected stream), so those
 * continue; TCP fast open, which connects from sendmsg, does not. The
 * sends are sup-send.c's; both decide addresses with call_decide_addr().
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

#include "call.h"
#include "macro.h"
#include "sup-handlers.h"
#include "target.h"


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
		call_respond(&r->c, 0, -errno);
	else
		call_respond(&r->c, 0, 0);
	close(r->sock);
	resolved_close(&r->keep);
	free(r);
}

static void h_connect_bind(struct call *c, bool is_bind)
{
	struct resolved keep;
	struct addr a;
	int sock, err, fl;

	err = call_read_addr(c, ARG(c, 1), ARG(c, 2), &a);
	if (err < 0) {
		call_respond(c, 0, err);
		return;
	}
	sock = target_getfd(c->tid, (int)ARG(c, 0));
	if (sock < 0) {
		call_respond(c, 0, sock);
		return;
	}
	err = call_decide_addr(c, sock,
			       is_bind ? FBAC_OP_NETWORK_INCOMING :
					 FBAC_OP_NETWORK_OUTGOING,
			       &a, &keep);
	if (err < 0)
		goto out;
	if (is_bind) {
		mode_t old = call_umask_enter(c);

		if (bind(sock, (struct sockaddr *)&a.ss, a.len) < 0)
			err = -errno;
		call_umask_leave(old);
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
		if ((err = call_run_slow(c, connect_blocking, r)) < 0) {
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
	call_respond(c, 0, err);
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
		call_respond(c, 0, sock);
		return;
	}
	if (getsockname(sock, (struct sockaddr *)&ss, &len) == 0 &&
	    (ss.ss_family == AF_INET || ss.ss_family == AF_INET6)) {
		uint16_t port = ss.ss_family == AF_INET ?
					ntohs(((struct sockaddr_in *)&ss)->sin_port) :
					ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
		int type = sock_opt(sock, SO_TYPE),
		    proto = sock_opt(sock, SO_PROTOCOL);
		struct fbac_query q = { .op = FBAC_OP_NETWORK_INCOMING,
					.proto = FBAC_PROTO_TCP,
					.port = 0 };

		if (type != SOCK_STREAM || (proto != IPPROTO_TCP && proto != 0))
			err = -EACCES;
		else if (port == 0 && !call_decide(c, &q))
			err = -EACCES;
	}
	if (!err && listen(sock, (int)ARG(c, 1)) < 0)
		err = -errno;
	close(sock);
	call_respond(c, 0, err);
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
	default:
		call_respond(c, 0, -ENOSYS);
	}
}
