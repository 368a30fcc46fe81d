/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac export --apparmor: globs, modes, the comments naming where rules
 * come from, and the list of what AppArmor cannot say.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export-aa.h"
#include "fbac-limits.h"

void add_to(struct out *o, struct list *l, const char *pattern)
{
	for (size_t i = 0; i < l->n; i++)
		if (streq(l->v[i], pattern))
			return;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 64;
		const char **n = realloc(l->v, cap * sizeof(*n));

		if (!n) {
			o->err = -ENOMEM;
			return;
		}
		l->v = n;
		l->cap = cap;
	}
	l->v[l->n++] = pattern;
}

/* A list of patterns as comment lines of at most about 78 columns. */
void print_list(FILE *f, const char *head, const struct list *l)
{
	size_t col;

	if (!l->n)
		return;
	fprintf(f, "#   %s\n#    ", head);
	col = 6;
	for (size_t i = 0; i < l->n; i++) {
		size_t n = strlen(l->v[i]) + 1;

		if (col + n > 78 && col > 6) {
			fprintf(f, "\n#    ");
			col = 6;
		}
		fprintf(f, " %s", l->v[i]);
		col += n;
	}
	fputc('\n', f);
}

void note(struct out *o, const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	if (o->n_notes == o->cap) {
		size_t cap = o->cap ? 2 * o->cap : 64;
		char **n = realloc(o->notes, cap * sizeof(*n));

		if (!n) {
			o->err = -ENOMEM;
			return;
		}
		o->notes = n;
		o->cap = cap;
	}
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		o->err = -ENOMEM;
	else
		o->notes[o->n_notes++] = s;
	va_end(ap);
}

/* "chain (file:line)", static buffer. */
const char *origin_text(const struct fbac_origin *or)
{
	static char buf[FBAC_MAX_PATH + 512];

	if (!or)
		return "the policy";
	snprintf(buf, sizeof(buf), "%s (%s:%u)", or->chain, or->mark.file, or->mark.line);
	return buf;
}

void from(struct out *o, const struct fbac_origin *or)
{
	if (or == o->last)
		return;
	fprintf(o->f, "\n  # from %s\n", origin_text(or));
	o->last = or;
}

/*
 * An fbac pattern as an AppArmor glob, quoted when it must be; the subtree
 * below it as well when tree is set. Return: 0, or -EINVAL for a character
 * AppArmor cannot take in a path.
 */
int aa_glob(const char *pat, bool tree, bool dir, char *buf, size_t size)
{
	char tmp[2 * FBAC_MAX_PATH + 16];
	size_t n = 0;
	bool quote = false;

	for (const char *p = pat; *p; p++) {
		if (n + 16 > sizeof(tmp))
			return -ENAMETOOLONG;
		if (!strncmp(p, "/**", 3) && (p[3] == '/' || !p[3])) {
			if (!p[3]) {
				n += (size_t)sprintf(tmp + n, "{,/**}");
				p += 2;
			} else {
				n += (size_t)sprintf(tmp + n, "/{,**/}");
				p += 3;
			}
			continue;
		}
		switch (*p) {
		case '*':
		case '?':
		case '/':
			tmp[n++] = *p;
			break;
		case '[': case ']': case '{': case '}': case '^':
		case '\\': case '"': case '@':
			tmp[n++] = '\\';
			tmp[n++] = *p;
			break;
		case ' ': case ',': case '#': case '=': case '(': case ')':
			quote = true;
			tmp[n++] = *p;
			break;
		default:
			if ((unsigned char)*p < 0x20 || *p == 0x7f)
				return -EINVAL;
			tmp[n++] = *p;
		}
	}
	tmp[n] = '\0';
	if (tree && !(n >= 6 && streq(tmp + n - 6, "{,/**}")))
		strcat(tmp, n && tmp[n - 1] == '/' ? "{,**}" : "{,/**}");
	else if (dir && (!n || tmp[n - 1] != '}'))
		strcat(tmp, "/");
	if ((size_t)snprintf(buf, size, quote ? "\"%s\"" : "%s", tmp) >= size)
		return -ENAMETOOLONG;
	return 0;
}

/* The AppArmor modes of ops for files, directories or both (a tree). */
void modes(uint32_t ops, enum form fm, bool deny, char *m)
{
	uint32_t rb = fm == FILES ? OPB(FILE_READ) :
		      fm == DIRS ? OPB(DIR_READ) : OPB(FILE_READ) | OPB(DIR_READ);
	uint32_t wb = fm == FILES ? W_FILE_OPS : fm == DIRS ? W_DIR_OPS : W_OPS;
	bool r = ops & rb, w = ops & wb;
	bool a = !w && (ops & OPB(FILE_APPEND)) && fm != DIRS;
	bool files = fm != DIRS;

	*m = '\0';
	if (!deny && r && files)
		strcat(m, "m");
	if (r)
		strcat(m, "r");
	if (w)
		strcat(m, "w");
	if (a)
		strcat(m, "a");
	if ((ops & OPB(FILE_LINK)) && files)
		strcat(m, "l");
	if (!deny && (r || w || a) && files)
		strcat(m, "k");
	if (deny && r && files)
		strcat(m, "m");
	if ((ops & OPB(FILE_EXECUTE)) && files)
		strcat(m, deny ? "x" : "ix");
}

const char *op_names(uint32_t ops)
{
	static char buf[512];

	buf[0] = '\0';
	for (unsigned i = 0; i < FBAC_OP_COUNT; i++)
		if (ops & FBAC_OP_BIT(i))
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
				 buf[0] ? "," : "", fbac_op_info(i)->name);
	return buf;
}
