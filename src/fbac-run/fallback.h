/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An application policy's 'sandbox_fallback' (fbac-profile(5)): options
 * fbac-run adds after the program's name because the program's own
 * sandbox cannot start inside fbac-run's (Chromium's: --no-sandbox
 * --no-zygote). Said in one line on stderr and in one event of --log.
 */
#ifndef FBAC_RUN_FALLBACK_H
#define FBAC_RUN_FALLBACK_H
#include <stdio.h>

#include "stack.h"

struct fallback {
	const char *app;  /* the application whose policy asks, or NULL */
	char **argv;	  /* the command with them (owned), or NULL */
	char added[1024]; /* the options added, space-separated */
};

/*
 * Add to *command, after its name, every 'sandbox_fallback' option of
 * the stack's application policies that it does not hold already; on
 * success *command points at fb->argv. Return: the number added (0:
 * *command unchanged), or -ENOMEM.
 */
int fallback_apply(struct fallback *fb, const struct fbac_stack *st,
		   char ***command);
/* The line on stderr (with prefix) and the event in log (may be NULL;
 * exe: the program's path), when fb added something. */
void fallback_announce(const struct fallback *fb, const char *prefix);
void fallback_event(const struct fallback *fb, FILE *log, const char *exe);
void fallback_free(struct fallback *fb);
#endif
