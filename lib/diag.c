/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "diag.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

int fbac_diag_at(struct fbac_diag *d, const struct fbac_mark *mark, int err,
		 const char *fmt, ...)
{
	va_list ap;

	/* The first error is the one that explains the others: keep it. */
	if (!d || fbac_diag_isset(d))
		return err;
	d->file[0] = 0;
	d->line = d->col = 0;
	if (mark) {
		if (mark->file)
			snprintf(d->file, sizeof(d->file), "%s", mark->file);
		d->line = mark->line;
		d->col = mark->col;
	}
	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	if (!d->msg[0])
		snprintf(d->msg, sizeof(d->msg), "%s", "error");
	return err;
}

void fbac_diag_clear(struct fbac_diag *d)
{
	if (d)
		memset(d, 0, sizeof(*d));
}

int fbac_diag_isset(const struct fbac_diag *d)
{
	return d && d->msg[0];
}

int fbac_diag_format(const struct fbac_diag *d, char *buf, size_t size)
{
	if (d->file[0] && d->line)
		return snprintf(buf, size, "%s:%u:%u: %s", d->file, d->line,
				d->col, d->msg);
	if (d->file[0])
		return snprintf(buf, size, "%s: %s", d->file, d->msg);
	return snprintf(buf, size, "%s", d->msg);
}

int fbac_diags_add(struct fbac_diags *l, const struct fbac_diag *d)
{
	if (l->n >= FBAC_MAX_PROBLEMS) {
		l->dropped++;
		return 0;
	}
	if (!l->v && !(l->v = calloc(FBAC_MAX_PROBLEMS, sizeof(*l->v))))
		return -ENOMEM;
	l->v[l->n++] = *d;
	return 0;
}

void fbac_diags_free(struct fbac_diags *l)
{
	free(l->v);
	*l = (struct fbac_diags){ 0 };
}
