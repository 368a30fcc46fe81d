/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for lib/jsonl.c, the reader of the denial log lines
 * 'fbac log' prints (a confined program cannot write the log, but a
 * damaged or foreign file must not crash the reader): every member name
 * fbac-run writes, looked up in the input, into a small and a large
 * buffer; the result must be 0 with a NUL-terminated value, or an errno.
 * Then every member in order, leniently and strictly (fbac learn's reading
 * in lib/propose-obs.c, which tests/fuzz/fuzz-learnlog.c drives further):
 * each refusal is -EINVAL or -ENAMETOOLONG with a diagnostic.
 *
 * `make fuzz` runs it; seeds come from tests/fuzz/corpus/jsonl/.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Every member in order, as fbac learn reads them (lib/propose-obs.c): a
 * refusal says why, and the walk ends at the object's end or an error. */
static void walk(const uint8_t *data, size_t size, bool strict)
{
	struct fbac_jsonl j;
	struct fbac_diag d = { 0 };
	char name[32], value[64];
	size_t n = 0;
	int r;

	if (fbac_jsonl_open(&j, (const char *)data, size, strict, &d) < 0) {
		if (!fbac_diag_isset(&d))
			abort();
		return;
	}
	while ((r = fbac_jsonl_next(&j, name, sizeof(name))) > 0) {
		if (!memchr(name, 0, sizeof(name)) || ++n > size)
			abort();
		r = fbac_jsonl_value(&j, n % 2 ? value : NULL, sizeof(value),
				     n % 3 == 0);
		if (r == 0 && n % 2 && !memchr(value, 0, sizeof(value)))
			abort();
		if (r < 0)
			break;
	}
	if (r < 0 &&
	    ((r != -EINVAL && r != -ENAMETOOLONG) || !fbac_diag_isset(&d)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = { "time", "pid", "exe", "object",
					    "operation", "decision", "x" };
	char small[4], big[256];

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		char *bufs[2] = { small, big };
		size_t sizes[2] = { sizeof(small), sizeof(big) };

		for (int b = 0; b < 2; b++) {
			int r = fbac_jsonl_get((const char *)data, size, keys[i],
					       bufs[b], sizes[b]);

			if (r == 0 && !memchr(bufs[b], 0, sizes[b]))
				abort();
			if (r != 0 && r != -ENOENT && r != -EINVAL &&
			    r != -ENAMETOOLONG)
				abort();
		}
	}
	walk(data, size, false);
	walk(data, size, true);
	return 0;
}
