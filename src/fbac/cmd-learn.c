/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac learn: propose an application policy, in the library's
 * functionalities, from the logs of runs (fbac-run --learn --log).
 */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fbac.h"
#include "learn.h"
#include "output.h"

struct learn_opts {
	const char *logs[FBAC_MAX_LEARN_LOGS];
	size_t n_logs;
	const char *output, *program, *name;
	bool yes, full, quiet;
};

static const struct argp_option options[] = {
	{ "output", 'o', "FILE", 0, "Write the proposed policy to FILE", 0 },
	{ "yes", 'y', NULL, 0,
	  "Accept the proposal without questions and save it in the user's layer", 0 },
	{ "program", 'p', "PATH", 0,
	  "The program the logs are of (default: the one fbac-run started)", 0 },
	{ "name", 'n', "NAME", 0, "Name the application policy NAME", 0 },
	{ "full", 'f', NULL, 0,
	  "Propose a whole policy even when the program already has one", 0 },
	{ "quiet", 'q', NULL, 0, "Print only problems", 0 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct learn_opts *o = st->input;

	switch (key) {
	case 'o':
		o->output = arg;
		return 0;
	case 'y':
		o->yes = true;
		return 0;
	case 'p':
		o->program = arg;
		return 0;
	case 'n':
		o->name = arg;
		return 0;
	case 'f':
		o->full = true;
		return 0;
	case 'q':
		o->quiet = true;
		return 0;
	case ARGP_KEY_ARG:
		if (o->n_logs >= FBAC_MAX_LEARN_LOGS)
			argp_error(st, "too many logs (at most %d)",
				   FBAC_MAX_LEARN_LOGS);
		o->logs[o->n_logs++] = arg;
		return 0;
	case ARGP_KEY_END:
		if (!o->n_logs)
			argp_error(st, "missing LOG");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static int read_log(const char *path, struct fbac_observations *obs)
{
	_cleanup_free_ char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	FILE *f = fopen(path, "re");
	int r = 0;

	if (!f)
		return log_error(-errno, "cannot read log '%s': %m", path);
	while ((len = getline(&line, &cap, f)) >= 0) {
		struct fbac_diag d = { 0 };
		char msg[FBAC_MAX_DIAG + 64];

		lineno++;
		if (len && line[len - 1] == '\n')
			len--;
		if (!len)
			continue;
		r = fbac_obs_add_line(obs, line, (size_t)len, &d);
		if (r < 0) {
			fbac_diag_format(&d, msg, sizeof(msg));
			log_error(r, "%s:%zu: %s", path, lineno,
				  r == -ENOMEM ? "out of memory" : msg);
			break;
		}
	}
	fclose(f);
	return r;
}

/* An application name from a program's file name. */
static void app_name(const char *program, char *out, size_t size)
{
	const char *base = strrchr(program, '/');
	size_t n = 0;

	for (const char *s = base ? base + 1 : program; *s && n + 1 < size; s++) {
		char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		      (n && strchr("._+-", c))))
			c = n ? '-' : 'x';
		out[n++] = c;
	}
	out[n] = 0;
	if (!n)
		snprintf(out, size, "program");
}

static const char *user_dir(const struct layers *l)
{
	for (size_t i = 0; i < l->n_dirs; i++)
		if (l->dirs[i].kind == FBAC_LAYER_USER)
			return l->dirs[i].dir;
	return NULL;
}

/*
 * Load the layers with text as one more file, and compile its application
 * policy on its own: the proof that it passes fbac check, and what the
 * summary is computed on. Return: 0, -EINVAL (printed), -ENOMEM.
 */
int learn_check_text(struct global *g, const char *text, const char *name,
		      FILE *summary, const struct learn_view *v)
{
	char dir[] = "/tmp/fbac-learn-XXXXXX", file[PATH_MAX];
	const char *paths[1] = { file };
	struct layers_options lo = { .extra_dirs = g->extra_dirs,
				     .n_extra = g->n_extra,
				     .check_paths = paths, .n_check = 1 };
	struct layers l;
	struct fbac_diag d = { 0 };
	FILE *f;
	int r;

	if (!mkdtemp(dir))
		return log_error(-errno, "cannot make a temporary directory: %m");
	snprintf(file, sizeof(file), "%s/%s.yaml", dir, name);
	f = fopen(file, "we");
	if (!f) {
		r = log_error(-errno, "cannot write '%s': %m", file);
		rmdir(dir);
		return r;
	}
	fputs(text, f);
	fclose(f);
	r = layers_load(&lo, &l);
	if (r == 0) {
		const struct fbac_application *app = NULL;
		unsigned layer = 0;

		for (unsigned i = 0; i < l.lib->n_layers && !app; i++)
			if (l.lib->layers[i].kind == FBAC_LAYER_EXTRA &&
			    (app = fbac_library_find_app(l.lib, i, name)))
				layer = i;
		if (!app) {
			r = log_error(-EINVAL, "the proposal for '%s' did not load", name);
		} else {
			struct fbac_resolve_input ri = {
				.lib = l.lib, .env = &l.env, .app = app,
				.root_name = app->name, .layer = layer,
			};
			struct fbac_resolved *res = NULL;
			struct fbac_policy *pol = NULL;

			r = fbac_resolve(&ri, &res, &d);
			if (r == 0)
				r = fbac_policy_compile(&res, app->name, &pol, &d);
			if (r < 0)
				log_diag(r, &d);
			else if (summary)
				learn_write_summary(summary, v, pol, &l.env);
			fbac_policy_free(pol);
		}
	} else if (r == -EINVAL) {
		log_error(r, "the proposal does not pass fbac check (a bug: please report it)");
	}
	if (l.lib)
		layers_free(&l);
	unlink(file);
	rmdir(dir);
	return r;
}

/* The whole text: the YAML, then the summary of what it denies. */
int learn_render(struct global *g, const struct learn_view *v, char **ret)
{
	char *yaml = NULL, *all = NULL, *sum = NULL;
	size_t n = 0, ns = 0;
	FILE *f = open_memstream(&yaml, &n), *s;
	int r;

	if (!f)
		return log_error(-ENOMEM, "out of memory");
	learn_write_yaml(f, v);
	fclose(f);
	s = open_memstream(&sum, &ns);
	if (!s) {
		free(yaml);
		return log_error(-ENOMEM, "out of memory");
	}
	r = learn_check_text(g, yaml, v->p->name, s, v);
	fclose(s);
	if (r == 0 && asprintf(&all, "%s%s", yaml, sum) < 0)
		r = log_error(-ENOMEM, "out of memory");
	free(yaml);
	free(sum);
	*ret = all;
	return r;
}

int learn_write_file(const char *path, const char *text)
{
	char tmp[PATH_MAX];
	struct stat st;
	FILE *f;

	/* Not a regular file (/dev/stdout, a pipe): written in place, never
	 * replaced. */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		f = fopen(path, "we");
		if (!f)
			return log_error(-errno, "cannot write '%s': %m", path);
		fputs(text, f);
		if (fclose(f) != 0)
			return log_error(-errno, "cannot write '%s': %m", path);
		return 0;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= (int)sizeof(tmp))
		return log_error(-ENAMETOOLONG, "path too long: '%s'", path);
	f = fopen(tmp, "wxe");
	if (!f)
		return log_error(-errno, "cannot write '%s': %m", tmp);
	fputs(text, f);
	if (fclose(f) != 0 || rename(tmp, path) < 0) {
		int e = -errno;

		unlink(tmp);
		errno = -e;
		return log_error(e, "cannot write '%s': %m", path);
	}
	return 0;
}

static int mkdir_p(const char *dir)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", dir);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = 0;
			if (mkdir(buf, 0700) < 0 && errno != EEXIST)
				return -errno;
			*p = '/';
		}
	return mkdir(buf, 0700) < 0 && errno != EEXIST ? -errno : 0;
}

/* Where the user's layer keeps application policies. */
int user_policy_path(const struct layers *l, const char *name, char *out,
		     size_t size)
{
	const char *ud = user_dir(l);
	char dir[PATH_MAX];
	int r;

	if (!ud)
		return log_error(-ENOENT, "no user layer to save the policy in");
	snprintf(dir, sizeof(dir), "%s/applications", ud);
	if ((r = mkdir_p(dir)) < 0) {
		errno = -r;
		return log_error(r, "cannot make '%s': %m", dir);
	}
	if (snprintf(out, size, "%s/%s.yaml", dir, name) >= (int)size)
		return log_error(-ENAMETOOLONG, "path too long: '%s'", dir);
	return 0;
}

/* The state of one fbac learn that its steps share. */
struct learn_run {
	struct learn_opts o;
	struct fbac_observations obs;
	struct fbac_proposal p;
	struct fbac_stack existing; /* the program's policy, if any */
	struct layers l;
	const char *program;
	char canonical[PATH_MAX], name[FBAC_MAX_NAME];
	struct fbac_arena *hints_arena; /* of the proposal's hints */
	bool interactive;		/* review and confirm on the terminal */
};

/* Read the logs into lr->obs, and the program they are of. */
static int learn_read_logs(struct learn_run *lr)
{
	for (size_t i = 0; i < lr->o.n_logs; i++)
		if (read_log(lr->o.logs[i], &lr->obs) < 0)
			return -1;
	if (fbac_obs_finish(&lr->obs) < 0) {
		log_error(-ENOMEM, "out of memory");
		return -1;
	}
	lr->program = lr->o.program ? lr->o.program : lr->obs.program;
	if (!lr->program) {
		log_error(0, "no program in '%s': name it with --program",
			  lr->o.logs[0]);
		return -1;
	}
	if (lr->program[0] != '/') {
		log_error(0, "program '%s' is not an absolute path",
			  lr->program);
		return -1;
	}
	if (!lr->obs.n) {
		log_error(0, "no accesses in the logs: were they written by fbac-run --learn --log?");
		return -1;
	}
	return 0;
}

/* The policy the program already has (lr->existing, empty when none), by
 * the name it was started by, else its canonical one. */
static int learn_existing(struct learn_run *lr)
{
	struct fbac_stack_input si = { .lib = lr->l.lib,
				       .env = &lr->l.env,
				       .trusted_env = &lr->l.trusted_env,
				       .program = lr->program };
	struct fbac_diag d = { 0 };
	int r;

	r = fbac_stack_build(&si, &lr->existing, &d);
	if (r == -ENOENT && strcmp(lr->canonical, lr->program)) {
		fbac_diag_clear(&d);
		si.program = lr->canonical;
		r = fbac_stack_build(&si, &lr->existing, &d);
	}
	if (r < 0 && r != -ENOENT) {
		log_diag(r, &d);
		return -1;
	}
	fbac_diag_clear(&d);
	return 0;
}

/* The proposal (lr->p), with what the system says the program is as hints. */
static int learn_propose(struct learn_run *lr)
{
	const struct fbac_propose_hint *hints = NULL;
	size_t n_hints = 0;
	struct fbac_propose_input in = {
		.lib = lr->l.lib,
		.env = &lr->l.env,
		.obs = &lr->obs,
		.program = lr->program,
		.canonical = strcmp(lr->canonical, lr->program) ? lr->canonical :
								  NULL,
		.existing = lr->existing.n ? &lr->existing : NULL,
	};
	struct fbac_diag d = { 0 };
	int r;

	lr->hints_arena = fbac_arena_new();
	if (!lr->hints_arena ||
	    learn_hints(lr->program, lr->hints_arena, &hints, &n_hints) < 0) {
		log_error(-ENOMEM, "out of memory");
		return -1;
	}
	in.hints = hints;
	in.n_hints = n_hints;
	r = fbac_propose(&in, &lr->p, &d);
	if (r < 0) {
		if (r == -ENOMEM)
			log_error(r, "out of memory");
		else
			log_diag(r, &d);
		return -1;
	}
	return 0;
}

/* Protected accesses: asked about on a terminal; otherwise each is
 * granted on exactly its path, flagged in the file and said here. */
static void learn_say_protected(const struct learn_run *lr, bool *grant)
{
	const struct fbac_proposal *p = &lr->p;

	for (size_t i = 0; i < p->n_prot; i++) {
		grant[i] = !lr->interactive;
		if (!lr->o.quiet && !lr->interactive)
			fprintf(stderr,
				"fbac: proposed: the protected path '%s', which the run used (%zu accesses), granted on its own line as '%s' (drop it to keep it denied)\n",
				p->prot[i].prot_path, p->prot[i].covers,
				p->prot[i].pattern);
	}
	for (size_t i = 0; i < p->n_funcs; i++)
		for (size_t k = 0; !lr->o.quiet && k < p->funcs[i].n_protected;
		     k++)
			fprintf(stderr,
				"fbac: proposed: %s grants the protected path '%s', which the run used (drop it to keep it denied)\n",
				p->funcs[i].f->name,
				p->funcs[i].protected_paths[k]);
}

/* Write the policy text where the options say: a file, the user's layer
 * (after a confirmation on a terminal), or standard output. Return the
 * exit status. */
static int learn_save(struct learn_run *lr, const char *text)
{
	char dest[PATH_MAX];

	if (lr->o.output) {
		if (learn_write_file(lr->o.output, text) < 0)
			return EXIT_FAILURE_USAGE;
		if (!lr->o.quiet)
			fprintf(stderr,
				"fbac: wrote the proposed policy '%s' to '%s' (%zu functionalities, %zu raw privileges)\n",
				lr->name, lr->o.output, lr->p.n_funcs,
				lr->p.n_raw);
	} else if (lr->o.yes || lr->interactive) {
		if (lr->interactive) {
			fputs(text, stdout);
			if (!learn_confirm("save it in the user's layer?",
					   true)) {
				fprintf(stderr, "fbac: not saved\n");
				return EXIT_OK;
			}
		}
		if (user_policy_path(&lr->l, lr->name, dest, sizeof(dest)) < 0 ||
		    learn_write_file(dest, text) < 0)
			return EXIT_FAILURE_USAGE;
		if (!lr->o.quiet)
			fprintf(stderr,
				"fbac: saved the policy '%s' in '%s'; try it: fbac-run %s\n",
				lr->name, dest, lr->program);
	} else {
		fputs(text, stdout);
	}
	return EXIT_OK;
}

/* Review the proposal (on a terminal), render it and save it, or (the
 * program has a policy) the lines to add to it. Return the exit status. */
static int learn_finish(struct global *g, struct learn_run *lr)
{
	struct fbac_proposal *p = &lr->p;
	_cleanup_free_ bool *keep_func = NULL, *keep_raw = NULL, *grant = NULL;
	_cleanup_free_ char *text = NULL;
	struct learn_view v;
	int r;

	v = (struct learn_view){ .p = p,
				 .home = fbac_env_get(&lr->l.env, "HOME", 4),
				 .program = lr->program,
				 .n_logs = lr->o.n_logs,
				 .events = lr->obs.events,
				 .delta = lr->existing.n > 0 };
	keep_func = calloc(p->n_funcs + 1, sizeof(bool));
	keep_raw = calloc(p->n_raw + 1, sizeof(bool));
	grant = calloc(p->n_prot + 1, sizeof(bool));
	if (!keep_func || !keep_raw || !grant) {
		log_error(-ENOMEM, "out of memory");
		return EXIT_FAILURE_USAGE;
	}
	memset(keep_func, 1, p->n_funcs);
	memset(keep_raw, 1, p->n_raw);
	v.keep_func = keep_func;
	v.keep_raw = keep_raw;
	v.grant_prot = grant;
	lr->interactive = !lr->o.output && !lr->o.yes && isatty(STDIN_FILENO);
	learn_say_protected(lr, grant);
	if (lr->existing.n) {
		r = learn_delta(g, &v, &lr->l, &lr->existing, lr->o.output,
				lr->o.yes);
		return r < 0 ? EXIT_DENIED_OR_INVALID : EXIT_OK;
	}
	if (lr->interactive && learn_review(&v, p, lr->l.lib, &lr->l.env) < 0)
		return EXIT_FAILURE_USAGE;
	if (learn_render(g, &v, &text) < 0)
		return EXIT_DENIED_OR_INVALID;
	return learn_save(lr, text);
}

int cmd_learn(struct global *g, int argc, char **argv)
{
	struct learn_run lr = { .o = { .n_logs = 0 } };
	struct argp argp = {
		options,
		parse_opt,
		"LOG...",
		"Propose an application policy from fbac-run --learn logs.",
		NULL,
		NULL,
		NULL
	};
	int r, ret = EXIT_FAILURE_USAGE;

	if (argp_parse(&argp, argc, argv, 0, NULL, &lr.o) != 0)
		return EXIT_FAILURE_USAGE;
	if (fbac_obs_init(&lr.obs) < 0) {
		log_error(-ENOMEM, "out of memory");
		return EXIT_FAILURE_USAGE;
	}
	if (learn_read_logs(&lr) < 0)
		goto out;
	r = global_load(g, &lr.l);
	if (r < 0) {
		if (r == -EINVAL && lr.l.lib)
			log_error(0,
				  "refusing to propose: the profiles have errors (see above, or 'fbac check')");
		ret = r == -EINVAL ? EXIT_DENIED_OR_INVALID : EXIT_FAILURE_USAGE;
		goto out;
	}
	if (!realpath(lr.program, lr.canonical))
		snprintf(lr.canonical, sizeof(lr.canonical), "%s", lr.program);
	if (!lr.o.full && learn_existing(&lr) < 0)
		goto out;
	if (learn_propose(&lr) < 0)
		goto out;
	app_name(lr.o.name ? lr.o.name : lr.program, lr.name, sizeof(lr.name));
	lr.p.name = lr.name;
	lr.p.executables[lr.p.n_executables++] = lr.program;
	if (strcmp(lr.canonical, lr.program))
		lr.p.executables[lr.p.n_executables++] = lr.canonical;
	ret = learn_finish(g, &lr);
out:
	fbac_arena_free(lr.hints_arena);
	fbac_stack_clear(&lr.existing);
	fbac_proposal_clear(&lr.p);
	fbac_obs_clear(&lr.obs);
	if (lr.l.lib)
		layers_free(&lr.l);
	return ret;
}
