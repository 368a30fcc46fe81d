/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The per-user denial log: every denial fbac-run makes, in every mode and
 * whatever the terminal showed, as JSON lines (the --log format) in
 * $XDG_STATE_HOME/fbac/denials.jsonl (default ~/.local/state/fbac),
 * rotated to denials.jsonl.1 when it reaches FBAC_MAX_DENIAL_LOG bytes.
 * 'fbac log' reads both. protected.yaml keeps confined programs out.
 */
#ifndef FBAC_DENIAL_LOG_H
#define FBAC_DENIAL_LOG_H

#include <stddef.h>
#include <stdio.h>

#include "env.h"

/* $XDG_STATE_HOME/fbac/denials.jsonl, plus suffix (".1", or ""), in out.
 * Return: 0, -ENOENT (no absolute XDG_STATE_HOME) or -ENAMETOOLONG. */
int denial_log_path(const struct fbac_env *env, const char *suffix, char *out,
		    size_t size);

/*
 * Open the log for appending (close-on-exec), making its directory (0700)
 * and rotating it first when it has reached FBAC_MAX_DENIAL_LOG bytes.
 * A log that is not a regular file of ours is refused. Return: 0 and
 * *ret, or -errno (the caller says it once and runs without it).
 */
int denial_log_open(const struct fbac_env *env, FILE **ret);

#endif
