/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 28: give the secret a name in the work directory. A hard link or
 * a rename of ~/.ssh/id_rsa (or of ~/.ssh) into ~/work, where everything
 * may be read, would carry the file out of the protected path. Tried:
 * link, linkat with AT_SYMLINK_FOLLOW, linkat of a symlink to the secret,
 * linkat through /proc/self/fd/N and with AT_EMPTY_PATH on a descriptor
 * (if one can be had by O_PATH), rename, renameat2 with RENAME_NOREPLACE
 * and RENAME_EXCHANGE (swapping a work file with the secret), relative
 * names from a ~/work descriptor, and a rename of the ~/.ssh directory.
 * After each, whatever now sits at the new name is read. Controls: link
 * and rename inside ~/work work.
 */
#include <linux/fs.h>

#include "escape-common.h"

static char dst[PATH_MAX];

static const char *in_work(const char *name)
{
	ESC_FMT(dst, "%s/%s", esc_work, name);
	unlink(dst);
	return dst;
}

static void check(const char *label, long r, const char *name)
{
	char p[PATH_MAX];

	if (r < 0) {
		esc_say("%s: %m (held)", label);
		return;
	}
	ESC_FMT(p, "%s/%s", esc_work, name);
	esc_say("%s returned 0", label);
	if (esc_try_open(label, AT_FDCWD, p, O_RDONLY, true) == 0 && !esc_escaped)
		esc_escape("%s: the secret got a name in ~/work", label);
}

int main(void)
{
	char copy[PATH_MAX], p[PATH_MAX], sshdir[PATH_MAX], lnk[PATH_MAX];
	int fd, wfd;

	esc_init("link-rename", "hard link or rename the secret (or ~/.ssh) into the work directory");
	ESC_FMT(copy, "%s/copy", esc_work);
	ESC_FMT(sshdir, "%s/.ssh", esc_home);
	fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, esc_decoy_data, esc_decoy_len) < 0)
		esc_setup_error("cannot write %s: %m", copy);
	close(fd);
	if (link(copy, in_work("copy-link")) == 0)
		esc_control("link inside ~/work works");
	{
		char from[PATH_MAX];

		ESC_FMT(from, "%s/copy-link", esc_work);
		if (rename(from, in_work("copy-renamed")) == 0)
			esc_control("rename inside ~/work works");
		else
			esc_say("rename inside ~/work: %m");
	}

	check("link(secret)", link(esc_secret, in_work("l1")), "l1");
	check("linkat(secret, AT_SYMLINK_FOLLOW)",
	      linkat(AT_FDCWD, esc_secret, AT_FDCWD, in_work("l2"), AT_SYMLINK_FOLLOW), "l2");
	ESC_FMT(lnk, "%s/to-secret", esc_work);
	unlink(lnk);
	if (symlink(esc_secret, lnk) == 0) {
		check("linkat(symlink to the secret, AT_SYMLINK_FOLLOW)",
		      linkat(AT_FDCWD, lnk, AT_FDCWD, in_work("l3"), AT_SYMLINK_FOLLOW), "l3");
		check("link(symlink to the secret) then open",
		      link(lnk, in_work("l4")), "l4");
	}
	fd = open(esc_secret, O_PATH | O_CLOEXEC);
	if (fd >= 0) {
		esc_say("got an O_PATH descriptor of the secret (fd %d)", fd);
		check("linkat(fd, \"\", AT_EMPTY_PATH)",
		      linkat(fd, "", AT_FDCWD, in_work("l5"), AT_EMPTY_PATH), "l5");
		ESC_FMT(p, "/proc/self/fd/%d", fd);
		check("linkat(/proc/self/fd/N, AT_SYMLINK_FOLLOW)",
		      linkat(AT_FDCWD, p, AT_FDCWD, in_work("l6"), AT_SYMLINK_FOLLOW), "l6");
		close(fd);
	} else
		esc_say("open(secret, O_PATH): %m (held)");

	check("rename(secret)", rename(esc_secret, in_work("r1")), "r1");
	check("renameat2(secret, RENAME_NOREPLACE)",
	      syscall(SYS_renameat2, AT_FDCWD, esc_secret, AT_FDCWD, in_work("r2"),
		      RENAME_NOREPLACE), "r2");
	fd = open(in_work("x1"), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	check("renameat2(work file, secret, RENAME_EXCHANGE)",
	      syscall(SYS_renameat2, AT_FDCWD, dst, AT_FDCWD, esc_secret,
		      RENAME_EXCHANGE), "x1");
	wfd = open(esc_work, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (wfd >= 0) {
		in_work("r3");
		check("renameat(workfd, ../.ssh/id_rsa, workfd, r3)",
		      renameat(wfd, "../.ssh/id_rsa", wfd, "r3"), "r3");
		in_work("l7");
		check("linkat(workfd, ../.ssh/id_rsa, workfd, l7)",
		      linkat(wfd, "../.ssh/id_rsa", wfd, "l7", 0), "l7");
		close(wfd);
	}
	check("rename(~/.ssh, ~/work/sshdir)", rename(sshdir, in_work("sshdir")),
	      "sshdir/id_rsa");
	return esc_finish();
}
