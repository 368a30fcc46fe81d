/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "landlock.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <fcntl.h>
#include <linux/landlock.h>
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

/* Rights that make an object in a directory. */
#define LL_MAKE_RIGHTS                                                         \
	(FBAC_LL_FS_MAKE_CHAR | FBAC_LL_FS_MAKE_DIR | FBAC_LL_FS_MAKE_REG |      \
	 FBAC_LL_FS_MAKE_SOCK | FBAC_LL_FS_MAKE_FIFO | FBAC_LL_FS_MAKE_BLOCK |   \
	 FBAC_LL_FS_MAKE_SYM)

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
static int add_rule_fd(int ruleset, int fd, bool dir, uint64_t access)
{
	struct ll_path_beneath_attr pb = { 0 };

	if (!dir)
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

/* A rule in two rulesets (-1: none) on one object: the supervisor's
 * domain and the program's name the same objects. */
static int add_fd2(int sup, uint64_t sup_access, int prog, uint64_t prog_access,
		   int fd, bool dir, uint64_t literal_only)
{
	/* EXECUTE from a rule naming a file alone never reaches below a
	 * directory. */
	uint64_t keep = dir ? ~(literal_only & FBAC_LL_FS_EXECUTE) : ~0ULL;
	int r = 0;

	if (sup >= 0 && sup_access)
		r = add_rule_fd(sup, fd, dir, sup_access & keep);
	if (r == 0 && prog >= 0 && prog_access)
		r = add_rule_fd(prog, fd, dir, prog_access & keep);
	return r;
}

/*
 * A granted path that does not exist yet (~/Downloads before the first
 * download, a cache folder a program makes on its first run) has no
 * object to hold a rule, and a folder the program creates during the run
 * would get none: the supervisor, which makes the folder and then the
 * file in it for the program, would be refused by its own domain after
 * the policy allowed it. So the supervisor's domain gets those rights on
 * the nearest directory above that exists (a superset, as for any rule
 * Landlock cannot say exactly: the policy still decides every call below
 * it). Only for a grant that lets something be made there: a path only
 * read cannot come to be through the program. Never EXECUTE: an exec
 * continues in the kernel, under the program's own domain, which gets
 * nothing here. Return: 0 (nothing exists above, or only through a
 * symlink) or -errno.
 */
static int add_missing_sup(int sup, uint64_t access, const char *path,
			   size_t *missing)
{
	char up[PATH_MAX];
	size_t len = strlen(path);

	access &= ~(uint64_t)FBAC_LL_FS_EXECUTE;
	if (sup < 0 || !(access & LL_MAKE_RIGHTS) || len >= sizeof(up))
		return 0;
	memcpy(up, path, len + 1);
	while ((len = landlock_parent_len(up, len)) > 0) {
		_cleanup_close_ int fd = -1;
		struct stat st;

		up[len] = '\0';
		fd = landlock_open_canonical(up);
		if (fd == -ENOENT)
			continue;
		if (fd < 0 || fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode))
			return 0;
		++*missing;
		return add_rule_fd(sup, fd, true, access);
	}
	return 0;
}

/* The same for a path, opened once. A missing path counts in *missing
 * and gets add_missing_sup()'s rule, where missing is not NULL. The
 * object opened goes in *seen, where seen is not NULL. */
static int add_path2(int sup, uint64_t sup_access, int prog,
		     uint64_t prog_access, const char *path,
		     uint64_t literal_only, size_t *missing,
		     struct landlock_seen *seen)
{
	struct stat st;
	_cleanup_close_ int fd = -1;

	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && missing)
		return add_missing_sup(sup, sup_access, path, missing);
	/* ENXIO: a device that is not there, such as /dev/tty without a
	 * controlling terminal as a nested run's outer supervisor answers
	 * it (nested.c): it grants nothing. */
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR || errno == EACCES ||
				       errno == ENXIO ?
			       0 :
			       -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (seen)
		*seen = (struct landlock_seen){ true, st.st_mode, st.st_dev,
						st.st_ino };
	return add_fd2(sup, sup_access, prog, prog_access, fd,
		       S_ISDIR(st.st_mode), literal_only);
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
 * never predict an allow the kernel would refuse. The descriptor held
 * since then is that object; one not held is opened again and must
 * still be it. Either way it is closed here: it has served.
 */
static int add_grant(int ruleset, struct landlock_grant *g, uint64_t handled)
{
	_cleanup_close_ int fd = TAKE_FD(g->fd);
	struct stat st;

	if (g->made)
		return 0;
	if (fd >= 0)
		return add_rule_fd(ruleset, fd, g->dir, g->access & handled);
	fd = landlock_open_canonical(g->path);
	if (fd < 0)
		return 0; /* gone: nothing granted */
	if (fstat(fd, &st) == 0 && st.st_dev == g->dev && st.st_ino == g->ino)
		return add_rule_fd(ruleset, fd, S_ISDIR(st.st_mode),
				   g->access & handled);
	return 0;
}

/* The rights the rule on paths[i] gives each ruleset: the supervisor's
 * (*sup) and the program's (*prog, narrowed per x). */
static void plan_rights(const struct fbac_landlock_plan *p, size_t i,
			const struct landlock_extra *x, uint64_t handled,
			uint64_t *sup, uint64_t *prog)
{
	uint64_t acc = p->paths[i].access & handled, prog_acc = acc;

	/* The program reads and writes through its narrow rules alone; what
	 * it may run, it may read (the kernel asks both of an exec). */
	if (x && x->narrowed) {
		prog_acc &= ~(uint64_t)(FBAC_LL_FS_READ_FILE | FBAC_LL_FS_READ_DIR |
					FBAC_LL_FS_WRITE_FILE);
		if (p->paths[i].access & FBAC_LL_FS_EXECUTE)
			prog_acc |= FBAC_LL_FS_READ_FILE & handled;
	}
	*sup = acc;
	*prog = prog_acc;
}

/*
 * What rules on the directories above paths[i] already give everything
 * below them, in each ruleset: a rule there grants nothing more, so it is
 * not made (a third of the start-up's rules, /proc's among them, for
 * the supervisor's rule on all of /proc). Rights by a rule naming a file
 * alone never reach below a directory. sup_below: rights the supervisor
 * has below sup_dirs (its own rules, made below).
 */
static void inherited_rights(const struct fbac_landlock_plan *p, size_t i,
			     const struct landlock_extra *x, uint64_t handled,
			     const char *const *sup_dirs,
			     const uint64_t *sup_below, size_t n_sup_dirs,
			     uint64_t *sup, uint64_t *prog)
{
	const char *path = p->paths[i].path;
	size_t len = strlen(path);

	*sup = *prog = 0;
	for (size_t k = 0; k < n_sup_dirs; k++)
		if (fbac_path_is_under(path, sup_dirs[k]) &&
		    strcmp(path, sup_dirs[k]))
			*sup |= sup_below[k];
	while ((len = landlock_parent_len(path, len)) > 0) {
		size_t j = landlock_ll_find(p->paths, p->n_paths, path, len);

		if (j != SIZE_MAX) {
			uint64_t a_sup, a_prog,
				keep = ~(p->paths[j].literal_only &
					 FBAC_LL_FS_EXECUTE);

			plan_rights(p, j, x, handled, &a_sup, &a_prog);
			*sup |= a_sup & keep;
			*prog |= a_prog & keep;
		}
	}
}

static int new_ruleset(const struct ll_ruleset_attr *attr, size_t size)
{
	int fd = (int)syscall(SYS_landlock_create_ruleset, attr, size, 0);

	if (fd < 0)
		return log_error(-errno, "cannot create a landlock ruleset: %m");
	return fd;
}

/* The state of one prepare_one that its steps share. */
struct ll_prep {
	const struct fbac_landlock_plan *p;
	struct landlock_extra *x;
	uint64_t handled, handled_net;
	int sup, prog; /* the rulesets (prog: -1 when not made) */
	/* Per plan path, the object its rule was made on (NULL: none kept):
	 * for landlock_note_exec(). */
	struct landlock_seen *seen;
	/* The supervisor's own rules on whole trees, with the rights below
	 * each. */
	const char *sup_dirs[FBAC_MAX_LAYERS + 2];
	uint64_t sup_below[FBAC_MAX_LAYERS + 2];
	size_t n_sup_dirs, implied, missing;
};

/*
 * The supervisor's own rules on whole trees (made after the plan's,
 * which they may imply). It reads the program's /proc entries, and
 * writes those the policy lets it write (uid_map, oom_score_adj,
 * ...), decided on the path it rewrote: rules on /proc/self bound at
 * launch name the launcher's own entries, never the program's. And
 * it alone may read sup_reads (the policy layers).
 */
static int ll_sup_dirs(struct ll_prep *s, const char *const *sup_reads,
		       size_t n_sup_reads)
{
	s->sup_dirs[0] = "/proc";
	s->sup_below[0] = (FBAC_LL_FS_READ_FILE | FBAC_LL_FS_READ_DIR |
			   FBAC_LL_FS_WRITE_FILE | FBAC_LL_FS_TRUNCATE) &
			  s->handled;
	s->n_sup_dirs = 1;
	if (n_sup_reads > ARRAY_SIZE(s->sup_dirs) - 1)
		return log_error(-E2BIG, "too many policy layers for the supervisor's rules");
	for (size_t i = 0; i < n_sup_reads; i++) {
		s->sup_dirs[s->n_sup_dirs] = sup_reads[i];
		s->sup_below[s->n_sup_dirs++] = (FBAC_LL_FS_READ_FILE |
						 FBAC_LL_FS_READ_DIR) &
						s->handled;
	}
	return 0;
}

/* The rule on the plan's paths[i] in both rulesets, unless the rules
 * above it already give its rights. */
static int ll_plan_path(struct ll_prep *s, size_t i)
{
	const struct fbac_landlock_plan *p = s->p;
	struct landlock_extra *x = s->x;
	uint64_t acc, prog_acc, up_sup, up_prog;
	const struct landlock_grant *g;
	int r;

	plan_rights(p, i, x, s->handled, &acc, &prog_acc);
	/* REFER compares the rights on both sides of a move rule by
	 * rule: such rules are always made. */
	if (!(p->paths[i].access & FBAC_LL_FS_REFER)) {
		inherited_rights(p, i, x, s->handled, s->sup_dirs, s->sup_below,
				 s->n_sup_dirs, &up_sup, &up_prog);
		if (acc && !(acc & ~up_sup)) {
			acc = 0;
			s->implied++;
		}
		if (s->prog >= 0 && prog_acc && !(prog_acc & ~up_prog)) {
			prog_acc = 0;
			s->implied++;
		}
	}
	/* Listed as a narrow rule, the object is open already: the
	 * same one, as that walk met no symlink. The narrow rule goes in
	 * the same rule: the kernel would merge two rules on one object
	 * into their union anyway (a landlock_add_rule less). */
	g = x ? landlock_grant_at(&x->narrow, p->paths[i].path) : NULL;
	if (g && g->fd >= 0 && x->narrowed && s->prog >= 0) {
		prog_acc |= g->access & s->handled;
		x->narrow.v[g - x->narrow.v].made = true;
	}
	if (!acc && !prog_acc)
		return 0;
	if (g && g->fd >= 0) {
		r = add_fd2(s->sup, acc, s->prog, prog_acc, g->fd, g->dir,
			    p->paths[i].literal_only);
		/* Opened with no symlink on the way, nor a last one: what
		 * the path names, followed or not. */
		if (s->seen && g->mode)
			s->seen[i] = (struct landlock_seen){ true, g->mode,
							     g->dev, g->ino };
	} else if (x && landlock_grant_at(&x->absent, p->paths[i].path)) {
		r = add_missing_sup(s->sup, acc, p->paths[i].path, &s->missing);
	} else {
		r = add_path2(s->sup, acc, s->prog, prog_acc, p->paths[i].path,
			      p->paths[i].literal_only, &s->missing,
			      s->seen ? &s->seen[i] : NULL);
	}
	if (r < 0) {
		errno = -r;
		return log_error(r, "cannot add a landlock rule for '%s': %m",
				 p->paths[i].path);
	}
	return 0;
}

/* The TCP port rules, connect and bind, in both rulesets. */
static int ll_ports(const struct ll_prep *s)
{
	const struct fbac_landlock_plan *p = s->p;
	int r;

	for (size_t i = 0; (s->handled_net & FBAC_LL_NET_CONNECT_TCP) &&
			   i < p->n_connect_ports;
	     i++)
		if ((r = add_port(s->sup, FBAC_LL_NET_CONNECT_TCP,
				  p->connect_ports[i])) < 0 ||
		    (s->prog >= 0 &&
		     (r = add_port(s->prog, FBAC_LL_NET_CONNECT_TCP,
				   p->connect_ports[i])) < 0))
			return log_error(r, "cannot add a landlock port rule");
	for (size_t i = 0;
	     (s->handled_net & FBAC_LL_NET_BIND_TCP) && i < p->n_bind_ports; i++)
		if ((r = add_port(s->sup, FBAC_LL_NET_BIND_TCP,
				  p->bind_ports[i])) < 0 ||
		    (s->prog >= 0 && (r = add_port(s->prog, FBAC_LL_NET_BIND_TCP,
						   p->bind_ports[i])) < 0))
			return log_error(r, "cannot add a landlock port rule");
	return 0;
}

/* The executables expanded from patterns, and the program's narrow
 * rules. */
static int ll_exec_narrow(const struct ll_prep *s)
{
	const struct landlock_extra *x = s->x;
	uint64_t handled = s->handled;
	int r;

	for (size_t i = 0; x && i < x->exec.n; i++)
		if ((r = add_path2(s->sup, FBAC_LL_FS_EXECUTE & handled, s->prog,
				   (FBAC_LL_FS_EXECUTE | FBAC_LL_FS_READ_FILE) &
					   handled,
				   x->exec.v[i].path, 0, NULL, NULL)) < 0)
			return log_error(r, "cannot add a landlock rule for '%s'",
					 x->exec.v[i].path);
	for (size_t i = 0; s->prog >= 0 && x && x->narrowed && i < x->narrow.n;
	     i++)
		if ((r = add_grant(s->prog, &x->narrow.v[i], handled)) < 0)
			return log_error(r, "cannot add a landlock rule for '%s'",
					 x->narrow.v[i].path);
	return 0;
}

/* The supervisor's own rules: on its trees, and on the terminals. */
static int ll_sup_rules(const struct ll_prep *s)
{
	const struct fbac_landlock_plan *p = s->p;
	int r;

	for (size_t k = 0; k < s->n_sup_dirs; k++)
		if ((r = add_path2(s->sup, s->sup_below[k], -1, 0,
				   s->sup_dirs[k], 0, NULL, NULL)) < 0)
			return log_error(
				r, "cannot add the supervisor's rule for '%s'",
				s->sup_dirs[k]);
	/* /dev/tty is the caller's terminal, opened by the supervisor as
	 * the pseudo-terminal it is: the rights the plan gives /dev/tty,
	 * the supervisor needs on the terminals (decided as /dev/tty). */
	for (size_t i = 0; i < p->n_paths; i++)
		if (!strcmp(p->paths[i].path, "/dev/tty") &&
		    (r = add_path2(s->sup,
				   p->paths[i].access & s->handled &
					   (FBAC_LL_FS_READ_FILE |
					    FBAC_LL_FS_WRITE_FILE |
					    FBAC_LL_FS_IOCTL_DEV |
					    FBAC_LL_FS_TRUNCATE),
				   -1, 0, "/dev/pts", 0, NULL, NULL)) < 0)
			return log_error(r, "cannot add the supervisor's /dev/pts rule");
	return 0;
}

/* Both rulesets of one stack entry: the supervisor's (sup) and the
 * program's own exact layer (prog, when prog_fd is not NULL). */
static int prepare_one(const struct fbac_stack_entry *e, int abi,
		       struct landlock_extra *x, const char *const *sup_reads,
		       size_t n_sup_reads, int *sup_fd, int *prog_fd,
		       struct landlock_seen *seen)
{
	const struct fbac_landlock_plan *p = &e->policy->ll;
	struct ll_ruleset_attr attr = { 0 };
	size_t attr_size = abi >= 6 ? 24 : abi >= 4 ? 16 : 8;
	_cleanup_close_ int sup = -1, prog = -1;
	struct ll_prep s = { .p = p, .x = x, .seen = seen };
	int r;

	attr.handled_access_fs = s.handled = p->handled_fs & fs_mask(abi);
	if (abi >= 4) {
		if (p->handle_connect_tcp)
			attr.handled_access_net |= FBAC_LL_NET_CONNECT_TCP;
		if (p->handle_bind_tcp)
			attr.handled_access_net |= FBAC_LL_NET_BIND_TCP;
	}
	if (abi >= 6)
		attr.scoped = p->scope;
	s.handled_net = attr.handled_access_net;
	if ((sup = new_ruleset(&attr, attr_size)) < 0)
		return sup;
	if (prog_fd && (prog = new_ruleset(&attr, attr_size)) < 0)
		return prog;
	s.sup = sup;
	s.prog = prog;
	if ((r = ll_sup_dirs(&s, sup_reads, n_sup_reads)) < 0)
		return r;
	for (size_t i = 0; i < p->n_paths; i++)
		if ((r = ll_plan_path(&s, i)) < 0)
			return r;
	if ((r = ll_ports(&s)) < 0 || (r = ll_exec_narrow(&s)) < 0 ||
	    (r = ll_sup_rules(&s)) < 0)
		return r;
	*sup_fd = TAKE_FD(sup);
	if (prog_fd)
		*prog_fd = TAKE_FD(prog);
	if (x) {
		x->implied += s.implied;
		x->missing += s.missing;
	}
	return 0;
}

int landlock_prepare(const struct fbac_stack *st, int abi,
		     struct landlock_extra *extras,
		     const char *const *sup_reads, size_t n_sup_reads,
		     int *sup_fds, int *prog_fds)
{
	int r;

	for (size_t i = 0; i < st->n; i++)
		sup_fds[i] = prog_fds ? (prog_fds[i] = -1) : -1;
	if (abi < 1)
		return 0;
	for (size_t i = 0; i < st->n; i++) {
		const struct fbac_landlock_plan *p = &st->entries[i].policy->ll;
		/* Without memory for it, each path is looked at again. */
		_cleanup_free_ struct landlock_seen *seen =
			extras && p->n_paths ?
				calloc(p->n_paths, sizeof(*seen)) :
				NULL;

		if ((r = prepare_one(&st->entries[i], abi,
				     extras ? &extras[i] : NULL, sup_reads,
				     n_sup_reads, &sup_fds[i],
				     prog_fds ? &prog_fds[i] : NULL, seen)) < 0 ||
		    /* What its rules with EXECUTE named, for the exec check. */
		    (extras &&
		     (r = landlock_note_exec(&extras[i], p, seen)) < 0)) {
			landlock_close(sup_fds, st->n);
			if (prog_fds)
				landlock_close(prog_fds, st->n);
			return r;
		}
	}
	return 0;
}

void landlock_close(int *fds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
}

int landlock_restrict(const int *fds, size_t n)
{
	/* Landlock needs no_new_privs (or CAP_SYS_ADMIN) to restrict. */
	if (n && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -errno;
	for (size_t i = 0; i < n; i++)
		if (fds[i] >= 0 &&
		    syscall(SYS_landlock_restrict_self, fds[i], 0) < 0)
			return -errno;
	return 0;
}
