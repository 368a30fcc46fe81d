/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 3: path race on exec. ~/bin is executable, but ~/bin/prog-D in it
 * is denied execute (a carve-out Landlock cannot express: only the
 * supervisor's execve check enforces it). Each attempt forks a child whose
 * second thread flips the path between ~/bin/prog-A and ~/bin/prog-D while
 * the child calls execve/execveat on it. execve cannot be emulated: if the
 * supervisor checks the path and lets the kernel re-read it, prog-D runs
 * (the marker exits 42).
 */
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>

#include "escape-common.h"

static char path[PATH_MAX];
static struct esc_flip flip;

static void child(int variant)
{
	static char *argv[] = { "racer", NULL };
	static char *envp[] = { "MARKER_QUIET=1", NULL };
	pthread_t t;

	if (pthread_create(&t, NULL, esc_flipper, &flip))
		_exit(78);
	/* Let the flipper get going: on a loaded machine it may not have run
	 * at all yet, and then there is no race to speak of. */
	for (int i = 0; i < 100000 &&
			__atomic_load_n(&flip.flips, __ATOMIC_RELAXED) < 3;
	     i++)
		sched_yield();
	if (variant)
		syscall(SYS_execveat, AT_FDCWD, path, argv, envp, 0);
	else
		syscall(SYS_execve, path, argv, envp);
	_exit(77);
}

int main(void)
{
	char prog_a[PATH_MAX], prog_d[PATH_MAX];
	unsigned long tries = 0, allowed = 0, refused = 0, other = 0;
	size_t at;
	double end;

	esc_init("race-exec", "flip the execve path between ~/bin/prog-A (allowed) and ~/bin/prog-D (denied)");
	ESC_FMT(prog_a, "%s/prog-A", esc_bin);
	ESC_FMT(prog_d, "%s/prog-D", esc_bin);
	at = esc_diff_at(prog_a, prog_d);
	ESC_FMT(path, "%s", prog_a);
	flip.at = &path[at];
	flip.a = prog_a[at];
	flip.b = prog_d[at];
	end = esc_now() + esc_seconds;
	while (esc_now() < end && !esc_escaped) {
		int st, variant = (int)(tries & 1);
		pid_t pid = fork();

		if (pid < 0)
			esc_setup_error("fork: %m");
		if (pid == 0)
			child(variant);
		tries++;
		if (waitpid(pid, &st, 0) != pid)
			esc_setup_error("waitpid: %m");
		if (WIFEXITED(st) && WEXITSTATUS(st) == MARKER_DENIED)
			esc_escape("exec race: ~/bin/prog-D ran (attempt %lu, %s)",
				   tries, variant ? "execveat" : "execve");
		else if (WIFEXITED(st) && WEXITSTATUS(st) == MARKER_ALLOWED)
			allowed++;
		else if (WIFEXITED(st) && WEXITSTATUS(st) == 77)
			refused++;
		else
			other++;
	}
	esc_say("%lu attempts: prog-A ran %lu times, %lu refused, %lu other",
		tries, allowed, refused, other);
	if (allowed)
		esc_control("prog-A ran %lu times", allowed);
	return esc_finish();
}
