/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac wrap: finding a program's .desktop entry and rewriting a copy. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"
#include "output.h"
#include "wrap-cmd.h"

struct match_ctx {
	const char *name, *real_base;
	char real[PATH_MAX];
};

static const char *base(const char *p)
{
	const char *s = strrchr(p, '/');

	return s ? s + 1 : p;
}

static bool match_program(const char *prog, void *ctx)
{
	struct match_ctx *m = ctx;
	char real[PATH_MAX];

	if (streq(base(prog), m->name) || streq(base(prog), m->real_base))
		return true;
	return prog[0] == '/' && realpath(prog, real) && streq(real, m->real);
}

/* Read and rewrite one entry. Return: 1 it runs the program, 0 not. */
static int try_entry(const char *path, struct match_ctx *m, const char *wrapper,
		     char **text)
{
	_cleanup_free_ char *in = NULL;
	char *out = NULL;
	size_t len, n = 0;

	if (wrap_read(path, FBAC_MAX_DESKTOP_SIZE, &in, &len, NULL) < 0)
		return 0;
	/* A copy of ours (another wrap's, or --system's) is not the
	 * program's own entry. */
	if (fbac_desktop_is_wrapped(in, len))
		return 0;
	if (fbac_desktop_rewrite(in, len, match_program, m, wrapper, &out, &n) < 0)
		return 0;
	if (n == 0) {
		free(out);
		return 0;
	}
	*text = out;
	return 1;
}

static int desktop_filter(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 8 && streq(e->d_name + n - 8, ".desktop") &&
	       e->d_name[0] != '.';
}

int wrap_find_desktop(const struct wrap_dirs *d, const char *name,
		      const char *program, const char *wrapper, char *src,
		      size_t size, char **text)
{
	const char *dirs = getenv("XDG_DATA_DIRS");
	struct match_ctx m = { .name = name };
	char target[PATH_MAX], dir[PATH_MAX];

	if (!dirs || !*dirs)
		dirs = "/usr/local/share:/usr/share";
	if (!realpath(program, m.real))
		snprintf(m.real, sizeof(m.real), "%s", program);
	m.real_base = base(m.real);
	if (!realpath(d->apps, target))
		snprintf(target, sizeof(target), "%s", d->apps);
	/* Pass 0: NAME.desktop (or the real program's name); pass 1: any
	 * entry whose Exec= runs it, in each directory's name order. */
	for (int pass = 0; pass < 2; pass++)
		for (const char *p = dirs;;) {
			const char *c = strchr(p, ':');
			size_t len = c ? (size_t)(c - p) : strlen(p);
			char real[PATH_MAX];

			if (len && p[0] == '/' &&
			    snprintf(dir, sizeof(dir), "%.*s/applications",
				     (int)len, p) < (int)sizeof(dir) &&
			    !(realpath(dir, real) && streq(real, target))) {
				if (pass == 0) {
					const char *names[2] = { name, m.real_base };

					for (int i = 0; i < 2; i++)
						if (snprintf(src, size, "%s/%s.desktop",
							     dir, names[i]) < (int)size &&
						    try_entry(src, &m, wrapper, text))
							return 1;
				} else {
					struct dirent **list = NULL;
					int n = scandir(dir, &list, desktop_filter,
							alphasort);
					int found = 0;

					if (n > FBAC_MAX_DESKTOP_FILES) {
						log_error(0, "warning: more than %d desktop entries in '%s': only the first %d searched for '%s'",
							  FBAC_MAX_DESKTOP_FILES, dir,
							  FBAC_MAX_DESKTOP_FILES, name);
					}
					for (int i = 0; i < n; i++) {
						if (!found && i < FBAC_MAX_DESKTOP_FILES &&
						    snprintf(src, size, "%s/%s", dir,
							     list[i]->d_name) < (int)size)
							found = try_entry(src, &m, wrapper,
									  text);
						free(list[i]);
					}
					free(list);
					if (found)
						return 1;
				}
			}
			if (!c)
				break;
			p = c + 1;
		}
	src[0] = 0;
	return 0;
}
