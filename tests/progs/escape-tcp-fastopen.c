/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 22b: TCP to a denied port, through the doors that are not
 * connect(2). No TCP is allowed by the policy; a listener outside waits on
 * 127.0.0.2:$ESC_TCP_PORT with TCP fast open enabled. Tried: connect,
 * sendto(MSG_FASTOPEN) (which connects from sendto), sendmsg(MSG_FASTOPEN),
 * sendmmsg(MSG_FASTOPEN), TCP_FASTOPEN_CONNECT + connect + write, and the
 * IPv4-mapped IPv6 spelling. The listener's log must stay empty.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include "escape-common.h"

#ifndef TCP_FASTOPEN_CONNECT
#define TCP_FASTOPEN_CONNECT 30
#endif

static int tcp(int fam)
{
	int s = socket(fam, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (s < 0)
		esc_setup_error("socket: %m");
	return s;
}

int main(void)
{
	const char *ps = getenv("ESC_TCP_PORT");
	struct sockaddr_in bad = { 0 };
	struct sockaddr_in6 bad6 = { 0 };
	int s, one = 1;
	ssize_t r;

	esc_init("tcp-fastopen", "TCP connect, sendto/sendmsg/sendmmsg with MSG_FASTOPEN and TCP_FASTOPEN_CONNECT to a denied port");
	if (!ps)
		esc_setup_error("ESC_TCP_PORT is not set");
	bad.sin_family = AF_INET;
	bad.sin_port = htons((uint16_t)atoi(ps));
	inet_pton(AF_INET, "127.0.0.2", &bad.sin_addr);
	bad6.sin6_family = AF_INET6;
	bad6.sin6_port = bad.sin_port;
	inet_pton(AF_INET6, "::ffff:127.0.0.2", &bad6.sin6_addr);

	s = tcp(AF_INET);
	if (connect(s, (struct sockaddr *)&bad, sizeof(bad)) == 0)
		esc_escape("connect to 127.0.0.2:%s", ps);
	else
		esc_say("connect: %m (held)");
	close(s);

	s = tcp(AF_INET);
	r = sendto(s, "tfo-sendto", 10, MSG_FASTOPEN, (struct sockaddr *)&bad, sizeof(bad));
	if (r >= 0)
		esc_escape("sendto(MSG_FASTOPEN) to 127.0.0.2:%s returned %zd", ps, r);
	else
		esc_say("sendto(MSG_FASTOPEN): %m (held)");
	close(s);

	s = tcp(AF_INET);
	{
		struct iovec iov = { "tfo-sendmsg", 11 };
		struct msghdr m = { .msg_name = &bad, .msg_namelen = sizeof(bad),
				    .msg_iov = &iov, .msg_iovlen = 1 };
		struct mmsghdr mm = { .msg_hdr = m };

		r = sendmsg(s, &m, MSG_FASTOPEN);
		if (r >= 0)
			esc_escape("sendmsg(MSG_FASTOPEN) returned %zd", r);
		else
			esc_say("sendmsg(MSG_FASTOPEN): %m (held)");
		close(s);
		s = tcp(AF_INET);
		r = sendmmsg(s, &mm, 1, MSG_FASTOPEN);
		if (r > 0)
			esc_escape("sendmmsg(MSG_FASTOPEN) returned %zd", r);
		else
			esc_say("sendmmsg(MSG_FASTOPEN): %m (held)");
		close(s);
		/* Without MSG_FASTOPEN, an unconnected stream socket's
		 * sendmsg with an address goes nowhere; it must stay so. */
		s = tcp(AF_INET);
		r = sendmsg(s, &m, MSG_NOSIGNAL);
		if (r >= 0)
			esc_escape("sendmsg with an address on an unconnected TCP socket returned %zd", r);
		else
			esc_say("sendmsg without MSG_FASTOPEN: %m (held)");
		close(s);
	}

	s = tcp(AF_INET);
	if (setsockopt(s, IPPROTO_TCP, TCP_FASTOPEN_CONNECT, &one, sizeof(one)) < 0)
		esc_say("TCP_FASTOPEN_CONNECT: %m");
	if (connect(s, (struct sockaddr *)&bad, sizeof(bad)) == 0) {
		esc_escape("deferred connect (TCP_FASTOPEN_CONNECT) to 127.0.0.2");
		if (write(s, "tfo-connect", 11) > 0)
			esc_escape("wrote through the deferred connect");
	} else
		esc_say("TCP_FASTOPEN_CONNECT + connect: %m (held)");
	close(s);

	s = tcp(AF_INET6);
	r = sendto(s, "tfo-mapped", 10, MSG_FASTOPEN, (struct sockaddr *)&bad6, sizeof(bad6));
	if (r >= 0)
		esc_escape("sendto(MSG_FASTOPEN) to ::ffff:127.0.0.2 returned %zd", r);
	else
		esc_say("sendto(MSG_FASTOPEN) to ::ffff:127.0.0.2: %m (held)");
	close(s);
	return esc_finish();
}
