/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac export: other systems' policy languages. */
#ifndef FBAC_EXPORT_H
#define FBAC_EXPORT_H

#include <stdio.h>

#include "layers.h"
#include "policy.h"

/*
 * Write app's compiled policy pol (of the loaded layers l) to f as an
 * AppArmor profile. Return: 0, -EIO, -ENOMEM.
 */
int export_apparmor(FILE *f, const struct layers *l,
		    const struct fbac_application *app,
		    const struct fbac_policy *pol);

#endif
