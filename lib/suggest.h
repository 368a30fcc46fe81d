/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which functionalities of the library would allow an operation: the
 * answer behind "denied ...; granted by SSH_Client", and the first step
 * of learning a policy in terms of functionalities.
 */
#ifndef FBAC_SUGGEST_H
#define FBAC_SUGGEST_H

#include "fbac-limits.h"
#include "policy.h"

struct fbac_suggestion {
	const struct fbac_functionality *f;
	const char *fill; /* value given to its required path parameters */
	/* Or one parameter set to the query's port, host or folder (param
	 * NULL: none): HTTP_Client with ports=8000. */
	const char *param;
	char value[FBAC_MAX_PATH];
	size_t size;	  /* rules it grants: smaller is more precise */
};

/* The value a parameter of type t needs for q to be allowed: the port,
 * the host, or for a path type the folder fill_dir; NULL when q has none
 * of that kind. */
const char *fbac_suggest_value(const struct fbac_query *q, enum fbac_ptype t,
			       const char *fill_dir, char *buf, size_t size);

/*
 * The directory whose name fills required path parameters when
 * suggesting for q: the parent of an absolute path, in buf; or NULL
 * (also under /proc/PID: a folder of another process is never offered).
 */
const char *fbac_suggest_fill_dir(const struct fbac_query *q, char *buf,
				  size_t size);

/*
 * Up to max functionalities that allow q on their own, most precise
 * first: those needing no argument, then those whose required path
 * parameters are set to fill_dir (may be NULL: not tried), then those
 * with one parameter set to q's port, host or fill_dir (a parameterised
 * grant: param and value set). Return: 0 and *ret_n, or -ENOMEM.
 */
int fbac_suggest(const struct fbac_library *lib, const struct fbac_env *env,
		 const struct fbac_query *q, const char *fill_dir,
		 struct fbac_suggestion *out, size_t max, size_t *ret_n);

/*
 * Drop the parameterised grants from sug (n of them), keeping the order:
 * under a protected path, a parameter of another functionality is never
 * offered the object. Return: how many are left.
 */
size_t fbac_suggest_drop_params(struct fbac_suggestion *sug, size_t n);

#endif
