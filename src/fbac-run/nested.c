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
#include <fcntl.h>
#include <linux/close_range.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "filter.h"
#include "launch.h"
#include "nest-abi.h"
#include "output.h"
#include "scache.h"

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

int nested_prepare(const struct nested_run *n, struct nested_prep *p)
{
	int sup[FBAC_MAX_LAYERS + 1];
	struct landlock_extra extras[FBAC_MAX_LAYERS + 1];
	int r;

	memset(extras, 0, sizeof(extras));
	memset(sup, -1, sizeof(sup));
	memset(p->prog, -1, sizeof(p->prog));
	p->f = (struct filter_prog){ 0 };
	if (filter_build_static(&p->f) < 0)
		return -EINVAL;
	if (n->mode != MODE_ENFORCE)
		return 0;
	/* No supervisor of ours answers for the program: it gets the whole
	 * plan of each entry, not reads through narrow rules. */
	if (landlock_expand(n->st, extras) < 0) {
		nested_prep_free(p);
		return log_error(-ENOMEM, "out of memory");
	}
	r = landlock_prepare(n->st, n->abi, extras, NULL, 0, sup, p->prog);
	landlock_extra_release(extras, n->st->n);
	landlock_extra_free(extras, ARRAY_SIZE(extras));
	landlock_close(sup, n->st->n);
	if (r < 0) {
		nested_prep_free(p);
		return r;
	}
	return 0;
}

void nested_prep_free(struct nested_prep *p)
{
	landlock_close(p->prog, ARRAY_SIZE(p->prog));
	filter_prog_free(&p->f);
}

int nested_register(const struct fbac_stack *st)
{
	static const unsigned seals = F_SEAL_WRITE | F_SEAL_SHRINK |
				      F_SEAL_GROW | F_SEAL_SEAL;
	void *buf = NULL;
	size_t len = 0, off = 0;
	int fd, r;

	r = fbac_scache_encode(FBAC_NEST_KEY, strlen(FBAC_NEST_KEY), st, &buf,
			       &len);
	if (r < 0)
		return r;
	fd = memfd_create("fbac-nested", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (fd < 0) {
		r = -errno;
		free(buf);
		return r;
	}
	while (off < len) {
		ssize_t w = write(fd, (char *)buf + off, len - off);

		if (w <= 0)
			break;
		off += (size_t)w;
	}
	free(buf);
	if (off != len || fcntl(fd, F_ADD_SEALS, seals) < 0 ||
	    ioctl(fd, FBAC_IOC_NEST_REGISTER, 0) < 0) {
		r = off != len ? -EIO : -errno;
		close(fd);
		return r;
	}
	return fd;
}

int nested_enter(const struct nested_run *n, struct nested_prep *p)
{
	struct sock_fprog fp;
	int r;

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
	r = landlock_restrict(p->prog, n->st->n);
	landlock_close(p->prog, n->st->n);
	if (r < 0) {
		errno = -r;
		log_error(r, "cannot enforce the landlock layers: %m");
		goto fail;
	}
	fp = (struct sock_fprog){ .len = p->f.len, .filter = p->f.insns };
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fp) < 0) {
		r = log_error(-errno, "cannot load the seccomp filter: %m");
		goto fail;
	}
	filter_prog_free(&p->f);
	execve(n->exe, n->argv, environ);
	r = -errno;
	log_error(r, "cannot run '%s': %m", n->exe);
	return r == -ENOENT ? -ENOENT : -EACCES;
fail:
	nested_prep_free(p);
	return -EINVAL;
}
