/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 19: the dynamic loader trick, `ld.so PROGRAM`. The loader may be
 * executed (every dynamically linked program needs it), and it maps
 * PROGRAM with mmap(PROT_EXEC) after a plain read-only open: the kernel's
 * execute check never sees PROGRAM. Two targets:
 *   ~/work/noexec-prog  readable, in a directory without execute: the
 *                       kernel layer (Landlock EXECUTE) refuses execve;
 *   ~/bin/prog-D        readable, in an executable directory but denied
 *                       execute by a carve-out the supervisor enforces.
 * First the direct execve of each must fail (otherwise the test means
 * nothing), then each is started through /lib64/ld-linux-x86-64.so.2.
 *
 * Expectation: a sandbox that bounds execution by file must refuse this
 * (syd refuses ld.so indirection unless trace/allow_unsafe_exec_ldso is
 * set). Landlock has no right for mmap(PROT_EXEC) on 6.18, so fbac can
 * only stop it in the supervisor (refusing execve of the loader itself as
 * the program). If the marker runs, the escape is reported as such.
 */
#include <sys/wait.h>

#include "escape-common.h"

static int run(const char *label, const char *exe, const char *arg)
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		esc_setup_error("fork: %m");
	if (pid == 0) {
		char *argv[] = { (char *)exe, (char *)arg, NULL };
		char *envp[] = { "MARKER_QUIET=1", NULL };

		execve(exe, argv, envp);
		esc_out("[ldso] %s: execve: %s\n", label,
			strerror(errno));
		_exit(77);
	}
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

int main(void)
{
	static const char *const loaders[] = {
		"/lib64/ld-linux-x86-64.so.2",
		"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
	};
	char targets[2][PATH_MAX], pa[PATH_MAX];
	int r;

	esc_init("ldso", "run non-executable programs through the dynamic loader");
	ESC_FMT(targets[0], "%s/noexec-prog", esc_work);
	ESC_FMT(targets[1], "%s/prog-D", esc_bin);
	ESC_FMT(pa, "%s/prog-A", esc_bin);

	r = run("prog-A", pa, NULL);
	if (r == MARKER_ALLOWED)
		esc_control("prog-A runs directly");
	r = run("prog-A via ld.so", loaders[0], pa);
	if (r == MARKER_ALLOWED)
		esc_control("prog-A runs through the loader");
	for (int i = 0; i < 2; i++) {
		r = run("direct", targets[i], NULL);
		if (r == MARKER_DENIED)
			esc_escape("%s runs even directly", targets[i]);
		else
			esc_say("direct execve of %s is refused (held)", targets[i]);
		for (size_t l = 0; l < 2; l++) {
			r = run("through the loader", loaders[l], targets[i]);
			if (r == MARKER_DENIED)
				esc_escape("'%s %s' ran the program that may not be run",
					   loaders[l], targets[i]);
			else
				esc_say("'%s %s': exit %d (held)", loaders[l],
					targets[i], r);
		}
	}
	return esc_finish();
}
