/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The user-notification supervisor: its state, shared by its three
 * layers, and the loop's entry points (supervise.c), which is all that
 * the run (run.c) sees. It never decides on target memory and then lets
 * the call continue where the call grants access: it copies arguments
 * once, resolves them itself, decides on the kernel-resolved object and
 * performs the call. The layers: the loop (supervise.c) receives and
 * dispatches to the handlers (sup-handlers.h), which call down into the
 * per-call toolkit (call.h) and nothing else of the supervisor.
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

#define EVENTS_MAX_REMEMBERED FBAC_MAX_DENIALS_REMEMBERED

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
	/* Why it is NULL (-errno; -ENOENT: no state directory), for the
	 * summary: denials not shown are then lost. */
	int user_log_err;
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
	 * (call_decide_getattr), extended attributes and inotify excepted. */
	bool metadata_visible;
	/* fbac-run was started with CAP_DAC_OVERRIDE or CAP_DAC_READ_SEARCH
	 * (root), which it dropped: the file permissions that then refuse
	 * the program are told (sup-dac.c). */
	bool dac_dropped;
	/* The kernel's Landlock ABI (landlock_abi(), asked once at launch):
	 * what the handlers predict of Landlock's refusals depends on it. */
	int landlock_abi;
	/* Nested runs registered (call-nest.c), live or orphaned: while
	 * none is, no decision looks for them. Atomic. */
	unsigned long nested_runs;
	/* Their registry, made by the first registration (call-nest.c);
	 * NULL until then. Atomic. */
	struct sup_nests *nests;
};

/* Free the nested runs' registry (call-nest.c), once the receivers have
 * ended. */
void nests_free(struct sup *s);

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

/* What the run's denials and calls came to, on stderr at the end
 * (events.c). */
void events_summary(struct sup *s);

/*
 * events.c: the program (pid, running exe) was killed by SIGSYS, as the
 * filter kills the system calls of another architecture (nobody can
 * answer them): its line and event, at exit.
 */
void events_killed(struct sup *s, pid_t pid, const char *exe);

#endif
