/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "fallback.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fbac-limits.h"
#include "output.h"

static bool holds(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

static const char *program_name(const char *arg0)
{
	const char *slash = arg0 ? strrchr(arg0, '/') : NULL;

	return slash ? slash + 1 : arg0 ? arg0 : "the program";
}

int fallback_apply(struct fallback *fb, const struct fbac_stack *st,
		   char ***command)
{
	char *add[FBAC_MAX_FALLBACK_ARGS * (FBAC_MAX_LAYERS + 1)];
	char **cmd = *command;
	size_t n_add = 0, argc = 0, len = 0;

	memset(fb, 0, sizeof(*fb));
	while (cmd[argc])
		argc++;
	for (size_t i = 0; i < st->n; i++) {
		const struct fbac_resolved *res = st->entries[i].policy->res;

		for (size_t k = 0; res && k < res->n_sandbox_fallback; k++) {
			char *o = (char *)res->sandbox_fallback[k];

			/* Typed already, or asked by another layer. */
			if (holds(cmd + 1, argc ? argc - 1 : 0, o) ||
			    holds(add, n_add, o) || n_add == sizeof(add) / sizeof(add[0]))
				continue;
			add[n_add++] = o;
			/* Under --as, the program's own policy asked. */
			fb->app = st->entries[i].kind == FBAC_LAYER_COMMAND_LINE ?
					  program_name(cmd[0]) :
					  st->entries[i].policy->name;
		}
	}
	if (!n_add || !argc)
		return 0;
	fb->argv = calloc(argc + n_add + 1, sizeof(char *));
	if (!fb->argv)
		return -ENOMEM;
	fb->argv[0] = cmd[0];
	for (size_t i = 0; i < n_add; i++) {
		fb->argv[1 + i] = add[i];
		if (len < sizeof(fb->added))
			len += (size_t)snprintf(fb->added + len,
						sizeof(fb->added) - len, "%s%s",
						i ? " " : "", add[i]);
	}
	for (size_t i = 1; i < argc; i++)
		fb->argv[n_add + i] = cmd[i];
	*command = fb->argv;
	return (int)n_add;
}

void fallback_announce(const struct fallback *fb, const char *prefix)
{
	if (!fb->argv)
		return;
	fprintf(stderr,
		"%s%s's own sandbox cannot start inside fbac-run; running it with %s (fbac-run's sandbox confines it)\n",
		prefix, fb->app, fb->added);
}

void fallback_event(const struct fallback *fb, FILE *log, const char *exe)
{
	struct timespec now;
	char reason[1200];

	if (!fb->argv || !log)
		return;
	clock_gettime(CLOCK_REALTIME, &now);
	snprintf(reason, sizeof(reason),
		 "sandbox_fallback: %s's own sandbox cannot start inside fbac-run; running it with %s",
		 fb->app, fb->added);
	/* An event of the program's start: as a reasoned decision, which
	 * fbac learn leaves out of a proposal. */
	fprintf(log, "{\"time\": %lld.%03ld, \"pid\": %d, \"exe\": ",
		(long long)now.tv_sec, now.tv_nsec / 1000000, (int)getpid());
	json_string(log, exe);
	fputs(", \"syscall\": \"execve\", \"operation\": \"file_execute\", \"object\": ", log);
	json_string(log, exe);
	fputs(", \"decision\": \"allow\", \"policy\": ", log);
	json_string(log, fb->app);
	fputs(", \"reason\": ", log);
	json_string(log, reason);
	fputs("}\n", log);
	fflush(log);
}

void fallback_free(struct fallback *fb)
{
	free(fb->argv);
	fb->argv = NULL;
}
