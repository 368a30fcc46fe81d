/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 12: x32 system call numbers (nr | 0x40000000, __X32_SYSCALL_BIT).
 * They arrive with seccomp_data.arch == AUDIT_ARCH_X86_64, so a filter that
 * checks the architecture but not the x32 bit sees a number it does not
 * know and may allow it. A forked child calls x32 openat (257), open (2),
 * newfstatat (262) and read (0) on the secret, and the compat-only x32
 * numbers 512 and up. The sandbox must kill or refuse every one; on a
 * kernel without x32 support they fail with ENOSYS anyway.
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "escape-common.h"

#define X32 0x40000000L

int main(void)
{
	int pfd[2], st;
	char *low;
	pid_t pid;
	char buf[512];
	ssize_t n;

	esc_init("x32", "x32 syscall numbers (nr | 0x40000000) for openat/open/read of the secret");
	low = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (low == MAP_FAILED)
		esc_setup_error("no memory below 4 GiB: %m");
	esc_fmt(low, 4096, "%s", esc_secret);
	if (pipe(pfd) < 0)
		esc_setup_error("pipe: %m");
	pid = fork();
	if (pid < 0)
		esc_setup_error("fork: %m");
	if (pid == 0) {
		static const long nrs[] = { 257, 2 };
		long fd = -1, r;

		close(pfd[0]);
		r = syscall(X32 | 39); /* getpid */
		esc_out("[x32] child: x32 getpid: %s\n",
			r < 0 ? strerror(errno) : "worked");
		r = syscall(X32 | 262, AT_FDCWD, low, low + 4096, 0);
		esc_out("[x32] child: x32 newfstatat: %s\n",
			r < 0 ? strerror(errno) : "worked");
		for (size_t i = 0; i < 2 && fd < 0; i++) {
			if (nrs[i] == 257)
				fd = syscall(X32 | 257, AT_FDCWD, low, O_RDONLY, 0);
			else
				fd = syscall(X32 | 2, low, O_RDONLY, 0);
			esc_out("[x32] child: x32 syscall %ld: %s\n",
				nrs[i], fd < 0 ? strerror(errno) : "opened");
		}
		if (fd < 0)
			_exit(3);
		r = syscall(X32 | 0, fd, low + 4096, 512);
		if (r <= 0)
			r = read((int)fd, low + 4096, 512);
		if (r > 0)
			(void)!write(pfd[1], low + 4096, (size_t)r);
		_exit(r > 0 ? 0 : 4);
	}
	close(pfd[1]);
	n = read(pfd[0], buf, sizeof(buf));
	if (waitpid(pid, &st, 0) != pid)
		esc_setup_error("waitpid: %m");
	if (WIFSIGNALED(st))
		esc_say("the child was killed by signal %d (%s) (held)",
			WTERMSIG(st), strsignal(WTERMSIG(st)));
	else
		esc_say("the child exited with %d", WEXITSTATUS(st));
	if (esc_is_stolen(buf, n))
		esc_leak("x32 open+read", buf, n);
	return esc_finish();
}
