/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Escaping profile text for mdoc (groff and mandoc alike). */
#include "roff.h"

#include <stdint.h>
#include <string.h>

/* Source lines of text are wrapped at this many bytes of profile text. */
#define ROFF_WIDTH 72

enum esc {
	ESC_TEXT, /* a text line: prose */
	ESC_ARG,  /* inside a quoted macro argument: prose */
	ESC_CODE, /* inside a quoted macro argument: patterns, values */
};

static bool is_alnum(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/*
 * One UTF-8 sequence at s (n bytes): its length with *cp set, or 0 when
 * it is not valid UTF-8 (overlong forms and surrogates included), which
 * neither groff nor mandoc could render.
 */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len;
	uint32_t c, min;

	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2, c = s[0] & 0x1f, min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3, c = s[0] & 0x0f, min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4, c = s[0] & 0x07, min = 0x10000;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

static void put_escaped(FILE *f, const char *str, size_t n, enum esc mode)
{
	const unsigned char *s = (const unsigned char *)str;

	for (size_t i = 0; i < n; i++) {
		unsigned char c = s[i];
		uint32_t cp;
		size_t len;

		switch (c) {
		case '\\':
			fputs("\\e", f);
			continue;
		case '"':
			/* A bare quote would end a quoted argument. */
			fputs(mode == ESC_TEXT ? "\"" : "\\(dq", f);
			continue;
		case '-':
			/*
			 * groff prints a bare '-' as a hyphen (U+2010), which
			 * breaks "--netrc" or "$dir/a-b" copied from the page:
			 * in prose, a hyphen between letters or digits stays one.
			 */
			if (mode != ESC_CODE && i > 0 && i + 1 < n &&
			    is_alnum(s[i - 1]) && is_alnum(s[i + 1]))
				fputc('-', f);
			else
				fputs("\\-", f);
			continue;
		case '~':
			/* groff's UTF-8 output has a spacing tilde for '~'. */
			fputs("\\(ti", f);
			continue;
		case '^':
			fputs("\\(ha", f);
			continue;
		case '\'':
			fputs(mode == ESC_CODE ? "\\(aq" : "'", f);
			continue;
		case '`':
			fputs(mode == ESC_CODE ? "\\(ga" : "`", f);
			continue;
		default:
			break;
		}
		if (c < 0x20 || c == 0x7f) {
			/* A newline would end the line or the macro. */
			fputc(' ', f);
		} else if (c < 0x80) {
			fputc(c, f);
		} else if ((len = utf8_decode(s + i, n - i, &cp))) {
			/* Both formatters read \[uXXXX] whatever the locale. */
			fprintf(f, "\\[u%04X]", (unsigned)cp);
			i += len - 1;
		} else {
			fputc('?', f);
		}
	}
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

void roff_line(FILE *f, const char *s, bool sentence)
{
	size_t n, col = 0;

	if (!s)
		return;
	while (is_blank(*s))
		s++;
	n = strlen(s);
	while (n && is_blank(s[n - 1]))
		n--;
	if (!n)
		return;
	/* Wrapped between words, so that the page's source reads (and
	 * diffs) well; the formatter fills the lines again anyway. */
	for (size_t i = 0, w; i < n; i = w) {
		for (w = i; w < n && !is_blank(s[w]); w++)
			;
		if (col && col + 1 + (w - i) > ROFF_WIDTH) {
			fputc('\n', f);
			col = 0;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		/* A leading '.' or '\'' would make the line a request. */
		if (!col && (s[i] == '.' || s[i] == '\''))
			fputs("\\&", f);
		put_escaped(f, s + i, w - i, ESC_TEXT);
		col += w - i;
		while (w < n && is_blank(s[w]))
			w++;
	}
	if (sentence && !strchr(".!?", s[n - 1]))
		fputc('.', f);
	fputc('\n', f);
}

void roff_arg(FILE *f, const char *s, bool code)
{
	/* Quoted and led by \&: neither a macro name nor a delimiter. */
	fputs(" \"\\&", f);
	put_escaped(f, s, strlen(s), code ? ESC_CODE : ESC_ARG);
	fputc('"', f);
}

static void put_yaml(FILE *f, const struct fbac_ynode *n)
{
	switch (n->kind) {
	case FBAC_Y_SCALAR:
		put_escaped(f, n->value, n->len, ESC_CODE);
		return;
	case FBAC_Y_SEQ:
		fputc('[', f);
		for (size_t i = 0; i < n->n; i++) {
			fputs(i ? ", " : "", f);
			put_yaml(f, n->items[i]);
		}
		fputc(']', f);
		return;
	case FBAC_Y_MAP:
		fputc('{', f);
		for (size_t i = 0; i < n->n; i++) {
			fputs(i ? ", " : "", f);
			put_yaml(f, n->keys[i]);
			fputs(": ", f);
			put_yaml(f, n->items[i]);
		}
		fputc('}', f);
		return;
	}
}

void roff_yaml_arg(FILE *f, const struct fbac_ynode *n)
{
	fputs(" \"\\&", f);
	put_yaml(f, n);
	fputc('"', f);
}

void roff_code(FILE *f, const char *s)
{
	put_escaped(f, s, strlen(s), ESC_CODE);
}

void roff_yaml(FILE *f, const struct fbac_ynode *n)
{
	put_yaml(f, n);
}

size_t roff_yaml_widest(const struct fbac_ynode *n)
{
	size_t w = n->kind == FBAC_Y_SCALAR ? n->len : 0;

	for (size_t i = 0; n->kind != FBAC_Y_SCALAR && i < n->n; i++) {
		size_t k = roff_yaml_widest(n->items[i]);

		if (n->kind == FBAC_Y_MAP && roff_yaml_widest(n->keys[i]) > k)
			k = roff_yaml_widest(n->keys[i]);
		if (k > w)
			w = k;
	}
	return w;
}
