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

int cmd_learn(struct global *g, int argc, char **argv)
{
	struct learn_opts o = { .n_logs = 0 };
	struct argp argp = { options, parse_opt, "LOG...",
			     "Propose an application policy from fbac-run --learn logs.",
			     NULL, NULL, NULL };
	struct fbac_observations obs = { 0 };
	struct fbac_proposal p = { 0 };
	struct fbac_stack existing = { .n = 0 };
	struct fbac_diag d = { 0 };
	struct layers l = { 0 };
	_cleanup_free_ char *text = NULL;
	_cleanup_free_ bool *keep_func = NULL, *keep_raw = NULL, *grant = NULL;
	char canonical[PATH_MAX], name[FBAC_MAX_NAME], dest[PATH_MAX];
	const char *program;
	struct learn_view v = { 0 };
	struct fbac_arena *hints_arena = NULL;
	const struct fbac_propose_hint *hints = NULL;
	size_t n_hints = 0;
	bool interactive;
	int r, ret = EXIT_FAILURE_USAGE;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o) != 0)
		return EXIT_FAILURE_USAGE;
	if (fbac_obs_init(&obs) < 0) {
		log_error(-ENOMEM, "out of memory");
		return EXIT_FAILURE_USAGE;
	}
	for (size_t i = 0; i < o.n_logs; i++)
		if (read_log(o.logs[i], &obs) < 0)
			goto out;
	if (fbac_obs_finish(&obs) < 0) {
		log_error(-ENOMEM, "out of memory");
		goto out;
	}
	program = o.program ? o.program : obs.program;
	if (!program) {
		log_error(0, "no program in '%s': name it with --program", o.logs[0]);
		goto out;
	}
	if (program[0] != '/') {
		log_error(0, "program '%s' is not an absolute path", program);
		goto out;
	}
	if (!obs.n) {
		log_error(0, "no accesses in the logs: were they written by fbac-run --learn --log?");
		goto out;
	}
	r = global_load(g, &l);
	if (r < 0) {
		if (r == -EINVAL && l.lib)
			log_error(0, "refusing to propose: the profiles have errors (see above, or 'fbac check')");
		ret = r == -EINVAL ? EXIT_DENIED_OR_INVALID : EXIT_FAILURE_USAGE;
		goto out;
	}
	if (!realpath(program, canonical))
		snprintf(canonical, sizeof(canonical), "%s", program);
	if (!o.full) {
		struct fbac_stack_input si = { .lib = l.lib, .env = &l.env,
					       .trusted_env = &l.trusted_env,
					       .program = program };

		r = fbac_stack_build(&si, &existing, &d);
		if (r == -ENOENT && strcmp(canonical, program)) {
			fbac_diag_clear(&d);
			si.program = canonical;
			r = fbac_stack_build(&si, &existing, &d);
		}
		if (r < 0 && r != -ENOENT) {
			log_diag(r, &d);
			goto out;
		}
		fbac_diag_clear(&d);
	}
	hints_arena = fbac_arena_new();
	if (!hints_arena ||
	    learn_hints(program, hints_arena, &hints, &n_hints) < 0) {
		log_error(-ENOMEM, "out of memory");
		goto out;
	}
	{
		struct fbac_propose_input in = {
			.lib = l.lib, .env = &l.env, .obs = &obs,
			.program = program,
			.canonical = strcmp(canonical, program) ? canonical : NULL,
			.existing = existing.n ? &existing : NULL,
			.hints = hints, .n_hints = n_hints,
		};

		r = fbac_propose(&in, &p, &d);
		if (r < 0) {
			if (r == -ENOMEM)
				log_error(r, "out of memory");
			else
				log_diag(r, &d);
			goto out;
		}
	}
	app_name(o.name ? o.name : program, name, sizeof(name));
	p.name = name;
	p.executables[p.n_executables++] = program;
	if (strcmp(canonical, program))
		p.executables[p.n_executables++] = canonical;
	v = (struct learn_view){ .p = &p, .home = fbac_env_get(&l.env, "HOME", 4),
				 .program = program, .n_logs = o.n_logs,
				 .events = obs.events, .delta = existing.n > 0 };
	keep_func = calloc(p.n_funcs + 1, sizeof(bool));
	keep_raw = calloc(p.n_raw + 1, sizeof(bool));
	grant = calloc(p.n_prot + 1, sizeof(bool));
	if (!keep_func || !keep_raw || !grant) {
		log_error(-ENOMEM, "out of memory");
		goto out;
	}
	memset(keep_func, 1, p.n_funcs);
	memset(keep_raw, 1, p.n_raw);
	v.keep_func = keep_func;
	v.keep_raw = keep_raw;
	v.grant_prot = grant;
	interactive = !o.output && !o.yes && isatty(STDIN_FILENO);
	/* Protected accesses: asked about on a terminal; otherwise each is
	 * granted on exactly its path, flagged in the file and said here. */
	for (size_t i = 0; i < p.n_prot; i++) {
		grant[i] = !interactive;
		if (!o.quiet && !interactive)
			fprintf(stderr, "fbac: proposed: the protected path '%s', which the run used (%zu accesses), granted on its own line as '%s' (drop it to keep it denied)\n",
				p.prot[i].prot_path, p.prot[i].covers,
				p.prot[i].pattern);
	}
	for (size_t i = 0; i < p.n_funcs; i++)
		for (size_t k = 0; !o.quiet && k < p.funcs[i].n_protected; k++)
			fprintf(stderr, "fbac: proposed: %s grants the protected path '%s', which the run used (drop it to keep it denied)\n",
				p.funcs[i].f->name, p.funcs[i].protected_paths[k]);
	if (existing.n) {
		r = learn_delta(g, &v, &l, &existing, o.output, o.yes);
		ret = r < 0 ? EXIT_DENIED_OR_INVALID : EXIT_OK;
		goto out;
	}
	if (interactive &&
	    learn_review(&v, &p, l.lib, &l.env) < 0)
		goto out;
	if (learn_render(g, &v, &text) < 0) {
		ret = EXIT_DENIED_OR_INVALID;
		goto out;
	}
	if (o.output) {
		if (learn_write_file(o.output, text) < 0)
			goto out;
		if (!o.quiet)
			fprintf(stderr, "fbac: wrote the proposed policy '%s' to '%s' (%zu functionalities, %zu raw privileges)\n",
				name, o.output, p.n_funcs, p.n_raw);
	} else if (o.yes || interactive) {
		if (interactive) {
			fputs(text, stdout);
			if (!learn_confirm("save it in the user's layer?", true)) {
				fprintf(stderr, "fbac: not saved\n");
				ret = EXIT_OK;
				goto out;
			}
		}
		if (user_policy_path(&l, name, dest, sizeof(dest)) < 0 ||
		    learn_write_file(dest, text) < 0)
			goto out;
		if (!o.quiet)
			fprintf(stderr, "fbac: saved the policy '%s' in '%s'; try it: fbac-run %s\n",
				name, dest, program);
	} else {
		fputs(text, stdout);
	}
	ret = EXIT_OK;
out:
	fbac_arena_free(hints_arena);
	fbac_stack_clear(&existing);
	fbac_proposal_clear(&p);
	fbac_obs_clear(&obs);
	if (l.lib)
		layers_free(&l);
	return ret;
}
