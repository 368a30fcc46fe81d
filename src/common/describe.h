/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Printing policies and their provenance for people (fbac, fbac-run). */
#ifndef FBAC_DESCRIBE_H
#define FBAC_DESCRIBE_H

#include <stdio.h>

#include "policy.h"
#include "stack.h"
#include "resolve.h"

void print_origin(FILE *f, const struct fbac_origin *o);
void print_ops(FILE *f, uint32_t ops);
/* What decided a policy's metadata visibility, on one line (no newline). */
void print_metadata_why(FILE *f, const struct fbac_resolved *res);
/* "metadata: visible|mediated, from WHY" on a line of its own. */
void print_policy_metadata(FILE *f, const struct fbac_policy *p);
/* Metadata visibility, privileges, protected paths, kernel plan, gaps. */
void print_policy(FILE *f, const struct fbac_policy *p);
/* The kernel's TCP ports ("  tcp connect: ...", "  tcp bind: ..."). */
void print_kernel_ports(FILE *f, const struct fbac_policy *p);
/* What a stack entry is there for, as " (...)", or nothing: the
 * administrator's ceiling, a user's policy that replaces the library's. */
void print_layer_role(FILE *f, const struct fbac_stack_entry *e);

#endif
