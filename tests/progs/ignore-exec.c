// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ignore-exec SIG... -- COMMAND [ARG...]: set each signal number SIG to be
 * ignored, then exec COMMAND (an ignored signal stays ignored across
 * exec). The raw rt_sigaction call, because the C library's sigaction
 * refuses its own signals (32 and 33), which a caller may still have
 * ignored. Exit 64 on a usage error, 127 when COMMAND cannot be run.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

struct kernel_sigaction {
	void (*handler)(int);
	unsigned long flags;
	void (*restorer)(void);
	uint64_t mask;
};

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		struct kernel_sigaction ka = { .handler = SIG_IGN };
		char *end;
		long sig = strtol(argv[i], &end, 10);

		if (*end || sig < 1 || sig > 64 ||
		    syscall(SYS_rt_sigaction, (int)sig, &ka, NULL, 8) < 0) {
			fprintf(stderr, "ignore-exec: cannot ignore '%s'\n",
				argv[i]);
			return 64;
		}
	}
	if (i + 1 >= argc) {
		fprintf(stderr, "usage: ignore-exec SIG... -- COMMAND [ARG...]\n");
		return 64;
	}
	execvp(argv[i + 1], argv + i + 1);
	perror("ignore-exec: exec");
	return 127;
}
