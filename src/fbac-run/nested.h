/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac-run under another fbac-run: its Landlock layers and static filter. */
#ifndef FBAC_RUN_NESTED_H
#define FBAC_RUN_NESTED_H

#include <signal.h>
#include <stdbool.h>

#include "filter.h"
#include "landlock.h"
#include "sup.h"

/*
 * Whether this process may not have a seccomp listener of its own, as
 * under a confined program: asked of the kernel in a child (only when a
 * filter is already loaded). Call before any thread starts.
 * Return: 0 (it may), EBUSY or EPERM (it may not: the kernel's or an
 * outer fbac filter's refusal), or -errno.
 */
int nested_probe(void);

struct nested_run {
	const struct fbac_stack *st;
	int abi;
	enum run_mode mode;
	const char *exe;
	char **argv;
};

/* The program's Landlock layers and static filter, made before anything
 * runs it (in this process, or in a child after a fork). */
struct nested_prep {
	int prog[FBAC_MAX_LAYERS + 1];
	struct filter_prog f;
};

/* Build them: every stack entry's whole Landlock plan (enforce mode) and
 * the static filter. Return: 0 or -errno (logged). */
int nested_prepare(const struct nested_run *n, struct nested_prep *p);
void nested_prep_free(struct nested_prep *p);

/*
 * Hand st over to the outer fbac-run's supervisor (nest-abi.h): encoded
 * into a sealed memfd, registered by an ioctl on it. Return: the memfd
 * (kept for FBAC_IOC_NEST_DONE), -ENOTTY when no fbac supervisor is
 * above us (the memfd's own answer), or the supervisor's -errno.
 */
int nested_register(const struct fbac_stack *st);

/*
 * Restrict ourselves with p (the Landlock layers, in enforce mode), drop
 * capabilities, load the static filter and exec the program.
 * Return (on failure only, logged): -ENOENT (127), -EACCES (126), other
 * (125).
 */
int nested_enter(const struct nested_run *n, struct nested_prep *p);

/*
 * A registered nested run (nest-parent.c): as a child subreaper, start the
 * program in a child (nested_enter), forward the supervised signals to it
 * and follow its job control, wait until no descendant is left, tell the
 * outer supervisor on memfd, and return the program's exit status
 * (128 + N for a signal, 125-127 when it could not start). saved_mask: the
 * signal mask the program starts with. SIGTSTP keeps the disposition we
 * were started with: ^Z stops us in the kernel (nest-parent.c).
 */
int nested_parent(const struct nested_run *n, struct nested_prep *p, int memfd,
		  const sigset_t *saved_mask);

#endif
