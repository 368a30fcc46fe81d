/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for lib/jsonl.c, the reader of the denial log lines
 * 'fbac log' prints (a confined program cannot write the log, but a
 * damaged or foreign file must not crash the reader): every member name
 * fbac-run writes, looked up in the input, into a small and a large
 * buffer; the result must be 0 with a NUL-terminated value, or an errno.
 *
 * `make fuzz` runs it; seeds come from tests/fuzz/corpus/jsonl/.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "jsonl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
	return 0;
}
