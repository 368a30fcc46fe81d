/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Handler: a nested fbac-run's registration (nest-abi.h). A fbac-run
 * started under this one cannot have a supervisor of its own; it hands
 * its stack over instead, in a sealed memfd, so that what we do for its
 * processes (the opens we make, creations, connects) and what we let
 * continue is decided by its policy too (call-nest.c).
 *
 * The memfd must carry all four seals (no write, no shrink, no grow, no
 * more seals), so that what we decode is what we keep; its size is
 * bounded; the stack is decoded strictly (lib/scache.c, fuzzed). Any
 * process may register: a registration only ever narrows what its own
 * descendants may do.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "call.h"
#include "nest-abi.h"
#include "scache.h"
#include "sup-handlers.h"
#include "target.h"

#define SEALS_WANTED (F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

/* The stack in fd (ours), read whole. Return: 0, -EPERM (not sealed),
 * -EFBIG (beyond FBAC_MAX_NEST_STACK), -EBADMSG, -ENOMEM. */
static int read_stack(int fd, struct fbac_stack *st)
{
	struct fbac_diag d = { 0 };
	struct stat sb;
	char *buf;
	size_t off = 0;
	int seals = fcntl(fd, F_GET_SEALS), r;

	if (seals < 0 || (seals & SEALS_WANTED) != SEALS_WANTED)
		return -EPERM;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode) || sb.st_size <= 0)
		return -EBADMSG;
	if (sb.st_size > FBAC_MAX_NEST_STACK)
		return -EFBIG;
	if (!(buf = malloc((size_t)sb.st_size)))
		return -ENOMEM;
	while (off < (size_t)sb.st_size) {
		ssize_t n = pread(fd, buf + off, (size_t)sb.st_size - off,
				  (off_t)off);

		if (n <= 0)
			break;
		off += (size_t)n;
	}
	r = off == (size_t)sb.st_size ?
		    fbac_scache_decode(FBAC_NEST_KEY, strlen(FBAC_NEST_KEY),
				       buf, off, FBAC_COMPILE_NO_GAPS, st, &d) :
		    -EBADMSG;
	free(buf);
	/* A stack written under another key or format is no stack of ours. */
	return r == -ESTALE || r == -EINVAL ? -EBADMSG : r;
}

/* What the stack's entries are, for the event: "less (library)". */
static void describe(const struct fbac_stack *st, char *buf, size_t size)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < st->n && o < size; i++) {
		int k = snprintf(buf + o, size - o, "%s%s", i ? ", " : "",
				 st->entries[i].policy->name);

		if (k < 0)
			break;
		o += (size_t)k;
	}
}

/* The registration of the memory file fd (our copy). */
static void do_register(struct call *c, int fd)
{
	struct fbac_stack st = { 0 };
	char what[512], text[768];
	int r;

	r = read_stack(fd, &st);
	describe(&st, what, sizeof(what));
	if (r == 0)
		r = call_nest_register(c, &st);
	fbac_stack_clear(&st);
	if (r == 0) {
		snprintf(text, sizeof(text),
			 "nested run registered: its processes are decided by its policy (%s) too",
			 what);
		call_tell(c, text, c->s->verbosity > 0);
	} else {
		/* A refusal of ours: its line, and its event in every log. */
		snprintf(text, sizeof(text),
			 "a nested run's policy%s%s%s not registered: %s%s; it adds its landlock layers only",
			 what[0] ? " (" : "", what, what[0] ? ")" : "",
			 r == -EUSERS ?
				 "too many nested runs (FBAC_MAX_NESTED)" :
			 r == -EFBIG ?
				 "its policy is beyond FBAC_MAX_NEST_STACK" :
				 strerror(-r),
			 r == -EPERM ? " (the memfd is not sealed)" : "");
		call_refuse_syscall(c, text, false);
	}
	call_respond(c, 0, r);
}

bool handle_nest(struct call *c)
{
	unsigned int cmd = (unsigned int)ARG(c, 1);
	int r;

	int fd;

	if (c->nr != SYS_ioctl ||
	    (cmd != FBAC_IOC_NEST_REGISTER && cmd != FBAC_IOC_NEST_DONE))
		return false;
	/* Ours on a memory file only: on anything else (a device whose own
	 * requests have these numbers, a bad descriptor) the kernel answers. */
	fd = target_getfd(c->tid, (int)ARG(c, 0));
	if (fd >= 0 && fcntl(fd, F_GET_SEALS) < 0) {
		close(fd);
		fd = -1;
	}
	if (fd < 0) {
		call_continue(c);
		return true;
	}
	if (cmd == FBAC_IOC_NEST_REGISTER) {
		do_register(c, fd);
	} else {
		r = call_nest_done(c);
		if (r == 0)
			call_tell(c, "nested run ended: nothing of it is left",
				  false);
		call_respond(c, 0, r);
	}
	close(fd);
	return true;
}
