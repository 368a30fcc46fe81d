/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "output.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>

const char *program_name_short = "fbac";

int log_error(int r, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", program_name_short);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return r;
}

/* A log setting: how many problems this run printed, and held back. */
static size_t problems_shown, problems_unshown;

int log_problem(int r, const struct fbac_diag *d)
{
	if (problems_shown >= FBAC_MAX_PROBLEMS) {
		problems_unshown++;
		return r;
	}
	problems_shown++;
	return log_diag(r, d);
}

void log_problems_held_back(size_t n)
{
	problems_unshown += n;
}

size_t log_problems_unshown(void)
{
	return problems_unshown;
}

int log_diag(int r, const struct fbac_diag *d)
{
	char buf[FBAC_MAX_PATH + FBAC_MAX_DIAG + 32];

	if (!fbac_diag_isset(d)) {
		if (r == -ENOMEM)
			return log_error(r, "out of memory");
		return log_error(r, "failed: %s", strerror(-r));
	}
	fbac_diag_format(d, buf, sizeof(buf));
	if (d->file[0])
		fprintf(stderr, "%s\n", buf);
	else
		fprintf(stderr, "%s: %s\n", program_name_short, buf);
	return r;
}

void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", f);
			break;
		case '\\':
			fputs("\\\\", f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		default:
			if (*p < 0x20)
				fprintf(f, "\\u%04x", *p);
			else
				fputc(*p, f);
		}
	}
	fputc('"', f);
}
