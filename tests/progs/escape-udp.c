/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 22: UDP to a denied host and port. The policy allows UDP to
 * 127.0.0.1:47811 only; a listener outside waits on 127.0.0.2:$ESC_UDP_PORT
 * (Landlock does not restrict UDP: only the supervisor does). Tried:
 * sendto, the IPv4-mapped IPv6 spelling (::ffff:127.0.0.2), sendmsg,
 * sendmmsg with an allowed first message and a denied second one,
 * connect + send, connect to the allowed address then sendto the denied
 * one, an over-long address length, and a thread that flips the sendto
 * address buffer between the allowed and the denied port while the main
 * thread sends in a loop. The listener's log must stay empty.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>

#include "escape-common.h"

static struct sockaddr_in racy;
static atomic_int stop;

static void *flip_addr(void *p)
{
	struct sockaddr_in *pair = p;

	while (!atomic_load(&stop)) {
		memcpy((void *)&racy, &pair[1], sizeof(racy));
		for (volatile int i = 0; i < 50; i++)
			;
		memcpy((void *)&racy, &pair[0], sizeof(racy));
		for (volatile int i = 0; i < 50; i++)
			;
	}
	return NULL;
}

int main(void)
{
	const char *ps = getenv("ESC_UDP_PORT");
	struct sockaddr_in ok = { 0 }, bad = { 0 }, pair[2];
	struct sockaddr_in6 bad6 = { 0 };
	int s, s6;
	unsigned long sent_ok = 0;

	esc_init("udp", "UDP sendto/sendmsg/sendmmsg/connect to 127.0.0.2 (denied) from a policy that allows 127.0.0.1:47811");
	if (!ps)
		esc_setup_error("ESC_UDP_PORT is not set");
	ok.sin_family = bad.sin_family = AF_INET;
	ok.sin_port = htons(47811);
	inet_pton(AF_INET, "127.0.0.1", &ok.sin_addr);
	bad.sin_port = htons((uint16_t)atoi(ps));
	inet_pton(AF_INET, "127.0.0.2", &bad.sin_addr);
	bad6.sin6_family = AF_INET6;
	bad6.sin6_port = bad.sin_port;
	inet_pton(AF_INET6, "::ffff:127.0.0.2", &bad6.sin6_addr);

	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		esc_setup_error("socket: %m");
	if (sendto(s, "allowed", 7, 0, (struct sockaddr *)&ok, sizeof(ok)) == 7)
		esc_control("sendto 127.0.0.1:47811 (allowed) works");
	else
		esc_say("sendto the allowed address: %m");

	if (sendto(s, "udp-sendto", 10, 0, (struct sockaddr *)&bad, sizeof(bad)) > 0)
		esc_escape("sendto 127.0.0.2:%s went out", ps);
	else
		esc_say("sendto 127.0.0.2:%s: %m (held)", ps);
	{
		struct sockaddr_storage big;

		memset(&big, 0, sizeof(big));
		memcpy(&big, &bad, sizeof(bad));
		if (sendto(s, "udp-biglen", 10, 0, (struct sockaddr *)&big, sizeof(big)) > 0)
			esc_escape("sendto with a sockaddr_storage-sized address went out");
		else
			esc_say("sendto with a sockaddr_storage-sized address: %m (held)");
	}
	s6 = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s6 >= 0) {
		if (sendto(s6, "udp-mapped", 10, 0, (struct sockaddr *)&bad6, sizeof(bad6)) > 0)
			esc_escape("sendto ::ffff:127.0.0.2 went out");
		else
			esc_say("sendto ::ffff:127.0.0.2: %m (held)");
		close(s6);
	}
	{
		struct iovec iov[2] = { { "udp-ok", 6 }, { "udp-sendmsg", 11 } };
		struct msghdr m = { .msg_name = &bad, .msg_namelen = sizeof(bad),
				    .msg_iov = &iov[1], .msg_iovlen = 1 };
		struct mmsghdr mm[2];
		int r;

		if (sendmsg(s, &m, 0) > 0)
			esc_escape("sendmsg to 127.0.0.2 went out");
		else
			esc_say("sendmsg to 127.0.0.2: %m (held)");
		memset(mm, 0, sizeof(mm));
		mm[0].msg_hdr.msg_name = &ok;
		mm[0].msg_hdr.msg_namelen = sizeof(ok);
		mm[0].msg_hdr.msg_iov = &iov[0];
		mm[0].msg_hdr.msg_iovlen = 1;
		mm[1].msg_hdr = m;
		r = sendmmsg(s, mm, 2, 0);
		esc_say("sendmmsg [allowed, denied]: %d%s%s", r, r < 0 ? ": " : "",
			r < 0 ? strerror(errno) : "");
		if (r == 2)
			esc_escape("sendmmsg sent the denied second message");
		else if (r == 1)
			esc_control("sendmmsg sent only the allowed first message");
	}
	if (connect(s, (struct sockaddr *)&bad, sizeof(bad)) == 0) {
		esc_escape("connected UDP to 127.0.0.2");
		if (send(s, "udp-send", 8, 0) > 0)
			esc_escape("send on the connected socket went out");
	} else
		esc_say("connect 127.0.0.2: %m (held)");
	close(s);

	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (connect(s, (struct sockaddr *)&ok, sizeof(ok)) == 0) {
		esc_control("connected UDP to the allowed address");
		if (sendto(s, "udp-reroute", 11, 0, (struct sockaddr *)&bad, sizeof(bad)) > 0)
			esc_escape("sendto 127.0.0.2 on a socket connected elsewhere went out");
		else
			esc_say("sendto 127.0.0.2 on a connected socket: %m (held)");
	}
	close(s);

	/* The address buffer flips while sendto runs. */
	{
		pthread_t t;
		double end = esc_now() + esc_seconds;
		unsigned long refused = 0;

		pair[0] = ok;
		pair[1] = bad;
		racy = ok;
		s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
		if (pthread_create(&t, NULL, flip_addr, pair))
			esc_setup_error("pthread_create failed");
		while (esc_now() < end) {
			if (sendto(s, "udp-race", 8, 0, (struct sockaddr *)&racy,
				   sizeof(racy)) == 8)
				sent_ok++;
			else
				refused++;
		}
		atomic_store(&stop, 1);
		pthread_join(t, NULL);
		close(s);
		esc_say("address race: %lu sent (must all be to 127.0.0.1), %lu refused",
			sent_ok, refused);
		if (sent_ok)
			esc_control("racing sendto to the allowed address was served");
	}
	esc_say("whether anything reached 127.0.0.2 is for the listener's log to tell");
	return esc_finish();
}
