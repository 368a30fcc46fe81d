/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac-run: run a program confined by functionalities. Options end at
 * the command; its own options are never parsed.
 */
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cache.h"
#include "denial-log.h"
#include "describe.h"
#include "filter.h"
#include "as-values.h"
#include "landlock.h"
#include "launch.h"
#include "layers.h"
#include "summary.h"
#include "nested.h"
#include "stack-cache.h"
#include "output.h"
#include "path.h"
#include "sup.h"
#include "wrap.h"
#include "run-learn.h"

enum {
	EXIT_FBAC = 125,
	EXIT_CANNOT_EXEC = 126,
	EXIT_NOT_FOUND = 127,
};

enum {
	OPT_LEARN = 0x100,
	OPT_BEST_EFFORT,
	OPT_SUPERVISE_ALL,
	OPT_FULL,
	OPT_YES,
	OPT_NO_INFER,
};

const char *argp_program_version = "fbac-run " FBAC_VERSION;
const char *argp_program_bug_address = "<https://github.com/fbac/fbac/issues>";

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
	char **command;
};

static const struct argp_option options[] = {
	{ "as", 'a', "FUNCTIONALITY", 0,
	  "Confine as FUNCTIONALITY (repeatable); replaces the program's own application policy",
	  0 },
	{ "define", 'D', "FUNC.PARAM=VALUE", 0,
	  "Set a parameter of a granted functionality", 0 },
	{ "no-infer", OPT_NO_INFER, NULL, 0,
	  "With --as: take values from -D, fbac set, the program's policy and the defaults only, nothing from the program itself",
	  0 },
	{ "profile", 'p', "FILE", 0, "Load FILE as an extra policy layer", 0 },
	{ "profile-dir", 'P', "DIR", 0, "Load DIR as an extra policy layer", 0 },
	{ "mode", 'm', "MODE", 0,
	  "enforce (default), complain (log, allow) or learn (log everything, allow)",
	  1 },
	{ "learn", OPT_LEARN, NULL, 0, "Same as --mode learn", 1 },
	{ "log", 'l', "FILE", 0, "Write one JSON line per event to FILE", 1 },
	{ "output", 'o', "FILE", 0,
	  "With --learn: write the proposed policy to FILE", 1 },
	{ "yes", OPT_YES, NULL, 0,
	  "With --learn: save the proposed policy in the user's layer without questions",
	  1 },
	{ "quiet", 'q', NULL, 0, "Print no denial lines", 1 },
	{ "verbose", 'v', NULL, 0, "Print more", 1 },
	{ "check", 'n', NULL, 0,
	  "Print the effective policy (a summary) and exit without running anything",
	  2 },
	{ "full", OPT_FULL, NULL, 0,
	  "With --check: every rule with its origin, every kernel rule and what the supervisor decides",
	  2 },
	{ "best-effort", OPT_BEST_EFFORT, NULL, 0,
	  "Run even if the kernel lacks some Landlock features (printed)", 2 },
	{ "supervise-all", OPT_SUPERVISE_ALL, NULL, 0,
	  "Let no read-only open continue in the kernel: the supervisor opens everything (slower; to compare)",
	  2 },
	{ 0 }
};

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct options *o = st->input;

	switch (key) {
	case 'a':
		if (o->n_as >= FBAC_MAX_LIST)
			argp_error(st, "too many --as options");
		o->as[o->n_as++] = arg;
		return 0;
	case 'D': {
		char copy[FBAC_MAX_PATH];

		snprintf(copy, sizeof(copy), "%s", arg);
		if (o->n_defs >= FBAC_MAX_DEFINES ||
		    fbac_define_parse(arg, NULL, &o->defs[o->n_defs]) < 0)
			argp_error(st, "invalid -D '%s' (expected FUNC.PARAM=VALUE)",
				   copy);
		o->n_defs++;
		return 0;
	}
	case 'p':
	case 'P':
		if (o->n_dirs >= FBAC_MAX_LAYERS - 4)
			argp_error(st, "too many -p/-P options");
		o->dirs[o->n_dirs++] = arg;
		return 0;
	case 'm':
		if (streq(arg, "enforce"))
			o->mode = MODE_ENFORCE;
		else if (streq(arg, "complain"))
			o->mode = MODE_COMPLAIN;
		else if (streq(arg, "learn"))
			o->mode = MODE_LEARN;
		else
			argp_error(st, "unknown mode '%s' (expected enforce, complain or learn)",
				   arg);
		return 0;
	case OPT_LEARN:
		o->mode = MODE_LEARN;
		return 0;
	case 'l':
		o->log = arg;
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case OPT_YES:
		o->yes = true;
		return 0;
	case 'q':
		o->verbosity = -1;
		return 0;
	case 'v':
		o->verbosity = 1;
		return 0;
	case 'n':
		o->check = true;
		return 0;
	case OPT_FULL:
		o->full = true;
		return 0;
	case OPT_SUPERVISE_ALL:
		o->supervise_all = true;
		return 0;
	case OPT_NO_INFER:
		o->no_infer = true;
		return 0;
	case OPT_BEST_EFFORT:
		o->best_effort = true;
		return 0;
	case ARGP_KEY_ARG:
		/* The command and its arguments are not ours. */
		o->command = &st->argv[st->next - 1];
		st->next = st->argc;
		return 0;
	case ARGP_KEY_END:
		if (!o->command)
			argp_error(st, "missing COMMAND");
		if (o->full && !o->check)
			argp_error(st, "--full goes with --check");
		if ((o->output || o->yes) && o->mode != MODE_LEARN)
			argp_error(st, "--output and --yes go with --learn");
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* A wrapper of fbac wrap: 'fbac-run less' means the real less, never
 * the wrapper in ~/.local/bin that would run fbac-run again. */
static bool is_wrapper(const char *path, const struct stat *st)
{
	char head[64];
	struct fbac_wrapper w;
	ssize_t n;
	int fd;

	if (st->st_size > FBAC_MAX_WRAPPER_SIZE || st->st_size < 16)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	n = read(fd, head, sizeof(head));
	close(fd);
	return n > 0 && fbac_wrapper_parse(head, (size_t)n, &w) != -ENOMSG;
}

/* execvp's search, done here so the policy can be found by path. */
static int find_program(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH");
	int err = ENOENT;

	if (strchr(name, '/')) {
		const char *slash = strrchr(name, '/'), *base = slash + 1;
		char dir[PATH_MAX], real[PATH_MAX];

		/* Policies name normal absolute paths: ./prog, ../bin/prog
		 * and /a/./b/prog by their directory's canonical path, the
		 * last name kept (a symlink is named as typed). Only the
		 * policy sees this: the program is run as typed. */
		if (name[0] == '/' && fbac_path_is_normal(name)) {
			if (snprintf(out, size, "%s", name) >= (int)size)
				return -ENAMETOOLONG;
			return access(out, F_OK) == 0 ? 0 : -errno;
		}
		if (!*base || streq(base, ".") || streq(base, ".."))
			base = "";
		if (snprintf(dir, sizeof(dir), "%.*s",
			     slash == name ? 1 : (int)(slash - name),
			     name) >= (int)sizeof(dir))
			return -ENAMETOOLONG;
		if (!realpath(*base ? dir : name, real))
			return -errno;
		if (snprintf(out, size, "%s%s%s", real,
			     *base && !streq(real, "/") ? "/" : "",
			     base) >= (int)size)
			return -ENAMETOOLONG;
		return access(out, F_OK) == 0 ? 0 : -errno;
	}
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
		size_t len = strchr(p, ':') ? (size_t)(strchr(p, ':') - p) :
					      strlen(p);
		struct stat st;

		if (len == 0)
			continue;
		if (snprintf(out, size, "%.*s/%s", (int)len, p, name) >=
		    (int)size)
			continue;
		if (stat(out, &st) == 0 && S_ISREG(st.st_mode)) {
			if (is_wrapper(out, &st))
				continue;
			if (access(out, X_OK) == 0)
				return 0;
			err = EACCES;
		}
	}
	return -err;
}

static int build_stack(struct options *o, struct layers *l, const char *exe,
		       struct fbac_include *grants, unsigned compile_flags,
		       const struct params *pp, const struct infer_program *ip,
		       struct fbac_stack *st)
{
	struct fbac_stack_input si = {
		.lib = l->lib, .env = &l->env, .trusted_env = &l->trusted_env,
		.program = exe, .grants = grants, .n_grants = o->n_as,
		.defines = pp ? pp->defs : o->defs,
		.n_defines = pp ? pp->n_defs : o->n_defs,
		.compile_flags = compile_flags,
	};
	struct fbac_diag d = { 0 };
	char real[PATH_MAX];
	const char *exes[4] = { exe, NULL };
	size_t n_exes = 1;
	int r;

	/* The program named on the command line may be started, and the
	 * interpreter of a script (inference.c). */
	if (realpath(exe, real) && strcmp(real, exe))
		exes[n_exes++] = real;
	if (ip && ip->interp[0])
		exes[n_exes++] = ip->interp;
	if (ip && ip->interp_real[0])
		exes[n_exes++] = ip->interp_real;
	si.executables = exes;
	si.n_executables = n_exes;
	if (pp) {
		si.lookups = pp->lookups;
		si.lookup_ops = pp->lookup_ops;
		si.n_lookups = pp->n_lookups;
	}
	r = fbac_stack_build(&si, st, &d);
	if (r == -ENOENT && realpath(exe, real) && strcmp(real, exe)) {
		fbac_diag_clear(&d);
		si.program = real;
		r = fbac_stack_build(&si, st, &d);
	}
	/* Learning a program no policy names: nothing granted, everything
	 * recorded (and this stack is never cached). */
	if (r == -ENOENT && o->mode == MODE_LEARN && !o->n_as) {
		fbac_diag_clear(&d);
		si.program = exe;
		si.empty_grants = true;
		r = fbac_stack_build(&si, st, &d);
		o->learn_empty = r == 0;
	}
	if (r == -ENOENT)
		return log_error(r, "no application policy names '%s': write one with 'fbac new %s', or use --as FUNCTIONALITY (see 'fbac list')",
				 exe, strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe);
	if (r < 0)
		return log_diag(r, &d);
	return 0;
}

static void start_filter(void *ctx, const struct layers *l)
{
	char path[PATH_MAX];

	filter_job_start(ctx, cache_path(&l->env, "seccomp.bpf", path,
					 sizeof(path)) == 0 ?
				      path :
				      NULL);
}

static void print_cache_stats(const struct layers *l,
			      const struct stack_cache *sc, bool compiled,
			      const struct filter_job *f)
{
	const struct prefetch_stats st = prefetch_stats(l->prefetch), *s = &st;

	if (sc->from_cache)
		fprintf(stderr, "fbac: policy: from the cache '%s'\n", sc->path);
	else if (compiled)
		fprintf(stderr, "fbac: policy: compiled%s%s%s\n",
			sc->written ? ", cached as '" :
			sc->racy    ? " (not cached: a policy file changed within the last second)" :
			!sc->path[0] ? " (no cache)" :
				      "",
			sc->written ? sc->path : "", sc->written ? "'" : "");
	/* Read only when the policy was compiled, or for a suggestion. */
	if (l->prefetch)
		fprintf(stderr, "fbac: library: %zu files, %zu of them from the cache%s%s%s%s\n",
			s->files, s->from_cache, l->cache_path[0] ? " '" : "",
			l->cache_path, l->cache_path[0] ? "'" : " (none)",
			s->cache_written ? " (written)" : "");
	fprintf(stderr, "fbac: seccomp filter: %s%s%s%s\n",
		f->from_cache ? "from the cache" : "built",
		f->cache[0] ? " '" : ", no cache", f->cache,
		!f->cache[0] ? "" : f->cache_written ? "' (written)" : "'");
}

/* "metadata: visible, from layer library: git > Version_Control_Client
 * (file:line:col)": what is in force for the stack, and why. */
static void print_stack_metadata(FILE *f, const char *prefix,
				 const struct fbac_stack *st)
{
	const struct fbac_stack_entry *why = NULL;
	enum fbac_metadata m = fbac_stack_metadata(st, &why);

	fprintf(f, "%smetadata: %s, from ", prefix, fbac_metadata_name(m));
	if (why) {
		fprintf(f, "layer %s: ", why->layer_name);
		print_metadata_why(f, why->policy->res);
	} else {
		fprintf(f, "the default: no layer says visible");
	}
	fputc('\n', f);
}

static int exit_status(int status)
{
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return EXIT_FBAC;
}

/* The library, read when the stack came from the cache and a denial
 * wants suggestions: once, by whichever receiver asks first. */
struct lazy_library {
	const struct layers_options *lo;
	struct layers *l; /* NULL: the library was read at start */
	pthread_mutex_t lock;
	bool tried, loaded;
};

static const struct fbac_library *load_library_late(void *ctx)
{
	struct lazy_library *z = ctx;
	bool loaded;

	pthread_mutex_lock(&z->lock);
	if (!z->tried) {
		z->tried = true;
		z->loaded = layers_finish(z->lo, z->l) == 0;
	}
	loaded = z->loaded;
	pthread_mutex_unlock(&z->lock);
	return loaded ? z->l->lib : NULL;
}

static bool as_has(const struct options *o, const char *name)
{
	for (size_t i = 0; i < o->n_as; i++)
		if (streq(o->as[i], name))
			return true;
	return false;
}

static int run(struct options *o)
{
	struct layers_options lo = { .extra_dirs = o->dirs,
				     .n_extra = o->n_dirs,
				     .cache = true };
	/* On the heap: 64 KiB on the stack would be touched page by page
	 * at every start (stack-clash probes), cache hit or not. */
	_cleanup_free_ struct fbac_include *grants = NULL;
	struct fbac_stack st = { .n = 0 };
	struct launch la = LAUNCH_INIT;
	struct supervisor *sv = NULL;
	struct sup s = { .listener = -1, .root_fd = -1 };
	struct hint_input hint;
	struct landlock_extra extras[FBAC_MAX_LAYERS + 1];
	int sup_rulesets[FBAC_MAX_LAYERS + 1], prog_rulesets[FBAC_MAX_LAYERS + 1];
	_cleanup_(filter_job_done) struct filter_job filter = { 0 };
	struct stack_cache sc = { 0 };
	struct lazy_library lazy = { .lock = PTHREAD_MUTEX_INITIALIZER };
	const char *sup_reads[FBAC_MAX_LAYERS + 1];
	size_t n_reads;
	struct layers l;
	_cleanup_free_ struct infer_program *ip = NULL;
	struct params pp = { .arena = NULL };
	bool show = false;
	char exe[PATH_MAX], missing[512], learn_log[PATH_MAX] = "";
	char cwd[PATH_MAX];
	int abi, r, status = 0, ret = EXIT_FBAC, nested = 0;
	unsigned compile_flags;

	memset(extras, 0, sizeof(extras));
	memset(sup_rulesets, -1, sizeof(sup_rulesets));
	memset(prog_rulesets, -1, sizeof(prog_rulesets));

	r = find_program(o->command[0], exe, sizeof(exe));
	if (r < 0) {
		errno = -r;
		log_error(r, "cannot run '%s': %m", o->command[0]);
		return r == -ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC;
	}
	/* Started by a confined program: no listener of ours can attach
	 * (nested.c). Asked before any thread starts; no cache is read or
	 * written then (the outer policy need not grant them). */
	if (!o->check && (nested = nested_probe()) < 0) {
		errno = -nested;
		log_error(nested, "cannot tell whether we run confined already: %m");
		return EXIT_FBAC;
	}
	if (nested)
		lo.cache = false;
	launch_save_signals(&la);
	/* The seccomp filter is the same for every policy: it comes from the
	 * cache, or libseccomp builds it on a second CPU while the profiles
	 * load. */
	if (!o->check && !nested) {
		lo.env_ready = start_filter;
		lo.env_ready_ctx = &filter;
	}
	r = layers_begin(&lo, &l);
	if (!l.lib)
		return EXIT_FBAC;
	/* The gaps only explain: printed by -n, never decided by. */
	compile_flags = o->check ? 0 : FBAC_COMPILE_NO_GAPS;
	/* --as: what the program tells of itself fills the parameters;
	 * read before the cache key, which it is part of. */
	if (o->n_as) {
		if (!(ip = malloc(sizeof(*ip)))) {
			log_error(-ENOMEM, "out of memory");
			goto out;
		}
		infer_program(o->command[0], exe, o->command, &l.env,
			      !o->no_infer, ip);
		if (o->verbosity > 0)
			fprintf(stderr, "fbac: inferred from the program in %.1f ms%s\n",
				ip->ms, ip->disabled ? " (--no-infer: its identity only)" : "");
	}
	if (!nested && stack_cache_key(&sc, &l, exe, o->as, o->n_as, o->defs,
				       o->n_defs, ip) < 0) {
		log_error(-ENOMEM, "out of memory");
		goto out;
	}
	/* Where the values came from: on the first run of the program with
	 * these --as (not with -q), with -v and with --check. */
	show = o->n_as && (o->verbosity > 0 || o->check ||
			   (o->verbosity == 0 && as_values_unseen(&l, &sc)));
	/* Inputs all unchanged: the stack as compiled then, and the library
	 * only if a denial wants suggestions. */
	if (!nested && stack_cache_load(&sc, compile_flags, &st) == 0) {
		lazy.lo = &lo;
		lazy.l = &l;
		if (show && as_values_print_cached(&l, &sc, ip,
						   o->check ? stdout : stderr,
						   o->check ? "" : "fbac: ") < 0) {
			lazy.tried = true;
			lazy.loaded = layers_finish(&lo, &l) == 0;
			if (lazy.loaded)
				as_values_fill(&l, o->as, o->n_as, o->defs,
					       o->n_defs, ip, true,
					       o->check ? stdout : stderr,
					       o->check ? "" : "fbac: ", &sc,
					       &pp);
		}
	} else {
		if (layers_finish(&lo, &l) < 0) {
			log_error(0, "refusing to run: the profiles have errors (see above, or 'fbac check')");
			goto out;
		}
		grants = calloc(o->n_as ? o->n_as : 1, sizeof(*grants));
		if (!grants) {
			log_error(-ENOMEM, "out of memory");
			goto out;
		}
		for (size_t i = 0; i < o->n_as; i++) {
			grants[i] = (struct fbac_include){
				.name = o->as[i],
				.mark = { "<command line>", 0, 0 },
				.target = fbac_library_find(l.lib, o->as[i]),
			};
			if (!grants[i].target) {
				const char *close = fbac_library_closest(l.lib, o->as[i]);

				log_error(0, "unknown functionality '%s' (%s%s%ssee 'fbac list')",
					  o->as[i], close ? "did you mean '" : "", close ?: "",
					  close ? "'? " : "");
				goto out;
			}
		}
		/* What parsed is encoded for the cache meanwhile (next to
		 * nothing once the cache is warm). */
		if (!o->check && !nested)
			prefetch_store_start(l.prefetch);
		if (o->n_as) {
			if (as_values_fill(&l, o->as, o->n_as, o->defs,
					   o->n_defs, ip, show,
					   o->check ? stdout : stderr,
					   o->check ? "" : "fbac: ", &sc,
					   &pp) < 0)
				goto out;
			/* A value typed at the terminal is not in the key. */
			if (pp.asked)
				sc.usable = false;
		}
		if (build_stack(o, &l, exe, grants, compile_flags,
				o->n_as ? &pp : NULL, ip, &st) < 0)
			goto out;
	}
	if (st.n * 2 > FBAC_MAX_LAYERS) {
		log_error(0, "too many policy layers (%zu) for landlock", st.n);
		goto out;
	}
	abi = landlock_abi();
	landlock_missing(&st, abi, missing, sizeof(missing));
	if (o->check) {
		for (size_t i = 0; i < st.n; i++) {
			printf("layer %s: %s", st.entries[i].layer_name,
			       st.entries[i].policy->name);
			print_layer_role(stdout, &st.entries[i]);
			putchar('\n');
			if (o->full)
				print_policy(stdout, st.entries[i].policy);
			else
				print_policy_summary(
					stdout, st.entries[i].policy,
					fbac_env_get(&l.env, "HOME", 4));
		}
		print_stack_metadata(stdout, "in force: ", &st);
		if (!o->full)
			printf("(fbac-run --check --full: every rule with its origin)\n");
		/* Last: scripts read the kernel's answer from the last line. */
		printf("landlock ABI %d%s%s\n", abi, missing[0] ? "; missing: " : "",
		       missing);
		ret = 0;
		goto out;
	}
	if (missing[0] && o->mode == MODE_ENFORCE) {
		if (!o->best_effort) {
			log_error(0, "refusing to run: this kernel cannot enforce %s (Landlock ABI %d; --best-effort runs anyway)",
				  missing, abi);
			goto out;
		}
		log_error(0, "warning: not enforced on this kernel: %s", missing);
	}
	if (nested) {
		struct nested_run nr = { .st = &st, .abi = abi, .mode = o->mode,
					 .exe = exe, .argv = o->command,
					 .verbosity = o->verbosity, .why = nested };

		if (o->log)
			log_error(0, "warning: nested run: no event goes to '%s' (the outer supervisor decides, and logs in its own log; see 'Nested runs' in fbac-run(1))",
				  o->log);
		/* Returns only on failure. */
		r = nested_exec(&nr);
		ret = r == -ENOENT ? EXIT_NOT_FOUND :
		      r == -EACCES ? EXIT_CANNOT_EXEC :
				     EXIT_FBAC;
		goto out;
	}

	hint = (struct hint_input){ .exe = exe, .as = o->as, .n_as = o->n_as,
				    .defs = o->defs, .n_defs = o->n_defs,
				    .trusted_env = &l.trusted_env };
	s.hint = &hint;
	s.stack = &st;
	s.metadata_visible = fbac_stack_metadata(&st, NULL) == FBAC_META_VISIBLE;
	if (o->verbosity > 0)
		print_stack_metadata(stderr, "fbac: ", &st);
	s.lib = lazy.l ? NULL : l.lib;
	s.load_lib = lazy.l ? load_library_late : NULL;
	s.load_lib_ctx = &lazy;
	s.env = &l.env;
	s.mode = o->mode;
	s.verbosity = o->verbosity;
	if (o->learn_empty) {
		/* Everything would be denied: the log has it all, and the
		 * proposal is what to read. */
		if (o->verbosity >= 0)
			fprintf(stderr, "fbac: learning: no policy names '%s': nothing is denied, every access is recorded\n",
				exe);
		s.verbosity = -1;
	}
	s.self = getpid();
	s.root_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s.root_fd < 0) {
		log_error(-errno, "cannot open '/': %m");
		goto out;
	}
	if (o->mode == MODE_LEARN && !o->log) {
		/* The proposal is made from a log: a temporary one. */
		if (learn_temp_log(learn_log, sizeof(learn_log)) < 0)
			goto out;
		o->log = learn_log;
	}
	/* Every denial also goes to the user's own log, opened (and
	 * rotated) while the supervisor may still reach it. */
	r = denial_log_open(&l.env, &s.user_log);
	if (r < 0 && r != -ENOENT && o->verbosity > 0) {
		errno = -r;
		log_error(r, "warning: no denial log: %m");
	}
	if (getcwd(cwd, sizeof(cwd)))
		s.cwd = cwd;
	if (o->log) {
		s.log = fopen(o->log, "ae");
		if (!s.log) {
			log_error(-errno, "cannot open log '%s': %m", o->log);
			goto out;
		}
	}
	/* Orphaned descendants come to us, so none escapes supervision. */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	/* Capabilities and Landlock bind one thread at a time: the builder
	 * ends before ours go. */
	if (filter_job_wait(&filter) < 0)
		goto out;
	/* The caches are written while we still may, and the encoder thread
	 * ends before our capabilities go (they bind one thread at a time). */
	filter_job_store(&filter);
	/* Not before: the cache holds the filter every policy starts from. */
	if (s.metadata_visible && (r = filter_prog_visible(&filter.prog)) < 0) {
		log_error(r, "cannot let the metadata calls through the seccomp filter: %s",
			  strerror(-r));
		goto out;
	}
	prefetch_store_finish(l.prefetch);
	if (!o->learn_empty)
		stack_cache_store(&sc, &st);
	/* What we do for the program, we do with no more authority than it
	 * has: as root, no capability may lend it mknod or chown. */
	if (drop_capabilities() < 0) {
		log_error(-errno, "cannot drop capabilities: %m");
		goto out;
	}
	{
		sigset_t mask;

		supervised_signals(&mask);
		sigprocmask(SIG_BLOCK, &mask, NULL);
	}
	launch_ignore_signals(&la);
	if (o->mode == MODE_ENFORCE) {
		if (landlock_expand(&st, extras) < 0) {
			log_error(-ENOMEM, "out of memory");
			goto out;
		}
		/* The program reads through its narrow rules (its own domain
		 * is added in the child); the supervisor may then let its
		 * read-only opens continue (sup-open.c). */
		if (abi >= 1 && !o->supervise_all)
			for (size_t i = 0; i < st.n; i++)
				extras[i].narrowed = true;
		/* With the stack from the cache, the supervisor may read the
		 * policy layers later, for suggestions (load_library_late). */
		n_reads = 0;
		for (size_t i = 0; lazy.l && i < l.n_dirs; i++)
			sup_reads[n_reads++] = l.dirs[i].dir;
		if (lazy.l && l.cache_path[0])
			sup_reads[n_reads++] = l.cache_path;
		r = landlock_prepare(&st, abi, extras, sup_reads, n_reads,
				     sup_rulesets, prog_rulesets);
		landlock_extra_release(extras, st.n);
		if (r < 0)
			goto out;
		r = landlock_restrict(sup_rulesets, st.n);
		landlock_close(sup_rulesets, st.n);
		if (r < 0) {
			errno = -r;
			log_error(r, "cannot enforce the supervisor's landlock layers: %m");
			goto out;
		}
		la.rulesets = prog_rulesets;
		la.n_rulesets = st.n;
	}
	s.extras = extras;
	s.n_extras = st.n;
	/* As typed when it names a path (what a script sees as $0), as
	 * found in PATH otherwise, as execvp does. */
	la.exe = strchr(o->command[0], '/') ? o->command[0] : exe;
	la.argv = o->command;
	la.filter = &filter.prog;
	/* The child sets itself up while the receivers start: each waits
	 * for the other only where it must (its exec, our listener). */
	if (launch_start(&la) < 0)
		goto out;
	s.launch_pid = la.pid;
	s.tstp_ignored = la.saved_ignored & (1ULL << (SIGTSTP - 1));
	if (supervise_begin(&s, &sv) < 0)
		goto out;
	r = launch_take(&la);
	/* Not before: the child reads la.rulesets (our memory) until it
	 * has loaded its filter. */
	landlock_close(prog_rulesets, st.n);
	if (r < 0)
		goto out;
	s.listener = la.listener;
	r = supervise(sv, la.pid, la.pidfd, &status);
	if (r < 0)
		kill(la.pid, SIGKILL);
	supervise_end(sv);
	sv = NULL;
	if (r < 0)
		goto out;
	r = launch_exec_error(&la);
	if (r == EACCES && s.exec_refused && o->n_as && !as_has(o, "Basic_Runtime")) {
		log_error(-r, "cannot run '%s': the --as functionalities do not grant running it (denied above): add --as Basic_Runtime, which grants what every program needs to start, or use a high-level functionality ('fbac list')",
			  exe);
		ret = EXIT_CANNOT_EXEC;
		goto out;
	} else if (r == EACCES && s.exec_refused) {
		log_error(-r, "cannot run '%s': %s does not grant running it (denied above, with what would)",
			  exe, o->n_as ? "--as" : "its policy");
		ret = EXIT_CANNOT_EXEC;
		goto out;
	} else if (r) {
		errno = r;
		log_error(-r, "cannot run '%s': %m", exe);
		ret = r == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC;
		goto out;
	}
	ret = exit_status(status);
	if (o->mode == MODE_LEARN) {
		fclose(s.log);
		s.log = NULL;
		/* At exit, the proposal (fbac learn, next to us). */
		if (learn_propose(o->log, exe, o->dirs, o->n_dirs, o->output,
				  o->yes) < 0 && ret == 0)
			ret = EXIT_FBAC;
	}
out:
	launch_done(&la);
	supervise_end(sv);
	if (o->verbosity > 0 && l.lib && !o->check && !nested) {
		size_t implied = 0, absent = 0;

		print_cache_stats(&l, &sc, st.n > 0, &filter);
		for (size_t i = 0; i < ARRAY_SIZE(extras); i++) {
			implied += extras[i].implied;
			absent += extras[i].missing;
		}
		if (o->mode == MODE_ENFORCE && la.pid > 0)
			fprintf(stderr, "fbac: landlock: %zu rules left out, implied by rules on directories above them\n",
				implied);
		if (o->mode == MODE_ENFORCE && la.pid > 0 && absent)
			fprintf(stderr, "fbac: landlock: %zu granted paths do not exist yet: the supervisor's layer holds their rights on the nearest directory above, and the policy decides below it\n",
				absent);
	}
	events_summary(&s);
	if (s.log)
		fclose(s.log);
	if (learn_log[0])
		unlink(learn_log);
	if (s.user_log)
		fclose(s.user_log);
	if (la.listener >= 0)
		close(la.listener);
	if (s.root_fd >= 0)
		close(s.root_fd);
	landlock_close(prog_rulesets, ARRAY_SIZE(prog_rulesets));
	landlock_extra_free(extras, ARRAY_SIZE(extras));
	fbac_stack_clear(&st);
	params_free(&pp);
	stack_cache_done(&sc);
	layers_free(&l);
	return ret;
}

int main(int argc, char **argv)
{
	struct argp argp = {
		options, parse_opt, "COMMAND [ARG...]",
		"Run COMMAND confined by functionalities: by its application "
		"policy from the policy layers, or by the --as functionalities."
		"\vExit status: COMMAND's own; 128+N if it was killed by signal "
		"N; 125 if fbac-run failed; 126 if COMMAND cannot be executed; "
		"127 if it was not found. See fbac-run(1).",
		NULL, NULL, NULL
	};
	struct options o = { .mode = MODE_ENFORCE };

	program_name_short = "fbac-run";
	argp_err_exit_status = EXIT_FBAC;
	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &o) != 0)
		return EXIT_FBAC;
	return run(&o);
}
