/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 6: /proc/self tricks. The supervisor opens files on the
 * program's behalf, so every name that means "the calling process" must
 * mean the program and not the supervisor, and the magic links under
 * /proc/PID (root, cwd) must not lead around the policy:
 *   /proc/self/root/<secret>, /proc/thread-self/root/..., /proc/PID/root,
 *   odd spellings of /proc/self (//proc/self, /proc/./self, /proc//self),
 *   /proc/self/cwd/../.ssh/id_rsa, /proc/self/root/proc/self/root/...,
 *   and /proc/self/stat, /proc/thread-self/stat and /proc/self/fd/N, which
 *   must describe the program itself (pid, tid, its own descriptors).
 */
#include "escape-common.h"

static void try_path(const char *prefix, const char *suffix)
{
	char p[PATH_MAX];

	ESC_FMT(p, "%s%s", prefix, suffix);
	esc_try_open("proc path", AT_FDCWD, p, O_RDONLY, false);
}

/* The first field of a /proc/.../stat file: a pid or tid. */
static long stat_pid(const char *path)
{
	char buf[256];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	return strtol(buf, NULL, 10);
}

static void check_self(const char *path, long want, const char *what)
{
	long got = stat_pid(path);

	if (got < 0)
		esc_say("%s: %s (held)", path, strerror((int)-got));
	else if (got != want)
		esc_escape("%s names process %ld, not the %s %ld: another process's /proc",
			   path, got, what, want);
	else
		esc_control("%s names the program itself (%ld)", path, got);
}

int main(void)
{
	char p[PATH_MAX], link[PATH_MAX];
	long pid = getpid(), tid = (long)syscall(SYS_gettid);
	ssize_t n;
	int fd;

	esc_init("proc-self", "/proc/self/root, /proc/self/cwd and other spellings of the calling process");
	if (chdir(esc_work) < 0)
		esc_setup_error("chdir %s: %m", esc_work);

	try_path("/proc/self/root", esc_secret);
	try_path("/proc/thread-self/root", esc_secret);
	ESC_FMT(p, "/proc/%ld/root", pid);
	try_path(p, esc_secret);
	ESC_FMT(p, "/proc/%ld/task/%ld/root", pid, tid);
	try_path(p, esc_secret);
	try_path("//proc/self/root", esc_secret);
	try_path("/proc/./self/root", esc_secret);
	try_path("/proc//self/root", esc_secret);
	try_path("/proc/self/./root/.", esc_secret);
	try_path("/proc/self/root/proc/self/root", esc_secret);
	try_path("/proc/self/cwd/../.ssh/id_rsa", "");
	try_path("/proc/thread-self/cwd/../.ssh/id_rsa", "");
	try_path("/dev/fd/../root", esc_secret);
	try_path("/proc/self/fd/../root", esc_secret);

	/* Names of "self" must be the program's own. */
	check_self("/proc/self/stat", pid, "program");
	check_self("/proc/thread-self/stat", tid, "thread");
	check_self("//proc/self/stat", pid, "program");
	check_self("/proc/./self/stat", pid, "program");
	check_self("/proc/1/../self/stat", pid, "program");
	check_self("/proc/self/task/../stat", pid, "program");

	/* /proc/self/fd/N must be the program's descriptor N. */
	fd = open(esc_decoy, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || dup2(fd, 777) < 0)
		esc_setup_error("cannot open the decoy as fd 777: %m");
	close(fd);
	n = readlink("/proc/self/fd/777", link, sizeof(link) - 1);
	if (n < 0)
		esc_say("readlink /proc/self/fd/777: %m");
	else {
		link[n] = 0;
		if (strcmp(link, esc_decoy))
			esc_escape("/proc/self/fd/777 is '%s', not the program's fd 777",
				   link);
		else
			esc_control("/proc/self/fd/777 is the program's own descriptor");
	}
	esc_try_open("reopen of the program's fd 777", AT_FDCWD,
		     "/proc/self/fd/777", O_RDONLY, false);
	return esc_finish();
}
