/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A stack of policies as the resolved rules each was compiled from, so
 * that a later start with the same inputs skips reading the library,
 * linking it and resolving (fbac-run's start-up). What is stored is what
 * fbac_policy_compile() takes: each entry's rules with their origins and
 * its protected paths; decoding compiles them again, so the kernel plan,
 * the gaps and every decision come from the code that runs.
 *
 * The caller names every input in key (the policy files and their
 * identities, the variables, the program, the command line): a blob
 * written under another key is stale, whatever its content. Decoding
 * trusts nothing: every length, count, index and enumeration is bounded
 * and checked. Whoever can write the blob still decides the policy: the
 * caller keeps it where no confined program may write (protected.yaml).
 */
#ifndef FBAC_SCACHE_H
#define FBAC_SCACHE_H

#include <stddef.h>

#include "diag.h"
#include "fbac-limits.h"
#include "stack.h"

/*
 * Encode st under key into a malloc'd buffer. Return: 0, -E2BIG beyond
 * the limits, -EINVAL for an entry without its resolved rules, or
 * -ENOMEM.
 */
int fbac_scache_encode(const void *key, size_t key_len,
		       const struct fbac_stack *st, void **ret_buf,
		       size_t *ret_len);

/*
 * Decode buf and compile its entries into *ret (cleared first; release
 * with fbac_stack_clear()), with flags (FBAC_COMPILE_*, as
 * fbac_policy_compile_flags). Entries have no layer pointer (NULL). Return:
 * 0, -ESTALE when buf was written under another key or format, -EBADMSG
 * when it is malformed in any way, -ENOMEM, or what compiling returns
 * (with diag). Nothing is returned unless all of buf is valid.
 */
int fbac_scache_decode(const void *key, size_t key_len, const void *buf,
		       size_t len, unsigned flags, struct fbac_stack *ret,
		       struct fbac_diag *diag);

/* Set the header's length and checksum to match buf: how tests and the
 * fuzzer reach the checks behind them. Return: 0 or -EINVAL (too short). */
int fbac_scache_seal(void *buf, size_t len);

#endif
