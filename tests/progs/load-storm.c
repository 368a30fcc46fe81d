// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * load-storm INTERVAL_US SECONDS SIG:TARGET...: send signals, for
 * tests/load.bats. Every INTERVAL_US microseconds it sends each SIG (a
 * number) to its TARGET, a pid or, written -PGID, a process group, as
 * kill(2) takes them; until SIGTERM, until SECONDS have passed (a safety
 * net), or until no target is left (every kill fails with ESRCH).
 *
 * Prints, when it stops: sent=N rounds=N errors=N, and exits 0.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_TARGETS 16

static volatile sig_atomic_t stop;

static void on_term(int s)
{
	(void)s;
	stop = 1;
}

int main(int argc, char **argv)
{
	struct {
		int sig;
		pid_t target;
	} t[MAX_TARGETS];
	struct sigaction sa;
	struct timespec start, now, pause;
	long interval, seconds, sent = 0, rounds = 0, errors = 0;
	int n = 0;

	if (argc < 4 || argc - 3 > MAX_TARGETS) {
		fprintf(stderr, "usage: load-storm INTERVAL_US SECONDS SIG:TARGET...\n");
		return 64;
	}
	interval = atol(argv[1]);
	seconds = atol(argv[2]);
	for (int i = 3; i < argc; i++) {
		char *colon = strchr(argv[i], ':');

		if (!colon)
			return 64;
		t[n].sig = atoi(argv[i]);
		t[n].target = (pid_t)atol(colon + 1);
		if (t[n].sig <= 0 || t[n].target == 0 || t[n].target == -1)
			return 64;
		n++;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	pause.tv_sec = interval / 1000000;
	pause.tv_nsec = (interval % 1000000) * 1000;
	clock_gettime(CLOCK_MONOTONIC, &start);
	while (!stop) {
		int alive = 0;

		for (int i = 0; i < n; i++) {
			if (kill(t[i].target, t[i].sig) == 0) {
				sent++;
				alive++;
			} else if (errno != ESRCH) {
				errors++;
			}
		}
		rounds++;
		if (!alive)
			break;
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec - start.tv_sec >= seconds)
			break;
		if (interval > 0)
			nanosleep(&pause, NULL);
	}
	printf("sent=%ld rounds=%ld errors=%ld\n", sent, rounds, errors);
	return 0;
}
