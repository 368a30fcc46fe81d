/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The library across layers: reading files, linking names, and the static
 * checks that need every functionality to be known.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fbac-limits.h"
#include "profile.h"
#include "spell.h"

/* A file that cannot be parsed is a result too: loading it reports why. */
static int parse_failed(struct fbac_parsed *out, int err)
{
	out->err = err;
	return 0;
}

int fbac_profile_parse_file(struct fbac_arena *arena, const char *path,
			    struct fbac_parsed *out)
{
	_cleanup_close_ int fd = -1;
	_cleanup_free_ char *buf = NULL;
	struct fbac_mark m = { path, 0, 0 };
	struct stat st;
	size_t got = 0;

	*out = (struct fbac_parsed){ 0 };
	out->name = fbac_arena_strdup(arena, path);
	if (!out->name)
		return -ENOMEM;
	m.file = out->name;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return parse_failed(out, fbac_diag_at(&out->diag, &m, -errno,
						"cannot open: %s",
						strerror(errno)));
	if (fstat(fd, &st) < 0)
		return parse_failed(out, fbac_diag_at(&out->diag, &m, -errno,
						"cannot stat: %s",
						strerror(errno)));
	if (!S_ISREG(st.st_mode))
		return parse_failed(out, fbac_diag_at(&out->diag, &m, -EINVAL,
						"not a regular file"));
	if (st.st_size > FBAC_MAX_FILE_SIZE)
		return parse_failed(out, fbac_diag_at(&out->diag, &m, -E2BIG,
						"file larger than %d bytes",
						FBAC_MAX_FILE_SIZE));
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	/* Read to the size seen, and notice a file that grew meanwhile. */
	for (;;) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size + 1 - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return parse_failed(out, fbac_diag_at(&out->diag, &m, -errno,
							"cannot read: %s",
							strerror(errno)));
		if (n == 0)
			break;
		got += (size_t)n;
		if (got > (size_t)st.st_size)
			return parse_failed(out, fbac_diag_at(&out->diag, &m, -EAGAIN,
							"file changed while being read"));
	}
	return fbac_profile_parse_buffer(arena, path, buf, got, out);
}

int fbac_profile_load_file(struct fbac_library *lib, const char *path,
			   struct fbac_diag *diag)
{
	struct fbac_parsed p;
	int r;

	if (lib->linked)
		return -EBUSY;
	r = fbac_profile_parse_file(lib->arena, path, &p);
	if (r < 0)
		return r;
	return fbac_profile_load_parsed(lib, &p, diag);
}

static int cmp_func(const void *a, const void *b)
{
	const struct fbac_functionality *const *x = a, *const *y = b;
	int c = strcmp((*x)->name, (*y)->name);

	/* Equal names stay in load order, so the first one is reported first. */
	if (c)
		return c;
	return (*x)->layer != (*y)->layer ? ((*x)->layer < (*y)->layer ? -1 : 1) :
					    0;
}

const struct fbac_functionality *
fbac_library_find(const struct fbac_library *lib, const char *name)
{
	size_t lo = 0, hi = lib->n_funcs;

	if (!lib->linked) {
		for (size_t i = 0; i < lib->n_funcs; i++)
			if (streq(lib->funcs[i]->name, name))
				return lib->funcs[i];
		return NULL;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, lib->funcs[mid]->name);

		if (c == 0) {
			/* The first of equal names (a duplicate is reported;
			 * fbac check goes on with the first definition). */
			while (mid > 0 && streq(name, lib->funcs[mid - 1]->name))
				mid--;
			return lib->funcs[mid];
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const struct fbac_application *
fbac_library_find_app(const struct fbac_library *lib, unsigned layer,
		      const char *name_or_exe)
{
	bool is_path = name_or_exe[0] == '/';

	for (size_t i = 0; i < lib->n_apps; i++) {
		const struct fbac_application *a = lib->apps[i];

		if (a->layer != layer)
			continue;
		if (!is_path && streq(a->name, name_or_exe))
			return a;
		for (size_t e = 0; is_path && e < a->n_executables; e++)
			if (streq(a->executables[e], name_or_exe))
				return a;
	}
	return NULL;
}

/* Unknown names stay NULL: fbac_check_include reports each of them. */
static void link_includes(const struct fbac_library *lib,
			  struct fbac_include *inc, size_t n)
{
	for (size_t i = 0; i < n; i++)
		inc[i].target = fbac_library_find(lib, inc[i].name);
}

/* Every duplicate name into all (or the first into diag); link anyway
 * when all is given. */
static int link_lib(struct fbac_library *lib, struct fbac_diag *diag,
		    struct fbac_diags *all)
{
	struct fbac_diag d = { 0 };
	bool dup = false;
	int r;

	if (all)
		diag = &d;
	if (lib->n_funcs)
		qsort(lib->funcs, lib->n_funcs, sizeof(*lib->funcs), cmp_func);
	for (size_t i = 1; i < lib->n_funcs; i++)
		if (streq(lib->funcs[i]->name, lib->funcs[i - 1]->name)) {
			const struct fbac_functionality *a = lib->funcs[i - 1],
							*b = lib->funcs[i];
			/* Report the later definition, pointing back at the first. */
			if (b->mark.file && a->mark.file &&
			    strcmp(b->mark.file, a->mark.file) < 0 &&
			    b->layer == a->layer) {
				const struct fbac_functionality *t = a;
				a = b;
				b = t;
			}
			r = fbac_diag_at(
				diag, &b->mark, -EINVAL,
				"functionality '%s' is already defined at %s:%u:%u",
				b->name, a->mark.file, a->mark.line,
				a->mark.col);
			if (!all)
				return r;
			if (fbac_diags_add(all, &d) < 0)
				return -ENOMEM;
			fbac_diag_clear(&d);
			dup = true;
		}
	for (size_t i = 0; i < lib->n_apps; i++)
		for (size_t j = 0; j < i; j++)
			if (lib->apps[i]->layer == lib->apps[j]->layer &&
			    streq(lib->apps[i]->name, lib->apps[j]->name)) {
				r = fbac_diag_at(
					diag, &lib->apps[i]->mark, -EINVAL,
					"application '%s' is already defined in this layer at %s:%u:%u",
					lib->apps[i]->name,
					lib->apps[j]->mark.file,
					lib->apps[j]->mark.line,
					lib->apps[j]->mark.col);
				if (!all)
					return r;
				if (fbac_diags_add(all, &d) < 0)
					return -ENOMEM;
				fbac_diag_clear(&d);
				dup = true;
				break;
			}
	lib->linked = true;
	for (size_t i = 0; i < lib->n_funcs; i++)
		link_includes(lib, lib->funcs[i]->includes,
			      lib->funcs[i]->n_includes);
	for (size_t i = 0; i < lib->n_apps; i++)
		link_includes(lib, lib->apps[i]->grants,
			      lib->apps[i]->n_grants);
	for (size_t i = 0; i < lib->n_settings; i++)
		link_includes(lib, lib->settings[i]->values,
			      lib->settings[i]->n_values);
	return dup ? -EINVAL : 0;
}

int fbac_library_link(struct fbac_library *lib, struct fbac_diag *diag)
{
	return link_lib(lib, diag, NULL);
}

int fbac_library_link_all(struct fbac_library *lib, struct fbac_diags *all)
{
	return link_lib(lib, NULL, all);
}

const char *fbac_library_closest(const struct fbac_library *lib,
				 const char *name)
{
	const char *found = NULL;
	unsigned best = UINT_MAX;

	for (size_t i = 0; i < lib->n_funcs; i++)
		if (fbac_spell_better(name, lib->funcs[i]->name, &best))
			found = lib->funcs[i]->name;
	return found;
}

const struct fbac_settings *
fbac_library_find_settings(const struct fbac_library *lib,
			   const char *program)
{
	const struct fbac_settings *found = NULL;

	for (size_t i = 0; i < lib->n_settings; i++)
		if (streq(lib->settings[i]->program, program) &&
		    (!found || lib->settings[i]->layer >= found->layer))
			found = lib->settings[i];
	return found;
}

int fbac_check_include(const struct fbac_library *lib,
		       const struct fbac_include *inc, bool require_all,
		       struct fbac_diag *diag)
{
	const struct fbac_functionality *t = inc->target;

	if (!t) {
		const char *close = lib ? fbac_library_closest(lib, inc->name) :
					  NULL;

		if (close)
			return fbac_diag_at(diag, &inc->mark, -EINVAL,
					    "unknown functionality '%s' (did you mean '%s'?)",
					    inc->name, close);
		return fbac_diag_at(diag, &inc->mark, -EINVAL,
				    "unknown functionality '%s'", inc->name);
	}
	for (size_t a = 0; a < inc->n_args; a++) {
		bool found = false;

		for (size_t p = 0; p < t->n_params && !found; p++)
			found = streq(t->params[p].name, inc->arg_names[a]);
		if (!found) {
			const struct fbac_mark *m =
				inc->arg_marks ? &inc->arg_marks[a] :
						 &inc->arg_values[a]->mark;
			const char *close = NULL;
			unsigned best = UINT_MAX;

			for (size_t p = 0; p < t->n_params; p++)
				if (fbac_spell_better(inc->arg_names[a],
						      t->params[p].name, &best))
					close = t->params[p].name;
			if (close)
				return fbac_diag_at(
					diag, m, -EINVAL,
					"'%s' has no parameter '%s' (did you mean '%s'?)",
					t->name, inc->arg_names[a], close);
			return fbac_diag_at(diag, m, -EINVAL,
					    "'%s' has no parameter '%s'",
					    t->name, inc->arg_names[a]);
		}
	}
	for (size_t p = 0; p < t->n_params; p++) {
		bool given = false;

		if (t->params[p].def || !require_all)
			continue;
		for (size_t a = 0; a < inc->n_args && !given; a++)
			given = streq(t->params[p].name, inc->arg_names[a]);
		if (!given)
			return fbac_diag_at(
				diag, &inc->mark, -EINVAL,
				"missing argument '%s' of '%s' (declared at %s:%u:%u)",
				t->params[p].name, t->name,
				t->params[p].mark.file, t->params[p].mark.line,
				t->params[p].mark.col);
	}
	return 0;
}

static size_t func_index(const struct fbac_library *lib,
			 const struct fbac_functionality *f)
{
	size_t lo = 0, hi = lib->n_funcs;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(f->name, lib->funcs[mid]->name);

		if (c == 0)
			return mid;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lib->n_funcs;
}

enum { WHITE, GREY, BLACK };

struct cycle_walk {
	const struct fbac_library *lib;
	unsigned char *color;
	const struct fbac_functionality *path[FBAC_MAX_INCLUDE_DEPTH + 1];
	const struct fbac_include *via[FBAC_MAX_INCLUDE_DEPTH + 1];
	struct fbac_diag *diag;
};

static int cycle_error(struct cycle_walk *w, size_t from, size_t depth,
		       const struct fbac_functionality *f)
{
	char chain[FBAC_MAX_DIAG / 2] = "";
	size_t o = 0;

	for (size_t k = from; k <= depth; k++) {
		const char *nm = k < depth ? w->path[k]->name : f->name;
		int n = snprintf(chain + o, sizeof(chain) - o, "%s%s",
				 k > from ? " > " : "", nm);
		if (n < 0 || (size_t)n >= sizeof(chain) - o)
			break;
		o += (size_t)n;
	}
	return fbac_diag_at(w->diag, &w->via[depth - 1]->mark, -ELOOP,
			    "include cycle: %s", chain);
}

/*
 * Depth-first walk with white/grey/black colours: a grey target is a
 * cycle, a black one was already proven acyclic (so diamonds cost once).
 */
static int walk(struct cycle_walk *w, const struct fbac_functionality *f,
		size_t depth)
{
	size_t idx = func_index(w->lib, f);
	int r;

	if (idx == w->lib->n_funcs || w->color[idx] == BLACK)
		return 0;
	if (w->color[idx] == GREY) {
		for (size_t i = 0; i < depth; i++)
			if (w->path[i] == f)
				return cycle_error(w, i, depth, f);
		return -ELOOP;
	}
	if (depth >= FBAC_MAX_INCLUDE_DEPTH)
		return fbac_diag_at(w->diag, &w->via[depth - 1]->mark, -E2BIG,
				    "includes nested deeper than %d levels",
				    FBAC_MAX_INCLUDE_DEPTH);
	w->color[idx] = GREY;
	w->path[depth] = f;
	for (size_t i = 0; i < f->n_includes; i++) {
		if (!f->includes[i].target)
			continue;
		w->via[depth] = &f->includes[i];
		if ((r = walk(w, f->includes[i].target, depth + 1)) < 0)
			return r;
	}
	w->color[idx] = BLACK;
	return 0;
}

int fbac_check_functionality(const struct fbac_library *lib,
			     const struct fbac_functionality *f,
			     struct fbac_diag *diag)
{
	_cleanup_free_ unsigned char *color = NULL;
	struct cycle_walk w = { .lib = lib, .diag = diag };
	int r;

	for (size_t i = 0; i < f->n_includes; i++)
		if ((r = fbac_check_include(lib, &f->includes[i], true, diag)) < 0)
			return r;
	if (!lib->linked)
		return -EINVAL;
	color = calloc(lib->n_funcs ? lib->n_funcs : 1, 1);
	if (!color)
		return -ENOMEM;
	w.color = color;
	return walk(&w, f, 0);
}

int fbac_check_application(const struct fbac_library *lib,
			   const struct fbac_application *a,
			   struct fbac_diag *diag)
{
	int r;

	for (size_t i = 0; i < a->n_grants; i++) {
		if ((r = fbac_check_include(lib, &a->grants[i], true, diag)) < 0)
			return r;
		if ((r = fbac_check_functionality(lib, a->grants[i].target,
						  diag)) < 0)
			return r;
	}
	return 0;
}
