// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * load-spawn COUNT PARALLEL PROGRAM [ARG...]: run PROGRAM COUNT times with
 * fork(2) and execv(2), keeping up to PARALLEL of them running at once, and
 * reap each one. For tests/load.bats: many short-lived processes.
 *
 * Prints one line
 *   spawned=N exit0=N failed=N fork_errors=N elapsed_ms=N per_process_us=N
 * and the first few failures (exit status or signal) on stderr. Exit 0
 * when every run of PROGRAM exited 0, 1 otherwise, 64 on a usage error.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long exit0, failed;

static void reap_one(void)
{
	int status;
	pid_t pid;

	do
		pid = waitpid(-1, &status, 0);
	while (pid < 0 && errno == EINTR);
	if (pid < 0) {
		perror("load-spawn: waitpid");
		exit(1);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		exit0++;
		return;
	}
	if (failed++ < 10) {
		if (WIFEXITED(status))
			fprintf(stderr, "load-spawn: pid %d exited %d\n",
				(int)pid, WEXITSTATUS(status));
		else
			fprintf(stderr, "load-spawn: pid %d killed by signal %d\n",
				(int)pid, WTERMSIG(status));
	}
}

int main(int argc, char **argv)
{
	struct timespec t0, t1;
	long count, parallel, spawned = 0, running = 0, fork_errors = 0;
	long elapsed_us;

	if (argc < 4) {
		fprintf(stderr, "usage: load-spawn COUNT PARALLEL PROGRAM [ARG...]\n");
		return 64;
	}
	count = atol(argv[1]);
	parallel = atol(argv[2]);
	if (count < 1 || parallel < 1 || parallel > 64)
		return 64;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (spawned < count) {
		pid_t pid;

		if (running == parallel) {
			reap_one();
			running--;
		}
		pid = fork();
		if (pid == 0) {
			execv(argv[3], argv + 3);
			_exit(errno == ENOENT ? 127 : 126);
		}
		if (pid < 0) {
			/* EAGAIN: too many processes right now; wait for one. */
			if (fork_errors++ < 10)
				perror("load-spawn: fork");
			if (running == 0 || fork_errors > 1000)
				break;
			reap_one();
			running--;
			continue;
		}
		spawned++;
		running++;
	}
	while (running > 0) {
		reap_one();
		running--;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	elapsed_us = (t1.tv_sec - t0.tv_sec) * 1000000L +
		     (t1.tv_nsec - t0.tv_nsec) / 1000;
	printf("spawned=%ld exit0=%ld failed=%ld fork_errors=%ld elapsed_ms=%ld per_process_us=%ld\n",
	       spawned, exit0, failed, fork_errors, elapsed_us / 1000,
	       spawned ? elapsed_us / spawned : 0);
	return spawned == count && exit0 == count && failed == 0 ? 0 : 1;
}
