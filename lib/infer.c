/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "infer.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "macro.h"
#include "path.h"

bool fbac_infer_list_has(const char *buf, size_t len, const char *path)
{
	size_t pl = strlen(path);
	const char *p = buf, *end = buf + len;

	if (!pl)
		return false;
	/* memmem, not line by line: all of dpkg's lists may be searched. */
	while ((p = memmem(p, (size_t)(end - p), path, pl))) {
		if ((p == buf || p[-1] == '\n') &&
		    (p + pl == end || p[pl] == '\n'))
			return true;
		p++;
	}
	return false;
}

/* A program's settings under /etc may be one file named after it
 * (/etc/wgetrc, /etc/s-nail.rc, /etc/NAME.conf). */
static const char *const etc_suffixes[] = { "", "rc", ".rc", ".conf" };

/* fbac_infer_list_child() one candidate at a time, each a search of all
 * of buf: for a name or folder with a newline in it, which such a search
 * may find across lines. */
static int list_child_each(const char *buf, size_t len, const char *dir,
			   const char *const *names, size_t n, char *out,
			   size_t size)
{
	bool etc = !strcmp(dir, "/etc");
	char path[4096];

	for (size_t s = 0; s < (etc ? ARRAY_SIZE(etc_suffixes) : 1); s++)
		for (size_t i = 0; i < n; i++) {
			int l;

			if (!names[i][0] || strchr(names[i], '/'))
				continue;
			l = snprintf(path, sizeof(path), "%s/%s%s", dir,
				     names[i], etc_suffixes[s]);
			if (l >= (int)sizeof(path) ||
			    !fbac_infer_list_has(buf, len, path))
				continue;
			if (strlen(path + strlen(dir) + 1) >= size)
				return -ENAMETOOLONG;
			memcpy(out, path + strlen(dir) + 1,
			       strlen(path + strlen(dir) + 1) + 1);
			return 0;
		}
	return -ENOENT;
}

/* Whether line (len bytes, no newline) is dir/NAMESUFFIX. */
static bool line_is(const char *line, size_t len, const char *dir, size_t dl,
		    const char *name, const char *suffix)
{
	size_t nl = strlen(name), sl = strlen(suffix);

	return len == dl + 1 + nl + sl && dl + 1 + nl + sl < 4096 &&
	       !memcmp(line, dir, dl) && line[dl] == '/' &&
	       !memcmp(line + dl + 1, name, nl) &&
	       !memcmp(line + dl + 1 + nl, suffix, sl);
}

/*
 * One pass over the lines of buf instead of a search of all of it for
 * each candidate (names times suffixes: 16 over coreutils' 12 kB for
 * /bin/true): the line of the first candidate in their order, as the
 * searches would find it, since a line equal to one is what a search
 * finds when no newline is in either.
 */
int fbac_infer_list_child(const char *buf, size_t len, const char *dir,
			  const char *const *names, size_t n, char *out,
			  size_t size)
{
	size_t ns = !strcmp(dir, "/etc") ? ARRAY_SIZE(etc_suffixes) : 1;
	size_t dl = strlen(dir), best = SIZE_MAX, want;
	const char *p = buf, *end = buf + len;

	if (strchr(dir, '\n'))
		return list_child_each(buf, len, dir, names, n, out, size);
	for (size_t i = 0; i < n; i++)
		if (strchr(names[i], '\n'))
			return list_child_each(buf, len, dir, names, n, out,
					       size);
	while (p < end && best) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if ((size_t)(le - p) > dl + 1 && !memcmp(p, dir, dl) &&
		    p[dl] == '/')
			for (size_t k = 0; k < ns * n && k < best; k++) {
				const char *name = names[k % n];

				if (name[0] && !strchr(name, '/') &&
				    line_is(p, (size_t)(le - p), dir, dl, name,
					    etc_suffixes[k / n]))
					best = k;
			}
		p = le + 1;
	}
	if (best == SIZE_MAX)
		return -ENOENT;
	want = strlen(names[best % n]) + strlen(etc_suffixes[best / n]);
	if (want >= size)
		return -ENAMETOOLONG;
	snprintf(out, size, "%s%s", names[best % n], etc_suffixes[best / n]);
	return 0;
}

int fbac_infer_short_name(const char *base, char *out, size_t size)
{
	size_t n = strlen(base), cut = n;
	const char *dot = strchr(base, '.');
	const char *dash = strstr(base, "-im");

	/* "convert-im6.q16": ImageMagick's versioned names. */
	if (dash && dash > base && isdigit((unsigned char)dash[3]))
		cut = (size_t)(dash - base);
	else if (dot && dot > base)
		cut = (size_t)(dot - base);
	if (cut >= size)
		return -ENAMETOOLONG;
	memcpy(out, base, cut);
	out[cut] = 0;
	return 0;
}

const char *fbac_infer_arg_path(const char *arg)
{
	const char *eq, *colon;

	if (!arg[0] || streq(arg, "-") || streq(arg, "--"))
		return NULL;
	if (arg[0] == '-') {
		eq = strchr(arg, '=');
		if (arg[1] != '-' || !eq || !eq[1])
			return NULL;
		arg = eq + 1;
	}
	if (strstr(arg, "://"))
		return NULL;
	/* user@host, host:path: not local (a local path with ':' or '@'
	 * in its first component is written ./x:y). */
	colon = strpbrk(arg, ":@");
	if (colon && (!strchr(arg, '/') || strchr(arg, '/') > colon))
		return NULL;
	return arg;
}

int fbac_infer_url_port(const char *arg)
{
	const char *p = strstr(arg, "://"), *end, *colon;
	unsigned long port = 0;

	if (!p)
		return -ENOENT;
	p += 3;
	end = p + strcspn(p, "/?#");
	/* user@host: the host starts after the last '@'. */
	for (const char *at = memchr(p, '@', (size_t)(end - p)); at;
	     at = memchr(p, '@', (size_t)(end - p)))
		p = at + 1;
	if (*p == '[') { /* [IPv6]:port */
		const char *rb = memchr(p, ']', (size_t)(end - p));

		if (!rb)
			return -ENOENT;
		p = rb + 1;
	}
	colon = memchr(p, ':', (size_t)(end - p));
	if (!colon || colon + 1 == end)
		return -ENOENT;
	for (const char *d = colon + 1; d < end; d++) {
		if (!isdigit((unsigned char)*d))
			return -ENOENT;
		port = port * 10 + (unsigned long)(*d - '0');
		if (port > 65535)
			return -ENOENT;
	}
	return port ? (int)port : -ENOENT;
}

bool fbac_infer_looks_like_file(const char *arg)
{
	return strchr(arg, '/') || (arg[0] && strchr(arg + 1, '.'));
}

int fbac_infer_file_values(const char *path, char out[][4096], size_t n)
{
	static const char *const swap[] = { "swp", "swo", "swn", "swx" };
	static const char *const journal[] = { "-journal", "-wal", "-shm" };
	const char *slash = strrchr(path, '/');
	int dl;
	size_t k = 0;

	if (!slash || n < FBAC_INFER_FILE_VALUES)
		return -EINVAL;
	dl = (int)(slash - path);
	if (snprintf(out[k++], 4096, "%s", path) >= 4096)
		return -ENAMETOOLONG;
	for (size_t i = 0; i < ARRAY_SIZE(swap); i++)
		if (snprintf(out[k++], 4096, "%.*s/.%s.%s", dl, path, slash + 1,
			     swap[i]) >= 4096)
			return -ENAMETOOLONG;
	if (snprintf(out[k++], 4096, "%s~", path) >= 4096 ||
	    snprintf(out[k++], 4096, "%.*s/4913", dl, path) >= 4096)
		return -ENAMETOOLONG;
	for (size_t i = 0; i < ARRAY_SIZE(journal); i++)
		if (snprintf(out[k++], 4096, "%s%s", path, journal[i]) >= 4096)
			return -ENAMETOOLONG;
	return (int)k;
}

int fbac_infer_escape(const char *s, char *out, size_t size)
{
	size_t o = 0;

	for (; *s; s++) {
		if (*s == ',' || iscntrl((unsigned char)*s))
			return -EINVAL;
		if (o + 2 >= size)
			return -ENAMETOOLONG;
		if (*s == '$')
			out[o++] = '$';
		out[o++] = *s;
	}
	if (o >= size)
		return -ENAMETOOLONG;
	out[o] = 0;
	return 0;
}

bool fbac_infer_cwd_ok(const char *cwd, const char *home)
{
	if (!cwd[0] || streq(cwd, "/"))
		return false;
	return !fbac_path_is_under(home, cwd);
}
