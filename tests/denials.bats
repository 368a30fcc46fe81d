#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# No refusal that fbac causes is silent, and a denial says the way
# forward: every EACCES/EPERM that fbac-run causes comes with a denial line
# (or its reason) and an event, whichever part refused (the supervisor, the
# kernel's Landlock rules, exec, start-up); the line names what would grant
# it (with the -D to use for a port, host or folder), or the user's own rule
# or the protected path that refuses it; and the terminal is not drawn over.
# Real programs (curl, dash, vim), real loopback servers, the shipped
# library.

# shellcheck disable=SC2154 # bats sets output, stderr, lines, stderr_lines
# shellcheck disable=SC2016 # $... in single quotes is for the sandboxed shell

bats_require_minimum_version 1.5.0

load helpers

setup() {
	[[ -x $FBAC_RUN ]] || fail "no $FBAC_RUN: run make"
	LOG=$BATS_TEST_TMPDIR/events.jsonl
	BG_PIDS=$BATS_TEST_TMPDIR/bg.pids
	: >"$BG_PIDS"
	cd "$HOME" || return 1
}

teardown() {
	kill_tracked
	fbac_teardown
}

# serve_http DIR: a loopback HTTP server on a free port for DIR, outside
# the sandbox; sets PORT.
serve_http() {
	local portfile=$BATS_TEST_TMPDIR/port
	rm -f "$portfile"
	python3 -c '
import http.server, socketserver, sys, os, functools
os.chdir(sys.argv[1])
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
h.log_message = lambda *a: None
s = socketserver.TCPServer(("127.0.0.1", 0), h)
open(sys.argv[2] + ".tmp", "w").write(str(s.server_address[1]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
s.serve_forever()' "$1" "$portfile" >/dev/null 2>&1 &
	track $!
	local i
	for i in $(seq 100); do
		[[ -s $portfile ]] && break
		sleep 0.05
	done
	PORT=$(cat "$portfile") || fail "the test server did not start"
}

# ---- item 3: refusals at exec and start-up ----

@test "a program --as cannot start: the loader's denial, an event, and what grants it" {
	need_commands curl
	run --separate-stderr "$FBAC_RUN" --log "$LOG" --as HTTP_Client curl -sS http://127.0.0.1:1/
	expect_status 126
	[[ $stderr == *"fbac: denied file_execute '"*"ld-linux"*"' (the loader of '/usr/bin/curl') for "*": not granted by --as (layer command line); granted by Read_Shared_Libraries"* ]] || { show_run; fail "no denial line for the loader"; }
	[[ $stderr == *"cannot run '/usr/bin/curl': the --as functionalities do not grant running it (denied above): add --as Basic_Runtime"* ]] || { show_run; fail "no way forward"; }
	[[ $stderr != *"Permission denied"* ]] || { show_run; fail "the bare errno is back"; }
	grep -q '"operation": "file_execute".*"decision": "deny".*"about": "the loader of' "$LOG" || { cat "$LOG"; fail "no event"; }
	# Basic_Runtime is what it lacked.
	run --separate-stderr "$FBAC_RUN" --as HTTP_Client --as Basic_Runtime curl -sS http://127.0.0.1:1/
	[[ $stderr != *"file_execute"* ]] || { show_run; fail "still refused"; }
}

@test "a script whose interpreter is not granted: the interpreter's denial line, also unprivileged" {
	require_unprivileged
	printf '#!/bin/sh\necho ran\n' >"$HOME/hello.sh"
	chmod 0755 "$HOME/hello.sh"
	run --separate-stderr run_unprivileged "$FBAC_RUN" --as Basic_Runtime "$HOME/hello.sh"
	expect_status 126
	[[ $stderr == *"denied file_execute '/usr/bin/dash' (the interpreter of '"*"/hello.sh') for "*"granted by Spawn_Shell"* ]] || { show_run; fail "no denial line for the interpreter"; }
	[[ $stderr == *"cannot run '"*"/hello.sh': --as does not grant running it (denied above, with what would)"* ]] || { show_run; fail "no message"; }
	[[ $output != *ran* ]]
	run --separate-stderr run_unprivileged "$FBAC_RUN" --as Basic_Runtime --as Spawn_Shell "$HOME/hello.sh"
	expect_status 0
	[[ $output == ran ]]
}

@test "an exec inside the sandbox whose interpreter is not granted: a line and an event, not a bare EACCES" {
	need_commands perl
	mkdir -p "$HOME/bin"
	printf '#!/usr/bin/perl\nprint "ran\\n";\n' >"$HOME/bin/p.pl"
	chmod 0755 "$HOME/bin/p.pl"
	# The shell may run what is in ~/bin, not perl: the kernel would
	# refuse perl unseen.
	run --separate-stderr "$FBAC_RUN" --log "$LOG" --as Spawn_Shell --as Basic_Runtime \
		--as Run_Programs_From -D Run_Programs_From.dir="$HOME/bin" \
		sh -c '"$1"; echo "rc=$?"' sh "$HOME/bin/p.pl"
	expect_status 0
	[[ $output == *rc=126* && $output != *ran* ]] || { show_run; fail "perl ran or the error changed"; }
	[[ $stderr == *"denied file_execute '/usr/bin/perl' (the interpreter of '$HOME/bin/p.pl') for "* ]] || { show_run; fail "no denial line"; }
	grep -q '"object": "/usr/bin/perl", "decision": "deny".*"about": "the interpreter of ' "$LOG" || { cat "$LOG"; fail "no event"; }
}
