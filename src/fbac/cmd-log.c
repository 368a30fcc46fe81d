/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac log: the denials fbac-run recorded in the user's denial log. */
#define _XOPEN_SOURCE 700 /* strptime */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "denial-log.h"
#include "fbac.h"
#include "jsonl.h"
#include "output.h"

struct log_opts {
	const char *program, *operation;
	double since; /* seconds since the epoch; 0: all */
	bool json;
};

static const struct argp_option options[] = {
	{ "program", 'p', "NAME", 0,
	  "Only denials of this program (the executable's name or full path)", 0 },
	{ "operation", 'o', "OPERATION", 0, "Only this operation (file_read, ...)", 0 },
	{ "since", 's', "WHEN", 0,
	  "Only denials since WHEN: an age (30s, 10m, 2h, 1d) or a local time (YYYY-MM-DD[ HH:MM[:SS]])",
	  0 },
	{ "json", 'j', NULL, 0, "Print the JSON lines as recorded", 0 },
	{ 0 }
};

/* "10m" ago, or a local date and time. Return: 0 or -EINVAL. */
static int parse_since(const char *arg, double *ret)
{
	static const char *const formats[] = { "%Y-%m-%d %H:%M:%S",
					       "%Y-%m-%d %H:%M", "%Y-%m-%d" };
	char *end;
	double n = strtod(arg, &end);

	if (end != arg && n >= 0 && end[0] && !end[1] && strchr("smhd", end[0])) {
		double unit = end[0] == 's' ? 1 : end[0] == 'm' ? 60 :
			      end[0] == 'h' ? 3600 : 86400;

		*ret = (double)time(NULL) - n * unit;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(formats); i++) {
		struct tm tm = { .tm_isdst = -1 };
		const char *rest = strptime(arg, formats[i], &tm);

		if (rest && !*rest) {
			*ret = (double)mktime(&tm);
			return 0;
		}
	}
	return -EINVAL;
}

static error_t parse_opt(int key, char *arg, struct argp_state *st)
{
	struct log_opts *o = st->input;
	enum fbac_op op;

	switch (key) {
	case 'p':
		o->program = arg;
		return 0;
	case 'o':
		/* "syscall": a system call fbac-run refused as such. */
		if (!streq(arg, "syscall") && fbac_op_from_name(arg, &op) < 0)
			argp_error(st, "unknown operation '%s' (see fbac-profile(5))",
				   arg);
		o->operation = arg;
		return 0;
	case 's':
		if (parse_since(arg, &o->since) < 0)
			argp_error(st, "invalid time '%s' (expected 30s, 10m, 2h, 1d or YYYY-MM-DD[ HH:MM[:SS]])",
				   arg);
		return 0;
	case 'j':
		o->json = true;
		return 0;
	case ARGP_KEY_ARG:
		argp_error(st, "unexpected argument '%s'", arg);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

static bool matches(const struct log_opts *o, const char *line, size_t len)
{
	char v[FBAC_MAX_PATH];

	if (o->program) {
		const char *base;

		if (fbac_jsonl_get(line, len, "exe", v, sizeof(v)) < 0)
			return false;
		base = strrchr(v, '/');
		if (!streq(v, o->program) &&
		    !streq(base ? base + 1 : v, o->program))
			return false;
	}
	if (o->operation &&
	    (fbac_jsonl_get(line, len, "operation", v, sizeof(v)) < 0 ||
	     !streq(v, o->operation)))
		return false;
	if (o->since > 0 &&
	    (fbac_jsonl_get(line, len, "time", v, sizeof(v)) < 0 ||
	     strtod(v, NULL) < o->since))
		return false;
	return true;
}

/* One denial for people, like fbac-run's line. */
static void print_human(const char *line, size_t len)
{
	char t[64], exe[FBAC_MAX_PATH], pid[32], dec[32], op[64];
	char obj[FBAC_MAX_PATH], v[FBAC_MAX_PATH], when[64];
	const char *base;
	struct tm tm;
	time_t secs;

	if (fbac_jsonl_get(line, len, "time", t, sizeof(t)) < 0 ||
	    fbac_jsonl_get(line, len, "exe", exe, sizeof(exe)) < 0 ||
	    fbac_jsonl_get(line, len, "pid", pid, sizeof(pid)) < 0 ||
	    fbac_jsonl_get(line, len, "decision", dec, sizeof(dec)) < 0 ||
	    fbac_jsonl_get(line, len, "operation", op, sizeof(op)) < 0 ||
	    fbac_jsonl_get(line, len, "object", obj, sizeof(obj)) < 0)
		return;
	secs = (time_t)strtod(t, NULL);
	if (!localtime_r(&secs, &tm) ||
	    !strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(when, sizeof(when), "%s", t);
	base = strrchr(exe, '/');
	printf("%s %s %s '%s'", when, streq(dec, "deny") ? "denied" : dec, op,
	       obj);
	if (fbac_jsonl_get(line, len, "about", v, sizeof(v)) == 0)
		printf(" (%s)", v);
	printf(" for %s[%s]", base ? base + 1 : exe, pid);
	if (fbac_jsonl_get(line, len, "reason", v, sizeof(v)) == 0) {
		printf(": %s\n", v);
		return;
	}
	if (fbac_jsonl_get(line, len, "policy", v, sizeof(v)) == 0) {
		printf(": not granted by %s", v);
		if (fbac_jsonl_get(line, len, "layer", v, sizeof(v)) == 0)
			printf(" (layer %s)", v);
	}
	if (fbac_jsonl_get(line, len, "protected", v, sizeof(v)) == 0)
		printf("; '%s' is protected", v);
	putchar('\n');
}

/* Print the matching lines of one file. Return: lines that are not
 * events (counted, not printed), or -errno. */
static long print_file(const struct log_opts *o, const char *path)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	long bad = 0;

	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while ((n = getline(&line, &cap, f)) > 0) {
		char probe[8];
		size_t len = (size_t)n;

		if (line[len - 1] == '\n')
			line[--len] = 0;
		/* A line is an object with a time, bounded in length. */
		if (len > FBAC_MAX_LOG_LINE ||
		    fbac_jsonl_get(line, len, "time", probe, sizeof(probe)) ==
			    -EINVAL) {
			bad++;
			continue;
		}
		if (!matches(o, line, len))
			continue;
		if (o->json)
			printf("%s\n", line);
		else
			print_human(line, len);
	}
	free(line);
	return bad;
}

int cmd_log(struct global *g, int argc, char **argv)
{
	struct argp argp = {
		options, parse_opt, "",
		"Print the denials fbac-run recorded in the denial log "
		"($XDG_STATE_HOME/fbac/denials.jsonl, and the rotated "
		"denials.jsonl.1), oldest first: every denial of every run, "
		"also those not shown on the terminal.",
		NULL, NULL, NULL
	};
	struct log_opts o = { .since = 0 };
	struct layers l;
	char path[FBAC_MAX_PATH];
	long bad = 0, r;
	int ret = EXIT_FAILURE_USAGE;

	if (argp_parse(&argp, argc, argv, 0, NULL, &o) != 0)
		return EXIT_FAILURE_USAGE;
	/* Only the variables: the log is where fbac-run's XDG_STATE_HOME is. */
	(void)g;
	if (layers_env(&l) < 0)
		return EXIT_FAILURE_USAGE;
	for (int i = 0; i < 2; i++) {
		if (denial_log_path(&l.env, i ? "" : ".1", path, sizeof(path)) < 0) {
			log_error(0, "cannot find the denial log: XDG_STATE_HOME and HOME are not absolute");
			goto out;
		}
		r = print_file(&o, path);
		if (r < 0) {
			errno = (int)-r;
			log_error((int)r, "cannot read '%s': %m", path);
			goto out;
		}
		bad += r;
	}
	if (bad)
		log_error(0, "warning: %ld lines of the denial log are not events (skipped)",
			  bad);
	ret = EXIT_OK;
out:
	layers_free(&l);
	return ret;
}
