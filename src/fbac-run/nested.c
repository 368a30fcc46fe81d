/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A nested run: fbac-run started by a program that another fbac-run
 * confines (git running a wrapped less). The kernel allows one seccomp
 * listener per filter chain (a second is EBUSY; fbac's own filter refuses
 * it first, with EPERM), so no supervisor of ours can attach. What can
 * still be added only narrows: this policy's Landlock domains and the
 * static part of the filter. The outer supervisor keeps deciding every
 * path and address call by the outer policy.
 *
 * Whether a listener can be had is the kernel's answer, asked in a child
 * that exits at once: no environment variable decides it.
 */
#include "nested.h"

#include <errno.h>
#include <linux/close_range.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "filter.h"
#include "launch.h"
#include "output.h"

extern char **environ;

int nested_probe(void)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	int status;
	pid_t pid;

	/* Under no filter at all (the common case): one prctl, no child. */
	if (prctl(PR_GET_SECCOMP, 0, 0, 0, 0) != 2)
		return 0;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		struct sock_fprog prog = { .len = 1, .filter = &allow };
		long r;

		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			_exit(2);
		r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
		_exit(r >= 0 ? 0 : errno == EBUSY ? 1 : errno == EPERM ? 3 : 2);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status))
		return -EIO;
	switch (WEXITSTATUS(status)) {
	case 1:
		return EBUSY;
	case 3:
		return EPERM;
	default:
		/* A filter without a listener (a container's): we can
		 * supervise; anything else fails later, with its reason. */
		return 0;
	}
}

int nested_exec(const struct nested_run *n)
{
	int sup[FBAC_MAX_LAYERS + 1], prog[FBAC_MAX_LAYERS + 1];
	struct landlock_extra extras[FBAC_MAX_LAYERS + 1];
	struct filter_prog f = { 0 };
	struct sock_fprog fp;
	int r;

	memset(extras, 0, sizeof(extras));
	memset(sup, -1, sizeof(sup));
	memset(prog, -1, sizeof(prog));
	if (filter_build_static(&f) < 0)
		return -EINVAL;
	if (n->mode == MODE_ENFORCE) {
		/* No supervisor of ours answers for the program: it gets the
		 * whole plan of each entry, not reads through narrow rules. */
		if (landlock_expand(n->st, extras) < 0) {
			filter_prog_free(&f);
			return log_error(-ENOMEM, "out of memory");
		}
		r = landlock_prepare(n->st, n->abi, extras, NULL, 0, sup, prog);
		landlock_extra_release(extras, n->st->n);
		landlock_extra_free(extras, ARRAY_SIZE(extras));
		landlock_close(sup, n->st->n);
		if (r < 0) {
			filter_prog_free(&f);
			return r;
		}
	}
	if (n->verbosity > 0)
		fprintf(stderr, "fbac: nested run: '%s' starts under another supervisor (a second seccomp listener is refused: %s); adding %s the static seccomp filter, which only narrow what the outer policy allows\n",
			n->exe, strerror(n->why),
			n->mode == MODE_ENFORCE ? "this policy's landlock layers and" :
						  "(not enforcing: no landlock layers)");
	fflush(NULL);
	r = drop_capabilities();
	if (r < 0) {
		errno = -r;
		log_error(r, "cannot drop capabilities: %m");
		goto fail;
	}
	/* Nothing inherited beyond stdio may reach the program. */
	if (syscall(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC) < 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		r = log_error(-errno, "cannot set up the nested sandbox: %m");
		goto fail;
	}
	r = landlock_restrict(prog, n->st->n);
	landlock_close(prog, n->st->n);
	if (r < 0) {
		errno = -r;
		log_error(r, "cannot enforce the landlock layers: %m");
		goto fail;
	}
	fp = (struct sock_fprog){ .len = f.len, .filter = f.insns };
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp) < 0) {
		r = log_error(-errno, "cannot load the seccomp filter: %m");
		goto fail;
	}
	filter_prog_free(&f);
	execve(n->exe, n->argv, environ);
	r = -errno;
	log_error(r, "cannot run '%s': %m", n->exe);
	return r == -ENOENT ? -ENOENT : -EACCES;
fail:
	landlock_close(prog, ARRAY_SIZE(prog));
	filter_prog_free(&f);
	return -EINVAL;
}
