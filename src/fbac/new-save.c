/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac new: the draft compiled from a temporary layer, and the policy
 * saved in the user's layer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fbac.h"
#include "new.h"
#include "output.h"

/* Write the draft to dir/NAME.yaml, load every layer with dir as an extra
 * one, and compile the draft from there. */
int compile_draft(const struct global *g, const struct draft *d,
			 const char *dir, const char *file, struct layers *l,
			 struct fbac_policy **pol)
{
	struct global g2 = *g;
	_cleanup_fclose_ FILE *f = fopen(file, "we");
	const struct fbac_application *app = NULL;
	int r;

	*pol = NULL;
	if (!f)
		return log_error(-errno, "cannot write '%s'", file);
	if (draft_write(d, f) < 0)
		return log_error(-EIO, "cannot write '%s'", file);
	g2.extra_dirs[g2.n_extra++] = dir;
	r = global_load(&g2, l);
	if (!l->lib)
		return r;
	if (r < 0)
		return log_error(r, "the draft policy '%s' does not load", file);
	for (unsigned i = 0; !app && i < l->lib->n_layers; i++)
		if (streq(l->lib->layers[i].dir, dir))
			app = fbac_library_find_app(l->lib, i, d->name);
	if (!app)
		return log_error(-ENOENT, "the draft policy '%s' has no application '%s'",
				 file, d->name);
	return compile_app(l, app, pol);
}

/* The file in the user's layer, its directory made. */
int user_file(const struct layers *l, const char *name, char *buf, size_t size)
{
	for (size_t i = 0; i < l->n_dirs; i++) {
		char tmp[PATH_MAX];

		if (l->dirs[i].kind != FBAC_LAYER_USER)
			continue;
		snprintf(tmp, sizeof(tmp), "%s", l->dirs[i].dir);
		for (char *s = tmp + 1; *s; s++)
			if (*s == '/') {
				*s = '\0';
				if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
					return log_error(-errno, "cannot make '%s'", tmp);
				*s = '/';
			}
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return log_error(-errno, "cannot make '%s'", tmp);
		if ((size_t)snprintf(buf, size, "%s/%s.yaml", tmp, name) >= size)
			return log_error(-ENAMETOOLONG, "path too long in '%s'", tmp);
		return 0;
	}
	return log_error(-ENOENT, "no user layer");
}

int install_policy(const char *from, const char *to, bool force)
{
	char tmp[PATH_MAX + 8];
	_cleanup_free_ char *buf = NULL;
	size_t len = 0;
	_cleanup_fclose_ FILE *in = fopen(from, "re");
	FILE *out;

	if (!force && access(to, F_OK) == 0)
		return log_error(-EEXIST, "refusing to replace '%s' (use --force)", to);
	if (!in)
		return log_error(-errno, "cannot read '%s'", from);
	out = open_memstream(&buf, &len);
	if (!out)
		return log_error(-ENOMEM, "out of memory");
	for (int c; (c = fgetc(in)) != EOF;)
		fputc(c, out);
	fclose(out);
	if (streq(to, "-"))
		return fwrite(buf, 1, len, stdout) == len ? 0 : -EIO;
	snprintf(tmp, sizeof(tmp), "%s.new", to);
	_cleanup_fclose_ FILE *f = fopen(tmp, "we");
	if (!f || fwrite(buf, 1, len, f) != len || fflush(f) != 0) {
		int r = -errno;

		unlink(tmp);
		return log_error(r ? r : -EIO, "cannot write '%s'", tmp);
	}
	if (rename(tmp, to) < 0) {
		int r = -errno;

		unlink(tmp);
		return log_error(r, "cannot write '%s'", to);
	}
	return 0;
}

void print_file(const char *path)
{
	_cleanup_fclose_ FILE *f = fopen(path, "re");

	for (int c; f && (c = fgetc(f)) != EOF;)
		putchar(c);
}
