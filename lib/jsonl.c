/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "jsonl.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "fbac-limits.h"

struct cursor {
	const char *p, *end;
};

static void skip_space(struct cursor *c)
{
	while (c->p < c->end &&
	       (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
		c->p++;
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

/* A string at c->p ('"'), decoded into out when out is not NULL. */
static int string(struct cursor *c, char *out, size_t size)
{
	size_t n = 0;

	if (c->p >= c->end || *c->p != '"')
		return -EINVAL;
	c->p++;
	while (c->p < c->end && *c->p != '"') {
		char ch = *c->p++;

		if ((unsigned char)ch < 0x20)
			return -EINVAL;
		if (ch == '\\') {
			if (c->p >= c->end)
				return -EINVAL;
			ch = *c->p++;
			switch (ch) {
			case '"': case '\\': case '/':
				break;
			case 'n': ch = '\n'; break;
			case 't': ch = '\t'; break;
			case 'r': ch = '\r'; break;
			case 'b': ch = '\b'; break;
			case 'f': ch = '\f'; break;
			case 'u': {
				int v = 0;

				if (c->end - c->p < 4)
					return -EINVAL;
				for (int i = 0; i < 4; i++) {
					int h = hex(c->p[i]);

					if (h < 0)
						return -EINVAL;
					v = v * 16 + h;
				}
				c->p += 4;
				ch = v > 0 && v < 0x80 ? (char)v : '?';
				break;
			}
			default:
				return -EINVAL;
			}
		}
		if (out) {
			if (n + 1 >= size)
				return -ENAMETOOLONG;
			out[n++] = ch;
		}
	}
	if (c->p >= c->end)
		return -EINVAL;
	c->p++;
	if (out)
		out[n] = 0;
	return 0;
}

static bool number_char(char ch)
{
	return (ch >= '0' && ch <= '9') || ch == '-' || ch == '+' || ch == '.' ||
	       ch == 'e' || ch == 'E';
}

int fbac_jsonl_get(const char *line, size_t len, const char *key, char *out,
		   size_t size)
{
	struct cursor c = { line, line + len };
	char name[FBAC_MAX_NAME];
	int r, found = -ENOENT;

	if (!size)
		return -ENAMETOOLONG;
	skip_space(&c);
	if (c.p >= c.end || *c.p++ != '{')
		return -EINVAL;
	skip_space(&c);
	if (c.p < c.end && *c.p == '}')
		return -ENOENT;
	for (;;) {
		bool want;

		skip_space(&c);
		/* A member name longer than any we write is not our line. */
		r = string(&c, name, sizeof(name));
		if (r < 0)
			return -EINVAL;
		want = found == -ENOENT && !strcmp(name, key);
		skip_space(&c);
		if (c.p >= c.end || *c.p++ != ':')
			return -EINVAL;
		skip_space(&c);
		if (c.p < c.end && *c.p == '"') {
			r = string(&c, want ? out : NULL, size);
			if (r < 0)
				return r;
			if (want)
				found = 0;
		} else {
			const char *start = c.p;

			while (c.p < c.end && number_char(*c.p))
				c.p++;
			if (c.p == start)
				return -EINVAL;
			if (want) {
				if ((size_t)(c.p - start) >= size)
					return -ENAMETOOLONG;
				memcpy(out, start, (size_t)(c.p - start));
				out[c.p - start] = 0;
				found = 0;
			}
		}
		skip_space(&c);
		if (c.p >= c.end)
			return -EINVAL;
		if (*c.p == '}')
			break;
		if (*c.p++ != ',')
			return -EINVAL;
	}
	c.p++;
	skip_space(&c);
	return c.p == c.end ? found : -EINVAL;
}
