// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * net: the socket calls tests/run.bats makes under fbac-run.
 *   net tcp-connect HOST PORT   connect, print what the server sends (to EOF)
 *   net udp-send HOST PORT MSG  one datagram with sendto(); prints "sent N"
 *   net tcp-listen HOST PORT    bind and listen; prints "listening"
 *   net unix-connect PATH       connect, print what the server sends
 *   net unix-bind PATH          bind and listen; prints "bound"
 * Errors: "net: CALL: ENAME (text)", exit 1. Reads time out after 5 s.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

static int die(const char *call)
{
	int e = errno;
	const char *n = strerrorname_np(e);

	fprintf(stderr, "net: %s: %s (%s)\n", call, n ? n : "E?", strerror(e));
	return 1;
}

static int inet(const char *host, const char *port, struct sockaddr_in *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)atoi(port));
	return inet_pton(AF_INET, host, &sa->sin_addr) == 1 ? 0 : -1;
}

static int unix_addr(const char *path, struct sockaddr_un *sa)
{
	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sa->sun_path))
		return -1;
	strcpy(sa->sun_path, path);
	return 0;
}

static int copy_out(int s)
{
	struct timeval tv = { 5, 0 };
	char buf[4096];
	ssize_t n;

	setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	while ((n = read(s, buf, sizeof(buf))) > 0)
		if (write(1, buf, (size_t)n) != n)
			return 1;
	return n < 0 ? die("read") : 0;
}

int main(int argc, char **argv)
{
	struct sockaddr_in in;
	struct sockaddr_un un;
	int s;

	if (argc < 3)
		return 64;
	if (!strcmp(argv[1], "tcp-connect") && argc == 4) {
		if (inet(argv[2], argv[3], &in) < 0)
			return 64;
		if ((s = socket(AF_INET, SOCK_STREAM, 0)) < 0)
			return die("socket");
		if (connect(s, (struct sockaddr *)&in, sizeof(in)) < 0)
			return die("connect");
		return copy_out(s);
	}
	if (!strcmp(argv[1], "udp-send") && argc == 5) {
		ssize_t n;

		if (inet(argv[2], argv[3], &in) < 0)
			return 64;
		if ((s = socket(AF_INET, SOCK_DGRAM, 0)) < 0)
			return die("socket");
		n = sendto(s, argv[4], strlen(argv[4]), 0,
			   (struct sockaddr *)&in, sizeof(in));
		if (n < 0)
			return die("sendto");
		printf("sent %zd\n", n);
		return 0;
	}
	if (!strcmp(argv[1], "tcp-listen") && argc == 4) {
		int one = 1;

		if (inet(argv[2], argv[3], &in) < 0)
			return 64;
		if ((s = socket(AF_INET, SOCK_STREAM, 0)) < 0)
			return die("socket");
		setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(s, (struct sockaddr *)&in, sizeof(in)) < 0)
			return die("bind");
		if (listen(s, 1) < 0)
			return die("listen");
		printf("listening\n");
		return 0;
	}
	if (!strcmp(argv[1], "unix-connect") && argc == 3) {
		if (unix_addr(argv[2], &un) < 0)
			return 64;
		if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
			return die("socket");
		if (connect(s, (struct sockaddr *)&un, sizeof(un)) < 0)
			return die("connect");
		return copy_out(s);
	}
	if (!strcmp(argv[1], "unix-bind") && argc == 3) {
		if (unix_addr(argv[2], &un) < 0)
			return 64;
		if ((s = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
			return die("socket");
		if (bind(s, (struct sockaddr *)&un, sizeof(un)) < 0)
			return die("bind");
		if (listen(s, 1) < 0)
			return die("listen");
		printf("bound\n");
		return 0;
	}
	return 64;
}
