/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac-run's options (main.c), and the run they drive in its phases:
 * build the stack (run-build.c), prepare, launch, supervise, report
 * (run.c), with the state they share (struct run_state). */
#ifndef FBAC_RUN_RUN_H
#define FBAC_RUN_RUN_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "as-values.h"
#include "fallback.h"
#include "fbac-limits.h"
#include "filter.h"
#include "landlock.h"
#include "launch.h"
#include "layers.h"
#include "resolve.h"
#include "stack-cache.h"
#include "sup.h"

struct options {
	const char *as[FBAC_MAX_LIST];
	size_t n_as;
	struct fbac_define defs[FBAC_MAX_DEFINES];
	size_t n_defs;
	const char *dirs[FBAC_MAX_LAYERS];
	size_t n_dirs;
	enum run_mode mode;
	const char *log;
	const char *output; /* --learn: the proposal's file */
	int verbosity;
	bool check, full, best_effort, supervise_all, no_infer, bad;
	bool yes;	  /* --learn: save the proposal without questions */
	bool learn_empty; /* learning a program no policy names */
	/* Out: end with _exit(), as a registered nested run's fbac-run does:
	 * a sanitizer's leak check at exit would ptrace it, which the outer
	 * filter refuses, and it has nothing to release. */
	bool exit_now;
	char **command;
};

/* The library, read when the stack came from the cache and a denial
 * wants suggestions: once, by whichever receiver asks first. */
struct lazy_library {
	const struct layers_options *lo;
	struct layers *l; /* NULL: the library was read at start */
	pthread_mutex_t lock;
	bool tried, loaded;
};

/* What the phases of one run share. Pointers into it (the hint, the
 * filter, the lazy library, the cwd) live as long as the run. */
struct run_state {
	struct options *o;
	struct layers_options lo;
	struct layers l;
	/* On the heap: 64 KiB on the stack would be touched page by page
	 * at every start (stack-clash probes), cache hit or not. */
	struct fbac_include *grants;
	struct fbac_stack st;
	struct launch la;
	struct supervisor *sv;
	struct sup s;
	struct hint_input hint;
	struct landlock_extra extras[FBAC_MAX_LAYERS + 1];
	int prog_rulesets[FBAC_MAX_LAYERS + 1];
	struct filter_job filter;
	struct stack_cache sc;
	struct lazy_library lazy;
	struct infer_program *ip;
	struct params pp;
	struct fallback fb; /* the application's 'sandbox_fallback' */
	bool show;
	char exe[PATH_MAX], missing[512], learn_log[PATH_MAX];
	char cwd[PATH_MAX];
	int abi, status, nested;
	unsigned compile_flags;
};

/* The start (run-build.c): the program found, whether we run confined
 * already, the filter started and the layers begun. Return: 0, or the
 * exit status of a run that ends here, before anything is to report. */
int run_begin(struct run_state *rs);

/* Phase 1 (run-build.c): the stack, from the stack cache or compiled,
 * and what the kernel lacks for it. Return: 0 or -1 (printed). */
int run_build(struct run_state *rs);

/* Run o->command as o says. Return: fbac-run's exit status. */
int run(struct options *o);

#endif
