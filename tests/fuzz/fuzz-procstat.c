/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer harness for lib/procstat.c, the parser of /proc/PID/stat and
 * /proc/PID/status that fbac-run's supervisor reads to tell the processes
 * of a nested run (a process names itself in stat's command field, which
 * may hold anything): the input parsed as both, with no copy beyond its
 * length; a refusal is -EBADMSG (stat) or -ENOENT and -EBADMSG (status).
 *
 * `make fuzz` runs it; seeds come from tests/fuzz/corpus/procstat/.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "procstat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fbac_proc_stat st;
	int r = fbac_proc_stat_parse((const char *)data, size, &st);

	if (r != 0 && r != -EBADMSG)
		abort();
	r = fbac_proc_status_seccomp_filters((const char *)data, size);
	if (r < 0 && r != -ENOENT && r != -EBADMSG)
		abort();
	return 0;
}
