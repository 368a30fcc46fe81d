/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The toolkit's file permissions for a program started by root.
 *
 * fbac-run drops every capability, also root's (launch.c): the program
 * and the supervisor keep uid 0 but lose CAP_DAC_OVERRIDE and
 * CAP_DAC_READ_SEARCH. A file's permission bits then refuse root what
 * root natively may do (a 700 folder of another user, a 600 file of
 * another user): a refusal fbac causes, told here like any other (issue
 * 17: none is silent), with one line and one event naming the reason.
 * For any other user, the same refusal is the kernel's own: nothing is
 * told (fbac-run(1), "The filter").
 *
 * Two ways a refusal is met. A call the supervisor makes for the program
 * (the walk to the object, an open injected) fails with EACCES: told as
 * it is answered (call_tell_dac). An open that continues in the kernel is
 * predicted from the object's mode bits, which the decision already has,
 * and only a predicted refusal asks the kernel (faccessat2 with
 * AT_EACCESS on our copy of the object, with our credentials, the
 * program's): told before the call continues, which the kernel then
 * decides. A wrong prediction could only miss or add a line, never change
 * an answer. Execs and changes of attributes (call_tell_unowned: only the
 * owner, or root with its capabilities, may make them) are told the
 * first way, from what the supervisor or the kernel's access check says.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "call.h"
#include "fbac-limits.h"
#include "sup.h"
#include "target.h"

#define DAC_REASON                                                             \
	"the file's permissions refuse it: fbac-run runs root's programs without root's capabilities"
#define OWNER_REASON                                                           \
	"it needs root's capabilities (another user's file, or a new owner), and fbac-run runs root's programs without them"

/* Whether the kernel refuses us want on name relative to dirfd ("" for
 * dirfd itself) for lack of permission: with our credentials, the
 * program's, and every ACL. */
static bool kernel_refuses(int dirfd, const char *name, int want)
{
	int flags = AT_EACCESS | (name[0] ? 0 : AT_EMPTY_PATH);

	return syscall(SYS_faccessat2, dirfd, name, want, flags) < 0 &&
	       errno == EACCES;
}

/* Whether uid 0 without capabilities lacks want (R_OK, W_OK) by the mode
 * bits alone: the owner's bits if it owns the file, else the group's if
 * it is in the group, else the others'. An ACL can grant more: the kernel
 * is asked before anything is told. */
static bool bits_refuse(const struct stat *st, int want)
{
	mode_t m = st->st_mode, need = 0;

	if (want & R_OK)
		need |= S_IROTH;
	if (want & W_OK)
		need |= S_IWOTH;
	if (st->st_uid == 0)
		m >>= 6;
	else if (group_member(st->st_gid))
		m >>= 3;
	return (m & need) != need;
}

void call_predict_dac(struct call *c, enum fbac_op op, const struct resolved *r,
		      int flags)
{
	int acc = flags & O_ACCMODE, want = 0;

	if (!c->s->dac_dropped || !r->st.st_mode || !r->path[0])
		return;
	if (acc == O_RDONLY || acc == O_RDWR)
		want |= R_OK;
	if (acc == O_WRONLY || acc == O_RDWR)
		want |= W_OK;
	if (!want || !bits_refuse(&r->st, want))
		return;
	if (r->fd >= 0 ? kernel_refuses(r->fd, "", want) :
			 r->path[0] == '/' &&
				 kernel_refuses(c->s->root_fd,
						r->path[1] ? r->path + 1 : ".",
						want))
		(void)call_refuse(c, op, r->path, DAC_REASON);
}

void call_tell_dac(struct call *c, enum fbac_op op, const char *path, int dirfd,
		   int want)
{
	if (c->s->dac_dropped && kernel_refuses(dirfd, "", want))
		(void)call_refuse(c, op, path[0] ? path : "?", DAC_REASON);
}

void call_tell_dac_walk(struct call *c, enum fbac_op op, const char *name)
{
	char way[FBAC_MAX_PATH];
	size_t n = strlen(name);

	/* Only where the walk is ours to repeat: an absolute name from the
	 * root we resolve from. */
	if (!c->s->dac_dropped || name[0] != '/' || n >= sizeof(way) ||
	    c->s->roots_vary)
		return;
	memcpy(way, name, n + 1);
	/* The first folder on the way that we may not search. */
	for (char *p = strchr(way + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = 0;
		if (kernel_refuses(c->s->root_fd, way + 1, X_OK)) {
			(void)call_refuse(c, op, name, DAC_REASON);
			return;
		}
		*p = '/';
	}
}

void call_tell_dac_walk_arg(struct call *c, enum fbac_op op, uint64_t addr)
{
	char name[FBAC_MAX_PATH];

	/* The program's copy was the resolver's: read again, for the line
	 * only (a name changed meanwhile can only miss or add a line). */
	if (c->s->dac_dropped &&
	    target_read_string(c->tid, addr, name, sizeof(name)) >= 0)
		call_tell_dac_walk(c, op, name);
}

void call_tell_unowned(struct call *c, enum fbac_op op,
		       const struct resolved *r, uid_t uid)
{
	/* Root's own file, to stay root's: the EPERM is not for want of a
	 * capability (an immutable file, say). */
	if (!c->s->dac_dropped || !r->st.st_mode ||
	    (r->st.st_uid == 0 && (uid == (uid_t)-1 || uid == 0)))
		return;
	(void)call_refuse(c, op, r->path[0] ? r->path : "?", OWNER_REASON);
}
