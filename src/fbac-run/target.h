/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Access to the process that made a notified syscall: copying its
 * arguments once, writing results back, and borrowing its descriptors.
 * Every function fails closed: an error means the call is refused.
 */
#ifndef FBAC_RUN_TARGET_H
#define FBAC_RUN_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Copy exactly len bytes from the target. Return: 0 or -EFAULT. */
int target_read(pid_t tid, uint64_t addr, void *buf, size_t len);
/* Copy a NUL-terminated string. Return: its length, -EFAULT or
 * -ENAMETOOLONG when no NUL is found within size bytes. */
int target_read_string(pid_t tid, uint64_t addr, char *buf, size_t size);
/* Write len bytes into the target. Return: 0 or -EFAULT. */
int target_write(pid_t tid, uint64_t addr, const void *buf, size_t len);

/* A copy of descriptor fd of thread tid in our table, or -errno. */
int target_getfd(pid_t tid, int fd);
/* Keep thread pidfds for this thread's later calls (receivers only). */
void target_cache_pidfds(void);
/* Whether this thread keeps them: it lives as long as the supervisor. */
bool target_caching_pidfds(void);
/* A pidfd of thread tid (of its process on a kernel without thread
 * pidfds, where that fails for a thread but the leader), or -errno. */
int target_thread_pidfd(pid_t tid);
/* An O_PATH descriptor of the thread's working directory or root. */
int target_cwd(pid_t tid);
/* The path of its working directory as the kernel names it, into buf.
 * Return: its length or -errno (-ENAMETOOLONG when it does not fit). */
int target_cwd_path(pid_t tid, char *buf, size_t size);
/* The same for its descriptor fd (what /proc/TID/fd/FD names). */
int target_fd_path(pid_t tid, int fd, char *buf, size_t size);
int target_root(pid_t tid);
/* The thread group id of tid, or -errno. */
pid_t target_tgid(pid_t tid);
/*
 * Whether the kernel itself refuses tid an operation that only the owner
 * of a file may make (chmod, chown): its filesystem uid is not owner and
 * it has no effective capability. False when that cannot be read.
 */
bool target_kernel_refuses_owner_op(pid_t tid, uid_t owner);
/*
 * Whether tid acts with our filesystem uid and gid and, like us, with no
 * effective capability: then what the kernel lets us do to a file, by its
 * permissions, is what it lets tid do. False when that cannot be read.
 */
bool target_has_our_creds(pid_t tid);
/* The umask of tid, or the default 022 when it cannot be read. */
mode_t target_umask(pid_t tid);

/* Fields of /proc/<pid>/stat the supervisor needs. */
struct target_stat {
	pid_t ppid, session;
	unsigned long tty_nr; /* the controlling terminal, 0 for none */
	unsigned long flags;  /* PF_* (FBAC_PF_EXITING) */
	unsigned long long start; /* its start time: with pid, an identity */
};
/* Return: 0, -errno (the process is gone), or -EIO (unreadable). */
int target_proc_stat(pid_t pid, struct target_stat *out);
/* The number of seccomp filters pid runs under (/proc/PID/status), or
 * -errno (-ENOENT on a kernel that does not tell). */
int target_seccomp_filters(pid_t pid);

#endif
