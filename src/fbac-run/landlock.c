/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "landlock.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <linux/openat2.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "output.h"
#include "path.h"

/* The uapi structs as of ABI 6; the build host's headers may be older. */
struct ll_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct ll_path_beneath_attr {
	uint64_t allowed_access;
	int32_t parent_fd;
} __attribute__((packed));

struct ll_net_port_attr {
	uint64_t allowed_access;
	uint64_t port;
};

#define LL_RULE_PATH_BENEATH 1
#define LL_RULE_NET_PORT 2

/* Rights Landlock accepts on a non-directory. */
#define LL_FILE_RIGHTS                                                         \
	(FBAC_LL_FS_EXECUTE | FBAC_LL_FS_WRITE_FILE | FBAC_LL_FS_READ_FILE |      \
	 FBAC_LL_FS_TRUNCATE | FBAC_LL_FS_IOCTL_DEV)

int landlock_abi(void)
{
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
			   LANDLOCK_CREATE_RULESET_VERSION);

	return abi < 0 ? 0 : (int)abi;
}

static uint64_t fs_mask(int abi)
{
	uint64_t m = (1ULL << 13) - 1;

	if (abi >= 2)
		m |= FBAC_LL_FS_REFER;
	if (abi >= 3)
		m |= FBAC_LL_FS_TRUNCATE;
	if (abi >= 5)
		m |= FBAC_LL_FS_IOCTL_DEV;
	return abi >= 1 ? m : 0;
}

static void add_missing(char *buf, size_t size, const char *what)
{
	size_t n = strlen(buf);

	snprintf(buf + n, size - n, "%s%s", n ? ", " : "", what);
}

void landlock_missing(const struct fbac_stack *st, int abi, char *buf,
		      size_t size)
{
	bool net = false, scope = false;

	buf[0] = 0;
	if (abi < 1) {
		add_missing(buf, size, "landlock itself");
		return;
	}
	for (size_t i = 0; i < st->n; i++) {
		const struct fbac_landlock_plan *p = &st->entries[i].policy->ll;

		net |= p->handle_bind_tcp || p->handle_connect_tcp;
		scope |= p->scope != 0;
	}
	if (abi < 2)
		add_missing(buf, size, "rename/link control (ABI 2)");
	if (abi < 3)
		add_missing(buf, size, "truncate control (ABI 3)");
	if (abi < 4 && net)
		add_missing(buf, size, "tcp port control (ABI 4)");
	if (abi < 5)
		add_missing(buf, size, "device ioctl control (ABI 5)");
	if (abi < 6 && scope)
		add_missing(buf, size,
			    "signal and abstract unix socket scoping (ABI 6)");
}

/* A rule on the object fd holds: a non-directory takes file rights only. */
static int add_rule_fd(int ruleset, int fd, const struct stat *st,
		       uint64_t access)
{
	struct ll_path_beneath_attr pb = { 0 };

	if (!S_ISDIR(st->st_mode))
		access &= LL_FILE_RIGHTS;
	if (!access)
		return 0;
	pb.allowed_access = access;
	pb.parent_fd = fd;
	if (syscall(SYS_landlock_add_rule, ruleset, LL_RULE_PATH_BENEATH, &pb,
		    0) < 0)
		return -errno;
	return 0;
}

static int add_path(int ruleset, const char *path, uint64_t access,
		    uint64_t literal_only)
{
	struct stat st;
	int fd, r;

	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == EACCES ?
			       0 :
			       -errno;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else
		r = add_rule_fd(ruleset, fd, &st,
				S_ISDIR(st.st_mode) ?
					access & ~(literal_only &
						   FBAC_LL_FS_EXECUTE) :
					access);
	close(fd);
	return r;
}

static int add_port(int ruleset, uint64_t access, uint16_t port)
{
	struct ll_net_port_attr np = { access, port };

	if (syscall(SYS_landlock_add_rule, ruleset, LL_RULE_NET_PORT, &np, 0) <
	    0)
		return -errno;
	return 0;
}

/*
 * A narrow rule on the object recorded at launch, or none: the
 * supervisor predicts the kernel's answer from that record, and must
 * never predict an allow the kernel would refuse.
 */
static int add_grant(int ruleset, const struct landlock_grant *g,
		     uint64_t handled)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC | O_NOFOLLOW,
				.resolve = RESOLVE_NO_SYMLINKS };
	struct stat st;
	int fd, r = 0;

	fd = (int)syscall(SYS_openat2, AT_FDCWD, g->path, &how, sizeof(how));
	if (fd < 0)
		return 0; /* gone: nothing granted */
	if (fstat(fd, &st) == 0 && st.st_dev == g->dev && st.st_ino == g->ino)
		r = add_rule_fd(ruleset, fd, &st, g->access & handled);
	close(fd);
	return r;
}

static int apply_one(const struct fbac_stack_entry *e, int abi, bool supervisor,
		     const struct landlock_extra *x)
{
	const struct fbac_landlock_plan *p = &e->policy->ll;
	struct ll_ruleset_attr attr = { 0 };
	size_t attr_size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8;
	_cleanup_close_ int ruleset = -1;
	int r;

	attr.handled_access_fs = p->handled_fs & fs_mask(abi);
	if (abi >= 4) {
		if (p->handle_connect_tcp)
			attr.handled_access_net |= FBAC_LL_NET_CONNECT_TCP;
		if (p->handle_bind_tcp)
			attr.handled_access_net |= FBAC_LL_NET_BIND_TCP;
	}
	if (abi >= 6)
		attr.scoped = p->scope;
	ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size,
			       0);
	if (ruleset < 0)
		return log_error(-errno, "cannot create a landlock ruleset: %m");
	for (size_t i = 0; i < p->n_paths; i++) {
		uint64_t acc = p->paths[i].access & attr.handled_access_fs;

		/* The program reads and writes through its narrow rules
		 * alone; what it may run, it may read (the kernel asks both
		 * of an exec). */
		if (!supervisor && x && x->narrowed) {
			acc &= ~(uint64_t)(FBAC_LL_FS_READ_FILE |
					   FBAC_LL_FS_READ_DIR |
					   FBAC_LL_FS_WRITE_FILE);
			if (p->paths[i].access & FBAC_LL_FS_EXECUTE)
				acc |= FBAC_LL_FS_READ_FILE &
				       attr.handled_access_fs;
		}

		if (acc && (r = add_path(ruleset, p->paths[i].path, acc,
					 p->paths[i].literal_only)) < 0) {
			errno = -r;
			return log_error(r, "cannot add a landlock rule for '%s': %m",
					 p->paths[i].path);
		}
	}
	for (size_t i = 0; (attr.handled_access_net & FBAC_LL_NET_CONNECT_TCP) &&
			   i < p->n_connect_ports;
	     i++)
		if ((r = add_port(ruleset, FBAC_LL_NET_CONNECT_TCP,
				  p->connect_ports[i])) < 0)
			return log_error(r, "cannot add a landlock port rule");
	for (size_t i = 0; (attr.handled_access_net & FBAC_LL_NET_BIND_TCP) &&
			   i < p->n_bind_ports;
	     i++)
		if ((r = add_port(ruleset, FBAC_LL_NET_BIND_TCP,
				  p->bind_ports[i])) < 0)
			return log_error(r, "cannot add a landlock port rule");
	for (size_t i = 0; x && i < x->exec.n; i++)
		if ((r = add_path(ruleset, x->exec.v[i].path,
				  (FBAC_LL_FS_EXECUTE |
				   (supervisor ? 0 : FBAC_LL_FS_READ_FILE)) &
					  attr.handled_access_fs,
				  0)) < 0)
			return log_error(r, "cannot add a landlock rule for '%s'",
					 x->exec.v[i].path);
	for (size_t i = 0; !supervisor && x && x->narrowed && i < x->narrow.n;
	     i++)
		if ((r = add_grant(ruleset, &x->narrow.v[i],
				   attr.handled_access_fs)) < 0)
			return log_error(r, "cannot add a landlock rule for '%s'",
					 x->narrow.v[i].path);
	/* The supervisor reads the program's /proc entries, and writes those
	 * the policy lets it write (uid_map, oom_score_adj, ...), decided on
	 * the path it rewrote: rules on /proc/self bound at launch name the
	 * launcher's own entries, never the program's. */
	if (supervisor &&
	    (r = add_path(ruleset, "/proc",
			  (FBAC_LL_FS_READ_FILE | FBAC_LL_FS_READ_DIR |
			   FBAC_LL_FS_WRITE_FILE | FBAC_LL_FS_TRUNCATE) &
				  attr.handled_access_fs,
			  0)) < 0)
		return log_error(r, "cannot add the supervisor's /proc rule");
	/* /dev/tty is the caller's terminal, opened by the supervisor as
	 * the pseudo-terminal it is: the rights the plan gives /dev/tty,
	 * the supervisor needs on the terminals (decided as /dev/tty). */
	for (size_t i = 0; supervisor && i < p->n_paths; i++)
		if (!strcmp(p->paths[i].path, "/dev/tty") &&
		    (r = add_path(ruleset, "/dev/pts",
				  p->paths[i].access & attr.handled_access_fs &
					  (FBAC_LL_FS_READ_FILE |
					   FBAC_LL_FS_WRITE_FILE |
					   FBAC_LL_FS_IOCTL_DEV |
					   FBAC_LL_FS_TRUNCATE),
				  0)) < 0)
			return log_error(r, "cannot add the supervisor's /dev/pts rule");
	if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
		return log_error(-errno, "cannot enforce the landlock ruleset of layer '%s': %m",
				 e->layer_name);
	return 0;
}

int landlock_apply(const struct fbac_stack *st, int abi, bool supervisor,
		   const struct landlock_extra *extras)
{
	int r;

	if (abi < 1)
		return 0;
	/* Landlock needs no_new_privs (or CAP_SYS_ADMIN) to restrict. */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return log_error(-errno, "cannot set no_new_privs: %m");
	for (size_t i = 0; i < st->n; i++)
		if ((r = apply_one(&st->entries[i], abi, supervisor,
				   extras ? &extras[i] : NULL)) < 0)
			return r;
	return 0;
}
