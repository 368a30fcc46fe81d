/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-call toolkit: everything a handler (sup-handlers.h) may use of
 * the supervisor, and the only header of it a handler includes. Its
 * functions take the call first and are named call_*: answer it, let it
 * continue, inject a descriptor; resolve a path argument; decide a path
 * or an address; the program's umask; the slow path (a worker thread).
 * Implemented by call.c (answers, decisions, umask, slow path),
 * sup-path.c (resolving), sup-pty.c (terminals) and events.c (refusals
 * of fbac-run's own), with call-parts.h between them; none of them calls
 * a handler or the loop (tests/lint-graph).
 *
 * THE RULE: every handler finishes its notification exactly once, on
 * every path: call_respond() (a value or an errno; call_fail() is one),
 * call_continue() or call_inject_fd(); or it hands the call to a worker
 * with call_run_slow(), and the worker finishes its copy exactly once;
 * or, when call_valid() said the caller is gone, call_drop(). A second
 * answer could reach another call's id, and none leaves the caller
 * waiting for good. A debug build (make DEBUG=1, and SANITIZE=1) counts
 * the answers and aborts on a second one, and on none once the handler
 * has returned (call_check_finished() in dispatch()).
 */
#ifndef FBAC_RUN_CALL_H
#define FBAC_RUN_CALL_H

#include <errno.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "sup.h"
#include "target.h"

/* One notification being handled. */
struct call {
	struct sup *s;
	struct seccomp_notif *req;
	pid_t tid;
	pid_t tgid; /* 0 until needed */
	int nr;
	/* What the object is to the call, when not the object named
	 * ("the loader of '/usr/bin/curl'"): in the denial line. */
	const char *about;
	/* The stack of the nested run whose policy refused the call being
	 * logged (call-nest.c), or NULL: the program's own. */
	const struct fbac_stack *nested;
	/* Answers given (or the hand-over to a worker): exactly one by
	 * the time the handler returns (THE RULE above; checked in a
	 * debug build). */
	unsigned finished;
};

#define ARG(c, i) ((c)->req->data.args[i])
#define AT_FD(v) ((int)(int32_t)(v))

/* ---- answers: each finishes the notification ---- */

/* An error (a negative errno) or a value. */
void call_respond(struct call *c, int64_t val, int error);
/* Let the call run in the kernel: only where Landlock bounds it, or
 * where it grants nothing (see the callers). */
void call_continue(struct call *c);
/* Inject fd into the target as the call's return value (ADDFD|SEND). */
void call_inject_fd(struct call *c, int fd, bool cloexec);
/* The caller is gone (call_valid() said so): nothing to answer. */
void call_drop(struct call *c);

/* Refuse the call (EACCES unless err is a more precise errno). */
static inline void call_fail(struct call *c, int err)
{
	call_respond(c, 0, err < 0 ? err : -EACCES);
}

/*
 * Run fn(arg) in a worker thread (blocking opens, connects and sends),
 * which finishes its own copy of c (made before, in arg). On success c
 * counts as finished. Return: 0 or -errno (then c is still to finish).
 */
int call_run_slow(struct call *c, void (*fn)(void *), void *arg);

/* Whether the notification is still live (the target did not die or
 * get interrupted). */
bool call_valid(struct call *c);

/* Debug builds: abort unless c was finished exactly once. */
#ifdef FBAC_DEBUG
void call_check_finished(const struct call *c);
#else
static inline void call_check_finished(const struct call *c)
{
	(void)c;
}
#endif

/* The caller's thread group (read from /proc once per call). */
static inline pid_t call_tgid(struct call *c)
{
	if (!c->tgid) {
		pid_t t = target_tgid(c->tid);
		c->tgid = t > 0 ? t : c->tid;
	}
	return c->tgid;
}

/*
 * Set the target's umask for a creation made here, and restore ours
 * after: the umask is the process's, and several threads create, so the
 * section is serialised.
 */
mode_t call_umask_enter(struct call *c);
void call_umask_leave(mode_t old);

/* ---- resolving a path argument (sup-path.c) ---- */

/* A path argument resolved by the supervisor. */
struct resolved {
	int fd;	       /* O_PATH on the object, or -1 when it does not exist */
	int parent_fd; /* O_PATH on the parent directory (create/remove), or -1 */
	char leaf[256];
	char path[FBAC_MAX_PATH]; /* kernel-resolved, canonical */
	bool is_dir;
	struct stat st; /* of fd, when fd >= 0 (st_mode 0 otherwise) */
	/* For a descriptor or magic link of the target reached through
	 * /proc: that link, whose text readlink(2) answers. */
	char link[64];
	bool held; /* an empty path with AT_EMPTY_PATH: a descriptor the
		    * target already holds */
};

#define RES_FOLLOW 0x1	    /* follow a final symlink */
#define RES_EMPTY_OK 0x2    /* AT_EMPTY_PATH: "" names dirfd itself */
#define RES_PARENT 0x4	    /* also pin the parent and leaf */
#define RES_MAY_MISS 0x8    /* a missing object is fine (create) */
#define RES_PARENT_IF_MISSING 0x10 /* with RES_PARENT: pin the parent only
				    * when the object does not exist */
#define RES_HELD_NO_PATH 0x20 /* a held descriptor needs no path (fstat) */
#define RES_NO_REMAP 0x40     /* internal to sup-path.c: resolving again once */

void resolved_close(struct resolved *r);

/*
 * Copy the path at addr and resolve it relative to dirfd (AT_FDCWD or a
 * descriptor of the target). Return: 0, or a negative errno for the
 * target (-ENOENT, -EFAULT, -ELOOP...).
 */
int call_resolve_arg(struct call *c, int dirfd, uint64_t addr, unsigned flags,
		     struct resolved *out);
/* The same for a path already copied (unix socket addresses). */
int call_resolve_path(struct call *c, int dirfd, const char *path,
		      unsigned flags, struct resolved *out);
/*
 * path (as copied), when absolute, normal, not under /proc or /dev and no
 * process changed its root, resolved without a walk: its last component
 * looked up in its directory, known to still be where the path says
 * (landlock_watch_stat()). out as call_resolve_path fills it, but with no
 * descriptor (fd -1) and nothing pinned: for a regular file or a
 * directory, or a final symlink when follow is false. With hold, a 0
 * return keeps the watch as it was for the rest of the call (its fast
 * path asks nothing new) until call_resolve_release(). Return: 0, or 1
 * when it does not apply (resolve the general way).
 */
int call_resolve_known(struct call *c, const char *path, bool follow, bool hold,
		       struct resolved *out);
/* The end of call_resolve_known()'s hold. */
void call_resolve_release(void);

/* ---- deciding ---- */

/*
 * Decide op on a canonical path (or "@name", or a network object when
 * q is given). Logs the event. Return: true to go ahead (always in
 * complain and learn modes), false to refuse with EACCES.
 */
bool call_decide(struct call *c, const struct fbac_query *q);
bool call_decide_path(struct call *c, enum fbac_op op, const char *path);
/* call_decide_path for file_getattr: always true when metadata is visible. */
bool call_decide_getattr(struct call *c, const char *path);
/* Whether op on path is allowed, without deciding or logging anything. */
bool call_would_allow_path(struct call *c, enum fbac_op op, const char *path);

/* ---- nested runs (call-nest.c) ---- */

/*
 * Register the caller's process as a nested run whose stack is st (taken
 * over: st is empty after): from now on, its descendants are decided by
 * st too. Return: 0, -EEXIST (registered already), -EUSERS
 * (FBAC_MAX_NESTED registrations), -EOPNOTSUPP (the kernel does not count
 * seccomp filters), -ESRCH (the caller is gone) or -errno.
 */
int call_nest_register(struct call *c, struct fbac_stack *st);
/* The caller's registration ends: it has no descendant left. Return: 0
 * or -ENOENT (it has none). */
int call_nest_done(struct call *c);
/*
 * Whether the kernel rules of a nested run the caller is under will
 * refuse to run the regular file at path (canonical; st its stat) that
 * every policy allows: a file made after that run started, where a
 * pattern grants it (landlock_exec_refuser, on the rules it made). Then
 * true, with the reason in reason (size bytes) for call_refuse().
 */
struct stat;
bool call_nest_exec_refused(struct call *c, int root_fd, const char *path,
			    const struct stat *st, char *reason, size_t size);

/*
 * Tell what the supervisor did for the call that is no policy decision (a
 * nested run registered): one JSON line in the --log file, as a system
 * call allowed with a reason ("operation": "syscall", "decision":
 * "allow", "reason": TEXT, which fbac learn passes over), and, with line,
 * one on stderr ("fbac: TEXT, for exe[pid]").
 */
void call_tell(struct call *c, const char *text, bool line);

/* A socket address copied from the program. */
struct addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

/* Copy a socket address of len bytes. Return: 0 or -errno. */
int call_read_addr(struct call *c, uint64_t ptr, uint64_t len, struct addr *a);
/*
 * Decide an address for op; unix paths are replaced by a name reaching
 * the decided inode through our descriptor kept in *keep.
 * Return: 0 to proceed, or a negative errno.
 */
int call_decide_addr(struct call *c, int sock, enum fbac_op op, struct addr *a,
		     struct resolved *keep);
/* getsockopt(SOL_SOCKET, opt) as an int, or -errno. */
int sock_opt(int fd, int opt);

/*
 * Whether the program may reach r for op as far as terminals go: not
 * another session's terminal by number (/dev/pts/N whose master no
 * process of the sandbox holds), which is refused with a denial line and
 * an event (sup-pty.c). A descriptor it holds is its own.
 */
bool call_pty_allowed(struct call *c, enum fbac_op op,
		      const struct resolved *r);

/*
 * Refuse an operation the policy allows, for a reason of fbac-run's own
 * (a terminal of another session): one denial line and one event naming
 * the reason (events.c). Return: whether the call may go on (only
 * outside enforce mode, where it is logged as would-deny).
 */
bool call_refuse(struct call *c, enum fbac_op op, const char *path,
		 const char *reason);

/*
 * A character or block device (mode) at path opened for the program,
 * whose ioctls Landlock will refuse because it is opened without
 * file_ioctl (sup-ioctl.c): the policy's line and event for file_ioctl,
 * once, at the open. fd: the supervisor's descriptor, asked whether
 * Landlock refuses; -1 when the program opens it in the kernel (its
 * terminal). Only adds a line: the open goes on.
 */
void call_tell_device_ioctls(struct call *c, int fd, mode_t mode,
			     const char *path);

/*
 * File permissions that refuse root's program because fbac-run took
 * root's capabilities away (sup-dac.c), told with one line and one event
 * when the kernel confirms the refusal; nothing for any other user, whose
 * refusals are the kernel's own. Each only adds a line: the answer is
 * the caller's. call_predict_dac: an open with flags of r (continued in
 * the kernel, or failed with EACCES when we made it). call_tell_dac: a
 * call we made for op on path failed with EACCES; want (R_OK, W_OK, X_OK)
 * on dirfd is what it needed. call_tell_dac_walk: the resolution of name
 * failed with EACCES; a folder on the way may not be searched.
 */
void call_predict_dac(struct call *c, enum fbac_op op, const struct resolved *r,
		      int flags);
void call_tell_dac(struct call *c, enum fbac_op op, const char *path, int dirfd,
		   int want);
void call_tell_dac_walk(struct call *c, enum fbac_op op, const char *name);
/* The same for the name at addr in the program, as the resolver read it. */
void call_tell_dac_walk_arg(struct call *c, enum fbac_op op, uint64_t addr);
/* The same for a change of r's attributes (op) refused EPERM, which only
 * the owner, or root with its capabilities, may make; uid: the owner a
 * chown asks for, or -1. */
void call_tell_unowned(struct call *c, enum fbac_op op,
		       const struct resolved *r, uid_t uid);

/*
 * The reason for refusing an exec that e (an entry of our stack, or with
 * nested of a nested run's) allows but whose kernel rules will refuse: a
 * file made or replaced since they were made, or a rule the kernel cannot
 * be given (events.c).
 */
void call_exec_refusal(char *buf, size_t size, const struct fbac_stack_entry *e,
		       bool made_since, bool nested);

/* ---- small helpers ---- */

/* Whether a name of n bytes the kernel gave (readlink of /proc/.../fd/N
 * or cwd) is that of a removed file: it then ends in " (deleted)". */
static inline bool deleted_name(const char *name, size_t n)
{
	return n > 10 && !strcmp(name + n - 10, " (deleted)");
}

/* Our magic-link name for one of our descriptors. */
static inline void fdname(char *buf, size_t size, int fd)
{
	snprintf(buf, size, "/proc/self/fd/%d", fd);
}

/* sup-idmap.c: a decided write open of a nested namespace's uid_map or
 * gid_map, from its parent namespace: a descriptor, -errno, or -ENOENT
 * when the path needs no such open. */
int call_open_idmap(const char *path, int obj_fd, int flags);

/* The operation of an event about a system call refused as such (events.c,
 * sup-refused.c): its "object" is the call's name. */
#define SUP_OP_SYSCALL FBAC_OP_COUNT

/*
 * Log the refusal of the call itself: one denial line ("denied syscall
 * 'ptrace' for perl[12]: REASON") and one event; quiet: the event only
 * (the program goes on without it, as with io_uring). The caller answers.
 */
void call_refuse_syscall(struct call *c, const char *reason, bool quiet);

#endif
