/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 7: /proc/PID/fd magic links and the supervisor's own /proc.
 *  - the supervisor (fbac-run, our parent): /proc/PPID/{environ,mem,maps,
 *    cmdline,stat,fd/N,cwd/..,root/<secret>,task/PPID/environ}: its
 *    descriptors include the seccomp listener, its memory and environment
 *    are not the program's;
 *  - an allowed directory descriptor used to climb out:
 *    /proc/self/fd/N/../.ssh/id_rsa, /dev/fd/N/../.ssh/id_rsa,
 *    openat(N, "../.ssh/id_rsa");
 *  - reopening an allowed read-only descriptor for writing through
 *    /proc/self/fd/N (~/bin/ro-data may be read, not written);
 *  - symlinks in the work directory to /proc/self/stat, /proc/self/environ
 *    and /proc/PPID/environ: whatever they resolve to must be decided as
 *    that, and /proc/self in them must not become the supervisor's.
 */
#include "escape-common.h"

static void try2(const char *a, const char *b)
{
	char p[PATH_MAX];

	ESC_FMT(p, "%s%s", a, b);
	esc_try_open("proc fd", AT_FDCWD, p, O_RDONLY, false);
}

static long first_field(int fd)
{
	char buf[128];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n <= 0)
		return -1;
	buf[n] = 0;
	return strtol(buf, NULL, 10);
}

int main(void)
{
	char p[PATH_MAX], sup[64], ro[PATH_MAX], lnk[PATH_MAX];
	static const char *const sup_files[] = {
		"environ", "mem", "maps", "cmdline", "stat", "status",
		"auxv", "fd/0", "fd/3", "fd/4", "fd/5", "fd/6", "cwd/..",
	};
	pid_t ppid = getppid();
	int wfd, rofd, fd;
	char before[64], after[64];

	esc_init("proc-fd", "/proc/PID/fd magic links, the supervisor's /proc entries and symlinks into /proc");
	ESC_FMT(sup, "/proc/%d/", (int)ppid);
	esc_say("the supervisor (parent) is pid %d", (int)ppid);
	for (size_t i = 0; i < sizeof(sup_files) / sizeof(sup_files[0]); i++)
		try2(sup, sup_files[i]);
	ESC_FMT(p, "%sroot", sup);
	try2(p, esc_secret);
	ESC_FMT(p, "/proc/%d/task/%d/environ", (int)ppid, (int)ppid);
	try2(p, "");

	/* Climbing out of an allowed directory descriptor. */
	wfd = open(esc_work, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (wfd < 0)
		esc_setup_error("cannot open the work directory: %m");
	esc_control("opened the work directory as fd %d", wfd);
	ESC_FMT(p, "/proc/self/fd/%d", wfd);
	try2(p, "/../.ssh/id_rsa");
	ESC_FMT(p, "/dev/fd/%d", wfd);
	try2(p, "/../.ssh/id_rsa");
	ESC_FMT(p, "/proc/%d/fd/%d", (int)getpid(), wfd);
	try2(p, "/../.ssh/id_rsa");
	esc_try_open("openat(workfd, ../.ssh/id_rsa)", wfd, "../.ssh/id_rsa",
		     O_RDONLY, false);
	fd = openat(wfd, ".a/.ssh/id_rsa", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		esc_control("openat(workfd, .a/.ssh/id_rsa) reached the decoy");
		close(fd);
	}

	/* A read-only grant must not become writable by a reopen. */
	ESC_FMT(ro, "%s/ro-data", esc_bin);
	rofd = open(ro, O_RDONLY | O_CLOEXEC);
	if (rofd < 0)
		esc_setup_error("cannot read %s: %m", ro);
	memset(before, 0, sizeof(before));
	(void)!pread(rofd, before, sizeof(before) - 1, 0);
	esc_control("opened %s read-only", ro);
	fd = open(ro, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd >= 0) {
		esc_escape("%s opened for writing directly", ro);
		(void)!write(fd, "PWNED\n", 6);
		close(fd);
	}
	{
		static const char *const pre[] = { "/proc/self/fd/", "/dev/fd/",
						   "/proc/thread-self/fd/" };

		for (size_t i = 0; i < 3; i++) {
			ESC_FMT(p, "%s%d", pre[i], rofd);
			fd = open(p, O_WRONLY | O_APPEND | O_CLOEXEC);
			if (fd < 0) {
				esc_say("reopen %s for writing: %m (held)", p);
				continue;
			}
			if (write(fd, "PWNED\n", 6) == 6)
				esc_escape("reopened the read-only %s for writing through %s and wrote to it",
					   ro, p);
			close(fd);
		}
	}
	memset(after, 0, sizeof(after));
	(void)!pread(rofd, after, sizeof(after) - 1, 0);
	if (strcmp(before, after))
		esc_escape("%s changed", ro);

	/* Symlinks into /proc, made where the attacker may make them. */
	{
		static const char *const targets[] = {
			"/proc/self/stat",    "/proc/thread-self/stat",
			"/proc/self/cmdline", "/proc/self/maps",
			"/proc/self/status",  "/proc/self/environ",
			"/proc/self/mem",
		};
		char sp[64];

		for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
			char buf[4096];
			ssize_t n;

			ESC_FMT(lnk, "%s/proc-link-%zu", esc_work, i);
			unlink(lnk);
			if (symlink(targets[i], lnk) < 0)
				esc_setup_error("symlink: %m");
			fd = open(lnk, O_RDONLY | O_CLOEXEC);
			if (fd < 0) {
				esc_say("open %s -> %s: %m (held)", lnk, targets[i]);
				continue;
			}
			if (strlen(targets[i]) > 5 &&
			    !strcmp(targets[i] + strlen(targets[i]) - 5, "/stat")) {
				long who = first_field(fd);

				if (who != getpid() && who > 0)
					esc_escape("%s -> %s is process %ld's, not the program's (%d)",
						   lnk, targets[i], who, (int)getpid());
				else
					esc_control("%s -> %s is the program's own",
						    lnk, targets[i]);
				close(fd);
				continue;
			}
			if (strstr(targets[i], "/mem")) {
				/* Our own memory reads back what we hold. */
				n = pread(fd, buf, 16,
					  (off_t)(uintptr_t)esc_decoy_data);
				close(fd);
				if (n == 16 && !memcmp(buf, esc_decoy_data, 16))
					esc_control("%s -> %s is the program's own memory",
						    lnk, targets[i]);
				else
					esc_escape("%s -> %s opened another process's memory",
						   lnk, targets[i]);
				continue;
			}
			n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			buf[n > 0 ? n : 0] = 0;
			for (ssize_t k = 0; k < n; k++)
				if (!buf[k])
					buf[k] = ' ';
			if (strstr(buf, "fbac-run"))
				esc_escape("%s -> %s shows the supervisor's: %.160s",
					   lnk, targets[i], buf);
			else
				esc_say("%s -> %s: %zd bytes, not the supervisor's",
					lnk, targets[i], n);
		}
		ESC_FMT(sp, "/proc/%d/environ", (int)ppid);
		ESC_FMT(lnk, "%s/proc-link-sup", esc_work);
		unlink(lnk);
		if (symlink(sp, lnk) < 0)
			esc_setup_error("symlink: %m");
		esc_try_open("symlink to the supervisor's environ", AT_FDCWD,
			     lnk, O_RDONLY, false);
	}
	return esc_finish();
}
