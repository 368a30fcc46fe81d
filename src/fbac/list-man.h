/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One entry of fbac-functionalities(7) (list-man-entry.c): a
 * functionality, an application policy or a protected path as an item of
 * a tag list, its values as the YAML writes them.
 */
#ifndef FBAC_LIST_MAN_H
#define FBAC_LIST_MAN_H

#include <stdio.h>

#include "profile.h"

void man_functionality(FILE *f, const struct fbac_library *lib,
		       const struct fbac_functionality *fn);
void man_application(FILE *f, const struct fbac_library *lib,
		     const struct fbac_application *a);
void man_protected(FILE *f, const struct fbac_protected *p);

#endif
