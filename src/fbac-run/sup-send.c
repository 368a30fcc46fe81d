/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * sendto, sendmsg, sendmmsg: never continued. The supervisor copies the
 * message once (data, address, control with the program's descriptors
 * taken over), decides the address on its copy of the socket, and sends
 * it itself. A send that would block is finished by a worker, so a full
 * queue cannot stall every other sandboxed call.
 */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "call.h"
#include "macro.h"
#include "sup-handlers.h"
#include "target.h"

/* Limits of what one send may carry (fbac-run copies it). */
#define MAX_SEND FBAC_MAX_SEND
#define MAX_CONTROL FBAC_MAX_CONTROL
#define MAX_IOV FBAC_MAX_IOV

/* One message, copied out of the program and ready to send. */
struct outmsg {
	struct msghdr m;
	struct iovec iov;
	char *data;
	char *control;
	int fds[MAX_CONTROL / sizeof(int)];
	int nfds;
	struct addr a;
	struct resolved keep;
};

static void outmsg_free(struct outmsg *o)
{
	for (int i = 0; i < o->nfds; i++)
		close(o->fds[i]);
	o->nfds = 0;
	free(o->data);
	free(o->control);
	o->data = o->control = NULL;
	resolved_close(&o->keep);
}

/* Take the program's descriptors in SCM_RIGHTS over into ours. */
static int take_rights(struct call *c, struct outmsg *o, size_t len)
{
	struct msghdr tmp = { .msg_control = o->control,
			      .msg_controllen = len };

	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&tmp); cm;
	     cm = CMSG_NXTHDR(&tmp, cm)) {
		size_t k;
		int *v;

		/* The program wrote cmsg_len: trust nothing in it. */
		if (cm->cmsg_len < CMSG_LEN(0) ||
		    cm->cmsg_len > len - (size_t)((char *)cm - o->control))
			return -EINVAL;
		if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_type != SCM_RIGHTS)
			continue;
		v = (int *)CMSG_DATA(cm);
		k = (cm->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		if (k > ARRAY_SIZE(o->fds) - (size_t)o->nfds)
			return -EINVAL;
		for (size_t i = 0; i < k; i++) {
			int fd = target_getfd(c->tid, v[i]);

			if (fd < 0)
				return fd;
			o->fds[o->nfds++] = fd;
			v[i] = fd;
		}
	}
	return 0;
}

/*
 * Whether the kernel ignores (or refuses) the address of sendmsg on this
 * socket: TCP and unix streams. SCTP streams can set up an association
 * from sendmsg, so they do not qualify.
 */
static bool stream_ignores_address(int fd)
{
	int domain = sock_opt(fd, SO_DOMAIN), proto = sock_opt(fd, SO_PROTOCOL);

	if (sock_opt(fd, SO_TYPE) != SOCK_STREAM)
		return false;
	if (domain == AF_UNIX)
		return true;
	return (domain == AF_INET || domain == AF_INET6) &&
	       (proto == IPPROTO_TCP || proto == 0);
}

/*
 * Copy the msghdr at mptr. On a stream socket (TCP, unix) the address is
 * dropped, as the kernel ignores or refuses it there, unless TCP fast
 * open makes it a connect; elsewhere it is decided.
 */
static int prepare(struct call *c, int sock, uint64_t mptr, int flags,
		   struct outmsg *o)
{
	struct msghdr m;
	struct iovec riov[MAX_IOV];
	size_t total = 0;
	int err;

	memset(o, 0, sizeof(*o));
	o->keep.fd = o->keep.parent_fd = -1;
	if (target_read(c->tid, mptr, &m, sizeof(m)) < 0)
		return -EFAULT;
	if (m.msg_iovlen > MAX_IOV || m.msg_controllen > MAX_CONTROL)
		return -EMSGSIZE;
	if (m.msg_name && m.msg_namelen &&
	    (!stream_ignores_address(sock) || (flags & MSG_FASTOPEN))) {
		if ((err = call_read_addr(c, (uint64_t)(uintptr_t)m.msg_name,
					  m.msg_namelen, &o->a)) < 0)
			return err;
		if ((err = call_decide_addr(c, sock, FBAC_OP_NETWORK_OUTGOING,
					    &o->a, &o->keep)) < 0)
			return err;
		o->m.msg_name = &o->a.ss;
		o->m.msg_namelen = o->a.len;
	}
	if (m.msg_iovlen &&
	    target_read(c->tid, (uint64_t)(uintptr_t)m.msg_iov, riov,
			m.msg_iovlen * sizeof(*riov)) < 0)
		return -EFAULT;
	for (size_t i = 0; i < m.msg_iovlen; i++) {
		total += riov[i].iov_len;
		if (total > MAX_SEND)
			return -EMSGSIZE;
	}
	o->data = malloc(total ? total : 1);
	if (!o->data)
		return -ENOMEM;
	for (size_t i = 0, off = 0; i < m.msg_iovlen; i++) {
		if (target_read(c->tid, (uint64_t)(uintptr_t)riov[i].iov_base,
				o->data + off, riov[i].iov_len) < 0)
			return -EFAULT;
		off += riov[i].iov_len;
	}
	o->iov = (struct iovec){ o->data, total };
	o->m.msg_iov = &o->iov;
	o->m.msg_iovlen = 1;
	if (m.msg_controllen) {
		o->control = calloc(1, m.msg_controllen);
		if (!o->control)
			return -ENOMEM;
		if (target_read(c->tid, (uint64_t)(uintptr_t)m.msg_control,
				o->control, m.msg_controllen) < 0)
			return -EFAULT;
		if ((err = take_rights(c, o, m.msg_controllen)) < 0)
			return err;
		o->m.msg_control = o->control;
		o->m.msg_controllen = m.msg_controllen;
	}
	return 0;
}

/* Whether a send on sock with flags may wait, as the program expects. */
static bool may_block(int sock, int flags)
{
	int fl = fcntl(sock, F_GETFL);

	return !(flags & MSG_DONTWAIT) && fl >= 0 && !(fl & O_NONBLOCK);
}

struct send_req {
	struct call c;
	struct seccomp_notif req;
	int sock, flags;
	struct outmsg o;
	uint64_t len_at; /* sendmmsg: where to write msg_len, or 0 */
};

static void send_blocking(void *p)
{
	struct send_req *r = p;
	ssize_t n;

	r->c.req = &r->req;
	n = sendmsg(r->sock, &r->o.m, r->flags | MSG_NOSIGNAL);
	if (n < 0) {
		call_respond(&r->c, 0, -errno);
	} else if (r->len_at) {
		unsigned len = (unsigned)n;

		if (target_write(r->c.tid, r->len_at, &len, sizeof(len)) < 0)
			call_respond(&r->c, 0, -EFAULT);
		else
			call_respond(&r->c, 1, 0);
	} else {
		call_respond(&r->c, n, 0);
	}
	outmsg_free(&r->o);
	close(r->sock);
	free(r);
}

/*
 * Send o without waiting; when it would block and the program expects a
 * blocking send, hand it (and sock and o) to a worker, which responds.
 * Return: bytes sent, -errno, or 1 + INT32_MAX when handed over.
 */
#define HANDED_OVER ((ssize_t)INT32_MAX + 1)
static ssize_t send_or_hand_over(struct call *c, int sock, struct outmsg *o,
				 int flags, uint64_t len_at)
{
	struct send_req *r;
	ssize_t n = sendmsg(sock, &o->m, flags | MSG_NOSIGNAL | MSG_DONTWAIT);

	if (n >= 0)
		return n;
	if ((errno != EAGAIN && errno != EWOULDBLOCK) || !may_block(sock, flags))
		return -errno;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->c = *c;
	r->req = *c->req;
	r->sock = sock;
	r->flags = flags;
	r->o = *o;
	r->o.m.msg_iov = &r->o.iov;
	if (r->o.m.msg_name)
		r->o.m.msg_name = &r->o.a.ss;
	r->len_at = len_at;
	if (call_run_slow(c, send_blocking, r) < 0) {
		free(r);
		return -ENOMEM;
	}
	memset(o, 0, sizeof(*o)); /* now the worker's */
	o->keep.fd = o->keep.parent_fd = -1;
	return HANDED_OVER;
}

static void handle_sendto(struct call *c)
{
	struct outmsg o;
	uint64_t len = ARG(c, 2);
	int flags = (int)ARG(c, 3), sock, err;
	ssize_t n;

	memset(&o, 0, sizeof(o));
	o.keep.fd = o.keep.parent_fd = -1;
	if (len > MAX_SEND) {
		call_respond(c, 0, -EMSGSIZE);
		return;
	}
	sock = target_getfd(c->tid, (int)ARG(c, 0));
	if (sock < 0) {
		call_respond(c, 0, sock);
		return;
	}
	if ((err = call_read_addr(c, ARG(c, 4), ARG(c, 5), &o.a)) < 0 ||
	    (err = call_decide_addr(c, sock, FBAC_OP_NETWORK_OUTGOING, &o.a,
				    &o.keep)) < 0)
		goto fail;
	o.data = malloc(len ? len : 1);
	if (!o.data) {
		err = -ENOMEM;
		goto fail;
	}
	if (target_read(c->tid, ARG(c, 1), o.data, len) < 0) {
		err = -EFAULT;
		goto fail;
	}
	o.iov = (struct iovec){ o.data, len };
	o.m.msg_iov = &o.iov;
	o.m.msg_iovlen = 1;
	o.m.msg_name = &o.a.ss;
	o.m.msg_namelen = o.a.len;
	n = send_or_hand_over(c, sock, &o, flags, 0);
	if (n == HANDED_OVER)
		return;
	outmsg_free(&o);
	close(sock);
	call_respond(c, n < 0 ? 0 : n, n < 0 ? (int)n : 0);
	return;
fail:
	outmsg_free(&o);
	close(sock);
	call_respond(c, 0, err);
}

static void handle_sendmsg(struct call *c, bool many)
{
	int flags = (int)ARG(c, many ? 3 : 2), sock, err = 0;
	unsigned vlen = many ? (unsigned)ARG(c, 2) : 1, done = 0;
	struct outmsg o;

	sock = target_getfd(c->tid, (int)ARG(c, 0));
	if (sock < 0) {
		call_respond(c, 0, sock);
		return;
	}
	if (vlen > MAX_IOV)
		vlen = MAX_IOV;
	for (; done < vlen; done++) {
		uint64_t at = many ? ARG(c, 1) + done * sizeof(struct mmsghdr) :
				     ARG(c, 1);
		uint64_t len_at = many ? at + offsetof(struct mmsghdr, msg_len) :
					 0;
		ssize_t n;

		if ((err = prepare(c, sock, at, flags, &o)) < 0) {
			outmsg_free(&o);
			break;
		}
		/* Only the first message may wait (sendmmsg returns what it
		 * sent once one is sent). */
		n = done == 0 ? send_or_hand_over(c, sock, &o, flags, len_at) :
				sendmsg(sock, &o.m,
					flags | MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n == HANDED_OVER)
			return; /* the worker owns sock now */
		if (done > 0 && n < 0)
			n = -errno;
		outmsg_free(&o);
		if (n < 0) {
			err = (int)n;
			break;
		}
		if (!many) {
			close(sock);
			call_respond(c, n, 0);
			return;
		}
		{
			unsigned len = (unsigned)n;

			if (target_write(c->tid, len_at, &len, sizeof(len)) < 0) {
				err = -EFAULT;
				break;
			}
		}
	}
	close(sock);
	if (done)
		call_respond(c, done, 0);
	else
		call_respond(c, 0, err);
}

void handle_send(struct call *c)
{
	switch (c->nr) {
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
		call_respond(c, 0, -ENOSYS);
	}
}
