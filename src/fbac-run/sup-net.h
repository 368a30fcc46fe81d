/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the socket handlers (sup-net.c, sup-send.c). */
#ifndef FBAC_RUN_SUP_NET_H
#define FBAC_RUN_SUP_NET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "sup.h"

/* Limits of what one send may carry (fbac-run copies it). */
#define MAX_SEND FBAC_MAX_SEND
#define MAX_CONTROL FBAC_MAX_CONTROL
#define MAX_IOV FBAC_MAX_IOV

struct addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

/* Copy a socket address of len bytes. Return: 0 or -errno. */
int read_addr(struct call *c, uint64_t ptr, uint64_t len, struct addr *a);
/* getsockopt(SOL_SOCKET, opt) as an int, or -errno. */
int sock_opt(int fd, int opt);
/* TCP and unix streams, which ignore (or refuse) a send address. */
bool stream_ignores_address(int fd);
/*
 * Decide an address for op; unix paths are replaced by a name reaching
 * the decided inode through our descriptor kept in *keep.
 * Return: 0 to proceed, or a negative errno.
 */
int decide_addr(struct call *c, int sock, enum fbac_op op, struct addr *a,
		struct resolved *keep);

void handle_sendto(struct call *c);
void handle_sendmsg(struct call *c, bool many);

#endif
