/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "jsonl.h"

#include <errno.h>
#include <string.h>

#include "fbac-limits.h"

int fbac_jsonl_error(struct fbac_jsonl *j, const char *what)
{
	return fbac_diag_at(j->diag, NULL, -EINVAL, "column %zu: %s",
			    (size_t)(j->p - j->start) + 1, what);
}

static void skip_space(struct fbac_jsonl *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' ||
				 *j->p == '\n' || *j->p == '\r'))
		j->p++;
}

static int hex(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/* The character of a \u escape; j->p is past the 'u'. */
static int unicode(struct fbac_jsonl *j, unsigned char *ret)
{
	int v = 0;

	for (int i = 0; i < 4; i++) {
		int h = j->p < j->end ? hex(*j->p) : -1;

		if (h < 0)
			return fbac_jsonl_error(j, "bad \\u escape");
		v = v * 16 + h;
		j->p++;
	}
	/* fbac-run escapes control characters only. */
	if (j->strict && (v == 0 || v > 0x7f))
		return fbac_jsonl_error(j, "unsupported \\u escape");
	*ret = v > 0 && v < 0x80 ? (unsigned char)v : '?';
	return 0;
}

/* The character an escape stands for; j->p is past the '\'. */
static int escape(struct fbac_jsonl *j, unsigned char *ret)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k = memchr(from, *j->p, sizeof(from) - 1);

	if (*j->p++ == 'u')
		return unicode(j, ret);
	if (!k)
		return fbac_jsonl_error(j, "bad escape");
	*ret = (unsigned char)to[k - from];
	return 0;
}

/* A string at j->p ('"') into out (NULL: checked only); a NUL inside is
 * refused. Return: 0, -EINVAL or -ENAMETOOLONG. */
static int string(struct fbac_jsonl *j, char *out, size_t size)
{
	size_t n = 0;
	int r;

	if (j->p >= j->end || *j->p != '"')
		return fbac_jsonl_error(j, "expected a string");
	j->p++;
	while (j->p < j->end && *j->p != '"') {
		unsigned char c = (unsigned char)*j->p++;

		if (c < 0x20)
			return fbac_jsonl_error(j,
						"control character in a string");
		if (c == '\\') {
			if (j->p >= j->end)
				break;
			if ((r = escape(j, &c)) < 0)
				return r;
		}
		if (!out)
			continue;
		if (n + 1 >= size) {
			fbac_jsonl_error(j, "string too long");
			return -ENAMETOOLONG;
		}
		out[n++] = (char)c;
	}
	if (j->p >= j->end)
		return fbac_jsonl_error(j, "unterminated string");
	j->p++;
	if (out)
		out[n] = 0;
	return 0;
}

/* A number, true, false or null, as written, into out (NULL: skipped). */
static int scalar(struct fbac_jsonl *j, char *out, size_t size)
{
	const char *b = j->p;
	size_t left = (size_t)(j->end - j->p);

	if (left >= 4 && (!memcmp(j->p, "true", 4) || !memcmp(j->p, "null", 4)))
		j->p += 4;
	else if (left >= 5 && !memcmp(j->p, "false", 5))
		j->p += 5;
	else {
		if (j->p < j->end && *j->p == '-')
			j->p++;
		while (j->p < j->end &&
		       ((*j->p >= '0' && *j->p <= '9') || *j->p == '.' ||
			*j->p == 'e' || *j->p == 'E' || *j->p == '+' ||
			*j->p == '-'))
			j->p++;
		if (j->p == b || (j->p == b + 1 && *b == '-'))
			return fbac_jsonl_error(j, "expected a value");
	}
	if (!out)
		return 0;
	if ((size_t)(j->p - b) >= size) {
		fbac_jsonl_error(j, "value too long");
		return -ENAMETOOLONG;
	}
	memcpy(out, b, (size_t)(j->p - b));
	out[j->p - b] = 0;
	return 0;
}

int fbac_jsonl_open(struct fbac_jsonl *j, const char *line, size_t len,
		    bool strict, struct fbac_diag *diag)
{
	*j = (struct fbac_jsonl){ .start = line, .diag = diag, .strict = strict };
	j->p = line;
	j->end = line + len;
	skip_space(j);
	if (j->p >= j->end || *j->p != '{')
		return fbac_jsonl_error(j, "expected '{'");
	j->p++;
	skip_space(j);
	return 0;
}

int fbac_jsonl_next(struct fbac_jsonl *j, char *name, size_t size)
{
	int r;

	if (j->after_value) {
		skip_space(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			skip_space(j);
			if (j->p < j->end && *j->p == '}')
				return fbac_jsonl_error(j, "expected a key");
		} else if (j->p < j->end && *j->p != '}') {
			return fbac_jsonl_error(j, "expected ',' or '}'");
		}
	}
	j->after_value = false;
	if (j->p >= j->end)
		return fbac_jsonl_error(j, "expected '}'");
	if (*j->p == '}') {
		j->p++;
		skip_space(j);
		if (j->p != j->end)
			return fbac_jsonl_error(j, "text after the object");
		return 0;
	}
	/* A name longer than any we write is not our line. */
	if ((r = string(j, name, size)) < 0)
		return -EINVAL;
	skip_space(j);
	if (j->p >= j->end || *j->p != ':')
		return fbac_jsonl_error(j, "expected ':'");
	j->p++;
	skip_space(j);
	return 1;
}

int fbac_jsonl_value(struct fbac_jsonl *j, char *out, size_t size,
		     bool string_only)
{
	int r;

	if (j->p < j->end && *j->p == '"')
		r = string(j, out, size);
	else if (string_only)
		r = fbac_jsonl_error(j, "expected a string");
	else
		r = scalar(j, out, size);
	j->after_value = r == 0;
	return r;
}

int fbac_jsonl_get(const char *line, size_t len, const char *key, char *out,
		   size_t size)
{
	struct fbac_jsonl j;
	char name[FBAC_MAX_NAME];
	int r, found = -ENOENT;

	if (!size)
		return -ENAMETOOLONG;
	if (fbac_jsonl_open(&j, line, len, false, NULL) < 0)
		return -EINVAL;
	while ((r = fbac_jsonl_next(&j, name, sizeof(name))) > 0) {
		bool want = found == -ENOENT && !strcmp(name, key);

		r = fbac_jsonl_value(&j, want ? out : NULL, size, false);
		if (r < 0)
			return r;
		if (want)
			found = 0;
	}
	return r < 0 ? r : found;
}
