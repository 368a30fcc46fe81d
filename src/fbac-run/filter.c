/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "filter.h"
#include "filter-int.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/seccomp.h>
#include <pthread.h>
#include <sched.h>
#include <seccomp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/filter.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <sys/socket.h>
#include <termios.h>

#include "cache.h"
#include "checksum.h"
#include "macro.h"
#include "output.h"

DEFINE_TRIVIAL_CLEANUP_FUNC(scmp_filter_ctx, seccomp_release)

/* Syscalls whose path or address the supervisor resolves itself. */
static const char *const notified[] = {
	"open",	       "openat",       "openat2",    "creat",
	"stat",	       "lstat",	       "newfstatat", "statx",
	"statfs",      "access",       "faccessat",  "faccessat2",
	"readlink",    "readlinkat",   "mkdir",	     "mkdirat",
	"mknod",       "mknodat",      "unlink",     "unlinkat",
	"rmdir",       "rename",       "renameat",   "renameat2",
	"link",	       "linkat",       "symlink",    "symlinkat",
	"chmod",       "fchmodat",     "chown",	     "lchown",
	"fchownat",    "truncate",     "utime",	     "utimes",
	"futimesat",   "utimensat",    "setxattr",   "lsetxattr",
	"removexattr", "lremovexattr", "getxattr",   "lgetxattr",
	"listxattr",   "llistxattr",   "chdir",	     "execve",
	"execveat",    "inotify_add_watch",
	"connect",     "bind",	       "listen",     "sendmsg",
	"sendmmsg",    "fchmod",       "fchown",     "fsetxattr",
	"fremovexattr", "memfd_create", "chroot",
	"ftruncate", /* Landlock's answer told (sup-refused.c) */
	/* Told where Landlock's signal scope refuses (sup-refused.c). */
	"tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
	"pidfd_send_signal",
};

/*
 * Refused outright, whatever the policy: escape hatches, kernel attack
 * surface, other tasks. The supervisor's filter notifies them (they are
 * rare) so that the refusal has its denial line and event (sup-refused.c,
 * with the reason below); a nested run's static filter leaves them to the
 * outer one (see build()).
 */
#define EVERY "refused to every confined program: "
#define OTHER_TASK EVERY "it would reach into another process"
#define BY_HANDLE EVERY "it opens files by handle, around every path rule"
#define KEYRING EVERY "the kernel's keyrings reach beyond the sandbox"
#define KERNEL "a kernel interface no confined program is given"
#define ADMIN "system administration, never granted to a confined program"
static const struct refused {
	const char *name, *why;
	/* A probe that working programs make and go on without (Firefox
	 * asks quotactl for free space): logged without a line. */
	bool probe;
} denied_eperm[] = {
	{ "ptrace", OTHER_TASK, false }, { "process_vm_writev", OTHER_TASK, false },
	{ "pidfd_getfd", OTHER_TASK, false }, { "open_by_handle_at", BY_HANDLE, false },
	{ "name_to_handle_at", BY_HANDLE, true }, { "keyctl", KEYRING, false },
	{ "add_key", KEYRING, false }, { "request_key", KEYRING, false },
	{ "bpf", KERNEL, false }, { "mount", ADMIN, false },
	{ "umount2", ADMIN, false }, { "open_tree", ADMIN, false },
	{ "move_mount", ADMIN, false }, { "fsopen", ADMIN, false },
	{ "fsconfig", ADMIN, false }, { "fsmount", ADMIN, false },
	{ "fspick", ADMIN, false }, { "mount_setattr", ADMIN, false },
	{ "pivot_root", ADMIN, false }, { "swapon", ADMIN, false },
	{ "swapoff", ADMIN, false }, { "quotactl", ADMIN, true },
	{ "quotactl_fd", ADMIN, true }, { "acct", ADMIN, false },
	{ "kexec_load", ADMIN, false }, { "kexec_file_load", ADMIN, false },
	{ "init_module", ADMIN, false }, { "finit_module", ADMIN, false },
	{ "delete_module", ADMIN, false }, { "userfaultfd", KERNEL, true },
	{ "fanotify_init", KERNEL, false }, { "fanotify_mark", KERNEL, false },
	{ "uselib", KERNEL, false }, { "perf_event_open", KERNEL, true },
	{ "lookup_dcookie", KERNEL, true }, { "vhangup", ADMIN, false },
	{ "reboot", ADMIN, false }, { "settimeofday", ADMIN, false },
	{ "clock_settime", ADMIN, false }, { "adjtimex", ADMIN, false },
	{ "clock_adjtime", ADMIN, false }, { "iopl", ADMIN, false },
	{ "ioperm", ADMIN, false },
};

/* The refusals that depend on an argument, notified the same way. */
#define WHY_TTY "typing into the terminal (TIOCSTI, TIOCLINUX) is refused to every confined program"
#define WHY_LISTENER "a seccomp listener of its own would let the program answer its own notifications"
#define WHY_USERNS "as root, a user namespace made in the sandbox could not be mapped (CAP_SETFCAP is dropped): refused at once, so that the program uses its other sandbox layers"
#define WHY_IO_URING "io_uring would make its calls out of the supervisor's sight: ENOSYS, and the program falls back to ordinary calls"

/* Programs fall back to older interfaces on ENOSYS. io_uring_setup is
 * notified (logged, with no line: the program goes on); clone3 is on
 * every thread's start, and glibc falls back to clone at once. */
static const char *const denied_enosys[] = {
	"io_uring_enter", "io_uring_register", "clone3",
};

/* x86_64 numbers newer than the libseccomp we build against, up to the
 * last one we know (NR_LAST_KNOWN): each allowed, notified or ENOSYS.
 * Every number above it gets ENOSYS from the prologue (prepend_prologue),
 * whatever the kernel: 463-469 name paths (setxattrat, file_getattr, ...)
 * that the supervisor would never see. */
#define NR_FCHMODAT2 452
#define NR_FIRST_UNKNOWN 451
#define NR_LAST_KNOWN 462
#if defined(__x86_64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_X86_64
#define NR_LAST_RULE NR_LAST_KNOWN
#elif defined(__aarch64__)
#define NATIVE_AUDIT_ARCH AUDIT_ARCH_AARCH64
#define NR_LAST_RULE NR_LAST_KNOWN
#else
/* No prologue here: a rule per number, up to 520, as before. */
#define NATIVE_AUDIT_ARCH 0
#define NR_LAST_RULE 520
#endif
static const int newer_allowed[] = {
	451, /* cachestat: fd based */
	453, /* map_shadow_stack */
	454, 455, 456, /* futex_wake, futex_wait, futex_requeue */
	459, 460, 461, /* lsm_get_self_attr, lsm_set_self_attr, lsm_list_modules */
	462, /* mseal */
};

static int rule(scmp_filter_ctx ctx, uint32_t action, const char *name)
{
	int nr = seccomp_syscall_resolve_name(name);
	int r;

	if (nr == __NR_SCMP_ERROR)
		return 0; /* not on this architecture (e.g. open on arm64) */
	r = seccomp_rule_add(ctx, action, nr, 0);
	if (r < 0)
		return log_error(r, "cannot add a seccomp rule for '%s': %s",
				 name, strerror(-r));
	return 0;
}

/*
 * Before libseccomp's program: natively (on x86-64 not x32), a number above
 * NR_LAST_KNOWN is refused with ENOSYS. One comparison instead of a rule
 * per number (the tree was a quarter of the filter, 58 numbers up to 520
 * only), and the kernel JITs the filter at every start. Anything else
 * goes on to libseccomp's program, which checks the architecture again.
 */
static const struct sock_filter prologue[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 0, 4),
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000 /* x32 */, 2, 0),
	BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, NR_LAST_KNOWN, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS),
};

/*
 * The stat family, for a policy whose metadata is visible: allowed by the
 * prologue itself, so they never reach the supervisor (nor libseccomp's
 * tree). Each only reads metadata of a path or of a descriptor the
 * program holds; none opens, creates or changes anything.
 */
static const int metadata_nrs[] = {
#ifdef __NR_stat
	__NR_stat, __NR_lstat, __NR_access, __NR_readlink, __NR_statfs,
#endif
	__NR_newfstatat, __NR_statx, __NR_faccessat, __NR_faccessat2,
	__NR_readlinkat,
};
#define N_META ((int)ARRAY_SIZE(metadata_nrs))

/*
 * The same prologue with the metadata numbers allowed after the range
 * check: native numbers only (the x32 bit and other architectures go on
 * to libseccomp's program as before).
 */
#define VISIBLE_PROLOGUE_LEN (ARRAY_SIZE(prologue) + N_META + 2)

int filter_prog_visible(struct filter_prog *p)
{
	struct sock_filter *insns;
	size_t body, i = 0;

	if (p->len < ARRAY_SIZE(prologue) ||
	    memcmp(p->insns, prologue, sizeof(prologue)))
		return -EINVAL;
	body = p->len - ARRAY_SIZE(prologue);
	if (body + VISIBLE_PROLOGUE_LEN > BPF_MAXINSNS)
		return -E2BIG;
	insns = malloc((body + VISIBLE_PROLOGUE_LEN) * sizeof(*insns));
	if (!insns)
		return -ENOMEM;
	/* 0-5: the prologue, its jumps to the body moved past the rest. */
	insns[i++] = (struct sock_filter)BPF_STMT(
		BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
	insns[i++] = (struct sock_filter)BPF_JUMP(
		BPF_JMP | BPF_JEQ | BPF_K, NATIVE_AUDIT_ARCH, 0,
		4 + N_META + 2);
	insns[i++] = (struct sock_filter)BPF_STMT(
		BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
	insns[i++] = (struct sock_filter)BPF_JUMP(
		BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 2 + N_META + 2, 0);
	insns[i++] = (struct sock_filter)BPF_JUMP(
		BPF_JMP | BPF_JGT | BPF_K, NR_LAST_KNOWN, 0, 1);
	insns[i++] = (struct sock_filter)BPF_STMT(
		BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS);
	/* 6..: each metadata number jumps to the ALLOW at the end. */
	for (int k = 0; k < N_META; k++)
		insns[i++] = (struct sock_filter)BPF_JUMP(
			BPF_JMP | BPF_JEQ | BPF_K, (unsigned)metadata_nrs[k],
			(unsigned char)(N_META - k), 0);
	insns[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA | BPF_K,
						  1, 0, 0);
	insns[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K,
						  SECCOMP_RET_ALLOW);
	memcpy(insns + i, p->insns + ARRAY_SIZE(prologue),
	       body * sizeof(*insns));
	free(p->insns);
	p->insns = insns;
	p->len = (unsigned short)(i + body);
	return 0;
}

/*
 * Export the program and load it ourselves rather than with
 * seccomp_load(): libseccomp 2.5 cannot ask for WAIT_KILLABLE_RECV (the
 * child loads it: launch.c).
 */
static int export_prog(scmp_filter_ctx ctx, struct filter_prog *p, bool notify)
{
	size_t head = ARRAY_SIZE(prologue) +
		      (notify ? FILTER_IOCTL_BLOCK_LEN : 0);
	_cleanup_close_ int mfd = -1;
	_cleanup_free_ struct sock_filter *insns = NULL;
	struct stat st;
	int r;

	mfd = (int)syscall(SYS_memfd_create, "fbac-filter", MFD_CLOEXEC);
	if (mfd < 0)
		return log_error(-errno, "cannot create a memfd: %m");
	if ((r = seccomp_export_bpf(ctx, mfd)) < 0)
		return log_error(r, "cannot export the seccomp filter: %s",
				 strerror(-r));
	if (fstat(mfd, &st) < 0 || st.st_size <= 0 ||
	    st.st_size % (off_t)sizeof(struct sock_filter) ||
	    st.st_size / (off_t)sizeof(struct sock_filter) + (off_t)head >
		    BPF_MAXINSNS)
		return log_error(-EINVAL, "the exported seccomp filter is malformed");
	insns = malloc(head * sizeof(*insns) + (size_t)st.st_size);
	if (!insns)
		return log_error(-ENOMEM, "out of memory");
	memcpy(insns, prologue, sizeof(prologue));
	if (notify)
		filter_ioctl_block(insns + ARRAY_SIZE(prologue),
				   NATIVE_AUDIT_ARCH);
	if (pread(mfd, insns + head, (size_t)st.st_size, 0) != st.st_size)
		return log_error(-EIO, "cannot read the exported seccomp filter");
	p->len = (unsigned short)(head + (size_t)st.st_size / sizeof(*insns));
	p->insns = TAKE_PTR(insns);
	return 0;
}

void filter_prog_free(struct filter_prog *p)
{
	free(p->insns);
	p->insns = NULL;
	p->len = 0;
}

/* notify: the supervisor's filter; else the static one of a nested run,
 * whose path and address calls the outer supervisor decides. */
static int build(struct filter_prog *p, bool notify)
{
	_cleanup_(seccomp_releasep) scmp_filter_ctx ctx = NULL;
	int r;

	/*
	 * Refusals notified, to be told (sup-refused.c). In a nested run's
	 * static filter, SECCOMP_RET_TRACE: the kernel skips the call with
	 * ENOSYS when no tracer asked for these stops, and an outer fbac
	 * filter's USER_NOTIF takes precedence over it (where ERRNO would
	 * take precedence over USER_NOTIF), so the outer supervisor refuses
	 * it with its line. A tracer that asks for the stops is outside the
	 * sandbox (ptrace is refused in it), and could make the call itself.
	 */
	uint32_t refuse = notify ? SCMP_ACT_NOTIFY : SCMP_ACT_TRACE(EPERM);

	ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return log_error(-ENOMEM, "cannot create a seccomp filter");
	/* Another architecture (i386 int 0x80, x32) is never ours to allow. */
	if ((r = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH,
				  SCMP_ACT_KILL_PROCESS)) < 0)
		return log_error(r, "cannot set the seccomp bad-arch action");
	/* A binary tree of syscall numbers instead of a list of ~180
	 * comparisons that every allowed call walked to its end. Best
	 * effort: libseccomp before 2.5 builds the list. */
	(void)seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	for (size_t i = 0; i < ARRAY_SIZE(denied_eperm); i++)
		if ((r = rule(ctx, refuse, denied_eperm[i].name)) < 0)
			return r;
	if ((r = rule(ctx, notify ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(ENOSYS),
		      "io_uring_setup")) < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(denied_enosys); i++)
		if ((r = rule(ctx, SCMP_ACT_ERRNO(ENOSYS), denied_enosys[i])) <
		    0)
			return r;
	for (size_t i = 0; notify && i < ARRAY_SIZE(notified); i++)
		if ((r = rule(ctx, SCMP_ACT_NOTIFY, notified[i])) < 0)
			return r;
	/* Syscalls newer than the table: ENOSYS unless known harmless. */
	for (int nr = NR_FIRST_UNKNOWN; nr <= NR_LAST_RULE; nr++) {
		bool ok = false;
		uint32_t act = SCMP_ACT_ERRNO(ENOSYS);

		for (size_t i = 0; i < ARRAY_SIZE(newer_allowed); i++)
			ok |= newer_allowed[i] == nr;
		if (ok || (nr == NR_FCHMODAT2 && !notify))
			continue;
		if (nr == NR_FCHMODAT2)
			act = SCMP_ACT_NOTIFY;
		if ((r = seccomp_rule_add(ctx, act, nr, 0)) < 0)
			return log_error(r, "cannot add a seccomp rule for syscall %d: %s",
					 nr, strerror(-r));
	}
	/* Typing into the terminal of the user: TIOCSTI and TIOCLINUX. */
	if ((r = seccomp_rule_add(ctx, refuse, SCMP_SYS(ioctl),
				  1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffff,
					     TIOCSTI))) < 0 ||
	    (r = seccomp_rule_add(ctx, refuse, SCMP_SYS(ioctl),
				  1, SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffff,
					     TIOCLINUX))) < 0)
		return log_error(r, "cannot add the ioctl rules: %s",
				 strerror(-r));
	/* A listener of its own would let the program answer its own
	 * notifications (the newest listener wins). */
	if ((r = seccomp_rule_add(ctx, refuse, SCMP_SYS(seccomp),
				  1, SCMP_A1(SCMP_CMP_MASKED_EQ,
					     SECCOMP_FILTER_FLAG_NEW_LISTENER,
					     SECCOMP_FILTER_FLAG_NEW_LISTENER))) <
	    0)
		return log_error(r, "cannot add the seccomp rule: %s",
				 strerror(-r));
	/*
	 * As root, a user namespace is a trap: mapping root in it needs
	 * CAP_SETFCAP, which no confined program (nor the supervisor that
	 * opens uid_map for it) keeps, so a browser that finds it can make
	 * one, then cannot map it, crashes. Refused at once, it uses its
	 * other sandbox layers, as on a system without user namespaces.
	 */
	if (getuid() == 0 &&
	    ((r = seccomp_rule_add(ctx, refuse, SCMP_SYS(unshare),
				   1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER,
					      CLONE_NEWUSER))) < 0 ||
	     (r = seccomp_rule_add(ctx, refuse, SCMP_SYS(clone),
				   1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWUSER,
					      CLONE_NEWUSER))) < 0))
		return log_error(r, "cannot add the user namespace rules: %s",
				 strerror(-r));
	/* kill to one process (pid > 0): a group stays in the kernel. */
	if (notify &&
	    (r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(kill), 1,
				  SCMP_A0(SCMP_CMP_MASKED_EQ, 0x80000000, 0))) < 0)
		return log_error(r, "cannot add the kill rule: %s", strerror(-r));
	/* TCP fast open connects from sendto: the address must be checked. */
	if (notify &&
	    (r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(sendto), 1,
				  SCMP_A4(SCMP_CMP_NE, 0, 0))) < 0)
		return log_error(r, "cannot add the sendto rule: %s",
				 strerror(-r));
	return export_prog(ctx, p, notify);
}

int filter_build(struct filter_prog *p)
{
	return build(p, true);
}

int filter_build_static(struct filter_prog *p)
{
	return build(p, false);
}


/*
 * The cache file: a header, then the instructions. The kernel checks the
 * program again when it is loaded; the checksum catches a damaged file.
 */
#define FILTER_CACHE_FORMAT                                                    \
	5 /* 2: the prologue; 3: refusals notified; 4: signals; 5: ioctl */

struct filter_cache_header {
	char magic[8];
	uint32_t format, root;
	uint64_t key[CACHE_KEY_WORDS];
	uint64_t libseccomp; /* major << 32 | minor << 16 | micro */
	uint64_t len, checksum;
};

static const char filter_magic[8] = { 'F', 'B', 'A', 'C', 'B', 'P', 'F', '\n' };

static int filter_cache_header(struct filter_cache_header *h)
{
	const struct scmp_version *v = seccomp_version();

	*h = (struct filter_cache_header){ .format = FILTER_CACHE_FORMAT,
					   .root = getuid() == 0 };
	memcpy(h->magic, filter_magic, sizeof(h->magic));
	if (v)
		h->libseccomp = (uint64_t)v->major << 32 |
				(uint64_t)v->minor << 16 | v->micro;
	return cache_key(h->key);
}

static void *malloc_ctx(void *ctx, size_t size)
{
	(void)ctx;
	return malloc(size);
}

static int filter_cache_load(const char *path, struct filter_prog *p)
{
	_cleanup_free_ unsigned char *buf = NULL;
	struct filter_cache_header want, got;
	size_t len, n;

	if (filter_cache_header(&want) < 0 ||
	    cache_read(path, sizeof(got) + BPF_MAXINSNS * sizeof(*p->insns),
		       malloc_ctx, NULL, (void **)&buf, &len) < 0 ||
	    len < sizeof(got))
		return -ESTALE;
	memcpy(&got, buf, sizeof(got));
	n = (len - sizeof(got)) / sizeof(*p->insns);
	want.len = got.len;
	want.checksum = got.checksum;
	if (memcmp(&got, &want, sizeof(got)) || n == 0 || got.len != n ||
	    n * sizeof(*p->insns) != len - sizeof(got) ||
	    got.checksum != fbac_checksum(buf + sizeof(got), len - sizeof(got)))
		return -ESTALE;
	p->insns = malloc(len - sizeof(got));
	if (!p->insns)
		return -ENOMEM;
	memcpy(p->insns, buf + sizeof(got), len - sizeof(got));
	p->len = (unsigned short)n;
	return 0;
}

static int encode_filter(void *ctx, void **ret, size_t *len)
{
	const struct filter_prog *p = ctx;
	size_t body = (size_t)p->len * sizeof(*p->insns);
	_cleanup_free_ unsigned char *buf = malloc(sizeof(struct filter_cache_header) + body);
	struct filter_cache_header h;
	int r;

	if (!buf)
		return -ENOMEM;
	if ((r = filter_cache_header(&h)) < 0)
		return r;
	h.len = p->len;
	h.checksum = fbac_checksum(p->insns, body);
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), p->insns, body);
	*len = sizeof(h) + body;
	*ret = TAKE_PTR(buf);
	return 0;
}

void filter_job_store(struct filter_job *j)
{
	if (!j->err && j->prog.insns && !j->from_cache && j->cache[0] &&
	    !j->cache_written)
		j->cache_written =
			cache_write(j->cache, encode_filter, &j->prog) == 0;
}

static void *filter_job_main(void *arg)
{
	struct filter_job *j = arg;

	j->err = filter_build(&j->prog);
	return NULL;
}

void filter_job_start(struct filter_job *j, const char *cache)
{
	*j = (struct filter_job){ 0 };
	if (cache && snprintf(j->cache, sizeof(j->cache), "%s", cache) >=
			     (int)sizeof(j->cache))
		j->cache[0] = 0;
	if (j->cache[0] && filter_cache_load(j->cache, &j->prog) == 0) {
		j->from_cache = true;
		return;
	}
	/* No thread: build when waited for, on the caller's. */
	j->started = pthread_create(&j->thread, NULL, filter_job_main, j) == 0;
}

int filter_job_wait(struct filter_job *j)
{
	if (j->started) {
		pthread_join(j->thread, NULL);
		j->started = false;
	} else if (!j->prog.insns && !j->err) {
		j->err = filter_build(&j->prog);
	}
	return j->err;
}

void filter_job_done(struct filter_job *j)
{
	if (j->started) {
		pthread_join(j->thread, NULL);
		j->started = false;
	}
	filter_prog_free(&j->prog);
}

const char *filter_syscall_name(int nr)
{
	static char buf[16];
	char *n = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr);

	/* Newer than libseccomp 2.5 (Debian 12), and notified. */
	if (!n && nr == NR_FCHMODAT2)
		return "fchmodat2";
	if (!n) {
		snprintf(buf, sizeof(buf), "syscall_%d", nr);
		return buf;
	}
	snprintf(buf, sizeof(buf), "%s", n);
	free(n);
	return buf;
}

/* denied_eperm's numbers, resolved once: filter_refused() is asked of
 * every call no earlier handler took (chdir, execve, signals, ioctls). */
static int denied_nrs[ARRAY_SIZE(denied_eperm)];
static pthread_once_t denied_nrs_once = PTHREAD_ONCE_INIT;

static void denied_nrs_resolve(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(denied_eperm); i++)
		denied_nrs[i] = seccomp_syscall_resolve_name(
			denied_eperm[i].name);
}

int filter_refused(int nr, uint64_t arg1, const char **why, bool *probe)
{
	/* The other requests are notified for sup-ioctl.c: told at once. */
	*probe = false;
	if (nr == SYS_ioctl && (uint32_t)arg1 != TIOCSTI &&
	    (uint32_t)arg1 != TIOCLINUX)
		return 0;
	pthread_once(&denied_nrs_once, denied_nrs_resolve);
	for (size_t i = 0; i < ARRAY_SIZE(denied_eperm); i++)
		if (denied_nrs[i] == nr) {
			*why = denied_eperm[i].why;
			*probe = denied_eperm[i].probe;
			return EPERM;
		}
	*probe = false;
	switch (nr) {
	case SYS_io_uring_setup:
		*why = WHY_IO_URING;
		*probe = true;
		return ENOSYS;
	case SYS_ioctl:
		*why = WHY_TTY;
		return EPERM;
	case SYS_seccomp:
		*why = WHY_LISTENER;
		return EPERM;
	case SYS_unshare:
	case SYS_clone:
		/* Browsers try it and use their other layers. */
		*why = WHY_USERNS;
		*probe = true;
		return EPERM;
	default:
		return 0;
	}
}
