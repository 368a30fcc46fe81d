/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Desktop entries and dpkg status stanzas. */
#include <errno.h>
#include <string.h>

#include "desktop.h"
#include "fbac-limits.h"

/* The next line of [*pos, end): its start and length; *pos moves past it. */
static bool next_line(const char *buf, size_t len, size_t *pos,
		      const char **line, size_t *n)
{
	const char *nl;

	if (*pos >= len)
		return false;
	*line = buf + *pos;
	nl = memchr(*line, '\n', len - *pos);
	*n = nl ? (size_t)(nl - *line) : len - *pos;
	*pos += *n + (nl ? 1 : 0);
	if (*n && (*line)[*n - 1] == '\r')
		(*n)--;
	return true;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* A desktop-entry value with its escapes decoded. */
static char *unescape(struct fbac_arena *a, const char *s, size_t n)
{
	char *out = fbac_arena_alloc(a, n + 1), *o = out;

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\\' && i + 1 < n) {
			switch (s[++i]) {
			case 's': c = ' '; break;
			case 'n': c = '\n'; break;
			case 't': c = '\t'; break;
			case 'r': c = '\r'; break;
			case '\\': c = '\\'; break;
			default: /* \; stays for the list splitter */
				*o++ = '\\';
				c = s[i];
			}
		}
		*o++ = c;
	}
	*o = '\0';
	return out;
}

static int split_categories(struct fbac_arena *a, const char *v,
			    struct fbac_desktop *d)
{
	size_t n = 0, k = 0;

	for (const char *p = v; *p;) {
		size_t w = strcspn(p, ";");

		n += w > 0;
		p += w + (p[w] == ';');
	}
	if (n > FBAC_MAX_DESKTOP_CATEGORIES)
		return -E2BIG;
	d->categories = fbac_arena_array(a, n ? n : 1, sizeof(char *));
	if (!d->categories)
		return -ENOMEM;
	for (const char *p = v; *p;) {
		size_t w = strcspn(p, ";");

		if (w > 0 &&
		    !(d->categories[k++] = fbac_arena_strndup(a, p, w)))
			return -ENOMEM;
		p += w + (p[w] == ';');
	}
	d->n_categories = k;
	return 0;
}

static bool is_true(const char *v)
{
	return strcmp(v, "true") == 0;
}

static bool key_is(const char *line, size_t klen, const char *key)
{
	return strlen(key) == klen && memcmp(line, key, klen) == 0;
}

int fbac_desktop_parse(const char *buf, size_t len, struct fbac_arena *a,
		       struct fbac_desktop *ret)
{
	const char *line, *cats = NULL;
	size_t pos = 0, n;
	bool in_group = false, found = false, have_term = false;

	*ret = (struct fbac_desktop){ 0 };
	if (memchr(buf, '\0', len))
		return -EINVAL;
	while (next_line(buf, len, &pos, &line, &n)) {
		const char *eq, *v;
		size_t klen, vlen;
		char *val;

		if (n && line[0] == '[') {
			in_group = n == 15 && !memcmp(line, "[Desktop Entry]", 15);
			if (in_group && found)
				in_group = false; /* a second group: ignored */
			found |= in_group;
			continue;
		}
		if (!in_group || !n || line[0] == '#')
			continue;
		eq = memchr(line, '=', n);
		if (!eq)
			continue;
		klen = (size_t)(eq - line);
		while (klen && is_space(line[klen - 1]))
			klen--;
		v = eq + 1;
		vlen = n - (size_t)(v - line);
		while (vlen && is_space(*v))
			v++, vlen--;
		if (memchr(line, '[', klen))
			continue; /* Name[fr]=... */
		if (!(val = unescape(a, v, vlen)))
			return -ENOMEM;
		if (key_is(line, klen, "Name") && !ret->name)
			ret->name = val;
		else if (key_is(line, klen, "Comment") && !ret->comment)
			ret->comment = val;
		else if (key_is(line, klen, "Exec") && !ret->exec)
			ret->exec = val;
		else if (key_is(line, klen, "Categories") && !cats)
			cats = val;
		else if (key_is(line, klen, "Terminal") && !have_term)
			ret->terminal = is_true(val), have_term = true;
		else if ((key_is(line, klen, "NoDisplay") ||
			  key_is(line, klen, "Hidden")) && is_true(val))
			ret->no_display = true;
	}
	if (!found)
		return -ENOENT;
	return cats ? split_categories(a, cats, ret) : 0;
}

int fbac_desktop_exec_name(const char *exec, char *buf, size_t size)
{
	const char *p = exec;
	bool after_env = false;

	for (;;) {
		const char *w, *base;
		size_t n;
		char quote = 0;

		while (is_space(*p))
			p++;
		if (!*p)
			return -ENOENT;
		if (*p == '"' || *p == '\'')
			quote = *p++;
		w = p;
		while (*p && (quote ? *p != quote : !is_space(*p)))
			p++;
		n = (size_t)(p - w);
		if (quote && *p)
			p++;
		if (n == 0)
			continue;
		if (!after_env && n == 3 && !memcmp(w, "env", 3)) {
			after_env = true;
			continue;
		}
		if (after_env && memchr(w, '=', n))
			continue;
		base = w;
		for (size_t i = 0; i < n; i++)
			if (w[i] == '/')
				base = w + i + 1;
		n -= (size_t)(base - w);
		if (n == 0)
			return -ENOENT;
		if (n >= size)
			return -ENAMETOOLONG;
		memcpy(buf, base, n);
		buf[n] = '\0';
		return 0;
	}
}

/* One stanza's fields of interest, as spans of the text. */
struct stanza {
	const char *package, *section, *status, *desc;
	size_t package_n, section_n, status_n, desc_n;
	const char *desc_end; /* the Description with its continuation lines */
};

static void trim(const char **s, size_t *n)
{
	while (*n && is_space(**s))
		(*s)++, (*n)--;
	while (*n && is_space((*s)[*n - 1]))
		(*n)--;
}

static int fill(const struct stanza *st, struct fbac_arena *a,
		struct fbac_dpkg_package *ret)
{
	size_t n = st->desc_end ? (size_t)(st->desc_end - st->desc) : 0;
	char *d, *o;

	*ret = (struct fbac_dpkg_package){ 0 };
	ret->package = fbac_arena_strndup(a, st->package, st->package_n);
	ret->section = st->section ?
			       fbac_arena_strndup(a, st->section, st->section_n) :
			       NULL;
	ret->summary = st->desc ? fbac_arena_strndup(a, st->desc, st->desc_n) :
				  NULL;
	ret->installed = st->status_n >= 10 &&
			 !memcmp(st->status + st->status_n - 10, " installed", 10);
	if (!ret->package || (st->section && !ret->section) ||
	    (st->desc && !ret->summary))
		return -ENOMEM;
	if (!st->desc)
		return 0;
	/* The long description: continuation lines joined by spaces, the
	 * paragraph marks (" .") dropped. */
	d = o = fbac_arena_alloc(a, n + 1);
	if (!d)
		return -ENOMEM;
	for (const char *p = st->desc; p < st->desc_end;) {
		const char *nl = memchr(p, '\n', (size_t)(st->desc_end - p));
		size_t ln = nl ? (size_t)(nl - p) : (size_t)(st->desc_end - p);
		const char *l = p;

		p += ln + (nl ? 1 : 0);
		trim(&l, &ln);
		if (ln == 1 && l[0] == '.')
			continue;
		if (o != d && ln)
			*o++ = ' ';
		memcpy(o, l, ln);
		o += ln;
	}
	*o = '\0';
	ret->description = d;
	return 0;
}

int fbac_dpkg_find(const char *buf, size_t len, const char *package,
		   struct fbac_arena *a, struct fbac_dpkg_package *ret)
{
	struct stanza st = { 0 }, first = { 0 };
	const char *line;
	size_t pos = 0, n, plen = strlen(package);
	bool in_desc = false, have_first = false;

	*ret = (struct fbac_dpkg_package){ 0 };
	if (memchr(buf, '\0', len))
		return -EINVAL;
	for (;;) {
		bool more = next_line(buf, len, &pos, &line, &n);

		if (!more || n == 0) {
			/* End of a stanza. */
			if (st.package && st.package_n == plen &&
			    !memcmp(st.package, package, plen)) {
				bool inst = st.status_n >= 10 &&
					    !memcmp(st.status + st.status_n - 10,
						    " installed", 10);

				if (inst)
					return fill(&st, a, ret);
				if (!have_first)
					first = st, have_first = true;
			}
			st = (struct stanza){ 0 };
			in_desc = false;
			if (!more)
				break;
			continue;
		}
		if (is_space(line[0])) {
			if (in_desc)
				st.desc_end = line + n;
			continue;
		}
		in_desc = false;
		const char *colon = memchr(line, ':', n);
		const char *v;
		size_t klen, vlen;

		if (!colon)
			continue;
		klen = (size_t)(colon - line);
		v = colon + 1;
		vlen = n - klen - 1;
		trim(&v, &vlen);
		if (key_is(line, klen, "Package"))
			st.package = v, st.package_n = vlen;
		else if (key_is(line, klen, "Section"))
			st.section = v, st.section_n = vlen;
		else if (key_is(line, klen, "Status"))
			st.status = v, st.status_n = vlen;
		else if (key_is(line, klen, "Description")) {
			st.desc = v, st.desc_n = vlen;
			st.desc_end = v + vlen;
			in_desc = true;
		}
	}
	if (!have_first)
		return -ENOENT;
	return fill(&first, a, ret);
}
