/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Application policy documents: the program's name, its executables,
 * the functionalities it is granted, its own privileges.
 */
#include "profile-int.h"

#include <errno.h>
#include <string.h>

#include "fbac-limits.h"
#include "path.h"

int ld_parse_application(struct loader *ld, const struct fbac_ynode *doc)
{
	static const char *const keys[] = {
		"fbac",	       "application",	  "description",
		"executables", "functionalities", "privileges",
		"denied",      "metadata",	  "sandbox_fallback",
		NULL
	};
	struct fbac_application *a;
	const struct fbac_ynode *v = NULL, **exes = NULL;
	int r;

	if ((r = ld_check_keys(ld, doc, "an application", keys)) < 0)
		return r;
	a = fbac_arena_alloc(ld->arena, sizeof(*a));
	if (!a)
		return -ENOMEM;
	a->layer = ld->layer;
	v = fbac_ymap_get(doc, "application");
	if ((r = ld_expect_text(ld, v, "'application'")) < 0)
		return r;
	if (!ld_app_name_ok(v->value))
		return fbac_diag_at(
			ld->diag, &v->mark, -EINVAL,
			"invalid application name '%s' (expected lower case letters, digits and '._+-')",
			v->value);
	a->name = v->value;
	a->mark = v->mark;
	if ((v = fbac_ymap_get(doc, "description"))) {
		if ((r = ld_expect_text(ld, v, "'description'")) < 0)
			return r;
		a->description = v->value;
	}
	if (((v = fbac_ymap_get(doc, "metadata")) &&
	     (r = ld_parse_metadata(ld, v, &a->metadata, &a->metadata_mark)) <
		     0) ||
	    (r = fbac_app_sandbox_fallback(doc, ld->arena, ld->diag, a)) < 0)
		return r;
	if ((r = ld_required(ld, doc, "executables", "an application", &v)) < 0)
		return r;
	if ((r = ld_scalar_list(ld, v, "'executables'", &exes,
				&a->n_executables)) < 0)
		return r;
	a->exe_marks = fbac_arena_array(ld->arena, a->n_executables,
					sizeof(*a->exe_marks));
	if (!a->exe_marks)
		return -ENOMEM;
	if (a->n_executables > FBAC_MAX_EXECUTABLES)
		return fbac_diag_at(ld->diag, &v->mark, -E2BIG,
				    "more than %d executables",
				    FBAC_MAX_EXECUTABLES);
	a->executables = fbac_arena_array(ld->arena, a->n_executables,
					  sizeof(char *));
	if (!a->executables)
		return -ENOMEM;
	for (size_t i = 0; i < a->n_executables; i++) {
		char norm[FBAC_MAX_PATH];
		const char *why;

		if (fbac_path_normalize(exes[i]->value, norm, sizeof(norm),
					&why) < 0)
			return fbac_diag_at(ld->diag, &exes[i]->mark, -EINVAL,
					    "executable '%s': %s",
					    exes[i]->value, why);
		if (strpbrk(norm, "*?$"))
			return fbac_diag_at(
				ld->diag, &exes[i]->mark, -EINVAL,
				"executable '%s': wildcards and variables are not allowed here",
				exes[i]->value);
		a->executables[i] = fbac_arena_strdup(ld->arena, norm);
		if (!a->executables[i])
			return -ENOMEM;
		a->exe_marks[i] = exes[i]->mark;
	}
	if ((r = ld_required(ld, doc, "functionalities", "an application", &v)) <
	    0)
		return r;
	if ((r = ld_parse_includes(ld, v, "'functionalities'", &a->grants,
				   &a->n_grants)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "privileges")) &&
	    (r = ld_parse_privs(ld, v, false, &a->privs, &a->n_privs)) < 0)
		return r;
	if ((v = fbac_ymap_get(doc, "denied")) &&
	    (r = ld_parse_privs(ld, v, true, &a->privs, &a->n_privs)) < 0)
		return r;

	r = fbac_arena_grow(ld->arena, (void **)&ld->p.apps, &ld->p.cap_apps,
			    ld->p.n_apps + 1, sizeof(a));
	if (r < 0)
		return r;
	ld->p.apps[ld->p.n_apps++] = a;
	return 0;
}
