/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac-run under another fbac-run: its Landlock layers and static filter. */
#ifndef FBAC_RUN_NESTED_H
#define FBAC_RUN_NESTED_H

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
	int verbosity, why; /* why: nested_probe's answer */
};

/*
 * Restrict ourselves with every stack entry's Landlock plan (enforce
 * mode), drop capabilities, load the static filter and exec the program.
 * Return (on failure only, logged): -ENOENT (127), -EACCES (126), other
 * (125).
 */
int nested_exec(const struct nested_run *n);

#endif
