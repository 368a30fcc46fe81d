/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A compiled policy summed up for people (fbac show, fbac-run --check). */
#ifndef FBAC_SUMMARY_H
#define FBAC_SUMMARY_H

#include <stdio.h>

#include "policy.h"

/*
 * What p grants by kind (a few paths of each, with how many more), its
 * network grants and carve-outs, the protected paths it reaches (with the
 * operations) and those it does not, the functionalities it includes
 * (from its rules' origins, so a cached policy gives the same), and the
 * kernel's part. Paths under home (may be NULL) are written "~/...".
 */
void print_policy_summary(FILE *f, const struct fbac_policy *p,
			  const char *home);

#endif
