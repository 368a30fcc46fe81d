/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac wrap, fbac wrap --list, fbac unwrap: wrapper scripts in
 * ~/.local/bin (or /usr/local/bin) that run a program under fbac-run, and
 * copies of its .desktop entry whose Exec= runs the wrapper. Only files
 * with fbac's marker, owned by the caller, are ever replaced or removed.
 */
#include <argp.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fbac.h"
#include "output.h"
#include "wrap-cmd.h"

struct wrap_opts {
	/* fbac-run's options as given: --as X, -D Y, in order */
	const char *run_opts[2 * (FBAC_MAX_LIST + FBAC_MAX_DEFINES)];
	size_t n_run_opts, n_as, n_defs;
	const char *programs[FBAC_MAX_LIST];
	size_t n_programs;
	bool system, list, unwrap;
};

enum { OPT_SYSTEM = 0x100, OPT_LIST };

static const struct argp_option wrap_options[] = {
	{ "as", 'a', "FUNCTIONALITY", 0,
	  "Confine as FUNCTIONALITY (repeatable), as fbac-run --as", 0 },
	{ "define", 'D', "FUNC.PARAM=VALUE", 0,
	  "Set a parameter, as fbac-run -D (repeatable)", 0 },
	{ "system", OPT_SYSTEM, NULL, 0,
	  "For every user: /usr/local/bin and /usr/local/share/applications (root)", 0 },
	{ "list", OPT_LIST, NULL, 0, "List the wrapped programs", 0 },
	{ 0 }
};

static const struct argp_option unwrap_options[] = {
	{ "system", OPT_SYSTEM, NULL, 0,
	  "Remove wrappers that 'fbac wrap --system' wrote (root)", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct wrap_opts *o = st->input;

	switch (key) {
	case 'a':
		if (o->n_as >= FBAC_MAX_LIST)
			argp_error(st, "too many --as options");
		o->n_as++;
		o->run_opts[o->n_run_opts++] = "--as";
		o->run_opts[o->n_run_opts++] = arg;
		return 0;
	case 'D':
		/* Checked by fbac-run --check before anything is written. */
		if (o->n_defs >= FBAC_MAX_DEFINES)
			argp_error(st, "too many -D options (at most %d)",
				   FBAC_MAX_DEFINES);
		o->n_defs++;
		o->run_opts[o->n_run_opts++] = "-D";
		o->run_opts[o->n_run_opts++] = arg;
		return 0;
	case OPT_SYSTEM:
		o->system = true;
		return 0;
	case OPT_LIST:
		o->list = true;
		return 0;
	case ARGP_KEY_ARG:
		/* Options may follow: fbac wrap less --as Text_Viewer. */
		if (o->n_programs >= FBAC_MAX_LIST)
			argp_error(st, "too many programs (at most %d)", FBAC_MAX_LIST);
		o->programs[o->n_programs++] = arg;
		return 0;
	case ARGP_KEY_END:
		if (o->list && (o->n_programs || o->n_run_opts))
			argp_error(st, "--list takes no PROGRAM and no --as or -D");
		if (!o->list && !o->n_programs)
			argp_error(st, "missing PROGRAM");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static int mkdir_p(const char *path, mode_t mode)
{
	char p[PATH_MAX];

	if (snprintf(p, sizeof(p), "%s", path) >= (int)sizeof(p))
		return -ENAMETOOLONG;
	for (char *s = p + 1;; s++)
		if (*s == '/' || !*s) {
			char c = *s;

			*s = 0;
			if (mkdir(p, mode) < 0 && errno != EEXIST)
				return log_error(-errno, "cannot create '%s': %m", p);
			if (!c)
				return 0;
			*s = c;
		}
}

/* fbac-run --check with the wrapper's options: the wrapper will work. */
static int check_runs(const char *fbac_run, const struct wrap_opts *o,
		      const char *program)
{
	const char *argv[4 + ARRAY_SIZE(o->run_opts)];
	size_t n = 0;
	int status;
	pid_t pid;

	argv[n++] = fbac_run;
	argv[n++] = "--check";
	for (size_t i = 0; i < o->n_run_opts; i++)
		argv[n++] = o->run_opts[i];
	argv[n++] = "--";
	argv[n++] = program;
	argv[n] = NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return log_error(-errno, "cannot start '%s': %m", fbac_run);
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		if (null >= 0) {
			dup2(null, STDIN_FILENO);
			dup2(null, STDOUT_FILENO);
		}
		execv(fbac_run, (char **)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return log_error(-errno, "cannot wait for '%s': %m", fbac_run);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EINVAL;
}

static void path_advice(const struct wrap_dirs *d, const char *name,
			const char *program, int prog_index)
{
	int wi = wrap_dir_in_path(d);
	char shown[PATH_MAX];

	if (wi >= 0 && (prog_index < 0 || wi < prog_index))
		return;
	wrap_dir_display(d, shown, sizeof(shown));
	if (d->system)
		log_error(0, "warning: '%s' %s in PATH, so '%s' still starts '%s' unconfined: put /usr/local/bin first in PATH (/etc/profile, ENV_PATH and ENV_SUPATH in /etc/login.defs)",
			  d->bin, wi < 0 ? "is not" : "comes after the program's directory",
			  name, program);
	else
		log_error(0, "warning: '%s' %s in PATH, so '%s' still starts '%s' unconfined: add the line 'export PATH=\"%s:$PATH\"' to ~/.profile and log in again (Debian's ~/.profile adds it when the directory exists at login); in a shell already open, run that line and 'hash -r'",
			  d->bin, wi < 0 ? "is not" : "comes after the program's directory",
			  name, program, shown);
}

/* path names an entry directly in dir. */
static bool directly_in(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && path[n] == '/' && path[n + 1] &&
	       !strchr(path + n + 1, '/');
}

static int wrap_one(const struct wrap_dirs *d, const char *fbac_run,
		    const struct wrap_opts *o, const char *arg)
{
	const char *name = base(arg);
	char program[PATH_MAX], wrapper[PATH_MAX], src[PATH_MAX],
		desktop[PATH_MAX];
	_cleanup_free_ char *entry = NULL, *script = NULL;
	struct fbac_wrapper old;
	int idx, r, found;

	if (!*name || streq(name, ".") || streq(name, ".."))
		return log_error(-EINVAL, "cannot wrap '%s': not a program name", arg);
	r = wrap_find_program(d, arg, program, sizeof(program), &idx);
	if (r == -EINVAL)
		return log_error(r, "cannot wrap '%s': give a program name or an absolute path",
				 arg);
	if (r < 0) {
		errno = -r;
		return log_error(r, strchr(arg, '/') ?
					    "cannot wrap '%s': %m" :
					    "cannot wrap '%s': not found in PATH (wrappers in '%s' left aside)",
				 arg, d->bin);
	}
	if (snprintf(wrapper, sizeof(wrapper), "%s/%s", d->bin, name) >=
	    (int)sizeof(wrapper))
		return log_error(-ENAMETOOLONG, "cannot wrap '%s': path too long", arg);
	r = wrap_ours(wrapper, false, &old);
	if (r == -EEXIST)
		return log_error(r, "refusing to overwrite '%s': fbac wrap did not write it",
				 wrapper);
	if (r == 0)
		old.desktop[0] = 0;
	if (r < 0) {
		errno = -r;
		return log_error(r, "cannot read '%s': %m", wrapper);
	}
	if (check_runs(fbac_run, o, program) < 0)
		return log_error(-EINVAL, "cannot wrap '%s': fbac-run cannot confine '%s' as asked (see above)",
				 name, program);
	found = wrap_find_desktop(d, name, program, wrapper, src, sizeof(src), &entry);
	if (found < 0)
		return found;
	if (found) {
		if (snprintf(desktop, sizeof(desktop), "%s/%s", d->apps,
			     base(src)) >= (int)sizeof(desktop))
			return log_error(-ENAMETOOLONG, "cannot wrap '%s': path too long",
					 name);
		r = wrap_ours(desktop, true, NULL);
		if (r == -EEXIST)
			return log_error(r, "refusing to overwrite '%s': fbac wrap did not write it (nothing written for '%s')",
					 desktop, name);
		if (r < 0) {
			errno = -r;
			return log_error(r, "cannot read '%s': %m", desktop);
		}
	}
	r = fbac_wrapper_format(fbac_run, program, o->run_opts, o->n_run_opts,
				found ? desktop : NULL, &script);
	if (r < 0) {
		errno = -r;
		return log_error(r, "cannot wrap '%s': %m (a newline in an option?)",
				 name);
	}
	if ((r = mkdir_p(d->bin, 0755)) < 0 ||
	    (found && (r = mkdir_p(d->apps, 0755)) < 0) ||
	    (r = wrap_write(wrapper, script, 0755)) < 0 ||
	    (found && (r = wrap_write(desktop, entry, 0644)) < 0))
		return r;
	/* Wrapped before with a desktop entry copy it no longer gets. */
	if (old.desktop[0] && (!found || strcmp(old.desktop, desktop)) &&
	    directly_in(old.desktop, d->apps) && wrap_ours(old.desktop, true, NULL) == 1 && unlink(old.desktop) == 0)
		printf("removed '%s' (the entry of an earlier wrap)\n", old.desktop);
	printf("wrapped '%s': '%s' runs '%s' confined\n", name, wrapper, program);
	if (found)
		printf("  desktop entry: '%s' (a copy of '%s')\n", desktop, src);
	path_advice(d, name, program, idx);
	return 0;
}

static int list(const struct wrap_dirs *d)
{
	struct dirent **ents = NULL;
	int n = scandir(d->bin, &ents, NULL, alphasort), shown = 0;

	if (n < 0) {
		if (errno != ENOENT)
			return log_error(-errno, "cannot list '%s': %m", d->bin);
		n = 0;
	}
	for (int i = 0; i < n; i++) {
		_cleanup_free_ char *text = NULL;
		struct fbac_wrapper w;
		char path[PATH_MAX];
		size_t len;

		if (ents[i]->d_name[0] != '.' &&
		    snprintf(path, sizeof(path), "%s/%s", d->bin,
			     ents[i]->d_name) < (int)sizeof(path) &&
		    wrap_read(path, FBAC_MAX_WRAPPER_SIZE, &text, &len, NULL) == 0 &&
		    fbac_wrapper_parse(text, len, &w) == 0) {
			printf("%s\t%s\n  wrapper: %s\n  options: %s\n  desktop entry: %s\n",
			       ents[i]->d_name, w.program, path,
			       w.options[0] ? w.options : "(none: its application policy)",
			       w.desktop[0] ? w.desktop : "(none)");
			shown++;
		}
		free(ents[i]);
	}
	free(ents);
	if (!shown)
		printf("no program is wrapped in '%s'\n", d->bin);
	return 0;
}

int cmd_wrap(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		wrap_options, parse_opt, "PROGRAM...\n--list",
		"Make PROGRAM start confined: write a wrapper that runs it under "
		"fbac-run in ~/.local/bin, and a copy of its desktop entry that "
		"runs the wrapper. See fbac(1).",
		NULL, NULL, NULL
	};
	struct wrap_opts o = { .n_run_opts = 0 };
	struct wrap_dirs d;
	char fbac_run[PATH_MAX];
	int ret = EXIT_OK;

	(void)g;
	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &o) != 0)
		return EXIT_FAILURE_USAGE;
	if (o.list && !o.system && wrap_dirs_get(false, &d) < 0)
		return EXIT_FAILURE_USAGE;
	if (o.list && o.system) {
		d = (struct wrap_dirs){ .system = true };
		snprintf(d.bin, sizeof(d.bin), "/usr/local/bin");
	}
	if (o.list)
		return list(&d) < 0 ? EXIT_FAILURE_USAGE : EXIT_OK;
	if (wrap_dirs_get(o.system, &d) < 0 ||
	    wrap_fbac_run(fbac_run, sizeof(fbac_run)) < 0)
		return EXIT_FAILURE_USAGE;
	for (size_t i = 0; i < o.n_programs; i++)
		if (wrap_one(&d, fbac_run, &o, o.programs[i]) < 0)
			ret = EXIT_DENIED_OR_INVALID;
	return ret;
}

static int unwrap_one(const struct wrap_dirs *d, const char *name)
{
	struct fbac_wrapper w;
	char wrapper[PATH_MAX];
	int r, ret = 0;

	if (strchr(name, '/') || !*name || streq(name, ".") || streq(name, ".."))
		return log_error(-EINVAL, "cannot unwrap '%s': give the program's name, as 'fbac wrap --list' shows it",
				 name);
	if (snprintf(wrapper, sizeof(wrapper), "%s/%s", d->bin, name) >=
	    (int)sizeof(wrapper))
		return log_error(-ENAMETOOLONG, "cannot unwrap '%s': path too long",
				 name);
	r = wrap_ours(wrapper, false, &w);
	if (r == 0)
		return log_error(-ENOENT, "cannot unwrap '%s': it is not wrapped (no '%s')",
				 name, wrapper);
	if (r == -EEXIST)
		return log_error(r, "refusing to remove '%s': fbac wrap did not write it",
				 wrapper);
	if (r < 0) {
		errno = -r;
		return log_error(r, "cannot read '%s': %m", wrapper);
	}
	if (w.desktop[0]) {
		r = !directly_in(w.desktop, d->apps) ? -EEXIST :
						       wrap_ours(w.desktop, true, NULL);
		if (r == -EEXIST)
			ret = log_error(r, "left '%s' alone: fbac wrap did not write it (its marker '%s' is gone, or it is not in '%s')",
					w.desktop, FBAC_DESKTOP_MARKER, d->apps);
		else if (r == 1 && unlink(w.desktop) < 0)
			ret = log_error(-errno, "cannot remove '%s': %m", w.desktop);
		else if (r == 1)
			printf("removed '%s'\n", w.desktop);
	}
	if (unlink(wrapper) < 0)
		return log_error(-errno, "cannot remove '%s': %m", wrapper);
	printf("removed '%s': '%s' starts unconfined again\n", wrapper, name);
	return ret;
}

int cmd_unwrap(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		unwrap_options, parse_opt, "PROGRAM...",
		"Remove what 'fbac wrap' wrote for PROGRAM: its wrapper and its "
		"desktop entry copy (never a file without fbac's marker). "
		"See fbac(1).",
		NULL, NULL, NULL
	};
	struct wrap_opts o = { .unwrap = true };
	struct wrap_dirs d;
	int ret = EXIT_OK;

	(void)g;
	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &o) != 0)
		return EXIT_FAILURE_USAGE;
	if (wrap_dirs_get(o.system, &d) < 0)
		return EXIT_FAILURE_USAGE;
	for (size_t i = 0; i < o.n_programs; i++)
		if (unwrap_one(&d, o.programs[i]) < 0)
			ret = EXIT_DENIED_OR_INVALID;
	return ret;
}
