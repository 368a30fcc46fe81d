/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The user-notification supervisor: shared state of its parts. It never
 * decides on target memory and then lets the call continue where the
 * call grants access: it copies arguments once, resolves them itself,
 * decides on the kernel-resolved object and performs the call.
 */
#ifndef FBAC_RUN_SUP_H
#define FBAC_RUN_SUP_H

#include <errno.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "fbac-limits.h"
#include "landlock.h"
#include "stack.h"
#include "suggest.h"

enum run_mode {
	MODE_ENFORCE,
	MODE_COMPLAIN,
	MODE_LEARN,
};

/* What the program's stack was built from: a denial's -D hint rebuilds
 * it with one define more (hints.c). */
struct hint_input {
	const char *exe;     /* the command's path */
	const char *const *as;
	size_t n_as;
	const struct fbac_define *defs;
	size_t n_defs;
	const struct fbac_env *trusted_env;
};

#define EVENTS_MAX_REMEMBERED 512 /* distinct denials remembered for dedup */

/*
 * The denial reports of a run (events.c), their one owner: receivers
 * decide in parallel, and one event is written at a time, under lock.
 * What events_summary() prints at the end is counted here.
 */
struct sup_events {
	pthread_mutex_t lock; /* PTHREAD_MUTEX_INITIALIZER */
	char *remembered[EVENTS_MAX_REMEMBERED]; /* for one line each */
	size_t n_remembered;
	unsigned long denials, printed;
	/* Denials logged without a line: probes of the working directory,
	 * those while a full-screen program had the terminal, those past
	 * the limit of lines. */
	unsigned long quiet, deferred, suppressed;
	/* What this run wrote to the user's denial log, and the denials
	 * left out past FBAC_MAX_DENIAL_LOG. */
	unsigned long user_log_bytes, user_log_dropped;
	/* Our own executable, read once: a nested fbac-run's probes. */
	char self_exe[FBAC_MAX_PATH];
	bool self_exe_known;
};

struct sup {
	int listener;
	const struct hint_input *hint; /* NULL: no -D hints */
	const struct fbac_stack *stack;
	const struct fbac_library *lib; /* NULL: load_lib reads it */
	const struct fbac_library *(*load_lib)(void *ctx);
	void *load_lib_ctx;
	const struct fbac_env *env;
	enum run_mode mode;
	FILE *log;	 /* JSON lines, or NULL */
	/* The per-user denial log (denial-log.h), or NULL. */
	FILE *user_log;
	/* The directory fbac-run was started in (canonical), or NULL: its
	 * probes are logged without a line (events.c). */
	const char *cwd;
	int verbosity;	 /* -1 quiet, 0 normal, 1 verbose */
	pid_t self;	 /* our pid, never to be reached through /proc */
	/* The child until its exec is answered (then 0): it shares our
	 * memory, which is non-dumpable, so its /proc entries cannot be
	 * read; its working directory is ours (cloned, and we never move). */
	pid_t launch_pid;
	/* SIGTSTP was ignored when we started: we never stop for it. */
	bool tstp_ignored;
	/*
	 * O_PATH on our own "/": every target's root too, as chroot and
	 * pivot_root are denied in the sandbox and mounts are refused by the
	 * filter and by Landlock, so absolute paths resolve from here
	 * without opening /proc/TID/root per call. Whatever namespace copy
	 * a target made, we decide on and hand over what this walk finds.
	 */
	int root_fd;
	/* Set for good once a process of the sandbox changed its root
	 * (chroot): resolutions then start from /proc/TID/root. */
	bool roots_vary;
	/* The launch-time kernel rules of each layer (landlock.h). */
	const struct landlock_extra *extras;
	size_t n_extras;
	struct sup_events events; /* denial lines, events, their counts */
	/* Execs refused by the supervisor (sup-file.c), for fbac-run's own
	 * message when the program itself cannot start. */
	unsigned long exec_refused;
	/* Counted by every receiver, with relaxed atomic adds (for -v). */
	unsigned long notifications, continued;
	/* Of them, metadata reads (sup-meta.c): Landlock has no right for
	 * them, so no kernel rule could answer them instead (bench). */
	unsigned long metadata;
	size_t receivers; /* receive threads started (for -v) */
	/* The policy's metadata is visible: the stat family never comes
	 * here (filter.c), and file_getattr is granted on every path
	 * (decide_getattr), extended attributes and inotify excepted. */
	bool metadata_visible;
	size_t notif_size, resp_size;
};

/* One notification being handled. */
struct call {
	struct sup *s;
	struct seccomp_notif *req;
	pid_t tid;
	pid_t tgid; /* 0 until needed */
	int nr;
	/* What was decided, for events. */
	bool decided;
	/* What the object is to the call, when not the object named
	 * ("the loader of '/usr/bin/curl'"): in the denial line. */
	const char *about;
};

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

void resolved_close(struct resolved *r);
/* The caller's thread group (read from /proc once per call). */
pid_t tgid_of(struct call *c);

/*
 * Copy the path at addr and resolve it relative to dirfd (AT_FDCWD or a
 * descriptor of the target). Return: 0, or a negative errno for the
 * target (-ENOENT, -EFAULT, -ELOOP...).
 */
int resolve_arg(struct call *c, int dirfd, uint64_t addr, unsigned flags,
		struct resolved *out);
/* The same for a path already copied (unix socket addresses). */
int resolve_path(struct call *c, int dirfd, const char *path, unsigned flags,
		 struct resolved *out);

/*
 * Decide op on a canonical path (or "@name", or a network object when
 * q is given). Logs the event. Return: true to go ahead (always in
 * complain and learn modes), false to refuse with EACCES.
 */
bool decide(struct call *c, const struct fbac_query *q);
bool decide_path(struct call *c, enum fbac_op op, const char *path);
/* decide_path for file_getattr: always true when metadata is visible. */
bool decide_getattr(struct call *c, const char *path);
/* Whether op on path is allowed, without deciding or logging anything. */
bool would_allow_path(struct call *c, enum fbac_op op, const char *path);

/* Respond: an error or a value; the notification is finished after. */
void respond(struct call *c, int64_t val, int error);
/* Let the call run in the kernel: only where Landlock bounds it, or
 * where it grants nothing (see the callers). */
void respond_continue(struct call *c);
/* Inject fd into the target as the call's return value (ADDFD|SEND). */
void respond_fd(struct call *c, int fd, bool cloexec);
/* Whether the notification is still live (the target did not die or
 * get interrupted). */
bool call_valid(struct call *c);

/* Handlers: each finishes the notification. handle_open/meta/entry/attr
 * return false (and do nothing) for a syscall that is not theirs. */
void handle_file(struct call *c);
/*
 * The caller's controlling terminal (sup-pty.c): own_tty() names it for
 * the caller's /dev/tty (-ENXIO without one); ctty_as_dev_tty() renames
 * an object that is it to /dev/tty, which decides exactly that.
 */
int own_tty(struct call *c, char *out, size_t size);
void ctty_as_dev_tty(struct call *c, struct resolved *out);
bool handle_open(struct call *c);
/* sup-idmap.c: a decided write open of a nested namespace's uid_map or
 * gid_map, from its parent namespace: a descriptor, -errno, or -ENOENT
 * when the path needs no such open. */
int open_idmap(const char *path, int obj_fd, int flags);
bool handle_meta(struct call *c);
bool handle_entry(struct call *c);
bool handle_attr(struct call *c);

#define ARG(c, i) ((c)->req->data.args[i])
#define AT_FD(v) ((int)(int32_t)(v))

/* Refuse the call (EACCES unless err is a more precise errno). */
static inline void fail(struct call *c, int err)
{
	respond(c, 0, err < 0 ? err : -EACCES);
}

/* Our magic-link name for one of our descriptors. */
/* Whether a name of n bytes the kernel gave (readlink of /proc/.../fd/N
 * or cwd) is that of a removed file: it then ends in " (deleted)". */
static inline bool deleted_name(const char *name, size_t n)
{
	return n > 10 && !strcmp(name + n - 10, " (deleted)");
}

static inline void fdname(char *buf, size_t size, int fd)
{
	snprintf(buf, size, "/proc/self/fd/%d", fd);
}
void handle_net(struct call *c);

/*
 * Whether what the kernel loads to run prog (a script's interpreter, an
 * ELF loader, in turn) may be executed: decided with denial lines and
 * events (sup-exec.c), as Landlock would refuse them out of sight.
 */
bool exec_needs_allowed(struct call *c, const struct resolved *prog);

/*
 * Set the target's umask for a creation made here, and restore ours
 * after: the umask is the process's, and several threads create, so the
 * section is serialised.
 */
mode_t umask_enter(struct call *c);
void umask_leave(mode_t old);

/* Run fn(arg) in a worker thread (blocking opens and connects). The
 * worker responds. Return: 0 or -errno. */
int run_slow(void (*fn)(void *), void *arg);

/* The signals the supervisor takes through a signalfd (forwarding all
 * but SIGCHLD to the program); block them before starting it. */
void supervised_signals(sigset_t *set);

/*
 * The receive threads, started while the program sets itself up so that
 * they wait for its first call rather than it for them; *out is
 * supervise_end's to release, also on failure. Return: 0 or -errno
 * (logged).
 */
struct supervisor;
int supervise_begin(struct sup *s, struct supervisor **out);
/* Serve s->listener (set by now) until child (pidfd: its pidfd) has
 * exited, its status in *status, and no process is left under the
 * filter. Return: 0 or -errno (logged). */
int supervise(struct supervisor *sv, pid_t child, int pidfd, int *status);
/* Stop and join the receivers; release sv (NULL: nothing). */
void supervise_end(struct supervisor *sv);

/*
 * Whether the program may reach r for op as far as terminals go: not
 * another session's terminal by number (/dev/pts/N whose master no
 * process of the sandbox holds), which is refused with a denial line and
 * an event (sup-pty.c). A descriptor it holds is its own.
 */
bool pty_allowed(struct call *c, enum fbac_op op, const struct resolved *r);

/*
 * Refuse an operation the policy allows, for a reason of fbac-run's own
 * (a terminal of another session): one denial line and one event naming
 * the reason. Return: whether the call may go on (only outside enforce
 * mode, where it is logged as would-deny).
 */
bool refuse(struct call *c, enum fbac_op op, const char *path,
	    const char *reason);

struct fbac_define_hint;
/* Up to max -D hints that make the program's stack allow q (hints.c);
 * lib may be NULL (none). Return: how many. */
size_t hint_defines(const struct sup *s, const struct fbac_library *lib,
		    const struct fbac_query *q, const char *fill_dir,
		    struct fbac_define_hint *out, size_t max);

/* Events: the JSON line and the human line of one decision. */
void event_log(struct call *c, const struct fbac_query *q, bool allowed,
	       const struct fbac_stack_entry *denier,
	       const struct fbac_verdict *v);
void events_summary(struct sup *s);

#endif
