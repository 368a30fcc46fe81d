/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/PID/stat and /proc/PID/status, parsed (procstat.h). */
#include "procstat.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

/* One unsigned decimal number at *p (after spaces), *p moved past it. */
static bool number(const char **p, const char *end, unsigned long long *out)
{
	const char *s = *p;
	unsigned long long v = 0;

	while (s < end && *s == ' ')
		s++;
	if (s < end && *s == '-')
		s++; /* tty_nr and the like are printed signed; none we keep */
	if (s >= end || *s < '0' || *s > '9')
		return false;
	for (; s < end && *s >= '0' && *s <= '9'; s++) {
		if (v > (~0ULL - 9) / 10)
			return false;
		v = v * 10 + (unsigned long long)(*s - '0');
	}
	if (s < end && *s != ' ' && *s != '\n')
		return false;
	*p = s;
	*out = v;
	return true;
}

int fbac_proc_stat_parse(const char *buf, size_t len, struct fbac_proc_stat *out)
{
	const char *end = buf + len, *p = NULL;
	unsigned long long f[23];

	memset(out, 0, sizeof(*out));
	for (const char *q = buf; q < end; q++)
		if (*q == ')')
			p = q;
	if (!p || p + 3 > end || p[1] != ' ')
		return -EBADMSG;
	{
		const char *s = buf;

		if (!number(&s, end, &f[1]) || s >= p)
			return -EBADMSG;
	}
	out->state = p[2];
	p += 3;
	/* Fields 4 (ppid) to 22 (starttime). */
	for (int i = 4; i <= 22; i++)
		if (!number(&p, end, &f[i]))
			return -EBADMSG;
	out->pid = (int)f[1];
	out->ppid = (int)f[4];
	out->session = (int)f[6];
	out->tty_nr = (unsigned long)f[7];
	out->flags = (unsigned long)f[9];
	out->start = f[22];
	return 0;
}

int fbac_proc_status_seccomp_filters(const char *buf, size_t len)
{
	static const char key[] = "Seccomp_filters:";
	const char *end = buf + len, *p = buf;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;

		if ((size_t)(le - p) >= sizeof(key) - 1 &&
		    !memcmp(p, key, sizeof(key) - 1)) {
			const char *s = p + sizeof(key) - 1;
			unsigned long long v;

			while (s < le && *s == '\t')
				s++;
			if (!number(&s, le, &v) || s != le || v > 1u << 20)
				return -EBADMSG;
			return (int)v;
		}
		p = le + 1;
	}
	return -ENOENT;
}
