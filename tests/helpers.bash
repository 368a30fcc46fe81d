# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Common setup for the bats suites; load it first in every tests/*.bats:
#
#	load helpers
#
#	@test "fbac lists functionalities" {
#		run "$FBAC" list
#		[ "$status" -eq 0 ]
#	}
#
# What it provides:
#   REPO, FBAC_BUILD_DIR, FBAC (the built fbac), FBAC_RUN (fbac-run)
#   FBAC_DATADIR=$REPO/profiles, and per test a fresh HOME under
#   $BATS_TEST_TMPDIR with an empty user layer (FBAC_USER_DIR) and an empty
#   administrator layer (FBAC_ADMIN_DIR); XDG_* variables are unset.
#   fail MESSAGE, skip_or_fail REASON, skip_kernel_feature REASON,
#   require_kernel_feature NAME CMD...,
#   require_unprivileged, run_unprivileged CMD..., unprivileged_home
#
# A file that defines its own setup()/teardown() must call fbac_teardown
# from its teardown (setup needs nothing: the per-test environment is made
# when this file is loaded, which bats does once per test).

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export REPO

FBAC_BUILD_DIR=${FBAC_BUILD:-$REPO/build}
case $FBAC_BUILD_DIR in
/*) ;;
*) FBAC_BUILD_DIR=$REPO/$FBAC_BUILD_DIR ;;
esac
export FBAC_BUILD_DIR
export FBAC_BUILD=$FBAC_BUILD_DIR
FBAC=$FBAC_BUILD_DIR/fbac
FBAC_RUN=$FBAC_BUILD_DIR/fbac-run
export FBAC FBAC_RUN

export FBAC_DATADIR=$REPO/profiles

# Never let the developer's own configuration leak into a test.
unset XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME \
	XDG_RUNTIME_DIR FBAC_DEBUG
export LC_ALL=C.UTF-8
# Nor the machine's: Debian's own PATH, and no toolchain variables (a CUDA
# install here sets LIBRARY_PATH and puts /usr/local/cuda in PATH, which
# sends gcc and browsers to look outside what their policies grant).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
unset LIBRARY_PATH LD_LIBRARY_PATH CPATH C_INCLUDE_PATH CUDA_HOME \
	PYTHONPATH PYTHONHOME
# Nor the make that runs the suite: 'make CC=clang check' passes CC=clang to
# every make below it through MAKEFLAGS, and a project's own make in a test
# would then build with clang instead of what its Makefile says.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES CC CFLAGS LDFLAGS

# bats sources this file again for every test, with a new BATS_TEST_TMPDIR.
if [[ -n ${BATS_TEST_TMPDIR:-} ]]; then
	export HOME=$BATS_TEST_TMPDIR/home
	export FBAC_USER_DIR=$HOME/.config/fbac
	export FBAC_ADMIN_DIR=$BATS_TEST_TMPDIR/etc-fbac
	mkdir -p "$FBAC_USER_DIR"
	chmod 0755 "$HOME"
	# The administrator's layer must be root's, and a named one must
	# exist: for anyone else there is none (the system's /etc/fbac still
	# applies, as it always does).
	if [[ $(id -u) == 0 ]]; then
		mkdir -p "$FBAC_ADMIN_DIR"
		chmod 0755 "$FBAC_ADMIN_DIR"
	else
		unset FBAC_ADMIN_DIR
	fi
fi

# Background processes of a test: track PID records one (the suite sets
# BG_PIDS to a file in BATS_TEST_TMPDIR in its setup); kill_tracked, from
# teardown, ends each with everything below it.

# track PID: kill PID and its descendants in teardown.
track() {
	printf '%s\n' "$1" >>"$BG_PIDS"
}

# descendants PID: the pids below PID (children first-level, then theirs).
descendants() {
	local c
	# shellcheck disable=SC2013 # the files hold space-separated pids
	for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
		printf '%s\n' "$c"
		descendants "$c"
	done
}

# kill_tree PID: SIGTERM PID and every process below it, give them two
# seconds (browsers save state), then SIGKILL what is left.
kill_tree() {
	local -a pids
	local i
	mapfile -t pids < <(descendants "$1")
	kill -TERM "$1" "${pids[@]}" 2>/dev/null || return 0
	for ((i = 0; i < 40; i++)); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.05
	done
	kill -KILL "$1" "${pids[@]}" 2>/dev/null || true
}

# kill_tracked: kill_tree every tracked pid.
kill_tracked() {
	local pid
	[[ -f ${BG_PIDS:-} ]] || return 0
	while read -r pid; do
		kill_tree "$pid"
	done <"$BG_PIDS"
}

# need_commands CMD...: skip (fail with FBAC_MUST_WORK=1) unless every CMD,
# a name on PATH or a path, is an executable.
need_commands() {
	local c
	for c; do
		command -v "$c" >/dev/null 2>&1 || skip_or_fail "$c is not installed" || return
	done
}

# start_xvfb: an X server of the test's own (Xvfb, outside the sandbox) on a
# free display, listening on its sockets /tmp/.X11-unix/XN and
# @/tmp/.X11-unix/XN only (no TCP); DISPLAY_N is its number. The suite's
# teardown calls stop_xvfb.
start_xvfb() {
	local out=$BATS_TEST_TMPDIR/xvfb.display i n='' pid
	need_commands Xvfb || return
	# Xvfb picks a free display itself and writes its number once it
	# accepts connections: no race with a server of an earlier test that
	# is still going away with the same number. -noreset: by default the
	# server resets when its last client leaves, and drops the connections
	# it has accepted but not yet set up; a screenshot ending just as the
	# client under test connected cost that client its display ("Can't
	# open display", about one run in fifty with the client confined).
	Xvfb -noreset -displayfd 3 -nolisten tcp -screen 0 640x480x24 </dev/null \
		>"$BATS_TEST_TMPDIR/xvfb.log" 2>&1 3>"$out" &
	pid=$!
	disown "$pid"
	for ((i = 0; i < 200; i++)); do
		read -r n 2>/dev/null <"$out" && [[ $n =~ ^[0-9]+$ ]] && break
		n=
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	printf '%s %s\n' "$pid" "${n:-none}" >"$BATS_TEST_TMPDIR/xvfb.pid"
	[[ -n $n ]] || fail "no Xvfb display could be started: $(cat "$BATS_TEST_TMPDIR/xvfb.log")" || return
	# shellcheck disable=SC2034 # for the suites that call it
	DISPLAY_N=$n
}

# stop_xvfb: end the Xvfb of start_xvfb, if any. SIGTERM, so that it
# removes its lock file and sockets; if it must be killed, they are removed
# here.
stop_xvfb() {
	local pid n i
	[[ -s $BATS_TEST_TMPDIR/xvfb.pid ]] || return 0
	read -r pid n <"$BATS_TEST_TMPDIR/xvfb.pid"
	rm -f "$BATS_TEST_TMPDIR/xvfb.pid"
	kill -TERM "$pid" 2>/dev/null || return 0
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.05
	done
	kill -KILL "$pid" 2>/dev/null
	rm -f "/tmp/.X$n-lock" "/tmp/.X11-unix/X$n"
}

# fail MESSAGE...: fail the current test with a message.
fail() {
	printf '%s\n' "$*" >&2
	return 1
}

# must_work: whether a missing capability is a failure (CI) or a skip.
must_work() {
	[[ ${FBAC_MUST_WORK:-0} == 1 ]]
}

# skip_or_fail REASON: skip the test, or fail it when FBAC_MUST_WORK=1.
# For what the machine lacks that .ci/install-deps installs (a package, a
# program, root); a feature of the running kernel is skip_kernel_feature.
skip_or_fail() {
	if must_work; then
		fail "$1 (FBAC_MUST_WORK=1: not skipping)"
	else
		skip "$1"
	fi
}

# skip_kernel_feature REASON: skip the test because the running kernel
# lacks a feature (IA32 emulation, a Landlock ABI, io_uring, ...), as a
# probe run without fbac showed. No package can add it, so this is a skip
# even with FBAC_MUST_WORK=1; the reason starts with "kernel feature
# absent:", which tests/run-all counts and lists apart in its summary.
skip_kernel_feature() {
	skip "kernel feature absent: $1"
}

# require_kernel_feature NAME CMD [ARG...]: skip unless CMD, run
# unconfined, succeeds (a single CMD word containing spaces is run by
# bash -c): skip_kernel_feature NAME.
require_kernel_feature() {
	local name=$1
	shift
	local rc=0
	if [[ $# -eq 1 && $1 == *' '* ]]; then
		bash -c "$1" >/dev/null 2>&1 || rc=$?
	else
		"$@" >/dev/null 2>&1 || rc=$?
	fi
	[[ $rc -eq 0 ]] || skip_kernel_feature "$name"
}

# unprivileged_root: the staging directory of this test (see below), or
# nothing when run_unprivileged has not staged one.
unprivileged_root() {
	local f=$BATS_TEST_TMPDIR/.unprivileged-root
	[[ -f $f ]] && cat "$f"
	return 0
}

# unprivileged_home: the HOME that run_unprivileged gives the command.
unprivileged_home() {
	if [[ $EUID -eq 0 ]]; then
		_unpriv_home "$(_unpriv_stage)"
	else
		printf '%s\n' "$HOME"
	fi
}

# _unpriv_home ROOT: where the staged copy of HOME goes: ROOT/home, or
# $FBAC_UNPRIV_HOME when a suite sets it (a path that must not exist yet;
# the suite removes it).
_unpriv_home() {
	printf '%s\n' "${FBAC_UNPRIV_HOME:-$1/home}"
}

# _unpriv_stage: make (once per test) a world-readable copy of what an
# unprivileged command needs, because the checkout and BATS_TEST_TMPDIR may
# sit under directories uid 65534 cannot traverse:
#   ROOT/build/     the programs of $FBAC_BUILD_DIR
#   ROOT/repo/      profiles/ and tests/fixtures/
#   ROOT/home/      a copy of the test's HOME, owned by 65534 (or
#                   $FBAC_UNPRIV_HOME, see _unpriv_home)
#   ROOT/etc-fbac/  a copy of FBAC_ADMIN_DIR, owned by root
# The path is recorded in $BATS_TEST_TMPDIR so that it survives the
# subshell of `run`; fbac_teardown removes it.
_unpriv_stage() {
	local root
	root=$(unprivileged_root)
	if [[ -n $root && -d $root ]]; then
		printf '%s\n' "$root"
		return 0
	fi
	root=$(mktemp -d "${FBAC_UNPRIV_TMPDIR:-/tmp}/fbac-unpriv.XXXXXX") || return 1
	printf '%s\n' "$root" >"$BATS_TEST_TMPDIR/.unprivileged-root"
	chmod 0755 "$root"
	mkdir -p "$root/build" "$root/repo/tests"
	local f
	for f in "$FBAC_BUILD_DIR"/*; do
		[[ -f $f && -x $f ]] && cp -p "$f" "$root/build/"
	done
	[[ -d $REPO/profiles ]] && cp -R "$REPO/profiles" "$root/repo/"
	[[ -d $REPO/tests/fixtures ]] && cp -R "$REPO/tests/fixtures" "$root/repo/tests/"
	cp -R "$HOME" "$(_unpriv_home "$root")"
	cp -R "$FBAC_ADMIN_DIR" "$root/etc-fbac"
	chmod -R a+rX,go-w "$root/build" "$root/repo" "$root/etc-fbac"
	chown -R 65534:65534 "$(_unpriv_home "$root")"
	printf '%s\n' "$root"
}

# _unpriv_map ROOT PATH: PATH translated into the staged copy.
_unpriv_map() {
	local root=$1 p=$2
	case $p in
	"$FBAC_BUILD_DIR" | "$FBAC_BUILD_DIR"/*) p=$root/build${p#"$FBAC_BUILD_DIR"} ;;
	"$HOME" | "$HOME"/*) p=$(_unpriv_home "$root")${p#"$HOME"} ;;
	"$FBAC_ADMIN_DIR" | "$FBAC_ADMIN_DIR"/*) p=$root/etc-fbac${p#"$FBAC_ADMIN_DIR"} ;;
	"$REPO" | "$REPO"/*) p=$root/repo${p#"$REPO"} ;;
	esac
	printf '%s\n' "$p"
}

# require_unprivileged: call at the start of a test that uses
# run_unprivileged: skips it (fails when FBAC_MUST_WORK=1) when privileges
# cannot be dropped. (A skip inside `run` would not reach bats.)
require_unprivileged() {
	if [[ $EUID -eq 0 ]] && ! command -v setpriv >/dev/null 2>&1; then
		skip_or_fail "setpriv (util-linux) is needed to drop privileges"
	fi
	return 0
}

# run_unprivileged CMD [ARG...]: run CMD as an unprivileged user.
# As root: as uid/gid 65534 with no supplementary groups (setpriv), on a
# staged copy of the build, profiles/, tests/fixtures/, HOME and the admin
# layer; arguments and FBAC_* paths that point into the originals are
# rewritten to the copies, and HOME is a copy of the test's HOME owned by
# 65534 (see unprivileged_home). Without setpriv it fails with status 125
# (call require_unprivileged first to skip instead). As any other user it
# runs CMD as that user, who is unprivileged already.
# Use it under bats' run: `run run_unprivileged "$FBAC" list`.
run_unprivileged() {
	if [[ $EUID -ne 0 ]]; then
		"$@"
		return
	fi
	if ! command -v setpriv >/dev/null 2>&1; then
		fail "run_unprivileged: setpriv (util-linux) is needed to drop privileges"
		return 125
	fi
	local root
	root=$(_unpriv_stage) || fail "cannot stage files for uid 65534" || return 1
	local -a args=()
	local a
	for a; do
		args+=("$(_unpriv_map "$root" "$a")")
	done
	(
		cd "$root" || exit 1
		exec env \
			HOME="$(_unpriv_home "$root")" USER=nobody LOGNAME=nobody \
			FBAC_BUILD="$root/build" FBAC_BUILD_DIR="$root/build" \
			FBAC="$root/build/fbac" FBAC_RUN="$root/build/fbac-run" \
			FBAC_DATADIR="$(_unpriv_map "$root" "$FBAC_DATADIR")" \
			FBAC_USER_DIR="$(_unpriv_map "$root" "$FBAC_USER_DIR")" \
			FBAC_ADMIN_DIR="$(_unpriv_map "$root" "$FBAC_ADMIN_DIR")" \
			setpriv --reuid=65534 --regid=65534 --clear-groups -- "${args[@]}"
	)
}

# fbac_teardown: remove what run_unprivileged staged.
fbac_teardown() {
	local root
	root=$(unprivileged_root)
	if [[ -n $root && $root == "${FBAC_UNPRIV_TMPDIR:-/tmp}"/fbac-unpriv.* ]]; then
		rm -rf -- "$root"
	fi
	return 0
}

teardown() {
	fbac_teardown
}

# show_run: print the last run's status, stdout, stderr (and the tail of
# $LOG, the suite's event log, when there is one).
show_run() {
	printf 'status: %s\n--- stdout:\n%s\n--- stderr:\n%s\n---\n' \
		"$status" "$output" "${stderr-}" >&2
	if [[ -n ${LOG-} && -s $LOG ]]; then
		printf -- '--- log:\n' >&2
		tail -n 20 "$LOG" >&2
	fi
}

# expect_status N: the last run exited N (else show it and fail).
expect_status() {
	[[ $status -eq $1 ]] && return 0
	show_run
	fail "expected exit status $1, got $status"
}

# tmux_script SCRIPT: run bash SCRIPT in a new tmux session of 160x40 on
# $TMUX_SOCK (set here), and track the process whose pid SCRIPT writes to
# $BATS_TEST_TMPDIR/tty.pid (waited for up to 20 s).
tmux_script() {
	TMUX_SOCK=$BATS_TEST_TMPDIR/tmux.sock
	tmux -S "$TMUX_SOCK" -f /dev/null new-session -d -x 160 -y 40 "bash $1" 3>&-
	local i
	for ((i = 0; i < 400; i++)); do
		[[ -s $BATS_TEST_TMPDIR/tty.pid ]] && break
		sleep 0.05
	done
	track "$(cat "$BATS_TEST_TMPDIR/tty.pid")"
}

# The terminal of the tmux session a test started on $TMUX_SOCK: pane
# prints its screen (wrapped lines joined), keys types (send-keys
# arguments), wait_pane TEXT [SECONDS] waits until the screen shows TEXT
# (up to three times SECONDS, default 10, as CI's two CPUs may be busy),
# else fails with the screen and, when $ERR names a file, what the program
# printed there.
pane() {
	tmux -S "$TMUX_SOCK" capture-pane -p -J
}

keys() {
	tmux -S "$TMUX_SOCK" send-keys "$@"
}

wait_pane() {
	local end=$((SECONDS + ${2:-10} * 3))
	while :; do
		[[ $(pane) == *"$1"* ]] && return 0
		((SECONDS < end)) || break
		sleep 0.05
	done
	fail "the terminal does not show '$1':"$'\n'"$(pane)${ERR:+$'\n'"stderr: $(cat "$ERR" 2>/dev/null)"}"
}
