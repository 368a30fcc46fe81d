/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Not an attack: the program the exec attacks try to run. The suite copies
 * it to ~/bin/prog-A (may run), ~/bin/prog-D (denied execute) and
 * ~/work/noexec-prog (in a directory without execute). It tells which copy
 * ran from the file name the kernel executed (AT_EXECFN; for a descriptor,
 * /dev/fd/N, the file /proc/self/exe names), or from argv[0] when it was
 * started by the dynamic loader (`ld.so PROGRAM`), and exits
 * 43 for prog-A, 42 for the denied ones, 44 otherwise. MARKER_QUIET=1
 * keeps it silent (exec races run it thousands of times).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "escape-common.h"

static const char *base(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;

	return s ? s + 1 : p ? p : "";
}

int main(int argc, char **argv)
{
	const char *fn = (const char *)getauxval(AT_EXECFN);
	const char *name = base(fn);
	char exe[4096];
	int code = MARKER_OTHER;

	if (fn && (!strncmp(fn, "/dev/fd/", 8) || !strncmp(fn, "/proc/", 6))) {
		ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

		if (n > 0) {
			exe[n] = 0;
			name = base(exe);
		}
	}
	if (!strncmp(name, "ld-linux", 8) && argc > 0)
		name = base(argv[0]);
	if (!strcmp(name, "prog-A"))
		code = MARKER_ALLOWED;
	else if (!strcmp(name, "prog-D") || !strcmp(name, "noexec-prog"))
		code = MARKER_DENIED;
	if (!getenv("MARKER_QUIET"))
		esc_out("MARKER-RAN %s (execfn %s, argv0 %s)\n",
			name, fn ? fn : "?", argc > 0 ? argv[0] : "?");
	(void)esc_name;
	return code;
}
