/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "path.h"

#include <errno.h>
#include <string.h>

#include "fbac-limits.h"

int fbac_path_normalize(const char *in, char *out, size_t size,
			const char **why)
{
	size_t o = 0;
	unsigned depth = 0;
	const char *p = in;

	if (!in || in[0] != '/') {
		*why = "path is not absolute";
		return -EINVAL;
	}
	if (size < 2) {
		*why = "path too long";
		return -ENAMETOOLONG;
	}
	while (*p) {
		const char *start, *end;
		size_t len;

		while (*p == '/')
			p++;
		if (!*p)
			break;
		start = p;
		while (*p && *p != '/')
			p++;
		end = p;
		len = (size_t)(end - start);
		if (len == 1 && start[0] == '.')
			continue;
		if (len == 2 && start[0] == '.' && start[1] == '.') {
			*why = "path contains '..'";
			return -EINVAL;
		}
		if (++depth > FBAC_MAX_PATH_DEPTH || o + 1 + len + 1 > size) {
			*why = "path too long";
			return -ENAMETOOLONG;
		}
		out[o++] = '/';
		memcpy(out + o, start, len);
		o += len;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = 0;
	return 0;
}

bool fbac_path_is_normal(const char *path)
{
	const char *p = path;

	if (path[0] != '/')
		return false;
	if (path[1] == 0)
		return true;
	while (*p) {
		const char *c = ++p; /* past the '/' */

		while (*p && *p != '/')
			p++;
		if (p == c)
			return false; /* "//" or trailing "/" */
		if ((p - c == 1 && c[0] == '.') ||
		    (p - c == 2 && c[0] == '.' && c[1] == '.'))
			return false;
	}
	return true;
}

bool fbac_has_wildcard(const char *s)
{
	return strpbrk(s, "*?") != NULL;
}

int fbac_pattern_check(const char *pattern, const char **why)
{
	for (const char *p = pattern; (p = strstr(p, "**")); p += 2) {
		bool starts = p > pattern && p[-1] == '/';
		bool ends = p[2] == '/' || p[2] == 0;

		if (!starts || !ends) {
			*why = "'**' must be a whole path component";
			return -EINVAL;
		}
		if (p[2] == '/' && p[3] == '*' && p[4] == '*' &&
		    (p[5] == '/' || p[5] == 0)) {
			*why = "'**/**' is redundant";
			return -EINVAL;
		}
	}
	return 0;
}

size_t fbac_pattern_prefix_len(const char *pattern)
{
	const char *w = strpbrk(pattern, "*?");
	const char *slash;

	if (!w)
		return strlen(pattern);
	/* Back to the '/' that starts the component holding the wildcard. */
	slash = w;
	while (slash > pattern && *slash != '/')
		slash--;
	return slash == pattern ? 1 : (size_t)(slash - pattern);
}

/* Match one component [p, pe) of a pattern against [s, se). */
static bool match_component(const char *p, const char *pe, const char *s,
			    const char *se)
{
	const char *star_p = NULL, *star_s = NULL;

	/* The classic two-pointer wildcard match: linear backtracking. */
	while (s < se) {
		if (p < pe && (*p == '?' || *p == *s)) {
			p++;
			s++;
		} else if (p < pe && *p == '*') {
			star_p = p++;
			star_s = s;
		} else if (star_p) {
			p = star_p + 1;
			s = ++star_s;
		} else {
			return false;
		}
	}
	while (p < pe && *p == '*')
		p++;
	return p == pe;
}

struct comp {
	const char *s, *e;
};

static size_t split(const char *path, struct comp *v, size_t max)
{
	size_t n = 0;
	const char *p = path;

	while (*p) {
		while (*p == '/')
			p++;
		if (!*p)
			break;
		if (n == max)
			return max + 1;
		v[n].s = p;
		while (*p && *p != '/')
			p++;
		v[n++].e = p;
	}
	return n;
}

static bool is_globstar(const struct comp *c)
{
	return c->e - c->s == 2 && c->s[0] == '*' && c->s[1] == '*';
}

bool fbac_pattern_match(const char *pattern, const char *path)
{
	struct comp pc[FBAC_MAX_PATH_DEPTH], sc[FBAC_MAX_PATH_DEPTH];
	size_t np = split(pattern, pc, FBAC_MAX_PATH_DEPTH);
	size_t ns = split(path, sc, FBAC_MAX_PATH_DEPTH);
	size_t i = 0, j = 0, star_i = (size_t)-1, star_j = 0;

	if (np > FBAC_MAX_PATH_DEPTH || ns > FBAC_MAX_PATH_DEPTH)
		return false;
	/* The same two-pointer match one level up: '**' is the star. */
	while (j < ns) {
		if (i < np && is_globstar(&pc[i])) {
			star_i = i++;
			star_j = j;
		} else if (i < np && match_component(pc[i].s, pc[i].e, sc[j].s,
						     sc[j].e)) {
			i++;
			j++;
		} else if (star_i != (size_t)-1) {
			i = star_i + 1;
			j = ++star_j;
		} else {
			return false;
		}
	}
	while (i < np && is_globstar(&pc[i]))
		i++;
	return i == np;
}

bool fbac_path_is_under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == 0 || path[n] == '/');
}

unsigned fbac_path_depth(const char *path, size_t len)
{
	unsigned d = 0;

	for (size_t i = 0; i < len; i++)
		if (path[i] == '/' && i + 1 < len)
			d++;
	return d;
}
