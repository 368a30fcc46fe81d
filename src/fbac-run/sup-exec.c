/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What an exec the policy allows needs besides the program: the kernel
 * opens a script's interpreter (#!) and an ELF program's loader
 * (PT_INTERP) for execution itself, and Landlock refuses them when their
 * EXECUTE right is missing. That refusal never reaches the supervisor:
 * the program (or fbac-run, at start-up) would only see EACCES. So the
 * supervisor reads what the kernel will load and decides it first, with
 * a denial line and an event that say whose loader or interpreter it is.
 * The exec itself (execve, execveat) is decided here too, and continues
 * in the kernel, bounded by Landlock's EXECUTE right.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "call.h"
#include "landlock.h"
#include "sup-handlers.h"

#define HEAD_SIZE 4096 /* ELF program headers and a #! line are here */
#define MAX_DEPTH FBAC_MAX_INTERP_DEPTH

/*
 * The interpreter the kernel loads for the file at fd (O_PATH): a #!
 * line's first word, or an ELF program's PT_INTERP, into out. Return:
 * 1 for a script's interpreter, 2 for a loader, 0 when none (or the file
 * is not ours to read: the kernel decides then).
 */
static int interpreter_of(int fd, char *out, size_t size)
{
	unsigned char head[HEAD_SIZE];
	char name[64];
	ssize_t n;
	int rfd;

	fdname(name, sizeof(name), fd);
	rfd = open(name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (rfd < 0)
		return 0;
	n = pread(rfd, head, sizeof(head), 0);
	if (n >= 2 && head[0] == '#' && head[1] == '!') {
		size_t i = 2, len = 0;

		close(rfd);
		while (i < (size_t)n && (head[i] == ' ' || head[i] == '\t'))
			i++;
		while (i + len < (size_t)n && head[i + len] != ' ' &&
		       head[i + len] != '\t' && head[i + len] != '\n' &&
		       head[i + len] != 0)
			len++;
		if (!len || len >= size || head[i] != '/')
			return 0;
		memcpy(out, head + i, len);
		out[len] = 0;
		return 1;
	}
	if (n >= (ssize_t)sizeof(Elf64_Ehdr) && !memcmp(head, ELFMAG, SELFMAG) &&
	    head[EI_CLASS] == ELFCLASS64) {
		const Elf64_Ehdr *eh = (const Elf64_Ehdr *)head;

		for (unsigned i = 0; i < eh->e_phnum; i++) {
			Elf64_Phdr ph;
			uint64_t at = eh->e_phoff + (uint64_t)i * eh->e_phentsize;

			if (eh->e_phentsize < sizeof(ph) ||
			    pread(rfd, &ph, sizeof(ph), (off_t)at) != sizeof(ph))
				break;
			if (ph.p_type != PT_INTERP)
				continue;
			if (ph.p_filesz < 2 || ph.p_filesz > size ||
			    pread(rfd, out, ph.p_filesz, (off_t)ph.p_offset) !=
				    (ssize_t)ph.p_filesz ||
			    out[ph.p_filesz - 1] != 0 || out[0] != '/')
				break;
			close(rfd);
			return 2;
		}
	}
	close(rfd);
	return 0;
}

/*
 * Whether the kernel's Landlock rules will let the file run, now that
 * the policy allowed it: a program made or replaced after start-up that
 * a pattern or a rule of its own grants has no rule (they are made at
 * launch, on the objects there then), nor has one granted by a pattern
 * the kernel cannot be given. Refused here,
 * with the reason, rather than by the kernel out of sight.
 */
static bool kernel_runs(struct call *c, const struct resolved *r,
			const char *about)
{
	const struct sup *s = c->s;
	char reason[512];
	bool made_since, ok;
	size_t i;

	if (s->mode != MODE_ENFORCE ||
	    __atomic_load_n(&s->roots_vary, __ATOMIC_ACQUIRE) ||
	    s->landlock_abi < 1)
		return true;
	i = s->extras && s->n_extras ?
		    landlock_exec_refuser(s->stack, s->extras, s->n_extras,
					  s->root_fd, r->path, &r->st,
					  &made_since) :
		    SIZE_MAX;
	if (i != SIZE_MAX)
		call_exec_refusal(reason, sizeof(reason), &s->stack->entries[i],
				  made_since, false);
	/* Ours run it; a nested run's layers may not. */
	else if (!call_nest_exec_refused(c, s->root_fd, r->path, &r->st, reason,
					 sizeof(reason)))
		return true;
	c->about = about;
	ok = call_refuse(c, FBAC_OP_FILE_EXECUTE, r->path, reason);
	c->about = NULL;
	return ok;
}

/*
 * Whether what the kernel loads to run prog (a script's interpreter, an
 * ELF loader, in turn) may be executed: decided with denial lines and
 * events, as Landlock would refuse them out of sight.
 */
static bool exec_needs_allowed(struct call *c, const struct resolved *prog)
{
	char interp[FBAC_MAX_PATH], about[FBAC_MAX_PATH + 64];
	char of[FBAC_MAX_PATH];
	struct resolved r = { .fd = -1, .parent_fd = -1 };
	int fd = prog->fd;
	bool ok = true;

	snprintf(of, sizeof(of), "%s", prog->path);
	if (prog->fd >= 0 && !kernel_runs(c, prog, NULL))
		return false;
	for (int depth = 0; ok && depth < MAX_DEPTH; depth++) {
		int kind = interpreter_of(fd, interp, sizeof(interp));

		if (kind <= 0)
			break;
		resolved_close(&r);
		if (call_resolve_path(c, AT_FDCWD, interp, RES_FOLLOW, &r) < 0)
			break; /* the kernel answers ENOENT itself */
		snprintf(about, sizeof(about), "the %s of '%s'",
			 kind == 1 ? "interpreter" : "loader", of);
		c->about = about;
		ok = call_decide_path(c, FBAC_OP_FILE_EXECUTE, r.path);
		c->about = NULL;
		if (ok && r.fd >= 0)
			ok = kernel_runs(c, &r, about);
		snprintf(of, sizeof(of), "%s", r.path);
		fd = r.fd;
	}
	resolved_close(&r);
	return ok;
}

/*
 * The dynamic loader run as the program maps any readable file and runs
 * it (ld.so /denied/prog): mmap is not something Landlock controls. So
 * the loader is never the program itself; programs still use it through
 * their PT_INTERP, which the kernel loads without an execve of its own.
 */
static bool is_loader(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	return !strncmp(base, "ld-linux", 8) || !strncmp(base, "ld.so", 5) ||
	       (!strncmp(base, "ld-", 3) && strstr(base, ".so"));
}

static void do_exec(struct call *c, int dirfd, uint64_t path, int flags)
{
	struct resolved r;
	unsigned rf = (flags & AT_SYMLINK_NOFOLLOW) ? 0 : RES_FOLLOW;
	int err;

	if (flags & AT_EMPTY_PATH)
		rf |= RES_EMPTY_OK;
	err = call_resolve_arg(c, dirfd, path, rf, &r);
	/* The program's own exec (a relative name is resolved from our
	 * directory until now): from here on, the child is the program. */
	if (c->tid == c->s->launch_pid)
		__atomic_store_n(&c->s->launch_pid, 0, __ATOMIC_RELEASE);
	if (err < 0) {
		if (err == -EACCES)
			call_tell_dac_walk_arg(c, FBAC_OP_FILE_EXECUTE, path);
		/* memfd, deleted files and other pathless programs: refused. */
		call_fail(c, err == -ENOENT || err == -EFAULT ||
					     err == -ENOTDIR ?
				     err :
				     -EACCES);
		return;
	}
	err = call_decide_path(c, FBAC_OP_FILE_EXECUTE, r.path) ? 0 : -EACCES;
	/* Its interpreter or loader, which Landlock would refuse unseen. */
	if (!err && !exec_needs_allowed(c, &r))
		err = -EACCES;
	if (!err && is_loader(r.path) &&
	    !call_refuse(c, FBAC_OP_FILE_EXECUTE, r.path,
			 "the dynamic loader run as a program would run files that may only be read"))
		err = -EACCES;
	/* A program root may run, by an execute bit, but not without its
	 * capabilities: the kernel's EACCES is ours to tell (sup-dac.c). */
	if (!err && S_ISREG(r.st.st_mode) && (r.st.st_mode & 0111))
		call_tell_dac(c, FBAC_OP_FILE_EXECUTE, r.path, r.fd, X_OK);
	resolved_close(&r);
	/* Landlock's EXECUTE right bounds what a swapped path could reach. */
	if (err) {
		__atomic_add_fetch(&c->s->exec_refused, 1, __ATOMIC_RELAXED);
		call_fail(c, err);
	}
	else
		call_continue(c);
}

bool handle_exec(struct call *c)
{
	switch (c->nr) {
	case SYS_execve:
		do_exec(c, AT_FDCWD, ARG(c, 0), 0);
		return true;
	case SYS_execveat:
		do_exec(c, AT_FD(ARG(c, 0)), ARG(c, 1), (int)ARG(c, 4));
		return true;
	default:
		return false;
	}
}
