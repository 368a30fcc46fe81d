/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac-run's run of a program, in its phases: build the stack (from the
 * cache or the library), print it (--check) or prepare (the supervisor's
 * state, its own confinement), launch the child, supervise it, and
 * report. The state the phases share is one struct run_state.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "as-values.h"
#include "cache.h"
#include "denial-log.h"
#include "describe.h"
#include "filter.h"
#include "landlock.h"
#include "launch.h"
#include "layers.h"
#include "nested.h"
#include "output.h"
#include "run-learn.h"
#include "run.h"
#include "stack-cache.h"
#include "summary.h"
#include "sup.h"

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


/* --check: the stack as it would be in force, then the kernel's part
 * last (scripts read it from the last line). Return: 0. */
static int run_print_check(struct run_state *rs)
{
	const struct options *o = rs->o;
	const struct fbac_stack *st = &rs->st;

	for (size_t i = 0; i < st->n; i++) {
		printf("layer %s: %s", st->entries[i].layer_name,
		       st->entries[i].policy->name);
		print_layer_role(stdout, &st->entries[i]);
		putchar('\n');
		if (o->full)
			print_policy(stdout, st->entries[i].policy);
		else
			print_policy_summary(stdout, st->entries[i].policy,
					     fbac_env_get(&rs->l.env, "HOME", 4));
	}
	print_stack_metadata(stdout, "in force: ", st);
	if (!o->full)
		printf("(fbac-run --check --full: every rule with its origin)\n");
	printf("landlock ABI %d%s%s\n", rs->abi, rs->missing[0] ? "; missing: " : "",
	       rs->missing);
	return 0;
}

/* A nested run: no supervisor, the whole plan in the kernel, and the
 * stack handed to the outer supervisor when it takes it (nested.c). */
static int run_nested(struct run_state *rs)
{
	const struct options *o = rs->o;
	struct nested_run nr = { .st = &rs->st,
				 .abi = rs->abi,
				 .mode = o->mode,
				 .exe = rs->exe,
				 .argv = o->command };
	struct nested_prep prep;
	int r, memfd = -ENOTTY;

	if (o->log)
		log_error(0, "warning: nested run: no event goes to '%s' (the outer supervisor decides, and logs in its own log; see 'Nested runs' in fbac-run(1))",
			  o->log);
	if (nested_prepare(&nr, &prep) < 0)
		return EXIT_FBAC;
	/* Only a policy in force is handed over: complain and learn modes
	 * decide nothing. */
	if (o->mode == MODE_ENFORCE)
		memfd = nested_register(&rs->st);
	if (memfd < 0 && memfd != -ENOTTY) {
		errno = -memfd;
		log_error(memfd,
			  "warning: nested run: the outer supervisor did not take this policy (%m): only its landlock layers and static filter narrow what '%s' does",
			  rs->exe);
	}
	if (o->verbosity > 0 && memfd >= 0)
		fprintf(stderr,
			"fbac: nested run: '%s' starts under another supervisor (a second seccomp listener is refused: %s); this policy is registered with it, which decides the calls of every process of this run by this policy too; adding this policy's landlock layers and the static seccomp filter\n",
			rs->exe, strerror(rs->nested));
	else if (o->verbosity > 0)
		fprintf(stderr,
			"fbac: nested run: '%s' starts under another supervisor (a second seccomp listener is refused: %s); adding %s the static seccomp filter, which only narrow what the outer policy allows\n",
			rs->exe, strerror(rs->nested),
			o->mode == MODE_ENFORCE ?
				"this policy's landlock layers and" :
				"(not enforcing: no landlock layers)");
	fflush(NULL);
	if (memfd >= 0) {
		rs->o->exit_now = true;
		return nested_parent(&nr, &prep, memfd, &rs->la.saved_mask);
	}
	r = nested_enter(&nr, &prep);
	return r == -ENOENT ? EXIT_NOT_FOUND :
	       r == -EACCES ? EXIT_CANNOT_EXEC :
			      EXIT_FBAC;
}

/* Phase 2a: the supervisor's state (struct sup) and its logs.
 * Return: 0 or -1 (printed). */
static int run_prepare_sup(struct run_state *rs)
{
	struct options *o = rs->o;
	struct sup *s = &rs->s;
	int r;

	rs->hint = (struct hint_input){ .exe = rs->exe, .as = o->as,
					.n_as = o->n_as, .defs = o->defs,
					.n_defs = o->n_defs,
					.trusted_env = &rs->l.trusted_env };
	s->hint = &rs->hint;
	s->stack = &rs->st;
	s->metadata_visible =
		fbac_stack_metadata(&rs->st, NULL) == FBAC_META_VISIBLE;
	if (o->verbosity > 0)
		print_stack_metadata(stderr, "fbac: ", &rs->st);
	s->lib = rs->lazy.l ? NULL : rs->l.lib;
	s->load_lib = rs->lazy.l ? load_library_late : NULL;
	s->load_lib_ctx = &rs->lazy;
	s->env = &rs->l.env;
	s->mode = o->mode;
	s->landlock_abi = rs->abi;
	s->verbosity = o->verbosity;
	if (o->learn_empty) {
		/* Everything would be denied: the log has it all, and the
		 * proposal is what to read. */
		if (o->verbosity >= 0)
			fprintf(stderr, "fbac: learning: no policy names '%s': nothing is denied, every access is recorded\n",
				rs->exe);
		s->verbosity = -1;
	}
	s->self = getpid();
	s->root_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (s->root_fd < 0) {
		log_error(-errno, "cannot open '/': %m");
		return -1;
	}
	if (o->mode == MODE_LEARN && !o->log) {
		/* The proposal is made from a log: a temporary one. */
		if (learn_temp_log(rs->learn_log, sizeof(rs->learn_log)) < 0)
			return -1;
		o->log = rs->learn_log;
	}
	/* Every denial also goes to the user's own log, opened (and
	 * rotated) while the supervisor may still reach it. */
	r = denial_log_open(&rs->l.env, &s->user_log);
	s->user_log_err = r < 0 ? r : 0;
	if (r < 0 && r != -ENOENT && o->verbosity > 0) {
		errno = -r;
		log_error(r, "warning: no denial log: %m");
	}
	if (getcwd(rs->cwd, sizeof(rs->cwd)))
		s->cwd = rs->cwd;
	if (o->log) {
		s->log = fopen(o->log, "ae");
		if (!s->log) {
			log_error(-errno, "cannot open log '%s': %m", o->log);
			return -1;
		}
	}
	return 0;
}

/* The supervisor's own Landlock layers, and the program's prepared for
 * the child. Return: 0 or -1 (printed). */
static int run_landlock(struct run_state *rs)
{
	const struct options *o = rs->o;
	struct fbac_stack *st = &rs->st;
	int sup_rulesets[FBAC_MAX_LAYERS + 1];
	const char *sup_reads[FBAC_MAX_LAYERS + 1];
	size_t n_reads = 0;
	int r;

	memset(sup_rulesets, -1, sizeof(sup_rulesets));
	if (landlock_expand(st, rs->extras) < 0) {
		log_error(-ENOMEM, "out of memory");
		return -1;
	}
	/* The program reads through its narrow rules (its own domain is
	 * added in the child); the supervisor may then let its read-only
	 * opens continue (sup-open.c). */
	if (rs->abi >= 1 && !o->supervise_all)
		for (size_t i = 0; i < st->n; i++)
			rs->extras[i].narrowed = true;
	/* With the stack from the cache, the supervisor may read the
	 * policy layers later, for suggestions (load_library_late). */
	for (size_t i = 0; rs->lazy.l && i < rs->l.n_dirs; i++)
		sup_reads[n_reads++] = rs->l.dirs[i].dir;
	if (rs->lazy.l && rs->l.cache_path[0])
		sup_reads[n_reads++] = rs->l.cache_path;
	r = landlock_prepare(st, rs->abi, rs->extras, sup_reads, n_reads,
			     sup_rulesets, rs->prog_rulesets);
	landlock_extra_release(rs->extras, st->n);
	if (r < 0)
		return -1;
	r = landlock_restrict(sup_rulesets, st->n);
	landlock_close(sup_rulesets, st->n);
	if (r < 0) {
		errno = -r;
		log_error(r, "cannot enforce the supervisor's landlock layers: %m");
		return -1;
	}
	rs->la.rulesets = rs->prog_rulesets;
	rs->la.n_rulesets = st->n;
	return 0;
}

/* Phase 2b: the caches written while we may, then fbac-run confined:
 * no capabilities, the supervised signals blocked, its Landlock layers.
 * Return: 0 or -1 (printed). */
static int run_confine_self(struct run_state *rs)
{
	const struct options *o = rs->o;
	sigset_t mask;
	int r;

	/* Orphaned descendants come to us, so none escapes supervision. */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	/* Capabilities and Landlock bind one thread at a time: the builder
	 * ends before ours go. */
	if (filter_job_wait(&rs->filter) < 0)
		return -1;
	/* The caches are written while we still may, and the encoder thread
	 * ends before our capabilities go (they bind one thread at a time). */
	filter_job_store(&rs->filter);
	/* Not before: the cache holds the filter every policy starts from. */
	if (rs->s.metadata_visible &&
	    (r = filter_prog_visible(&rs->filter.prog)) < 0) {
		log_error(r, "cannot let the metadata calls through the seccomp filter: %s",
			  strerror(-r));
		return -1;
	}
	prefetch_store_finish(rs->l.prefetch);
	if (!o->learn_empty)
		stack_cache_store(&rs->sc, &rs->st);
	/* What we do for the program, we do with no more authority than it
	 * has: as root, no capability may lend it mknod or chown. */
	rs->s.dac_dropped = holds_dac_override();
	if (drop_capabilities() < 0) {
		log_error(-errno, "cannot drop capabilities: %m");
		return -1;
	}
	supervised_signals(&mask);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	launch_ignore_signals(&rs->la);
	if (o->mode == MODE_ENFORCE && run_landlock(rs) < 0)
		return -1;
	rs->s.extras = rs->extras;
	rs->s.n_extras = rs->st.n;
	return 0;
}

/* Phase 3: the child started, the receivers begun, the listener taken.
 * Return: 0 or -1 (printed). */
static int run_launch(struct run_state *rs)
{
	const struct options *o = rs->o;
	struct launch *la = &rs->la;
	int r;

	/* As typed when it names a path (what a script sees as $0), as
	 * found in PATH otherwise, as execvp does. */
	la->exe = strchr(o->command[0], '/') ? o->command[0] : rs->exe;
	la->argv = o->command;
	la->filter = &rs->filter.prog;
	/* The child sets itself up while the receivers start: each waits
	 * for the other only where it must (its exec, our listener). */
	if (launch_start(la) < 0)
		return -1;
	rs->s.launch_pid = la->pid;
	rs->s.tstp_ignored = la->saved_ignored & (1ULL << (SIGTSTP - 1));
	/* The stack is final: its path verdicts are remembered, as a program
	 * asks about the same paths again and again. Without memory for
	 * them, each is decided every time (the same answers). */
	(void)fbac_stack_cache_verdicts(&rs->st);
	if (supervise_begin(&rs->s, &rs->sv) < 0)
		return -1;
	r = launch_take(la);
	/* Not before: the child reads la.rulesets (our memory) until it
	 * has loaded its filter. */
	landlock_close(rs->prog_rulesets, rs->st.n);
	if (r < 0)
		return -1;
	rs->s.listener = la->listener;
	return 0;
}

/* Phase 4: the notifications answered until every process under the
 * filter has exited. Return: 0 or -1 (the program killed). */
static int run_supervise(struct run_state *rs)
{
	int r;

	r = supervise(rs->sv, rs->la.pid, rs->la.pidfd, &rs->status);
	if (r < 0)
		kill(rs->la.pid, SIGKILL);
	supervise_end(rs->sv);
	rs->sv = NULL;
	return r < 0 ? -1 : 0;
}

/* Phase 5: the program's end told (an exec refused, or its status),
 * and under --learn the proposal. Return: fbac-run's exit status. */
static int run_report(struct run_state *rs)
{
	struct options *o = rs->o;
	int r, ret;

	r = launch_exec_error(&rs->la);
	if (r == EACCES && rs->s.exec_refused && o->n_as &&
	    !as_has(o, "Basic_Runtime")) {
		log_error(-r, "cannot run '%s': the --as functionalities do not grant running it (denied above): add --as Basic_Runtime, which grants what every program needs to start, or use a high-level functionality ('fbac list')",
			  rs->exe);
		return EXIT_CANNOT_EXEC;
	} else if (r == EACCES && rs->s.exec_refused) {
		log_error(-r, "cannot run '%s': %s does not grant running it (denied above, with what would)",
			  rs->exe, o->n_as ? "--as" : "its policy");
		return EXIT_CANNOT_EXEC;
	} else if (r) {
		errno = r;
		log_error(-r, "cannot run '%s': %m", rs->exe);
		return r == ENOENT ? EXIT_NOT_FOUND : EXIT_CANNOT_EXEC;
	}
	ret = launch_exit_status(rs->status);
	/* Killed by the filter (another architecture): said here. */
	if (WIFSIGNALED(rs->status) && WTERMSIG(rs->status) == SIGSYS)
		events_killed(&rs->s, rs->la.pid, rs->exe);
	if (o->mode == MODE_LEARN) {
		fclose(rs->s.log);
		rs->s.log = NULL;
		/* At exit, the proposal (fbac learn, next to us). */
		if (learn_propose(o->log, rs->exe, o->dirs, o->n_dirs,
				  o->output, o->yes) < 0 && ret == 0)
			ret = EXIT_FBAC;
	}
	return ret;
}

/* Every way out: -v's counts, the denial summary, and every resource
 * of the run released. */
static void run_end(struct run_state *rs)
{
	const struct options *o = rs->o;

	launch_done(&rs->la);
	supervise_end(rs->sv);
	if (o->verbosity > 0 && rs->l.lib && !o->check && !rs->nested) {
		size_t implied = 0, absent = 0, unlisted = 0;

		print_cache_stats(&rs->l, &rs->sc, rs->st.n > 0, &rs->filter);
		for (size_t i = 0; i < ARRAY_SIZE(rs->extras); i++) {
			implied += rs->extras[i].implied;
			absent += rs->extras[i].missing;
			unlisted += rs->extras[i].unlisted;
		}
		if (o->mode == MODE_ENFORCE && rs->la.pid > 0)
			fprintf(stderr, "fbac: landlock: %zu rules left out, implied by rules on directories above them\n",
				implied);
		if (o->mode == MODE_ENFORCE && rs->la.pid > 0 && absent)
			fprintf(stderr,
				"fbac: landlock: %zu granted paths do not exist yet: the supervisor's layer holds their rights on the nearest directory above, and the policy decides below it\n",
				absent);
		if (o->mode == MODE_ENFORCE && rs->la.pid > 0 && unlisted)
			fprintf(stderr,
				"fbac: landlock: %zu directories read entry by entry have more than %d entries: not listed, the supervisor opens what is read there\n",
				unlisted, FBAC_MAX_NARROW_LISTED);
	}
	events_summary(&rs->s);
	nests_free(&rs->s);
	if (rs->s.log)
		fclose(rs->s.log);
	if (rs->learn_log[0])
		unlink(rs->learn_log);
	if (rs->s.user_log)
		fclose(rs->s.user_log);
	if (rs->la.listener >= 0)
		close(rs->la.listener);
	if (rs->s.root_fd >= 0)
		close(rs->s.root_fd);
	landlock_close(rs->prog_rulesets, ARRAY_SIZE(rs->prog_rulesets));
	landlock_extra_free(rs->extras, ARRAY_SIZE(rs->extras));
	fbac_stack_clear(&rs->st);
	params_free(&rs->pp);
	fallback_free(&rs->fb);
	stack_cache_done(&rs->sc);
	layers_free(&rs->l);
}

/* The phases in order; a failing one ends the run with EXIT_FBAC
 * unless it chose another status. */
static int run_phases(struct run_state *rs)
{
	const struct options *o = rs->o;

	if (run_build(rs) < 0)
		return EXIT_FBAC;
	if (o->check)
		return run_print_check(rs);
	if (rs->missing[0] && o->mode == MODE_ENFORCE) {
		if (!o->best_effort) {
			log_error(0, "refusing to run: this kernel cannot enforce %s (Landlock ABI %d; --best-effort runs anyway)",
				  rs->missing, rs->abi);
			return EXIT_FBAC;
		}
		log_error(0, "warning: not enforced on this kernel: %s", rs->missing);
	}
	if (fallback_apply(&rs->fb, &rs->st, &rs->o->command) < 0) {
		log_error(-ENOMEM, "out of memory");
		return EXIT_FBAC;
	}
	if (!rs->nested && run_prepare_sup(rs) < 0)
		return EXIT_FBAC;
	if (o->verbosity >= 0)
		fallback_announce(&rs->fb, "fbac: ");
	if (rs->nested)
		return run_nested(rs);
	fallback_event(&rs->fb, rs->s.log, rs->exe);
	if (run_confine_self(rs) < 0 ||
	    run_launch(rs) < 0 || run_supervise(rs) < 0)
		return EXIT_FBAC;
	return run_report(rs);
}

int run(struct options *o)
{
	struct run_state rs = {
		.o = o,
		.lo = { .extra_dirs = o->dirs, .n_extra = o->n_dirs,
			.cache = true },
		.la = LAUNCH_INIT,
		.s = { .listener = -1, .root_fd = -1,
		       .events = { .lock = PTHREAD_MUTEX_INITIALIZER } },
		.lazy = { .lock = PTHREAD_MUTEX_INITIALIZER },
	};
	int ret;

	memset(rs.prog_rulesets, -1, sizeof(rs.prog_rulesets));
	ret = run_begin(&rs);
	if (ret == 0) {
		ret = run_phases(&rs);
		run_end(&rs);
	}
	filter_job_done(&rs.filter);
	free(rs.ip);
	free(rs.grants);
	return ret;
}
