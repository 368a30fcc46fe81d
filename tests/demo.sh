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

FBAC_RUN=$build/fbac-run
demo_home=$(mktemp -d)
trap 'rm -rf "$demo_home"' EXIT
mkdir -p "$demo_home/.ssh" "$demo_home/Documents"
echo "demo-secret-$$" >"$demo_home/.ssh/id_rsa"
echo "Notes: the demo can read this file." >"$demo_home/Documents/notes.txt"
export HOME=$demo_home
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME FBAC_USER_DIR

# run WANT NAME CMD...: like step, for any program.
run() {
	local want=$1 status=0
	shift
	printf '$ %s\n' "$*" | sed "s|$build/||g; s|$demo_home|~|g"
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
run 0 "$FBAC" list

say "A functionality shows its hierarchy, each privilege with the chain and
   file:line it comes from, the kernel (Landlock) rules it implies, and what
   the supervisor must decide because the kernel cannot:"
run 0 "$FBAC" show --full HTTP_Client

say "Without --full, show sums a policy up: what it grants by kind, the
   protected paths it reaches and those it does not, what it includes:"
run 0 "$FBAC" show firefox-esr

say "firefox-esr's policy may not read your SSH keys: ~/.ssh is protected and
   no broad rule reaches it. explain says why (exit status 1: denied):"
run 1 "$FBAC" explain firefox-esr file_read "$HOME/.ssh/id_rsa"

say "But it may connect to web servers, through HTTP_Client (exit status 0):"
run 0 "$FBAC" explain firefox-esr network_outgoing tcp:example.org:443

say "Now for real: fbac-run confines a program. As a Text_Viewer, cat may
   read your documents..."
run 0 "$FBAC_RUN" --as Text_Viewer cat "$HOME/Documents/notes.txt"

say "...but not your SSH key: the kernel and the supervisor refuse, and the
   denial says which functionalities would grant it:"
run 1 "$FBAC_RUN" --as Text_Viewer cat "$HOME/.ssh/id_rsa"

say "Every profile is checked strictly: unknown keys, type errors, include
   cycles... are errors with file:line:col. The shipped library is clean:"
run 0 "$FBAC" check profiles

say "Done. Next: man -l man/fbac-run.1, and 'make check' for the test suite."
