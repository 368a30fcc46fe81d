/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac show --for PROGRAM TYPE: the values fbac-run --as TYPE PROGRAM
 * would use, and where each comes from. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

#include "fbac.h"
#include "output.h"

int show_for_values(const struct layers *l, const char *program,
		    const struct fbac_functionality *f,
		    const struct fbac_define *defs, size_t n_defs,
		    struct params *pp)
{
	_cleanup_free_ struct infer_program *ip = calloc(1, sizeof(*ip));
	char *argv[] = { (char *)program, NULL };
	const char *as[] = { f->name };
	struct params_input in = {
		.lib = l->lib, .env = &l->env, .trusted_env = &l->trusted_env,
		.as = as, .n_as = 1, .defs = defs, .n_defs = n_defs,
	};
	char exe[PATH_MAX];
	int r;

	if (!ip)
		return log_error(-ENOMEM, "out of memory");
	if ((r = infer_find_program(program, exe, sizeof(exe))) < 0) {
		errno = -r;
		return log_error(r, "cannot find program '%s': %m", program);
	}
	infer_program(program, exe, argv, &l->env, true, ip);
	in.ip = ip;
	if ((r = params_fill(&in, pp)) < 0)
		return r;
	printf("values for '%s' (%s) as %s:\n", program, exe, f->name);
	params_print(stdout, "  ", pp);
	printf("  (the other parameters take their defaults; keep a value with 'fbac set %s %s.PARAM=VALUE')\n",
	       pp->cmd, f->name);
	return 0;
}
