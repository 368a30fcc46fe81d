/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the supervisor tells people: one line per new denial on stderr
 * (rate-limited, with the functionalities that would grant it), and one
 * JSON line per decision in the log file.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "call-parts.h"
#include "filter.h"
#include "hint.h"
#include "output.h"
#include "suggest.h"

#define MAX_LINES FBAC_MAX_DENIAL_LINES

/* The operation's name; "syscall" for a call refused as such. */
static const char *op_name(const struct fbac_query *q)
{
	return q->op == SUP_OP_SYSCALL ? "syscall" : fbac_op_info(q->op)->name;
}

/* Whether the denial is one: enforce mode, or a call the filter refuses
 * in every mode. */
static bool enforced(const struct sup *s, const struct fbac_query *q)
{
	return s->mode == MODE_ENFORCE || q->op == SUP_OP_SYSCALL;
}

static void object_text(const struct fbac_query *q, char *buf, size_t size)
{
	if (q->op == SUP_OP_SYSCALL) {
		snprintf(buf, size, "%s", q->path);
		return;
	}
	switch (fbac_op_info(q->op)->kind) {
	case FBAC_KIND_PATH:
		snprintf(buf, size, "%s", q->path);
		break;
	case FBAC_KIND_NET:
		snprintf(buf, size, "%s:%s%s%s:%u",
			 q->proto == FBAC_PROTO_TCP ? "tcp" : "udp",
			 q->host && strchr(q->host, ':') ? "[" : "",
			 q->host ? q->host : "?",
			 q->host && strchr(q->host, ':') ? "]" : "", q->port);
		break;
	case FBAC_KIND_SIGNAL:
		snprintf(buf, size, "signal");
		break;
	}
}

static bool seen_before(struct sup_events *e, const char *key)
{
	for (size_t i = 0; i < e->n_remembered; i++)
		if (!strcmp(e->remembered[i], key))
			return true;
	if (e->n_remembered < EVENTS_MAX_REMEMBERED)
		e->remembered[e->n_remembered++] = strdup(key);
	return false;
}

/* The caller's executable; else (its exe is not ours to read, as before
 * the program's exec, when it still shares our memory) its command name. */
static void exe_of(pid_t tid, char *buf, size_t size)
{
	char link[64];
	ssize_t n;
	int fd;

	snprintf(link, sizeof(link), "/proc/%d/exe", (int)tid);
	n = readlink(link, buf, size - 1);
	if (n < 0) {
		n = 0;
		snprintf(link, sizeof(link), "/proc/%d/comm", (int)tid);
		fd = open(link, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			n = read(fd, buf, size - 1);
			n = n < 0 ? 0 : n;
			if (n > 0 && buf[n - 1] == '\n')
				n--;
			close(fd);
		}
	}
	buf[n] = 0;
}

/* One denial line: what, for whom, and why: the reason fbac-run gave,
 * or the policy that did not grant it and what would. */
static void human_line(struct call *c, const struct fbac_query *q,
		       const char *object, const char *exe,
		       const struct fbac_stack_entry *denier,
		       const struct fbac_verdict *v, const char *reason)
{
	struct fbac_suggestion sug[3];
	struct fbac_define_hint hints[1];
	size_t n_sug = 0, n_hints = 0;
	char fill[FBAC_MAX_PATH];
	const char *base = strrchr(exe, '/'), *fill_dir;
	const struct fbac_resolved_protected *pp;
	/* A nested run's policy refused it (call-nest.c): its protected
	 * paths explain it, and no -D of ours would grant it. */
	const struct fbac_stack *nested = denier ? c->nested : NULL;
	/* A carve-out of the policy itself beats any grant. */
	bool carved = v && v->deny_rule && v->origin;
	/* Before the line starts: reading it may report a problem. */
	const struct fbac_library *lib =
		reason || carved ? NULL :
		c->s->lib ? c->s->lib :
		c->s->load_lib ? c->s->load_lib(c->s->load_lib_ctx) :
				 NULL;

	fprintf(stderr, "fbac: %s %s '%s'%s%s%s for %s[%d]: ",
		enforced(c->s, q) ? "denied" : "would deny",
		op_name(q), object, c->about ? " (" : "",
		c->about ? c->about : "", c->about ? ")" : "",
		base ? base + 1 : exe, (int)c->tid);
	if (reason) {
		fprintf(stderr, "%s\n", reason);
		return;
	}
	if (carved) {
		fprintf(stderr, "not granted by %s (layer %s): its 'denied:' rule '%s %s' refuses it (%s:%u)\n",
			denier->policy->name, denier->layer_name,
			fbac_op_info(q->op)->name, v->rule,
			v->origin->mark.file ? v->origin->mark.file : "?",
			v->origin->mark.line);
		return;
	}
	/* A protected path is granted only by what names it (no -D hint
	 * adds it to a folder parameter: lib/hint.c). */
	pp = fbac_hint_protected(nested ? nested : c->s->stack, q);
	fill_dir = fbac_suggest_fill_dir(q, fill, sizeof(fill));
	if (lib) {
		(void)fbac_suggest(lib, c->s->env, q, fill_dir, sug, 3, &n_sug);
		/* Never a protected path given to a parameter of another. */
		if (pp)
			n_sug = fbac_suggest_drop_params(sug, n_sug);
		n_hints = nested ? 0 :
				   hint_defines(c->s, lib, q, fill_dir, hints,
						ARRAY_SIZE(hints));
	}
	fprintf(stderr, "not granted by %s (layer %s)", denier->policy->name,
		denier->layer_name);
	if (pp)
		fprintf(stderr, "; '%s' is protected (%s)", pp->path,
			pp->reason);
	for (size_t i = 0; i < n_hints; i++)
		fprintf(stderr, "; allowed with -D %s.%s=%s", hints[i].f->name,
			hints[i].param, hints[i].value);
	for (size_t i = 0; i < n_sug; i++) {
		fprintf(stderr, "%s%s", i ? ", " :
				pp ? "; granted only by " : "; granted by ",
			sug[i].f->name);
		if (sug[i].param)
			fprintf(stderr, "(%s=%s)", sug[i].param, sug[i].value);
		else if (sug[i].fill)
			fprintf(stderr, "(%s)", sug[i].fill);
	}
	fputc('\n', stderr);
}

/*
 * A nested fbac-run (nested.c) opens every path of its own plan to build
 * its Landlock layers: a path our policy does not let it see is left out
 * of those layers, which only narrows. Under --as it also looks the
 * program up (dpkg's lists) and would keep what it found in its caches.
 * Each such refusal is one it goes on without: ours to count and log
 * (the per-user log has it), not a line for people (the program's own
 * attempt, later, gets its line; the nested run says what it cannot do).
 * Ours: the caller runs this very executable.
 */
static bool nested_probe_denial(struct sup_events *e,
				const struct fbac_query *q, const char *exe)
{
	(void)q;
	if (!e->self_exe_known) {
		ssize_t n = readlink("/proc/self/exe", e->self_exe,
				     sizeof(e->self_exe) - 1);

		e->self_exe[n > 0 ? n : 0] = 0;
		e->self_exe_known = true;
	}
	return e->self_exe[0] && !strcmp(e->self_exe, exe);
}

/* One JSON line; returns the bytes written (0 on failure). */
static long write_event(FILE *f, struct call *c, const struct fbac_query *q,
			const char *object, const char *exe, bool allowed,
			const struct fbac_stack_entry *denier,
			const struct fbac_verdict *v, const char *reason)
{
	struct sup *s = c->s;
	struct timespec now;
	long start = ftell(f), end;

	clock_gettime(CLOCK_REALTIME, &now);
	fprintf(f, "{\"time\": %lld.%03ld, \"pid\": %d, \"exe\": ",
		(long long)now.tv_sec, now.tv_nsec / 1000000, (int)c->tid);
	json_string(f, exe);
	fprintf(f, ", \"syscall\": \"%s\", \"operation\": \"%s\", \"object\": ",
		filter_syscall_name(c->nr), op_name(q));
	json_string(f, object);
	fprintf(f, ", \"decision\": \"%s\"",
		allowed ? "allow" :
		enforced(s, q) ? "deny" : "would-deny");
	if (denier) {
		fprintf(f, ", \"layer\": ");
		json_string(f, denier->layer_name);
		fprintf(f, ", \"policy\": ");
		json_string(f, denier->policy->name);
	}
	if (v && v->origin) {
		fprintf(f, ", \"rule\": ");
		json_string(f, v->rule ? v->rule : "");
		fprintf(f, ", \"chain\": ");
		json_string(f, v->origin->chain);
		fprintf(f, ", \"file\": ");
		json_string(f, v->origin->mark.file ? v->origin->mark.file : "");
		fprintf(f, ", \"line\": %u", v->origin->mark.line);
	}
	if (v && v->protected) {
		fprintf(f, ", \"protected\": ");
		json_string(f, v->protected->path);
	}
	if (c->about) {
		fprintf(f, ", \"about\": ");
		json_string(f, c->about);
	}
	if (reason) {
		fprintf(f, ", \"reason\": ");
		json_string(f, reason);
	}
	fputs("}\n", f);
	fflush(f);
	end = ftell(f);
	return start >= 0 && end > start ? end - start : 0;
}

/*
 * A probe every program makes and that tells the user nothing: the
 * metadata of the working directory fbac-run was started in and of the
 * directories above it (getcwd, realpath), and listing it (module
 * searches). Logged, never printed.
 */
static bool benign(const struct sup *s, const struct fbac_query *q)
{
	size_t l;

	if (!s->cwd || !q->path ||
	    (q->op != FBAC_OP_FILE_GETATTR && q->op != FBAC_OP_DIR_READ))
		return false;
	if (streq(q->path, s->cwd))
		return true;
	l = strlen(q->path);
	return q->op == FBAC_OP_FILE_GETATTR && !strncmp(s->cwd, q->path, l) &&
	       (s->cwd[l] == '/' || streq(q->path, "/"));
}

/*
 * Whether a full-screen program has the terminal that our stderr is: it
 * put it out of canonical mode (vim, less, nano, top do), and a line
 * would be drawn over its screen.
 */
static bool terminal_is_full_screen(void)
{
	struct termios t;

	return isatty(STDERR_FILENO) && tcgetattr(STDERR_FILENO, &t) == 0 &&
	       !(t.c_lflag & ICANON);
}

static void event_log_locked(struct call *c, const struct fbac_query *q,
			     bool allowed,
			     const struct fbac_stack_entry *denier,
			     const struct fbac_verdict *v, const char *reason,
			     bool quiet)
{
	struct sup *s = c->s;
	struct sup_events *e = &s->events;
	char object[FBAC_MAX_PATH + 32], exe[FBAC_MAX_PATH], key[FBAC_MAX_PATH + 64];

	object_text(q, object, sizeof(object));
	exe_of(c->tid, exe, sizeof(exe));
	if (!allowed) {
		e->denials++;
		snprintf(key, sizeof(key), "%d %s", (int)q->op, object);
		if (s->verbosity >= 0 && !nested_probe_denial(e, q, exe) &&
		    !seen_before(e, key)) {
			if (quiet || benign(s, q))
				e->quiet++;
			else if (terminal_is_full_screen())
				e->deferred++;
			else if (e->printed < MAX_LINES) {
				e->printed++;
				human_line(c, q, object, exe, denier, v, reason);
			} else {
				e->suppressed++;
			}
		}
		/* Every denial, in the user's own log too (bounded per run). */
		if (s->user_log && e->user_log_bytes < FBAC_MAX_DENIAL_LOG)
			e->user_log_bytes += write_event(s->user_log, c, q,
							 object, exe, false,
							 denier, v, reason);
		else if (s->user_log)
			e->user_log_dropped++;
	}
	if (s->log)
		write_event(s->log, c, q, object, exe, allowed, denier, v,
			    reason);
}

/* VmHWM of /proc/self/status: what the supervisor needed at most. */
static void print_peak_rss(void)
{
	char line[128];
	FILE *f = fopen("/proc/self/status", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "VmHWM:", 6)) {
			fprintf(stderr, "fbac: supervisor peak resident size %ld kB\n",
				strtol(line + 6, NULL, 10));
			break;
		}
	fclose(f);
}

void event_log(struct call *c, const struct fbac_query *q, bool allowed,
	       const struct fbac_stack_entry *denier,
	       const struct fbac_verdict *v)
{
	pthread_mutex_lock(&c->s->events.lock);
	event_log_locked(c, q, allowed, denier, v, NULL, false);
	pthread_mutex_unlock(&c->s->events.lock);
}

bool call_refuse(struct call *c, enum fbac_op op, const char *path,
		 const char *reason)
{
	struct fbac_query q = { .op = op, .path = path };

	pthread_mutex_lock(&c->s->events.lock);
	event_log_locked(c, &q, false, NULL, NULL, reason, false);
	pthread_mutex_unlock(&c->s->events.lock);
	return c->s->mode != MODE_ENFORCE;
}

void call_refuse_syscall(struct call *c, const char *reason, bool quiet)
{
	struct fbac_query q = { .op = SUP_OP_SYSCALL };

	pthread_mutex_lock(&c->s->events.lock);
	/* filter_syscall_name's buffer is used under this lock only. */
	q.path = filter_syscall_name(c->nr);
	event_log_locked(c, &q, false, NULL, NULL, reason, quiet);
	pthread_mutex_unlock(&c->s->events.lock);
}

void call_tell(struct call *c, const char *text, bool line)
{
	struct sup *s = c->s;
	char exe[FBAC_MAX_PATH];
	const char *base;
	struct timespec now;

	exe_of(c->tid, exe, sizeof(exe));
	base = strrchr(exe, '/');
	pthread_mutex_lock(&s->events.lock);
	if (line && s->verbosity >= 0)
		fprintf(stderr, "fbac: %s, for %s[%d]\n", text,
			base ? base + 1 : exe, (int)c->tid);
	if (s->log) {
		clock_gettime(CLOCK_REALTIME, &now);
		fprintf(s->log, "{\"time\": %lld.%03ld, \"pid\": %d, \"exe\": ",
			(long long)now.tv_sec, now.tv_nsec / 1000000,
			(int)c->tid);
		json_string(s->log, exe);
		fprintf(s->log,
			", \"syscall\": \"%s\", \"operation\": \"syscall\", \"object\": \"%s\", \"decision\": \"allow\", \"reason\": ",
			filter_syscall_name(c->nr), filter_syscall_name(c->nr));
		json_string(s->log, text);
		fputs("}\n", s->log);
		fflush(s->log);
	}
	pthread_mutex_unlock(&s->events.lock);
}

/* One JSON line for the kill, in f. */
static long write_kill(FILE *f, pid_t pid, const char *exe, const char *reason)
{
	struct timespec now;
	long start = ftell(f), end;

	clock_gettime(CLOCK_REALTIME, &now);
	fprintf(f, "{\"time\": %lld.%03ld, \"pid\": %d, \"exe\": ",
		(long long)now.tv_sec, now.tv_nsec / 1000000, (int)pid);
	json_string(f, exe);
	fprintf(f, ", \"syscall\": \"?\", \"operation\": \"syscall\", \"object\": \"another architecture\", \"decision\": \"deny\", \"reason\": ");
	json_string(f, reason);
	fputs("}\n", f);
	fflush(f);
	end = ftell(f);
	return start >= 0 && end > start ? end - start : 0;
}

void events_killed(struct sup *s, pid_t pid, const char *exe)
{
	static const char reason[] =
		"killed by SIGSYS: fbac's seccomp filter kills a system call of another architecture (i386 'int $0x80', x32), which no confined program may make (a seccomp filter of the program's own may kill others)";
	struct sup_events *e = &s->events;
	const char *base = strrchr(exe, '/');

	pthread_mutex_lock(&e->lock);
	e->denials++;
	if (s->verbosity >= 0)
		fprintf(stderr, "fbac: %s[%d] was %s\n", base ? base + 1 : exe,
			(int)pid, reason);
	if (s->user_log && e->user_log_bytes < FBAC_MAX_DENIAL_LOG)
		e->user_log_bytes += write_kill(s->user_log, pid, exe, reason);
	if (s->log)
		write_kill(s->log, pid, exe, reason);
	pthread_mutex_unlock(&e->lock);
}

void events_summary(struct sup *s)
{
	struct sup_events *e = &s->events;

	if (s->verbosity >= 0 && e->suppressed)
		fprintf(stderr, "fbac: %lu more denials not shown (see 'fbac log'%s)\n",
			e->suppressed, s->log ? " or --log" : "");
	if (s->verbosity >= 0 && e->deferred)
		fprintf(stderr, "fbac: %lu denial%s while the program had the terminal full-screen, not shown: 'fbac log' lists %s\n",
			e->deferred, e->deferred == 1 ? "" : "s",
			e->deferred == 1 ? "it" : "them");
	/* 'fbac log' has nothing to list: say so, and how to see them. */
	if (s->verbosity >= 0 && !s->user_log && !s->log &&
	    (e->suppressed || e->deferred))
		fprintf(stderr,
			"fbac: but the denial log could not be opened (%s): run again with --log FILE to keep them\n",
			strerror(s->user_log_err ? -s->user_log_err : ENOENT));
	if (e->user_log_dropped)
		fprintf(stderr, "fbac: %lu denials not written to the denial log: this run reached its limit of %d bytes (FBAC_MAX_DENIAL_LOG)\n",
			e->user_log_dropped, FBAC_MAX_DENIAL_LOG);
	if (s->verbosity > 0) {
		fprintf(stderr,
			"fbac: %lu calls decided by the supervisor, %lu of them continued in the kernel, by %zu receiver%s\n",
			s->notifications, s->continued, s->receivers,
			s->receivers == 1 ? "" : "s");
		if (s->metadata_visible)
			fprintf(stderr,
				"fbac: metadata is visible: stat, statx, statfs, access and readlink ran in the kernel, unseen\n");
		else
			fprintf(stderr,
				"fbac: %lu of these calls read metadata (stat, statx, statfs, access, readlink), which no kernel rule can decide\n",
				s->metadata);
		print_peak_rss();
	}
	for (size_t i = 0; i < e->n_remembered; i++)
		free(e->remembered[i]);
	e->n_remembered = 0;
}

void call_exec_refusal(char *buf, size_t size, const struct fbac_stack_entry *e,
		       bool made_since, bool nested)
{
	if (made_since)
		snprintf(buf, size,
			 "granted by %s (layer %s), but %s were made as %s started, and this file was made or replaced since: it runs in %s next run",
			 e->policy->name, e->layer_name,
			 nested ? "that nested run's kernel rules" :
				  "the kernel's rules",
			 nested ? "it" : "fbac-run", nested ? "its" : "the");
	else
		snprintf(buf, size,
			 "granted by %s (layer %s) by a rule the kernel cannot be given%s",
			 e->policy->name, e->layer_name,
			 nested ?
				 ", so that nested run's layers refuse it" :
				 " ('fbac-run --check' lists these gaps), so the kernel refuses it");
}
