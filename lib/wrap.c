/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "wrap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "macro.h"

/* A growing NUL-terminated buffer, bounded by max. */
struct buf {
	char *s;
	size_t len, cap, max;
	int err;
};

static void put(struct buf *b, const char *s, size_t n)
{
	if (b->err)
		return;
	if (b->len + n + 1 > b->max) {
		b->err = -E2BIG;
		return;
	}
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		char *p;

		while (cap < b->len + n + 1)
			cap *= 2;
		p = realloc(b->s, cap);
		if (!p) {
			b->err = -ENOMEM;
			return;
		}
		b->s = p;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = 0;
}

static void puts_(struct buf *b, const char *s)
{
	put(b, s, strlen(s));
}

/* 'a'\''b': safe for sh whatever a holds (but a newline: refused before). */
static void put_quoted(struct buf *b, const char *s)
{
	put(b, "'", 1);
	for (const char *p = s; *p; p++)
		if (*p == '\'')
			puts_(b, "'\\''");
		else
			put(b, p, 1);
	put(b, "'", 1);
}

static int finish(struct buf *b, char **out)
{
	if (b->err) {
		free(b->s);
		return b->err;
	}
	if (!b->s) {
		b->s = strdup("");
		if (!b->s)
			return -ENOMEM;
	}
	*out = b->s;
	return 0;
}

static bool bad_field(const char *s)
{
	return strchr(s, '\n') || strlen(s) >= FBAC_MAX_PATH;
}

int fbac_wrapper_format(const char *fbac_run, const char *program,
			const char *const *opts, size_t n_opts,
			const char *desktop, char **out)
{
	struct buf b = { .max = FBAC_MAX_WRAPPER_SIZE }, o = { .max = FBAC_MAX_PATH };
	int r;

	if (fbac_run[0] != '/' || program[0] != '/' ||
	    (desktop && desktop[0] != '/'))
		return -EINVAL;
	if (bad_field(fbac_run) || bad_field(program) ||
	    (desktop && bad_field(desktop)))
		return strchr(fbac_run, '\n') || strchr(program, '\n') ||
				       (desktop && strchr(desktop, '\n')) ?
			       -EINVAL :
			       -E2BIG;
	for (size_t i = 0; i < n_opts; i++) {
		if (strchr(opts[i], '\n')) {
			free(o.s);
			return -EINVAL;
		}
		if (i)
			puts_(&o, " ");
		put_quoted(&o, opts[i]);
	}
	if (o.err) {
		free(o.s);
		return o.err;
	}
	puts_(&b, "#!/bin/sh\n" FBAC_WRAPPER_MARKER
		  " (written by fbac wrap; 'fbac unwrap' removes it, never edit it)\n"
		  "# program: ");
	puts_(&b, program);
	puts_(&b, "\n# options: ");
	puts_(&b, o.s ? o.s : "");
	puts_(&b, "\n# desktop: ");
	puts_(&b, desktop ? desktop : "-");
	puts_(&b, "\n# fbac-run: ");
	puts_(&b, fbac_run);
	puts_(&b, "\nexec ");
	put_quoted(&b, fbac_run);
	for (size_t i = 0; i < n_opts; i++) {
		puts_(&b, " ");
		put_quoted(&b, opts[i]);
	}
	puts_(&b, " -- ");
	put_quoted(&b, program);
	puts_(&b, " \"$@\"\n");
	free(o.s);
	r = finish(&b, out);
	return r;
}

/* Line number n (0-based) of text as [*line, *line + *n): false past the end. */
static bool nth_line(const char *text, size_t len, unsigned n, const char **line,
		     size_t *llen)
{
	const char *p = text, *end = text + len;

	for (unsigned i = 0;; i++) {
		const char *nl;

		if (p >= end)
			return false;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (i == n) {
			*line = p;
			*llen = nl ? (size_t)(nl - p) : (size_t)(end - p);
			return true;
		}
		if (!nl)
			return false;
		p = nl + 1;
	}
}

static int field(const char *text, size_t len, unsigned n, const char *key,
		 char *out)
{
	const char *line;
	size_t llen, klen = strlen(key);

	if (!nth_line(text, len, n, &line, &llen) || llen < klen ||
	    memcmp(line, key, klen))
		return -EINVAL;
	if (llen - klen >= FBAC_MAX_PATH || memchr(line, 0, llen))
		return -EINVAL;
	memcpy(out, line + klen, llen - klen);
	out[llen - klen] = 0;
	return 0;
}

int fbac_wrapper_parse(const char *text, size_t len, struct fbac_wrapper *w)
{
	static const char head[] = "#!/bin/sh\n" FBAC_WRAPPER_MARKER " ";
	int r;

	if (len > FBAC_MAX_WRAPPER_SIZE)
		return -E2BIG;
	if (len < sizeof(head) - 1 || memcmp(text, head, sizeof(head) - 1))
		return -ENOMSG;
	if ((r = field(text, len, 2, "# program: ", w->program)) < 0 ||
	    (r = field(text, len, 3, "# options: ", w->options)) < 0 ||
	    (r = field(text, len, 4, "# desktop: ", w->desktop)) < 0 ||
	    (r = field(text, len, 5, "# fbac-run: ", w->fbac_run)) < 0)
		return r;
	if (w->program[0] != '/' || w->fbac_run[0] != '/')
		return -EINVAL;
	if (streq(w->desktop, "-"))
		w->desktop[0] = 0;
	else if (w->desktop[0] != '/')
		return -EINVAL;
	return 0;
}

/* Characters that make a desktop Exec argument need quotes, and those
 * that would need escapes we do not write (the spec's two levels). */
static bool needs_quotes(const char *s)
{
	return strpbrk(s, " \t'><~|&;*?#()") != NULL;
}

static bool unquotable(const char *s)
{
	return strpbrk(s, "\"`$\\%\n\r") != NULL || !*s;
}

/*
 * The program token of an Exec= value: skip "env" and VAR=VALUE words,
 * then one word, quoted ("...", with \" \` \$ \\) or not. Sets [*start,
 * *end) of the word in v and its unquoted text in prog. False when there
 * is none or it does not fit.
 */
static bool exec_program(const char *v, size_t vlen, bool is_exec,
			 size_t *start, size_t *end, char *prog, size_t size)
{
	size_t i = 0;
	bool after_env = false;

	for (;;) {
		size_t s, n = 0;
		bool quoted;

		while (i < vlen && (v[i] == ' ' || v[i] == '\t'))
			i++;
		if (i >= vlen)
			return false;
		s = i;
		quoted = v[i] == '"';
		if (quoted) {
			for (i++; i < vlen && v[i] != '"'; i++) {
				if (v[i] == '\\' && i + 1 < vlen)
					i++;
				if (n + 1 >= size)
					return false;
				prog[n++] = v[i];
			}
			if (i >= vlen)
				return false; /* unterminated */
			i++;
		} else {
			for (; i < vlen && v[i] != ' ' && v[i] != '\t'; i++) {
				if (n + 1 >= size)
					return false;
				prog[n++] = v[i];
			}
		}
		prog[n] = 0;
		if (is_exec && !after_env &&
		    (streq(prog, "env") || streq(prog, "/usr/bin/env"))) {
			after_env = true;
			continue;
		}
		if (after_env && !quoted && strchr(prog, '=') && prog[0] != '/')
			continue;
		*start = s;
		*end = i;
		return true;
	}
}

static bool key_is(const char *line, size_t llen, const char *key, size_t *voff)
{
	size_t k = strlen(key), i;

	if (llen < k || memcmp(line, key, k))
		return false;
	for (i = k; i < llen && line[i] == ' '; i++)
		;
	if (i >= llen || line[i] != '=')
		return false;
	for (i++; i < llen && line[i] == ' '; i++)
		;
	*voff = i;
	return true;
}

static bool line_is(const char *line, size_t llen, const char *s)
{
	return llen == strlen(s) && !memcmp(line, s, llen);
}

int fbac_desktop_rewrite(const char *in, size_t len, fbac_desktop_match match,
			 void *ctx, const char *wrapper, char **out,
			 size_t *n_rewritten)
{
	struct buf b = { .max = FBAC_MAX_DESKTOP_SIZE + 4096 };
	const char *p = in, *end = in + len;
	bool in_main = false, seen_main = false;
	char prog[FBAC_MAX_PATH];
	size_t n = 0;

	if (len > FBAC_MAX_DESKTOP_SIZE)
		return -E2BIG;
	if (memchr(in, 0, len) || wrapper[0] != '/' || unquotable(wrapper) ||
	    strlen(wrapper) >= FBAC_MAX_PATH)
		return -EINVAL;
	puts_(&b, "# Written by fbac wrap: the program runs confined through its wrapper.\n"
		  "# 'fbac unwrap' removes this copy; never edit it (fbac would refuse to remove it).\n");
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t llen = nl ? (size_t)(nl - p) : (size_t)(end - p), voff;
		const char *line = p;

		p = nl ? nl + 1 : end;
		if (llen && line[llen - 1] == '\r')
			llen--;
		if (llen && line[0] == '[') {
			in_main = line_is(line, llen, "[Desktop Entry]");
			if (in_main && seen_main) {
				free(b.s);
				return -EINVAL; /* the group twice */
			}
			put(&b, line, llen);
			put(&b, "\n", 1);
			if (in_main) {
				seen_main = true;
				puts_(&b, FBAC_DESKTOP_MARKER "\n");
			}
			continue;
		}
		if (!seen_main && llen && line[0] != '#') {
			free(b.s);
			return -EINVAL; /* a key before the first group */
		}
		if (in_main && line_is(line, llen, FBAC_DESKTOP_MARKER))
			continue;
		if (in_main && key_is(line, llen, "DBusActivatable", &voff) &&
		    line_is(line + voff, llen - voff, "true")) {
			puts_(&b, "DBusActivatable=false\n");
			continue;
		}
		if (key_is(line, llen, "Exec", &voff) ||
		    key_is(line, llen, "TryExec", &voff)) {
			bool is_exec = line[0] == 'E';
			size_t s, e;

			if (is_exec ? exec_program(line + voff, llen - voff, true,
						   &s, &e, prog, sizeof(prog)) :
				      (s = 0, e = llen - voff,
				       e < sizeof(prog) &&
					       (memcpy(prog, line + voff, e),
						prog[e] = 0, true))) {
				if (match(prog, ctx)) {
					put(&b, line, voff + s);
					if (is_exec && needs_quotes(wrapper)) {
						put(&b, "\"", 1);
						puts_(&b, wrapper);
						put(&b, "\"", 1);
					} else {
						puts_(&b, wrapper);
					}
					put(&b, line + voff + e, llen - voff - e);
					put(&b, "\n", 1);
					n++;
					continue;
				}
			}
		}
		put(&b, line, llen);
		put(&b, "\n", 1);
	}
	if (!seen_main) {
		free(b.s);
		return -EINVAL;
	}
	if (finish(&b, out) < 0)
		return b.err;
	*n_rewritten = n;
	return 0;
}

bool fbac_desktop_is_wrapped(const char *in, size_t len)
{
	const char *p = in, *end = in + len;
	bool in_main = false;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t llen = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *line = p;

		p = nl ? nl + 1 : end;
		if (llen && line[llen - 1] == '\r')
			llen--;
		if (llen && line[0] == '[')
			in_main = line_is(line, llen, "[Desktop Entry]");
		else if (in_main && line_is(line, llen, FBAC_DESKTOP_MARKER))
			return true;
	}
	return false;
}
