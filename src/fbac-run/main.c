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
#include "describe.h"
#include "filter.h"
#include "as-values.h"
#include "landlock.h"
#include "launch.h"
#include "layers.h"
#include "stack-cache.h"
#include "output.h"
#include "sup.h"

enum {
	EXIT_FBAC = 125,
	EXIT_CANNOT_EXEC = 126,
	EXIT_NOT_FOUND = 127,
};

enum {
	OPT_LEARN = 0x100,
	OPT_BEST_EFFORT,
	OPT_SUPERVISE_ALL,
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
	int verbosity;
	bool check, best_effort, supervise_all, no_infer, bad;
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
	{ "quiet", 'q', NULL, 0, "Print no denial lines", 1 },
	{ "verbose", 'v', NULL, 0, "Print more", 1 },
	{ "check", 'n', NULL, 0,
	  "Print the effective policy and exit without running anything", 2 },
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
	case 'q':
		o->verbosity = -1;
		return 0;
	case 'v':
		o->verbosity = 1;
		return 0;
	case 'n':
		o->check = true;
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
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* execvp's search, done here so the policy can be found by path. */
static int find_program(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH");
	int err = ENOENT;

	if (strchr(name, '/')) {
		char cwd[PATH_MAX];

		/* Policies name absolute paths: make ./prog one. */
		if (name[0] != '/' && !getcwd(cwd, sizeof(cwd)))
			return -errno;
		if (snprintf(out, size, "%s%s%s", name[0] == '/' ? "" : cwd,
			     name[0] == '/' ? "" : "/", name) >= (int)size)
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
	if (r == -ENOENT)
		return log_error(r, "no application policy names '%s': use --as FUNCTIONALITY (see 'fbac list')",
				 exe);
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
	char exe[PATH_MAX], missing[512];
	int abi, r, status = 0, ret = EXIT_FBAC;
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
	launch_save_signals(&la);
	/* The seccomp filter is the same for every policy: it comes from the
	 * cache, or libseccomp builds it on a second CPU while the profiles
	 * load. */
	if (!o->check) {
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
	if (stack_cache_key(&sc, &l, exe, o->as, o->n_as, o->defs,
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
	if (stack_cache_load(&sc, compile_flags, &st) == 0) {
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
				log_error(0, "unknown functionality '%s' (see 'fbac list')",
					  o->as[i]);
				goto out;
			}
		}
		/* What parsed is encoded for the cache meanwhile (next to
		 * nothing once the cache is warm). */
		if (!o->check)
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
			printf("layer %s: %s\n", st.entries[i].layer_name,
			       st.entries[i].policy->name);
			print_policy(stdout, st.entries[i].policy);
		}
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

	s.stack = &st;
	s.lib = lazy.l ? NULL : l.lib;
	s.load_lib = lazy.l ? load_library_late : NULL;
	s.load_lib_ctx = &lazy;
	s.env = &l.env;
	s.mode = o->mode;
	s.verbosity = o->verbosity;
	s.self = getpid();
	s.root_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s.root_fd < 0) {
		log_error(-errno, "cannot open '/': %m");
		goto out;
	}
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
	prefetch_store_finish(l.prefetch);
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
	la.exe = exe;
	la.argv = o->command;
	la.filter = &filter.prog;
	/* The child sets itself up while the receivers start: each waits
	 * for the other only where it must (its exec, our listener). */
	if (launch_start(&la) < 0 || supervise_begin(&s, &sv) < 0)
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
	if (r) {
		errno = r;
		log_error(-r, "cannot run '%s': %m", exe);
		ret = r == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC;
		goto out;
	}
	ret = exit_status(status);
out:
	launch_done(&la);
	supervise_end(sv);
	if (o->verbosity > 0 && l.lib && !o->check) {
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
