/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 20: abstract unix sockets. A server outside the sandbox listens
 * on @$ESC_ABSTRACT (stream) and @$ESC_ABSTRACT_DGRAM (datagram); abstract
 * names live in the network namespace, not the file system, so path rules
 * do not reach them (D-Bus, X11 and systemd listen there). The program
 * connects to the stream name, sends to the datagram name (sendto,
 * sendmsg, and after connect), also from an autobound socket, and with
 * the name spelled with trailing bytes. Every attempt must fail, and the
 * server's log must stay empty (checked by the suite).
 */
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "escape-common.h"

static socklen_t abstract_addr(struct sockaddr_un *a, const char *name)
{
	size_t n = strlen(name);

	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (n + 1 > sizeof(a->sun_path))
		esc_setup_error("abstract name too long");
	memcpy(a->sun_path + 1, name, n);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
}

int main(void)
{
	const char *name = getenv("ESC_ABSTRACT"),
		   *dname = getenv("ESC_ABSTRACT_DGRAM");
	struct sockaddr_un a, d;
	socklen_t al, dl;
	int s, sv[2];
	char c = 'x';

	esc_init("abstract-unix", "connect and send to abstract unix sockets of a server outside the sandbox");
	if (!name || !dname)
		esc_setup_error("ESC_ABSTRACT and ESC_ABSTRACT_DGRAM are not set");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0 && write(sv[0], "x", 1) == 1 &&
	    read(sv[1], &c, 1) == 1)
		esc_control("an unnamed socket pair works");
	al = abstract_addr(&a, name);
	dl = abstract_addr(&d, dname);

	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (connect(s, (struct sockaddr *)&a, al) == 0)
		esc_escape("connected to @%s", name);
	else
		esc_say("connect @%s: %m (held)", name);
	close(s);

	/* From an autobound socket (bind with only the family). */
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	{
		struct sockaddr_un b = { .sun_family = AF_UNIX };

		if (bind(s, (struct sockaddr *)&b, sizeof(sa_family_t)) == 0)
			esc_say("autobind worked");
		else
			esc_say("autobind: %m");
	}
	if (connect(s, (struct sockaddr *)&a, al) == 0)
		esc_escape("connected to @%s from an autobound socket", name);
	else
		esc_say("connect @%s from an autobound socket: %m (held)", name);
	close(s);

	/* Longer address lengths name other sockets, but try anyway. */
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (connect(s, (struct sockaddr *)&a, sizeof(a)) == 0)
		esc_escape("connected to @%s with a full-size address", name);
	close(s);

	s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (sendto(s, "abstract-sendto", 15, 0, (struct sockaddr *)&d, dl) > 0)
		esc_escape("sendto @%s delivered", dname);
	else
		esc_say("sendto @%s: %m (held)", dname);
	{
		struct iovec iov = { "abstract-sendmsg", 16 };
		struct msghdr m = { .msg_name = &d, .msg_namelen = dl,
				    .msg_iov = &iov, .msg_iovlen = 1 };

		if (sendmsg(s, &m, 0) > 0)
			esc_escape("sendmsg @%s delivered", dname);
		else
			esc_say("sendmsg @%s: %m (held)", dname);
	}
	if (connect(s, (struct sockaddr *)&d, dl) == 0) {
		esc_escape("connected a datagram socket to @%s", dname);
		if (send(s, "abstract-send", 13, 0) > 0)
			esc_escape("send to @%s delivered", dname);
	} else
		esc_say("connect datagram @%s: %m (held)", dname);
	close(s);
	return esc_finish();
}
