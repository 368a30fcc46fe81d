// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench-interleave N [VAR=VALUE...] CMD [ARG...] [-- [VAR=VALUE...] CMD
 * [ARG...]]...: run the commands one after the other, round after round
 * (N rounds, after 5 unmeasured ones), and print each one's median wall
 * time, its quartiles and its ratio to the first command, and the
 * median of its paired differences (each round's time minus that round's
 * time of command 1, of command 2) in ms. On a noisy
 * machine, running the commands interleaved lets them share the same
 * noise: comparing two builds of fbac-run, or fbac-run with `true`, this
 * way gives steadier ratios than timing one command after the other.
 * VAR=VALUE words before a command are set in its environment only (each
 * build wants its own XDG_CACHE_HOME: the cache is per executable).
 * Standard output and error go to /dev/null; a command that exits with
 * another status than in its first run is reported (exit 1).
 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define MAX_CMDS 16
#define WARMUP 5

struct cmd {
	char **argv;
	char **envp;
	int status; /* of the first run */
	double *ms;
	double paired[2]; /* median of each round's difference to 1, to 2 */
};

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static int is_assignment(const char *s)
{
	const char *eq = strchr(s, '=');

	return eq && eq != s && s[0] != '/' && s[0] != '-';
}

/* The command's environment: ours, its assignments replacing ours. */
static char **environment(char **assign, size_t n)
{
	size_t ne = 0, k = 0;
	char **e;

	while (environ[ne])
		ne++;
	e = calloc(ne + n + 1, sizeof(*e));
	if (!e)
		return NULL;
	for (size_t i = 0; i < n; i++)
		e[k++] = assign[i];
	for (size_t i = 0; i < ne; i++) {
		int replaced = 0;

		for (size_t j = 0; j < n; j++)
			replaced |= !strncmp(environ[i], assign[j],
					     (size_t)(strchr(assign[j], '=') -
						      assign[j]) + 1);
		if (!replaced)
			e[k++] = environ[i];
	}
	return e;
}

static int run_once(const struct cmd *c, posix_spawn_file_actions_t *fa,
		    double *ms)
{
	double t0 = now_ms();
	pid_t pid;
	int st, r;

	r = posix_spawn(&pid, c->argv[0], fa, NULL, c->argv, c->envp);
	if (r) {
		fprintf(stderr, "bench-interleave: cannot run '%s': %s\n",
			c->argv[0], strerror(r));
		return -1;
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	*ms = now_ms() - t0;
	return st;
}

int main(int argc, char **argv)
{
	struct cmd cmds[MAX_CMDS];
	posix_spawn_file_actions_t fa;
	size_t nc = 0;
	long rounds;
	int bad = 0;

	if (argc < 3 || (rounds = atol(argv[1])) < 3 || rounds > 100000) {
		fprintf(stderr, "usage: bench-interleave N [VAR=VALUE...] CMD [ARG...] [-- ...]...\n");
		return 64;
	}
	for (int i = 2; i < argc;) {
		int start = i, k;

		if (nc == MAX_CMDS) {
			fprintf(stderr, "bench-interleave: more than %d commands\n",
				MAX_CMDS);
			return 64;
		}
		while (i < argc && strcmp(argv[i], "--"))
			i++;
		argv[i < argc ? i : argc] = NULL;
		for (k = start; argv[k] && is_assignment(argv[k]); k++)
			;
		if (!argv[k]) {
			fprintf(stderr, "bench-interleave: a command is missing\n");
			return 64;
		}
		cmds[nc] = (struct cmd){
			.argv = &argv[k],
			.envp = environment(&argv[start], (size_t)(k - start)),
			.ms = calloc((size_t)rounds, sizeof(double)),
		};
		if (!cmds[nc].envp || !cmds[nc].ms) {
			fprintf(stderr, "bench-interleave: out of memory\n");
			return 1;
		}
		nc++;
		i++;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	for (int w = 0; w < WARMUP; w++)
		for (size_t c = 0; c < nc; c++) {
			double ms;

			cmds[c].status = run_once(&cmds[c], &fa, &ms);
			if (cmds[c].status < 0)
				return 1;
		}
	for (long r = 0; r < rounds; r++)
		for (size_t c = 0; c < nc; c++) {
			int st = run_once(&cmds[c], &fa, &cmds[c].ms[r]);

			if (st != cmds[c].status) {
				fprintf(stderr, "bench-interleave: '%s' exited with status %d, not %d\n",
					cmds[c].argv[0], st, cmds[c].status);
				bad = 1;
			}
		}
	/* Paired: each round's difference to command 1 and to command 2,
	 * whose median a slow phase of the machine moves far less than it
	 * moves the medians themselves (taken before they are sorted). */
	for (size_t c = 0; c < nc; c++) {
		double *d = calloc((size_t)rounds, sizeof(*d));

		for (int k = 0; k < 2 && d; k++) {
			const double *ref = cmds[k < (int)nc ? k : 0].ms;

			for (long r = 0; r < rounds; r++)
				d[r] = cmds[c].ms[r] - ref[r];
			qsort(d, (size_t)rounds, sizeof(*d), cmp_double);
			cmds[c].paired[k] = d[rounds / 2];
		}
		free(d);
	}
	printf("%-4s %10s %10s %10s %8s %9s %9s  %s\n", "", "median ms", "p25",
	       "p75", "ratio", "paired-1", "paired-2", "command");
	for (size_t c = 0; c < nc; c++) {
		double *v = cmds[c].ms, base;

		qsort(v, (size_t)rounds, sizeof(*v), cmp_double);
		base = cmds[0].ms[rounds / 2];
		printf("%-4zu %10.3f %10.3f %10.3f %8.2f %9.3f %9.3f ", c + 1,
		       v[rounds / 2], v[rounds / 4], v[3 * rounds / 4],
		       base > 0 ? v[rounds / 2] / base : 0, cmds[c].paired[0],
		       nc > 1 ? cmds[c].paired[1] : 0.0);
		for (char **a = cmds[c].argv; *a; a++)
			printf(" %s", *a);
		putchar('\n');
	}
	return bad;
}
