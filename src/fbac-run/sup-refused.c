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
 *
 * A signal to one process outside the sandbox, which Landlock's signal
 * scope refuses, is told with the policy's answer for ipc_signal, and
 * left to the kernel.
 */
#include <errno.h>
#include <linux/filter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "call.h"
#include "filter.h"
#include "sup-handlers.h"
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
	int err = filter_refused(c->nr, ARG(c, 1), &why, &probe);

	if (!err)
		return false;
	call_refuse_syscall(c, why, probe || listener_probe(c));
	call_respond(c, 0, -err);
	return true;
}

/* Whether length is beyond the caller's RLIMIT_FSIZE: the kernel then
 * answers EFBIG with SIGXFSZ to the caller, never to us. */
static bool beyond_fsize(struct call *c, uint64_t length)
{
	struct rlimit rl;

	if (prlimit(call_tgid(c), RLIMIT_FSIZE, NULL, &rl) < 0)
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
		call_continue(c);
		return true;
	}
	fd = target_getfd(c->tid, (int)ARG(c, 0));
	if (fd < 0) {
		call_fail(c, fd);
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
		    call_decide_path(c, FBAC_OP_FILE_TRUNCATE, path))
			(void)call_refuse(c, FBAC_OP_FILE_TRUNCATE, path[0] ? path : "?",
				     "the kernel refused it: the file was opened where its policy did not grant file_truncate");
	}
	close(fd);
	call_respond(c, 0, err);
	return true;
}

/* ---- signals out of the sandbox ---- */

#define CHAIN_MAX 64 /* parents walked to find fbac-run */

/*
 * Whether pid is a process of the sandbox: fbac-run is a child
 * subreaper, so every process started in it, orphans too, has fbac-run
 * (not itself) among its parents. Return: 1, 0, or -1 when it cannot be
 * told (gone: the kernel answers ESRCH).
 */
static int in_sandbox(const struct sup *s, pid_t pid)
{
	struct target_stat st;

	if (pid == s->self)
		return 0;
	for (int i = 0; i < CHAIN_MAX; i++) {
		if (target_proc_stat(pid, &st) < 0)
			return i ? 0 : -1;
		if (st.ppid == s->self)
			return 1;
		if (st.ppid <= 1)
			return 0;
		pid = st.ppid;
	}
	return 0;
}

/* The process a pidfd of the caller's refers to ("Pid:" of its fdinfo),
 * or 0. */
static pid_t pidfd_target(struct call *c, int pidfd)
{
	char name[64], line[128];
	pid_t pid = 0;
	int fd = target_getfd(c->tid, pidfd);
	FILE *f;

	if (fd < 0)
		return 0;
	snprintf(name, sizeof(name), "/proc/self/fdinfo/%d", fd);
	f = fopen(name, "re");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "Pid:", 4))
			pid = (pid_t)strtol(line + 4, NULL, 10);
	if (f)
		fclose(f);
	close(fd);
	return pid;
}

/* Whether some stack entry's kernel rules scope signals (the policy
 * does not grant ipc_signal). */
static bool signals_scoped(const struct sup *s)
{
	for (size_t i = 0; i < s->stack->n; i++)
		if (s->stack->entries[i].policy->ll.scope & FBAC_LL_SCOPE_SIGNAL)
			return true;
	return false;
}

bool handle_signal(struct call *c)
{
	struct fbac_query q = { .op = FBAC_OP_IPC_SIGNAL };
	char about[64];
	pid_t target;
	int sig;

	switch (c->nr) {
	case SYS_kill:
	case SYS_tkill:
	case SYS_rt_sigqueueinfo:
		target = (pid_t)ARG(c, 0);
		sig = (int)ARG(c, 1);
		break;
	case SYS_tgkill:
	case SYS_rt_tgsigqueueinfo:
		target = (pid_t)ARG(c, 0);
		sig = (int)ARG(c, 2);
		break;
	case SYS_pidfd_send_signal:
		target = -1; /* read below, when it matters */
		sig = (int)ARG(c, 1);
		break;
	default:
		return false;
	}
	/*
	 * Landlock's signal scope refuses a signal to a process outside the
	 * sandbox (EPERM), out of the supervisor's sight. Told here, then
	 * left to the kernel, which decides it anyway: a group (pid <= 0)
	 * and the caller's own process never reach outside alone.
	 */
	if (c->s->mode != MODE_ENFORCE || !c->s->extras || !signals_scoped(c->s) ||
	    target == 0 || target < -1 || target == c->tid ||
	    target == call_tgid(c)) {
		call_continue(c);
		return true;
	}
	if (target == -1 && c->nr == SYS_pidfd_send_signal)
		target = pidfd_target(c, (int)ARG(c, 0));
	if (target > 0 && target != call_tgid(c) &&
	    in_sandbox(c->s, target) == 0 && c->s->landlock_abi >= 6) {
		snprintf(about, sizeof(about), "signal %d to pid %d, outside the sandbox",
			 sig, (int)target);
		c->about = about;
		(void)call_decide(c, &q);
		c->about = NULL;
	}
	call_continue(c);
	return true;
}
