/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What fbac-run --as can tell about a program without asking anyone: its
 * real executable, its Debian package and the folders the package ships,
 * the per-user folders that exist under its names, and the paths named
 * on its command line. Reads the file system only (no network, no
 * process started); then params.c turns it into parameter values.
 */
#ifndef FBAC_INFER_COMMON_H
#define FBAC_INFER_COMMON_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "blob.h"
#include "env.h"
#include "fbac-limits.h"

enum infer_path_kind {
	INFER_FILE,	/* an existing file */
	INFER_DIR,	/* an existing directory */
	INFER_NEW,	/* not there yet: a file to create */
};

struct infer_path {
	char path[PATH_MAX]; /* absolute, normalised */
	enum infer_path_kind kind;
};

struct infer_program {
	char typed[NAME_MAX + 1]; /* the name as typed, without a directory */
	/* How to name the program again from anywhere (fbac set): as typed,
	 * or its absolute path when it was typed with a '/'. */
	char cmd[PATH_MAX];
	char exe[PATH_MAX], real[PATH_MAX];
	/* realpath(exe) succeeded: it is real, or exe itself when real is
	 * "" (the stack cache's key takes it from here). */
	bool resolved;
	/* A script's interpreter ("#!/bin/sh": /bin/sh and its real path
	 * /usr/bin/dash), which must be allowed to start; "" when none. */
	char interp[PATH_MAX], interp_real[PATH_MAX];
	char package[NAME_MAX + 1]; /* "" when no dpkg package has it */
	/* Names to look the program up by, most specific first: the short
	 * name of the real executable, the typed name, the package. */
	char names[FBAC_MAX_INFER_NAMES][NAME_MAX + 1];
	size_t n_names;
	/* What the package ships ("" when not): /usr/lib/N, /etc/N,
	 * /usr/share/games/N, /usr/lib/games/N. */
	char lib_dir[PATH_MAX], etc_dir[PATH_MAX];
	char games_share[PATH_MAX], games_lib[PATH_MAX];
	/* The first name with an existing per-user folder, and those
	 * folders ("" when none). */
	char user_name[NAME_MAX + 1];
	char dot_dir[PATH_MAX], config_dir[PATH_MAX], data_dir[PATH_MAX],
		cache_dir[PATH_MAX];
	/* Paths named on the command line. */
	struct infer_path paths[FBAC_MAX_INFER_PATHS];
	size_t n_paths;
	bool paths_cut;	    /* more than FBAC_MAX_INFER_PATHS */
	char cwd[PATH_MAX]; /* "" when it may not be granted */
	/* Ports of the URLs named, and the values of -p and -P (ssh, scp:
	 * only the parameters that take them use them). */
	unsigned url_ports[FBAC_MAX_INFER_PORTS],
		flag_ports[FBAC_MAX_INFER_PORTS];
	size_t n_url_ports, n_flag_ports;
	double ms;	     /* how long it took */
	/* Only the program's identity was read (fbac-run --no-infer):
	 * nothing above is used for a value. */
	bool disabled;
};

/*
 * Infer what can be from the program found at exe, typed as typed, run
 * with argv (argv[0] the program; NULL-terminated). Never fails: what
 * cannot be read is left out. Without full, only its identity (names,
 * real path, interpreter): out->disabled. out must be zeroed (calloc):
 * it is 300 kB, most of it never written, and clearing it all faulted
 * in 80 pages, a tenth of fbac-run's start-up.
 */
void infer_program(const char *typed, const char *exe, char *const *argv,
		   const struct fbac_env *env, bool full,
		   struct infer_program *out);

/* The program as execvp(3) would find it, an absolute path in out.
 * Return: 0 or -errno. */
int infer_find_program(const char *name, char *out, size_t size);

/* Everything inferred, spelt out for a cache key. */
void infer_key(const struct infer_program *ip, struct fbac_blob_out *o);

#endif
