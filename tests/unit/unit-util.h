/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Helpers shared by the libfbac unit tests (header-only, like tap.h; each
 * test program is one translation unit): substring checks, diagnostic
 * checks, loading profile texts and a fixed test environment.
 */
#ifndef FBAC_UNIT_UTIL_H
#define FBAC_UNIT_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "diag.h"
#include "env.h"
#include "profile.h"
#include "tap.h"

/* like(got, sub, name): got contains sub. */
static inline bool tap_like_(const char *got, const char *sub,
			     const char *name, const char *file, int line)
{
	if (!tap_ok_(got && strstr(got, sub), file, line, "%s", name)) {
		diag("       got: %s", got ? got : "NULL");
		diag("  expected: a string containing '%s'", sub);
		return false;
	}
	return true;
}
#define like(got, sub, name) tap_like_((got), (sub), (name), __FILE__, __LINE__)

/* unlike(got, sub, name): got does not contain sub (NULL passes). */
static inline bool tap_unlike_(const char *got, const char *sub,
			       const char *name, const char *file, int line)
{
	if (!tap_ok_(!got || !strstr(got, sub), file, line, "%s", name)) {
		diag("       got: %s", got);
		diag("  expected: no '%s' in it", sub);
		return false;
	}
	return true;
}
#define unlike(got, sub, name)                                                 \
	tap_unlike_((got), (sub), (name), __FILE__, __LINE__)

/*
 * is_diag(d, file, line, col, sub, name): one test that the diagnostic is
 * at file:line:col (file NULL: not checked) and its message contains every
 * '|'-separated part of sub.
 */
static inline bool tap_is_diag_(const struct fbac_diag *d, const char *file,
				unsigned line, unsigned col, const char *sub,
				const char *name, const char *src, int srcline)
{
	bool pass = fbac_diag_isset(d) && d->line == line && d->col == col &&
		    (!file || strcmp(d->file, file) == 0);
	char part[256];

	for (const char *p = sub; pass && p && *p;) {
		const char *bar = strchr(p, '|');
		size_t n = bar ? (size_t)(bar - p) : strlen(p);

		snprintf(part, sizeof(part), "%.*s", (int)n, p);
		pass = strstr(d->msg, part) != NULL;
		p = bar ? bar + 1 : NULL;
	}
	if (!tap_ok_(pass, src, srcline, "%s", name)) {
		diag("       got: %s:%u:%u: %s", d->file, d->line, d->col,
		     fbac_diag_isset(d) ? d->msg : "(no diagnostic)");
		diag("  expected: %s:%u:%u: ...%s...", file ? file : "*", line,
		     col, sub);
		return false;
	}
	return true;
}
#define is_diag(d, file, line, col, sub, name)                                 \
	tap_is_diag_((d), (file), (line), (col), (sub), (name), __FILE__,      \
		     __LINE__)

/* Load a NUL-terminated profile text. */
static inline int load_text(struct fbac_library *lib, const char *name,
			    const char *text, struct fbac_diag *d)
{
	fbac_diag_clear(d);
	return fbac_profile_load_buffer(lib, name, text, strlen(text), d);
}

/*
 * A linked one-layer library of the given texts (NULL-terminated list,
 * named t0.yaml, t1.yaml, ...), or NULL with the diagnostic printed.
 */
static inline struct fbac_library *library_of(const char *const *texts)
{
	static struct fbac_diag d;
	struct fbac_library *lib = fbac_library_new();
	char name[32];

	if (!lib)
		return NULL;
	for (size_t i = 0; texts[i]; i++) {
		snprintf(name, sizeof(name), "t%zu.yaml", i);
		if (load_text(lib, name, texts[i], &d) < 0) {
			diag("loading %s: %s:%u:%u: %s", name, d.file, d.line,
			     d.col, d.msg);
			return fbac_library_free(lib);
		}
	}
	fbac_diag_clear(&d);
	if (fbac_library_link(lib, &d) < 0) {
		diag("linking: %s:%u:%u: %s", d.file, d.line, d.col, d.msg);
		return fbac_library_free(lib);
	}
	return lib;
}

/* The environment of user "u" (uid 1000, home /home/u), XDG defaults. */
static inline int test_env(struct fbac_env *env, struct fbac_arena *a)
{
	const struct fbac_env_input in = { .home = "/home/u",
					   .user = "u",
					   .uid = 1000 };

	return fbac_env_init(env, a, &in);
}

/* The trusted environment of the same user (home /home/trusted). */
static inline int test_trusted_env(struct fbac_env *env, struct fbac_arena *a)
{
	const struct fbac_env_input in = { .home = "/home/trusted",
					   .user = "u",
					   .uid = 1000 };

	return fbac_env_init(env, a, &in);
}

#endif
