/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 9: openat2 struct abuse and odd open flags. The supervisor reads
 * struct open_how from the program's memory and must answer as the kernel
 * would, never more permissively:
 *   size smaller than version 0 (0, 8, 16, 23), oversized with a non-zero
 *   tail (32, 4096) and over a page (4097), high bits in how.flags, unknown
 *   and known RESOLVE_* bits (BENEATH, IN_ROOT, NO_SYMLINKS, CACHED, ...),
 *   RESOLVE_IN_ROOT with an absolute ".." climb, and the access mode
 *   O_ACCMODE (3, "no read, no write": an open that checks neither a read
 *   nor a write right, but yields a descriptor good for fstat, fchmod,
 *   fsetxattr and ioctl on the secret) through open, openat and openat2.
 * Each case is tried on the decoy too, so that what works for an allowed
 * file is known, and must never work for the secret.
 */
#include <linux/fs.h>
#include <linux/openat2.h>
#include <sys/ioctl.h>
#include <sys/xattr.h>

#include "escape-common.h"

#ifndef RESOLVE_CACHED
#define RESOLVE_CACHED 0x20
#endif

static char big[8192];

static int do_openat2(int dirfd, const char *path, uint64_t flags,
		      uint64_t resolve, size_t size, int tail)
{
	struct open_how *how = (struct open_how *)big;

	memset(big, 0, sizeof(big));
	how->flags = flags;
	how->resolve = resolve;
	if (tail && size > sizeof(*how))
		big[size - 1] = 1;
	return (int)syscall(SYS_openat2, dirfd, path, how, size);
}

static void one(const char *label, int dirfd, const char *path, uint64_t flags,
		uint64_t resolve, size_t size, int tail)
{
	int dfd = do_openat2(AT_FDCWD, esc_decoy, flags, resolve, size, tail);
	int derr = errno;
	int sfd = do_openat2(dirfd, path, flags, resolve, size, tail);
	int serr = errno;

	if (dfd >= 0) {
		esc_control("%s: works on the decoy", label);
		close(dfd);
	} else
		esc_say("%s: the decoy gives %s", label, strerror(derr));
	if (sfd < 0) {
		esc_say("%s: the secret gives %s (held)", label, strerror(serr));
		return;
	}
	{
		char buf[256];
		ssize_t n = esc_read_fd(sfd, buf, sizeof(buf));

		if (esc_is_stolen(buf, n))
			esc_leak(label, buf, n);
		else
			esc_escape("%s: got a descriptor on the secret (read: %s)",
				   label, n < 0 ? strerror(errno) : "nothing");
	}
	close(sfd);
}

/* What a descriptor that may neither read nor write still does. */
static void accmode3(const char *label, int fd)
{
	struct stat st;
	char v[8] = "x";

	if (fstat(fd, &st) == 0)
		esc_escape("%s: fstat of the secret: inode %lu, mode %o", label,
			   (unsigned long)st.st_ino, st.st_mode & 07777);
	if (fchmod(fd, 0644) == 0) {
		struct stat st2;

		if (fstat(fd, &st2) == 0 && (st2.st_mode & 0777) == 0644)
			esc_escape("%s: fchmod made the secret world-readable (mode %o)",
				   label, st2.st_mode & 0777);
		(void)!fchmod(fd, st.st_mode & 07777);
	}
	if (fsetxattr(fd, "user.fbac-escape", v, 1, 0) == 0) {
		esc_escape("%s: set an extended attribute on the secret", label);
		fremovexattr(fd, "user.fbac-escape");
	}
	{
		int fl = 0, fl2 = 0;

		if (ioctl(fd, FS_IOC_GETFLAGS, &fl) == 0) {
			fl2 = fl ^ FS_NODUMP_FL;
			if (ioctl(fd, FS_IOC_SETFLAGS, &fl2) == 0) {
				esc_escape("%s: changed the secret's inode flags (FS_IOC_SETFLAGS)",
					   label);
				(void)!ioctl(fd, FS_IOC_SETFLAGS, &fl);
			} else
				esc_say("%s: FS_IOC_SETFLAGS: %m", label);
		} else
			esc_say("%s: FS_IOC_GETFLAGS: %m", label);
	}
}

int main(void)
{
	char rel[PATH_MAX];
	int wfd, fd;

	esc_init("openat2", "struct open_how abuse and the O_ACCMODE access mode");
	/* O_RDONLY: O_PATH descriptors cannot be injected by the supervisor. */
	wfd = open(esc_work, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (wfd < 0)
		esc_setup_error("cannot open the work directory: %m");

	one("openat2 size 24", AT_FDCWD, esc_secret, O_RDONLY, 0, 24, 0);
	one("openat2 size 0", AT_FDCWD, esc_secret, O_RDONLY, 0, 0, 0);
	one("openat2 size 8", AT_FDCWD, esc_secret, O_RDONLY, 0, 8, 0);
	one("openat2 size 16", AT_FDCWD, esc_secret, O_RDONLY, 0, 16, 0);
	one("openat2 size 23", AT_FDCWD, esc_secret, O_RDONLY, 0, 23, 0);
	one("openat2 size 32 zero tail", AT_FDCWD, esc_secret, O_RDONLY, 0, 32, 0);
	one("openat2 size 32 non-zero tail", AT_FDCWD, esc_secret, O_RDONLY, 0, 32, 1);
	one("openat2 size 4096 zero tail", AT_FDCWD, esc_secret, O_RDONLY, 0, 4096, 0);
	one("openat2 size 4096 non-zero tail", AT_FDCWD, esc_secret, O_RDONLY, 0, 4096, 1);
	one("openat2 size 4097", AT_FDCWD, esc_secret, O_RDONLY, 0, 4097, 0);
	one("openat2 size 8192", AT_FDCWD, esc_secret, O_RDONLY, 0, 8192, 0);
	one("openat2 flags bit 32", AT_FDCWD, esc_secret, O_RDONLY | (1ULL << 32), 0, 24, 0);
	one("openat2 flags bit 63", AT_FDCWD, esc_secret, O_RDONLY | (1ULL << 63), 0, 24, 0);
	one("openat2 flags bit 31", AT_FDCWD, esc_secret, O_RDONLY | (1ULL << 31), 0, 24, 0);
	one("openat2 RESOLVE_NO_MAGICLINKS", AT_FDCWD, esc_secret, O_RDONLY,
	    RESOLVE_NO_MAGICLINKS, 24, 0);
	one("openat2 RESOLVE_NO_XDEV", AT_FDCWD, esc_secret, O_RDONLY,
	    RESOLVE_NO_XDEV, 24, 0);
	one("openat2 RESOLVE_NO_SYMLINKS", AT_FDCWD, esc_secret, O_RDONLY,
	    RESOLVE_NO_SYMLINKS, 24, 0);
	one("openat2 RESOLVE_CACHED", AT_FDCWD, esc_secret, O_RDONLY,
	    RESOLVE_CACHED, 24, 0);
	one("openat2 unknown RESOLVE bit", AT_FDCWD, esc_secret, O_RDONLY,
	    1ULL << 40, 24, 0);
	one("openat2 all RESOLVE bits", AT_FDCWD, esc_secret, O_RDONLY,
	    ~0ULL, 24, 0);
	ESC_FMT(rel, "../.ssh/id_rsa");
	one("openat2 RESOLVE_BENEATH ../ from the work dir", wfd, rel, O_RDONLY,
	    RESOLVE_BENEATH, 24, 0);
	one("openat2 RESOLVE_IN_ROOT ../ from the work dir", wfd, rel, O_RDONLY,
	    RESOLVE_IN_ROOT, 24, 0);
	one("openat2 RESOLVE_IN_ROOT absolute", wfd, esc_secret, O_RDONLY,
	    RESOLVE_IN_ROOT, 24, 0);
	one("openat2 O_PATH", AT_FDCWD, esc_secret, O_PATH, 0, 24, 0);
	one("openat2 O_RDONLY|O_CREAT", AT_FDCWD, esc_secret, O_RDONLY | O_CREAT, 0, 24, 0);

	/* Access mode 3. */
	fd = open(esc_decoy, O_ACCMODE | O_CLOEXEC);
	if (fd >= 0) {
		esc_control("open(decoy, O_ACCMODE) works");
		close(fd);
	}
	fd = (int)syscall(SYS_open, esc_secret, O_ACCMODE | O_CLOEXEC);
	if (fd >= 0) {
		esc_escape("open(secret, O_ACCMODE) gave a descriptor");
		accmode3("open O_ACCMODE", fd);
		close(fd);
	} else
		esc_say("open(secret, O_ACCMODE): %m (held)");
	fd = do_openat2(AT_FDCWD, esc_secret, O_ACCMODE | O_CLOEXEC, 0, 24, 0);
	if (fd >= 0) {
		esc_escape("openat2(secret, O_ACCMODE) gave a descriptor");
		accmode3("openat2 O_ACCMODE", fd);
		close(fd);
	} else
		esc_say("openat2(secret, O_ACCMODE): %m (held)");
	return esc_finish();
}
