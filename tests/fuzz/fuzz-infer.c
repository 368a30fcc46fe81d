/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for the pure half of inference (lib/infer.c): the
 * input as a dpkg file list searched for its own lines, and split at NUL
 * bytes into command-line arguments (paths, URL ports, editor files,
 * escaping). Nothing may crash or read out of bounds, and the results
 * must keep their promises (a port in 1..65535, an escaped value without
 * a lone '$', a path argument inside its argument).
 *
 * `make fuzz` runs it; seeds come from tests/fuzz/corpus/infer/.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "infer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one_arg(const char *arg, const char *list, size_t len)
{
	static char out[FBAC_INFER_FILE_VALUES][4096];
	char esc[4096], name[256];
	const char *names[2] = { arg, "x" };
	const char *p = fbac_infer_arg_path(arg);
	int port = fbac_infer_url_port(arg);

	if (p && (p < arg || p > arg + strlen(arg)))
		abort();
	if (port != -ENOENT && (port < 1 || port > 65535))
		abort();
	(void)fbac_infer_looks_like_file(arg);
	if (arg[0] == '/')
		(void)fbac_infer_file_values(arg, out, FBAC_INFER_FILE_VALUES);
	if (fbac_infer_escape(arg, esc, sizeof(esc)) == 0)
		for (const char *d = strchr(esc, '$'); d; d = strchr(d + 2, '$'))
			if (d[1] != '$')
				abort();
	(void)fbac_infer_short_name(arg, name, sizeof(name));
	(void)fbac_infer_cwd_ok(arg, "/home/u");
	(void)fbac_infer_list_has(list, len, arg);
	(void)fbac_infer_list_child(list, len, "/usr/lib", names, 2, name,
				    sizeof(name));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	size_t i = 0;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	buf[size] = 0;
	/* Each NUL-terminated piece is an argument; the whole a list. */
	while (i <= size) {
		size_t n = strlen(buf + i);

		if (n < 4000)
			one_arg(buf + i, (const char *)data, size);
		i += n + 1;
	}
	free(buf);
	return 0;
}
