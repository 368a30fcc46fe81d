/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The seccomp filter: static denials, ENOSYS for what we cannot follow
 * (io_uring, clone3, syscalls newer than this table), and user
 * notification for every syscall that names a path or an address.
 */
#ifndef FBAC_RUN_FILTER_H
#define FBAC_RUN_FILTER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct sock_filter;

/* A filter program, built but not loaded. */
struct filter_prog {
	struct sock_filter *insns; /* malloc'd */
	unsigned short len;
};

/*
 * Build the filter with libseccomp. It depends on nothing the policy
 * says, so it can be built on any thread while the profiles load.
 * Return: 0 or -errno (logged).
 */
int filter_build(struct filter_prog *p);
/*
 * The same filter without user notification, for a nested run (nested.c):
 * the denials (SECCOMP_RET_TRACE, which an outer fbac filter's
 * notification overrides, so that its supervisor tells them; ENOSYS
 * otherwise), ENOSYS and the bad-architecture kill, nothing notified (the
 * outer supervisor decides those calls). Return: as filter_build.
 */
int filter_build_static(struct filter_prog *p);
void filter_prog_free(struct filter_prog *p);

/*
 * For a policy whose metadata is visible: let the stat family (stat,
 * lstat, newfstatat, statx, statfs, access, faccessat, faccessat2,
 * readlink, readlinkat) run in the kernel, before anything is notified.
 * p is a program filter_build made (or the cache held).
 * Return: 0, or -EINVAL for a program without our prologue, -ENOMEM.
 */
int filter_prog_visible(struct filter_prog *p);

/*
 * The filter from the cache file (cache.h) when it is there and was
 * written by this executable, for this libseccomp and this kind of user
 * (root's differs); otherwise filter_build on a thread of its own, and
 * the cache written by filter_job_store. Start it, then wait for it
 * (which a scope-bound filter_job_done also does on every way out).
 */
struct filter_job {
	struct filter_prog prog;
	int err;
	bool started, from_cache, cache_written;
	pthread_t thread;
	char cache[4096]; /* "" without a cache */
};

/* cache: the cache file's path, or NULL. */
void filter_job_start(struct filter_job *j, const char *cache);
/* Return: 0 with j->prog built, or -errno (logged by the builder). */
int filter_job_wait(struct filter_job *j);
/* Write the cache file if the filter was built (fbac-run: once the
 * program runs, off its start-up). */
void filter_job_store(struct filter_job *j);
void filter_job_done(struct filter_job *j);

/*
 * Whether the supervisor's filter notifies nr only to refuse it (a call
 * refused to every confined program, or one of its variants: TIOCSTI,
 * a listener, a user namespace as root): the errno to answer (EPERM, or
 * ENOSYS for io_uring_setup) with the reason in *why, and in *probe
 * whether working programs try it and go on without it (quotactl,
 * name_to_handle_at, io_uring_setup, a user namespace as root, ...),
 * else 0. Only the refused variants of seccomp, unshare and clone are
 * notified; of ioctl (arg1 is its request), TIOCSTI and TIOCLINUX are
 * refused, a nested run's two are sup-nest.c's.
 */
int filter_refused(int nr, uint64_t arg1, const char **why, bool *probe);

/* The name of a native syscall number (for messages), or "?". */
const char *filter_syscall_name(int nr);

#endif
