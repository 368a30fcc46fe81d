/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac-run --learn: the run is recorded in a log (the --log file, or a
 * temporary one), and when the program has exited, fbac learn proposes
 * a policy from it. fbac-run execs fbac rather than linking its review:
 * the terminal, the user's layer and the questions are fbac's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fbac-limits.h"
#include "output.h"
#include "run-learn.h"

int learn_temp_log(char *buf, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	int fd;

	if (!tmp || tmp[0] != '/')
		tmp = "/tmp";
	if (snprintf(buf, size, "%s/fbac-learn-XXXXXX", tmp) >= (int)size)
		return log_error(-ENAMETOOLONG, "TMPDIR too long");
	fd = mkstemp(buf);
	if (fd < 0) {
		int r = -errno;

		buf[0] = 0;
		return log_error(r, "cannot make a log for --learn in '%s': %m", tmp);
	}
	close(fd);
	return 0;
}

/* The fbac installed beside this fbac-run. */
static void fbac_path(char *buf, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n > 0) {
		self[n] = 0;
		slash = strrchr(self, '/');
		if (slash) {
			*slash = 0;
			if (snprintf(buf, size, "%s/fbac", self) < (int)size &&
			    access(buf, X_OK) == 0)
				return;
		}
	}
	snprintf(buf, size, "fbac");
}

int learn_propose(const char *log, const char *exe, const char *const *dirs,
		  size_t n_dirs, const char *output, bool yes)
{
	const char *argv[2 * FBAC_MAX_LAYERS + 12];
	char fbac[PATH_MAX];
	size_t n = 0;
	int status;
	pid_t pid;

	fbac_path(fbac, sizeof(fbac));
	argv[n++] = fbac;
	for (size_t i = 0; i < n_dirs; i++) {
		argv[n++] = "-P";
		argv[n++] = dirs[i];
	}
	argv[n++] = "learn";
	argv[n++] = "--program";
	argv[n++] = exe;
	if (output) {
		argv[n++] = "--output";
		argv[n++] = output;
	}
	if (yes)
		argv[n++] = "--yes";
	argv[n++] = "--";
	argv[n++] = log;
	argv[n] = NULL;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0)
		return log_error(-errno, "cannot run fbac learn: %m"), -1;
	if (pid == 0) {
		/* The signal state the supervisor set for itself is not
		 * fbac's: questions must be interruptible. */
		static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP,
					    SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE,
					    SIGCHLD };
		sigset_t none;

		for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
			signal(sigs[i], SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		/* Standard output is the program's: a proposal printed
		 * rather than written or reviewed goes to standard error. */
		if (!output && !yes && !isatty(STDIN_FILENO))
			dup2(STDERR_FILENO, STDOUT_FILENO);
		execvp(argv[0], (char *const *)argv);
		log_error(-errno, "cannot run '%s': %m", argv[0]);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return log_error(-errno, "cannot wait for fbac learn: %m"), -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}
