/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The supervisor's handlers, one file per family of syscalls, as the
 * loop (dispatch() in supervise.c) sees them. Each takes one call and
 * finishes it exactly once (the rule in call.h), calling down into the
 * toolkit (call.h), target.h and lib/ only: never the loop, never
 * another handler (tests/lint-graph). Those returning bool return false,
 * and do nothing, for a syscall that is not theirs.
 */
#ifndef FBAC_RUN_SUP_HANDLERS_H
#define FBAC_RUN_SUP_HANDLERS_H

#include <stdbool.h>

struct call;

/* sup-open.c: open, openat, openat2, creat */
bool handle_open(struct call *c);
/* sup-meta.c: the stat family, statfs, access, readlink */
bool handle_meta(struct call *c);
/* sup-entry.c: mkdir, mknod, unlink, rmdir, rename, link, symlink */
bool handle_entry(struct call *c);
/* sup-attr.c: chmod, chown, truncate, utimes, xattrs */
bool handle_attr(struct call *c);
/* sup-exec.c: execve, execveat */
bool handle_exec(struct call *c);
/* sup-file.c: chdir, chroot, inotify_add_watch, memfd_create */
bool handle_file(struct call *c);
/* sup-refused.c: a call the filter notifies only to refuse it
 * (filter_refused()), answered with its errno after its line and event,
 * in every mode */
bool handle_refused(struct call *c);
/* sup-refused.c: ftruncate, made on the supervisor's copy of the
 * descriptor (the same open file, so Landlock's same answer), a refusal
 * told with the policy's answer for the file's path */
bool handle_ftruncate(struct call *c);
/* sup-refused.c: kill, tkill, tgkill, rt_sigqueueinfo, rt_tgsigqueueinfo,
 * pidfd_send_signal: the policy's line where Landlock's signal scope will
 * refuse the signal; the call then continues and the kernel decides */
bool handle_signal(struct call *c);
/* sup-nest.c: ioctl FBAC_IOC_NEST_REGISTER and FBAC_IOC_NEST_DONE on a
 * memory file (nest-abi.h): a nested fbac-run hands its stack over, and
 * says when nothing of it is left; on any other file, continued */
bool handle_nest(struct call *c);
/* sup-net.c: connect, bind, listen */
void handle_net(struct call *c);
/* sup-send.c: sendto, sendmsg, sendmmsg */
void handle_send(struct call *c);

#endif
