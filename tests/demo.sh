#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A short narrated tour of fbac on the shipped profile library (`make demo`).
# Exits 0 only if every step behaves as narrated.

set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$REPO"

build=${FBAC_BUILD:-build}
case $build in
/*) ;;
*) build=$REPO/$build ;;
esac
FBAC=$build/fbac
export FBAC_DATADIR=$REPO/profiles

if [[ ! -x $FBAC ]]; then
	echo "demo: $FBAC is not built (run make)" >&2
	exit 1
fi

bold='' plain=''
if [[ -t 1 ]]; then
	bold=$'\033[1m' plain=$'\033[0m'
fi

say() {
	printf '\n%s== %s%s\n' "$bold" "$*" "$plain"
}

# step WANT CMD...: show and run CMD; its exit status must be WANT.
step() {
	local want=$1 status=0
	shift
	printf '$ fbac %s\n' "${*:2}"
	"$@" || status=$?
	if [[ $status -ne $want ]]; then
		echo "demo: expected exit status $want, got $status" >&2
		exit 1
	fi
	[[ $want -eq 0 ]] || echo "(exit status $status)"
}

say "fbac confines programs by what they do: functionalities such as
   Web_Browser or DNS_Client bundle privileges with parameters. The library
   shipped in profiles/ holds these (high-level ones are what users pick):"
step 0 "$FBAC" list

say "A functionality shows its parameters, includes and privileges:"
step 0 "$FBAC" show Web_Browser

say "A browser may not read your SSH keys: ~/.ssh is protected, and no
   broad rule reaches it. explain says why (exit status 1: denied):"
step 1 "$FBAC" explain --as Web_Browser file_read "$HOME/.ssh/id_rsa"

say "But it may connect to web servers, through HTTP_Client (exit status 0):"
step 0 "$FBAC" explain --as Web_Browser network_outgoing tcp:example.org:443

say "Every profile is checked strictly: unknown keys, type errors, include
   cycles... are errors with file:line:col. The shipped library is clean:"
step 0 "$FBAC" check profiles

say "Done. Next: man -l man/fbac.1, and 'make check' for the test suite."
