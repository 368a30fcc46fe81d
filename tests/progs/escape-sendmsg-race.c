/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 22c: a descriptor race on sendmsg. The supervisor lets sendmsg on
 * a stream socket run in the kernel (an address there is ignored unless
 * MSG_FASTOPEN), after looking up what the descriptor is. A second thread
 * keeps swapping descriptor 200 (dup2) between an unconnected stream
 * socket and a datagram socket, while the main thread calls sendmsg(200)
 * with a denied address in msg_name:
 *   1. UDP: TCP socket <-> UDP socket, address 127.0.0.2:$ESC_UDP_PORT;
 *   2. unix: AF_UNIX stream <-> AF_UNIX datagram, address $ESC_UNIX_DGRAM
 *      (a socket outside the allowed tree);
 * and the same with sendmmsg. If the kernel sends while 200 is the
 * datagram socket, the datagram leaves the sandbox: the listener's log
 * tells (the suite checks it), and so does sendmsg's return value here.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "escape-common.h"

struct swap {
	int stream, dgram;
	atomic_int stop;
	unsigned long swaps;
};

static void *swapper(void *p)
{
	struct swap *s = p;

	while (!atomic_load(&s->stop)) {
		dup2(s->dgram, 200);
		for (volatile int i = 0; i < 40; i++)
			;
		dup2(s->stream, 200);
		for (volatile int i = 0; i < 40; i++)
			;
		s->swaps++;
	}
	return NULL;
}

static void race(const char *label, int fam, const void *addr, socklen_t alen,
		 double seconds)
{
	struct swap s = { 0 };
	struct iovec iov = { "sendmsg-race", 12 };
	struct msghdr m = { .msg_name = (void *)addr, .msg_namelen = alen,
			    .msg_iov = &iov, .msg_iovlen = 1 };
	struct mmsghdr mm = { .msg_hdr = m };
	unsigned long tries = 0, refused = 0, other = 0;
	int before = atomic_load(&esc_escaped);
	double end = esc_now() + seconds;
	pthread_t t;

	s.stream = socket(fam, SOCK_STREAM | SOCK_CLOEXEC, 0);
	s.dgram = socket(fam, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s.stream < 0 || s.dgram < 0 || dup2(s.stream, 200) < 0)
		esc_setup_error("sockets: %m");
	if (sendmsg(s.dgram, &m, MSG_NOSIGNAL) >= 0)
		esc_escape("%s: a plain sendmsg on the datagram socket went out", label);
	else
		esc_say("%s: plain sendmsg on the datagram socket: %m (held)", label);
	if (pthread_create(&t, NULL, swapper, &s))
		esc_setup_error("pthread_create failed");
	while (esc_now() < end && atomic_load(&esc_escaped) == before) {
		ssize_t r = (tries & 1) ? sendmmsg(200, &mm, 1, MSG_NOSIGNAL) :
					  sendmsg(200, &m, MSG_NOSIGNAL);

		tries++;
		if (r > 0)
			esc_escape("%s: %s on the swapped descriptor sent the datagram (attempt %lu)",
				   label, (tries & 1) ? "sendmsg" : "sendmmsg", tries);
		else if (r < 0 && errno == EACCES)
			refused++;
		else
			other++;
	}
	atomic_store(&s.stop, 1);
	pthread_join(t, NULL);
	esc_say("%s: %lu attempts, %lu refused by the supervisor, %lu failed in the kernel, %lu swaps",
		label, tries, refused, other, s.swaps);
	if (refused && other)
		esc_control("%s: the race ran both ways", label);
	close(s.stream);
	close(s.dgram);
}

int main(void)
{
	const char *ps = getenv("ESC_UDP_PORT"), *dg = getenv("ESC_UNIX_DGRAM");
	struct sockaddr_in bad = { 0 };
	struct sockaddr_un un = { 0 };

	esc_init("sendmsg-race", "swap a stream and a datagram socket under sendmsg/sendmmsg with a denied address");
	if (!ps || !dg)
		esc_setup_error("ESC_UDP_PORT and ESC_UNIX_DGRAM are not set");
	signal(SIGPIPE, SIG_IGN);
	bad.sin_family = AF_INET;
	bad.sin_port = htons((uint16_t)atoi(ps));
	inet_pton(AF_INET, "127.0.0.2", &bad.sin_addr);
	un.sun_family = AF_UNIX;
	if (strlen(dg) >= sizeof(un.sun_path))
		esc_setup_error("socket path too long");
	memcpy(un.sun_path, dg, strlen(dg));

	race("udp 127.0.0.2", AF_INET, &bad, sizeof(bad), esc_seconds / 2);
	race("unix datagram outside", AF_UNIX, &un,
	     (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(dg) + 1),
	     esc_seconds / 2);
	return esc_finish();
}
