/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac new: what the system says about a program (new-probe.c), read
 * before the wizard chooses and asks (cmd-new.c).
 */
#ifndef FBAC_NEW_H
#define FBAC_NEW_H

#include <limits.h>
#include <stdbool.h>

#include "arena.h"
#include "desktop.h"
#include "elf.h"
#include "fbac-limits.h"
#include "layers.h"
#include "policy.h"

struct probe {
	struct fbac_arena *a;
	const char *name;     /* the application's name: the program's base name */
	char exe[PATH_MAX];   /* found in PATH */
	char canon[PATH_MAX]; /* its canonical path */
	const char *package;  /* owning package, NULL when none */
	struct fbac_dpkg_package pkg;
	bool have_pkg;
	const char **files; /* the package's files (dpkg -L) */
	size_t n_files;
	const char *desktop_path; /* NULL: no desktop entry */
	struct fbac_desktop desktop;
	struct fbac_elf_info elf;
	bool have_elf;
	const char **libs; /* resolved by ldd, absolute */
	size_t n_libs;
	const char *ldd_note; /* why ldd was not run, or NULL */
	const char *script;   /* a script's interpreter ("#!"), or NULL */
};

/* Find the program and read what the system says about it; prints why a
 * source could not be read (never fatal but for a program not found).
 * Return: 0, -ENOENT (printed), -ENOMEM. */
int probe_program(const char *program, struct fbac_arena *a, struct probe *p);

/* Whether a path is one of the package's files. */
bool probe_pkg_has(const struct probe *p, const char *path);

/* The application policy being written. */
struct draft_item {
	const char *name;   /* a functionality */
	const char *args;   /* "{app_name: \"bc\"}", or NULL */
	const char *reason; /* the comment above it */
};

struct draft {
	struct fbac_arena *a;
	const char *name, *description, *source;
	const char *exes[2];
	size_t n_exes;
	struct draft_item items[FBAC_MAX_DRAFT_ITEMS];
	size_t n_items;
	const char *notes[FBAC_MAX_DRAFT_ITEMS]; /* printed and written as comments */
	size_t n_notes;
};

/* Return: 0, -E2BIG (more than FBAC_MAX_DRAFT_ITEMS), -ENOMEM. */
int draft_add(struct draft *d, const char *name, const char *args,
	      const char *reason);
int draft_note(struct draft *d, const char *fmt, ...) _printf_(2, 3);
/* The draft as a commented YAML document. Return: 0 or -EIO. */
int draft_write(const struct draft *d, FILE *f);
/* s as a YAML double-quoted scalar, in the arena (NULL: out of memory). */
const char *yaml_quote(struct fbac_arena *a, const char *s);

/*
 * Resolve and compile the application policy app of the loaded layers l,
 * as fbac show does (the administrator's layer with the trusted
 * variables); fbac new, export and compare use it. Prints the problem.
 * Return: 0 or a negative errno.
 */
int compile_app(const struct layers *l, const struct fbac_application *app,
		struct fbac_policy **ret);

/*
 * Add what the compiled draft lacks of what the program has on the
 * system: libraries ldd found outside the granted directories, the
 * package's helper programs and configuration, the per-user folders that
 * exist (new-fill.c). Return: 0, or a negative errno (printed).
 */
int draft_fill(struct draft *d, const struct probe *p,
	       const struct fbac_policy *pol, const struct fbac_env *env);

/* One parameter's value. */
struct param_answer {
	const char *items[FBAC_MAX_ANSWER_ITEMS];
	size_t n;
	const char *why; /* where the value comes from, NULL: the default */
	bool filled;	 /* from the system: not asked */
	bool given;	 /* -D or an answer */
	bool from_default;
};


/* Guess every parameter of f (ans: f->n_params entries). Return: 0. */
int params_guess(const struct fbac_functionality *f, const struct probe *p,
		 const struct fbac_env *env, struct fbac_arena *a,
		 struct param_answer *ans);
/* Apply one -D. Return: 0 or -EINVAL (printed). */
int params_define(const struct fbac_functionality *f, const struct fbac_define *d,
		  struct fbac_arena *ar, struct param_answer *ans);
/* Ask what is neither filled nor given, line by line on stdin. Return: 0,
 * -ENODATA at the end of the input (printed), -ENOMEM. */
int params_ask(const struct fbac_functionality *f, struct fbac_arena *ar,
	       struct param_answer *ans);
const char *params_text(struct fbac_arena *ar, const struct param_answer *a);
/* Print "QUESTION [GUESS]: " and read a line (*ret malloc'd, without its
 * newline). Return: 0 or -ENODATA at the end of the input. */
int ask_line(const char *question, const char *guess, char **ret);

struct global;
/* Write d to file (in dir), load every layer with dir as one more, and
 * compile the draft from there (l and *pol are the caller's to free).
 * Prints problems. Return: 0 or a negative errno. */
int compile_draft(const struct global *g, const struct draft *d,
		  const char *dir, const char *file, struct layers *l,
		  struct fbac_policy **pol);
/* The path of NAME.yaml in the user's layer, whose directories are made.
 * Return: 0 or a negative errno (printed). */
int user_file(const struct layers *l, const char *name, char *buf, size_t size);
/* Copy from to to ("-": standard output) by a rename, refusing to replace
 * a file unless force. Return: 0 or a negative errno (printed). */
int install_policy(const char *from, const char *to, bool force);
void print_file(const char *path);

struct fbac_wizard;
struct fbac_wizard_vote;
/* Whether f includes name, directly or not. */
bool reaches(const struct fbac_functionality *f, const char *name,
	     unsigned depth);
/* Count the evidence of p: high-level functionalities in hl, building
 * blocks in blocks. Return: 0 or -ENOMEM. */
int tally(const struct probe *p, struct fbac_wizard *hl,
	  struct fbac_wizard *blocks);
/* Whether the building blocks include Graphical_Application. */
bool graphical(const struct fbac_wizard *blocks);
/* A vote's reasons joined by "; ". */
const char *join_reasons(struct fbac_arena *a, const struct fbac_wizard_vote *v);
/* The high-level item's arguments: those filled, given or differing from
 * the default ("{app_name: \"w3m\"}"), or NULL. */
const char *hl_args(struct fbac_arena *a, const struct fbac_functionality *f,
		    const struct param_answer *ans);

#endif
