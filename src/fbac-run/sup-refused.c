/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Refusals that no path rule decides, told like the others (issue 17:
 * no refusal fbac causes is silent).
 *
 * The calls refused to every confined program (ptrace, keyctl, bpf,
 * mount, TIOCSTI, a seccomp listener, a user namespace as root, ...) are
 * rare, so the supervisor's filter notifies them instead of answering
 * the errno itself, and they are answered here after one denial line
 * and one event naming the call and why. Not notified, and told another
 * way: the system calls of another architecture, which the filter kills
 * before they can reach anyone (run.c says so when the program dies of
 * it); clone3 and numbers newer than the filter knows, ENOSYS in the
 * filter (on every thread's start for clone3, and glibc falls back at
 * once: nothing is refused that the program needs).
 *
 * ftruncate, which the kernel's Landlock rules decide by the right the
 * file was opened with, is made here on the supervisor's copy of the
 * descriptor: the same open file, so the same answer, and a refusal is
 * told with the policy's answer for the file's path.
 */
#include <errno.h>
#include <linux/filter.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "filter.h"
#include "sup-refused.h"
#include "target.h"

/*
 * A nested fbac-run's question whether a listener can be had (nested.c):
 * a listener for a filter that allows everything, which would be told
 * nothing. Refused like any listener, logged without a line.
 */
static bool listener_probe(struct call *c)
{
	struct sock_fprog fp;
	struct sock_filter insn;

	return c->nr == SYS_seccomp &&
	       target_read(c->tid, ARG(c, 2), &fp, sizeof(fp)) == 0 &&
	       fp.len == 1 &&
	       target_read(c->tid, (uint64_t)(uintptr_t)fp.filter, &insn,
			   sizeof(insn)) == 0 &&
	       insn.code == (BPF_RET | BPF_K) && insn.k == SECCOMP_RET_ALLOW;
}

bool handle_refused(struct call *c)
{
	const char *why = NULL;
	bool probe = false;
	int err = filter_refused(c->nr, &why, &probe);

	if (!err)
		return false;
	refuse_syscall(c, why, probe || listener_probe(c));
	respond(c, 0, -err);
	return true;
}

/* Whether length is beyond the caller's RLIMIT_FSIZE: the kernel then
 * answers EFBIG with SIGXFSZ to the caller, never to us. */
static bool beyond_fsize(struct call *c, uint64_t length)
{
	struct rlimit rl;

	if (prlimit(tgid_of(c), RLIMIT_FSIZE, NULL, &rl) < 0)
		return true;
	return rl.rlim_cur != RLIM_INFINITY && length > rl.rlim_cur;
}

bool handle_ftruncate(struct call *c)
{
	char link[64], path[FBAC_MAX_PATH];
	int64_t length = (int64_t)ARG(c, 1);
	ssize_t n;
	int fd, err = 0;

	if (c->nr != SYS_ftruncate)
		return false;
	/* Bad values are the kernel's to refuse, as are sizes past the
	 * caller's own limit (its signal). */
	if (length < 0 || beyond_fsize(c, (uint64_t)length)) {
		respond_continue(c);
		return true;
	}
	fd = target_getfd(c->tid, (int)ARG(c, 0));
	if (fd < 0) {
		fail(c, fd);
		return true;
	}
	if (ftruncate(fd, length) < 0)
		err = -errno;
	/* EACCES from ftruncate is Landlock's: the file was opened without
	 * LANDLOCK_ACCESS_FS_TRUNCATE. Say what the policy says of it. */
	if (err == -EACCES) {
		fdname(link, sizeof(link), fd);
		n = readlink(link, path, sizeof(path) - 1);
		path[n > 0 ? n : 0] = 0;
		if (path[0] != '/' ||
		    decide_path(c, FBAC_OP_FILE_TRUNCATE, path))
			(void)refuse(c, FBAC_OP_FILE_TRUNCATE, path[0] ? path : "?",
				     "the kernel refused it: the file was opened where its policy did not grant file_truncate");
	}
	close(fd);
	respond(c, 0, err);
	return true;
}
