/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 21: named unix sockets outside the allowed tree. A server
 * outside the sandbox listens on $ESC_UNIX_STREAM and $ESC_UNIX_DGRAM
 * (mode 0777, so only the policy stands in the way; Landlock does not
 * mediate connecting to a socket file on 6.18). The program may bind and
 * connect in ~/work only. It tries: connect to the stream socket by its
 * path, through a symlink made in ~/work, by a relative path with ".."
 * from ~/work, by a long "./"-padded name; and sendto, sendmsg, sendmmsg
 * and connect+send to the datagram socket. Control: a socket bound and
 * connected to in ~/work works.
 * Last, a race on the supervisor's own descriptors: blocking connects to
 * the allowed ~/work/ctl.sock (which the supervisor hands to a worker
 * thread) while other threads keep asking the supervisor to stat the
 * denied socket by its absolute path. A worker that connects through a
 * descriptor number the main thread has already closed and reused ends up
 * connected to whatever that number names by then.
 */
#include <pthread.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "escape-common.h"

static socklen_t path_addr(struct sockaddr_un *a, const char *p)
{
	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	if (strlen(p) >= sizeof(a->sun_path))
		return 0;
	memcpy(a->sun_path, p, strlen(p));
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(p) + 1);
}

static void try_connect(const char *label, const char *p)
{
	struct sockaddr_un a;
	socklen_t l = path_addr(&a, p);
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (!l) {
		esc_say("%s: '%s' does not fit in sun_path", label, p);
		close(s);
		return;
	}
	if (connect(s, (struct sockaddr *)&a, l) == 0)
		esc_escape("%s: connected to '%s'", label, p);
	else
		esc_say("%s: connect '%s': %m (held)", label, p);
	close(s);
}

static atomic_int stop_spam;
static const char *spam_path;

static void *spam(void *p)
{
	struct stat st;

	(void)p;
	while (!atomic_load(&stop_spam))
		(void)!stat(spam_path, &st);
	return NULL;
}

static int listen_fd = -1;

/* Accept (accept is not supervised) so that the backlog never fills. */
static void *acceptor(void *p)
{
	(void)p;
	while (!atomic_load(&stop_spam)) {
		int c = accept4(listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);

		if (c >= 0)
			close(c);
		else
			usleep(100);
	}
	return NULL;
}

static void fd_reuse_race(const char *ctl, const char *outside)
{
	struct sockaddr_un a, peer;
	socklen_t l = path_addr(&a, ctl), pl;
	pthread_t t[2], acc;
	unsigned long tries = 0, ok = 0, enoent = 0, other = 0;
	double end = esc_now() + esc_seconds;
	int before = atomic_load(&esc_escaped);

	spam_path = outside;
	{
		int fl = fcntl(listen_fd, F_GETFL);

		fcntl(listen_fd, F_SETFL, fl | O_NONBLOCK);
	}
	if (pthread_create(&acc, NULL, acceptor, NULL))
		esc_setup_error("pthread_create failed");
	for (int i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, spam, NULL))
			esc_setup_error("pthread_create failed");
	while (esc_now() < end && atomic_load(&esc_escaped) == before) {
		int c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

		tries++;
		if (connect(c, (struct sockaddr *)&a, l) == 0) {
			pl = sizeof(peer);
			memset(&peer, 0, sizeof(peer));
			if (getpeername(c, (struct sockaddr *)&peer, &pl) == 0 &&
			    !strcmp(peer.sun_path, outside))
				esc_escape("descriptor reuse race: a connect to %s reached %s (attempt %lu)",
					   ctl, outside, tries);
			else
				ok++;
		} else if (errno == ENOENT)
			enoent++;
		else
			other++;
		close(c);
	}
	atomic_store(&stop_spam, 1);
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pthread_join(acc, NULL);
	esc_say("descriptor reuse race: %lu connects to %s: %lu reached it, %lu ENOENT, %lu other errors",
		tries, ctl, ok, enoent, other);
	if (ok)
		esc_control("blocking connects to %s were served", ctl);
}

int main(void)
{
	const char *st = getenv("ESC_UNIX_STREAM"), *dg = getenv("ESC_UNIX_DGRAM");
	char lnk[PATH_MAX], rel[PATH_MAX], ctl[PATH_MAX];
	struct sockaddr_un a;
	socklen_t l;
	int s, c;

	int ls;

	esc_init("named-unix", "connect and send to named unix sockets outside the allowed tree");
	if (!st || !dg)
		esc_setup_error("ESC_UNIX_STREAM and ESC_UNIX_DGRAM are not set");
	if (chdir(esc_work) < 0)
		esc_setup_error("chdir: %m");

	/* Control: bind and connect inside ~/work (non-blocking connects are
	 * done by the supervisor at once, blocking ones by a worker). */
	ESC_FMT(ctl, "%s/ctl.sock", esc_work);
	unlink(ctl);
	ls = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	l = path_addr(&a, ctl);
	if (l && bind(ls, (struct sockaddr *)&a, l) == 0 && listen(ls, 4096) == 0) {
		esc_control("bound %s", ctl);
		c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		if (connect(c, (struct sockaddr *)&a, l) == 0)
			esc_control("non-blocking connect to %s", ctl);
		else
			esc_say("non-blocking connect %s: %m", ctl);
		close(c);
		c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (connect(c, (struct sockaddr *)&a, l) == 0)
			esc_control("blocking connect to %s", ctl);
		else
			esc_say("blocking connect %s: %m", ctl);
		close(c);
	} else
		esc_say("control bind %s: %m", ctl);

	try_connect("absolute path", st);
	ESC_FMT(lnk, "%s/outside.sock", esc_work);
	unlink(lnk);
	if (symlink(st, lnk) == 0)
		try_connect("symlink in ~/work", lnk);
	else
		esc_say("symlink: %m");
	{
		/* ../../.. from ~/work up to /, then the path. */
		char up[PATH_MAX] = "";
		int depth = 0;

		for (const char *q = esc_work; *q; q++)
			depth += *q == '/';
		for (int i = 0; i < depth; i++)
			strcat(up, "../");
		ESC_FMT(rel, "%s%s", up, st + 1);
		try_connect("relative path from ~/work", rel);
	}
	ESC_FMT(rel, "/.%s", st);
	try_connect("/./ spelling", rel);

	s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	l = path_addr(&a, dg);
	if (sendto(s, "named-sendto", 12, 0, (struct sockaddr *)&a, l) > 0)
		esc_escape("sendto '%s' delivered", dg);
	else
		esc_say("sendto '%s': %m (held)", dg);
	{
		struct iovec iov = { "named-sendmsg", 13 };
		struct msghdr m = { .msg_name = &a, .msg_namelen = l,
				    .msg_iov = &iov, .msg_iovlen = 1 };
		struct mmsghdr mm[2];

		if (sendmsg(s, &m, 0) > 0)
			esc_escape("sendmsg '%s' delivered", dg);
		else
			esc_say("sendmsg '%s': %m (held)", dg);
		memset(mm, 0, sizeof(mm));
		mm[0].msg_hdr = m;
		mm[1].msg_hdr = m;
		if (sendmmsg(s, mm, 2, 0) > 0)
			esc_escape("sendmmsg '%s' delivered", dg);
		else
			esc_say("sendmmsg '%s': %m (held)", dg);
	}
	if (connect(s, (struct sockaddr *)&a, l) == 0) {
		esc_escape("connected a datagram socket to '%s'", dg);
		if (send(s, "named-send", 10, 0) > 0)
			esc_escape("send to '%s' delivered", dg);
	} else
		esc_say("connect datagram '%s': %m (held)", dg);
	close(s);

	listen_fd = ls;
	fd_reuse_race(ctl, st);
	close(ls);
	return esc_finish();
}
