#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fbac new, the wizard: for installed Debian programs that have no shipped
# application policy, `fbac new --yes PROGRAM` writes a policy to the
# user's layer that passes `fbac check`, and the program then does its
# basic job under `fbac-run PROGRAM` with no denial line: text tools on
# files in ~/Documents, w3m on a page and over a loopback web server, and
# xclock, xcalc and xmessage drawing their windows on an Xvfb display. The
# interactive prompts are driven in tmux.

# shellcheck disable=SC2154 # bats sets output, stderr, lines
# shellcheck disable=SC2016 # $... in single quotes is for the program

bats_require_minimum_version 1.5.0

load helpers

setup() {
	BG_PIDS=$BATS_TEST_TMPDIR/bg.pids
	: >"$BG_PIDS"
	mkdir -p "$HOME/Documents"
	printf 'pear\napple\nfig\n' >"$HOME/Documents/fruit.txt"
	printf 'pear\napple\nplum\n' >"$HOME/Documents/fruit2.txt"
}

teardown() {
	if [[ -S ${TMUX_SOCK-} ]]; then
		tmux -S "$TMUX_SOCK" kill-server 2>/dev/null || true
	fi
	kill_tracked
	stop_xvfb
	fbac_teardown
}

# new_policy PROGRAM [OPTION...]: fbac new --yes; the policy is in the
# user's layer and passes fbac check on its own.
new_policy() {
	local prog=$1
	shift
	need_commands "$prog" || return
	run --separate-stderr "$FBAC" new --yes "$@" "$prog"
	[[ $status -eq 0 ]] || { show_run; fail "fbac new $prog failed"; return 1; }
	[[ $output == *"wrote $FBAC_USER_DIR/$prog.yaml"* ]] || { show_run; fail "no policy written"; return 1; }
	[[ $output == *"try it:  fbac-run $prog"* ]] || { show_run; fail "no hint to try it"; return 1; }
	run --separate-stderr "$FBAC" check "$FBAC_USER_DIR/$prog.yaml"
	[[ $status -eq 0 ]] || { show_run; cat "$FBAC_USER_DIR/$prog.yaml" >&2; fail "fbac check fails"; return 1; }
}

# confined CMD...: fbac-run CMD in ~/Documents; status, output and stderr
# as bats' run sets them; fails on a denial line.
confined() {
	cd "$HOME/Documents" || return 1
	run --separate-stderr "$FBAC_RUN" "$@"
	if [[ $stderr == *"fbac: denied"* ]]; then
		show_run
		cat "$FBAC_USER_DIR/$1.yaml" >&2
		fail "a denial under the wizard's policy"
		return 1
	fi
}

@test "wizard: bc, a text-mode program, gets Terminal_Application and computes" {
	need_commands bc
	run --separate-stderr "$FBAC_RUN" bc </dev/null
	[ "$status" -eq 125 ]
	[[ $stderr == *"no application policy names '/usr/bin/bc': write one with 'fbac new bc', or use --as"* ]]
	new_policy bc
	grep -q '^  - Terminal_Application: {app_name: "bc"' "$FBAC_USER_DIR/bc.yaml"
	grep -q '^description: "GNU bc' "$FBAC_USER_DIR/bc.yaml"
	printf '2^64\nquit\n' >"$HOME/Documents/calc.bc"
	confined bc -q calc.bc
	[ "$status" -eq 0 ]
	[ "$output" = 18446744073709551616 ]
	confined sh -c 'echo "scale=3; 1/8" | exec bc'
}

@test "wizard: diff and cmp compare files" {
	new_policy diff
	new_policy cmp
	confined diff fruit.txt fruit2.txt
	[ "$status" -eq 1 ]
	[[ $output == *"< fig"*"> plum"* ]]
	confined cmp fruit.txt fruit2.txt
	[ "$status" -eq 1 ]
	[[ $output == *"differ: byte 12, line 3"* ]]
}

@test "wizard: sort, base64 and md5sum read and transform files" {
	new_policy sort
	new_policy base64
	new_policy md5sum
	confined sort fruit.txt
	[ "$status" -eq 0 ]
	[ "$output" = $'apple\nfig\npear' ]
	confined sort -o sorted.txt fruit.txt
	[ "$status" -eq 0 ]
	[ "$(cat "$HOME/Documents/sorted.txt")" = $'apple\nfig\npear' ]
	confined base64 fruit.txt
	[ "$output" = "$(base64 "$HOME/Documents/fruit.txt")" ]
	confined md5sum fruit.txt
	[ "$output" = "$(cd "$HOME/Documents" && md5sum fruit.txt)" ]
}

@test "wizard: w3m is a Web_Browser: renders a page and fetches one from a loopback server" {
	need_commands w3m python3
	local port
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	new_policy w3m -D "ports=$port"
	grep -q "^  - Web_Browser: {app_name: \"w3m\", ports: \[$port\]}" "$FBAC_USER_DIR/w3m.yaml"
	# it runs its helpers through the shell and looks up decompressors:
	# Web_Browser includes Spawn_Shell (browsers' launcher scripts), else
	# the wizard adds it
	"$FBAC" show --full w3m | sed -n '/^hierarchy:/,/^[a-z]/p' | grep -q '^ *Spawn_Shell$' ||
		grep -q '^  - Spawn_Shell' "$FBAC_USER_DIR/w3m.yaml"
	printf '<html><body><h1>Fruit</h1><p>apple <b>pear</b></p></body></html>\n' \
		>"$HOME/Documents/page.html"
	confined w3m -dump page.html
	[ "$status" -eq 0 ]
	[[ $output == *Fruit*"apple pear"* ]]
	mkdir -p "$BATS_TEST_TMPDIR/www"
	printf '<p>served over loopback</p>\n' >"$BATS_TEST_TMPDIR/www/index.html"
	python3 -m http.server --bind 127.0.0.1 --directory "$BATS_TEST_TMPDIR/www" "$port" \
		>/dev/null 2>&1 &
	track $!
	local i
	for ((i = 0; i < 100; i++)); do
		python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break
		sleep 0.05
	done
	confined w3m -dump "http://127.0.0.1:$port/"
	[ "$status" -eq 0 ]
	[[ $output == *"served over loopback"* ]]
}

# window_of NAME: wait until the X display shows a window named NAME.
window_of() {
	local i
	for ((i = 0; i < 100; i++)); do
		xwininfo -display ":$DISPLAY_N" -root -tree 2>/dev/null | grep -q "\"$1\"" && return 0
		sleep 0.1
	done
	fail "no window '$1' on display :$DISPLAY_N"
}

# on_display PROGRAM [ARG...]: fbac-run PROGRAM on the test's display in
# the background; its stderr goes to $BATS_TEST_TMPDIR/PROGRAM.err.
on_display() {
	local prog=$1
	(cd "$HOME/Documents" && exec env DISPLAY=":$DISPLAY_N" "$FBAC_RUN" "$@" \
		2>"$BATS_TEST_TMPDIR/$prog.err") &
	track $!
}

no_denial() {
	if grep -q 'fbac: denied' "$BATS_TEST_TMPDIR/$1.err"; then
		cat "$BATS_TEST_TMPDIR/$1.err" "$FBAC_USER_DIR/$1.yaml" >&2
		fail "a denial under the wizard's policy for $1"
	fi
}

@test "wizard: xclock, xcalc and xmessage link libX11: Graphical_Application, and draw their windows" {
	need_commands xclock xcalc xmessage xwininfo
	start_xvfb
	new_policy xclock
	grep -q '^  - Graphical_Application' "$FBAC_USER_DIR/xclock.yaml"
	grep -q '^  # it links libX11.so.6' "$FBAC_USER_DIR/xclock.yaml"
	new_policy xcalc
	new_policy xmessage
	on_display xclock
	on_display xcalc
	on_display xmessage -timeout 5 'fruit is ready'
	window_of xclock
	window_of xcalc
	window_of xmessage
	sleep 0.5
	no_denial xclock
	no_denial xcalc
	no_denial xmessage
}

@test "wizard: an unprivileged user writes and uses a policy" {
	require_unprivileged
	need_commands bc
	run --separate-stderr run_unprivileged "$FBAC" new --yes bc
	[ "$status" -eq 0 ] || { show_run; false; }
	run --separate-stderr run_unprivileged sh -c 'echo "6*7" | "$FBAC_RUN" bc'
	[ "$status" -eq 0 ] || { show_run; false; }
	[ "$output" = 42 ]
	[[ $stderr != *denied* ]]
}

@test "wizard: what it refuses, each with a message" {
	need_commands bc
	run --separate-stderr "$FBAC" new --yes no-such-program-here
	[ "$status" -eq 2 ]
	[[ $stderr == *"cannot find the program 'no-such-program-here' in PATH"* ]]
	new_policy bc
	run --separate-stderr "$FBAC" new --yes bc
	[ "$status" -eq 2 ]
	[[ $stderr == *"refusing to replace '$FBAC_USER_DIR/bc.yaml' (use --force)"* ]]
	run --separate-stderr "$FBAC" new --yes --force bc
	[ "$status" -eq 0 ]
	run --separate-stderr "$FBAC" new --yes -D nosuch=1 -o - bc
	[ "$status" -eq 2 ]
	[[ $stderr == *"unknown parameter 'nosuch' of Terminal_Application"* ]]
	run --separate-stderr "$FBAC" new --yes --as No_Such -o - bc
	[ "$status" -eq 2 ]
	[[ $stderr == *"unknown functionality 'No_Such'"* ]]
	# -o - prints the policy and writes nothing
	run --separate-stderr "$FBAC" new --yes --as Text_Viewer -D 'files=~/notes,/srv/x' -o - diff
	[ "$status" -eq 0 ]
	[[ $output == *'- Text_Viewer: {files: ["~/notes", "/srv/x"]}'* ]]
	[ ! -e "$FBAC_USER_DIR/diff.yaml" ]
	# a policy of the same name in another file of the user's layer
	mv "$FBAC_USER_DIR/bc.yaml" "$FBAC_USER_DIR/my-bc.yaml"
	run --separate-stderr "$FBAC" new --yes --force bc
	[ "$status" -eq 2 ]
	[[ $stderr == *"refusing to write '$FBAC_USER_DIR/bc.yaml': $FBAC_USER_DIR/my-bc.yaml:3 already defines 'bc' in the user's layer"* ]]
	[ ! -e "$FBAC_USER_DIR/bc.yaml" ]
	# a relative path is made absolute, as executables must be
	run --separate-stderr sh -c 'cd /usr && exec "$1" new --yes -o - ./bin/bc' sh "$FBAC"
	[ "$status" -eq 0 ]
	[[ $output == *'executables: ["/usr/bin/bc"]'* ]]
	# Without a terminal's answers (end of input) it does not guess.
	run --separate-stderr "$FBAC" new bc </dev/null
	[ "$status" -eq 2 ]
	[[ $stderr == *"no answer"* ]]
}

# wait_pane TEXT: wait until the tmux pane shows TEXT.
wait_pane() {
	local i
	for ((i = 0; i < 200; i++)); do
		tmux -S "$TMUX_SOCK" capture-pane -p -J | grep -qF -- "$1" && return 0
		sleep 0.05
	done
	tmux -S "$TMUX_SOCK" capture-pane -p -J >&2
	fail "the pane never showed '$1'"
}

@test "wizard: the prompts, line by line on a terminal (tmux)" {
	need_commands tmux bc
	rmdir "$HOME/Documents" 2>/dev/null || rm -rf "$HOME/Documents"
	TMUX_SOCK=$BATS_TEST_TMPDIR/tmux.sock
	local script=$BATS_TEST_TMPDIR/new.sh
	{
		declare -p PATH FBAC_DATADIR HOME FBAC_USER_DIR LC_ALL ${FBAC_ADMIN_DIR:+FBAC_ADMIN_DIR}
		printf '%q new bc; echo "fbac-new-status=$?"; sleep 60\n' "$FBAC"
	} >"$script"
	tmux -S "$TMUX_SOCK" -f /dev/null new-session -d -x 200 -y 50 "bash $script" 3>&-
	wait_pane "Which high-level functionality describes it? (a name from 'fbac list', or none) [Terminal_Application]:"
	tmux -S "$TMUX_SOCK" send-keys 'Web_Browsr' Enter
	wait_pane "unknown high-level functionality 'Web_Browsr'"
	tmux -S "$TMUX_SOCK" send-keys Enter
	# ~/Documents does not exist: the question is asked, the default offered
	wait_pane 'Which folders may it read and change? (files) [$XDG_DOCUMENTS_DIR]:'
	tmux -S "$TMUX_SOCK" send-keys '~/work, ~/notes' Enter
	wait_pane "Save it to $FBAC_USER_DIR/bc.yaml? (yes or no) [yes]:"
	tmux -S "$TMUX_SOCK" send-keys Enter
	wait_pane "fbac-new-status=0"
	grep -qF '  - Terminal_Application: {app_name: "bc", files: ["~/work", "~/notes"]}' \
		"$FBAC_USER_DIR/bc.yaml"
	run "$FBAC" check "$FBAC_USER_DIR/bc.yaml"
	[ "$status" -eq 0 ]
}

@test "wizard: desktop entries, sections and libraries suggest what the shipped policies chose" {
	need_commands python3
	local app hl exe got n=0 same=0 report=''
	while IFS=$'\t' read -r app hl exe; do
		[[ -x $exe ]] || continue
		n=$((n + 1))
		got=$("$FBAC" new --yes -o - "$exe" 2>&1 >/dev/null | sed -n 's/^suggested: \([A-Za-z_]*\).*/\1/p')
		if [[ $got == "$hl" ]]; then
			same=$((same + 1))
		else
			report+="  $app: shipped $hl, suggested ${got:-nothing}"$'\n'
		fi
	done < <("$FBAC" list -a -j | python3 -c '
import json, sys
for a in json.load(sys.stdin):
    print(a["name"], a["functionalities"][0], a["executables"][0], sep="\t")')
	printf '# same high-level functionality as the shipped policy: %d of %d\n%s' \
		"$same" "$n" "$report" >&3
	[ "$n" -ge 30 ] || skip_or_fail "only $n shipped programs are installed"
	# 34 of 39 on Debian 12 with .ci/install-deps
	[ "$same" -ge $((n * 8 / 10)) ]
	# and the reasons name the evidence
	run --separate-stderr "$FBAC" new --yes -o - vim
	[[ $stderr == *"suggested: File_Editor (its desktop entry /usr/share/applications/vim.desktop has the category TextEditor; its package vim is in the section 'editors'"* ]]
	[[ $stderr == *"note: layer 'library' already has a policy for it: vim"* ]]
	if [[ -x /usr/bin/xterm ]]; then
		run --separate-stderr "$FBAC" new --yes -o - xterm
		[[ $stderr == *"suggested: Terminal_Emulator (its desktop entry /usr/share/applications/debian-xterm.desktop has the category TerminalEmulator"* ]]
	fi
	run --separate-stderr "$FBAC" new --yes -o - mpv
	[[ $stderr == *"evidence for Audio_Playback: it links libasound.so.2"* ]]
	[[ $output == *"  - Media_Player: {app_name: \"mpv\"}"* ]]
}

@test "wizard: libraries outside the standard directories (ldd) and the per-user folders that exist" {
	need_commands gcc
	local d=$BATS_TEST_TMPDIR/usefoo
	mkdir -p "$d/lib" "$d/bin" "$HOME/.usefoo" "$HOME/.config/usefoo" "$HOME/.ssh"
	printf 'int foo(void) { return 42; }\n' >"$d/foo.c"
	printf '#include <stdio.h>\nint foo(void);\nint main(void) { printf("foo=%%d\\n", foo()); return 0; }\n' >"$d/main.c"
	gcc -shared -fPIC -o "$d/lib/libfoo.so" "$d/foo.c"
	gcc -o "$d/bin/usefoo" "$d/main.c" -L"$d/lib" -lfoo -Wl,-rpath,"$d/lib"
	# Text_Viewer: no Temporary_Files, which would cover the test's /tmp
	run --separate-stderr "$FBAC" new --yes --as Text_Viewer "$d/bin/usefoo"
	[ "$status" -eq 0 ] || { show_run; false; }
	local pol=$FBAC_USER_DIR/usefoo.yaml
	grep -qF "  - Read_Only_Directory: {dir: [\"$d/lib\"]}" "$pol"
	grep -qF '  # ldd: libraries outside the standard directories' "$pol"
	grep -qF '  - Read_Write_Directory: {dir: ["~/.usefoo"]}' "$pol"
	grep -qF '  - Application_Config: {app_name: "usefoo"}' "$pol"
	run --separate-stderr "$FBAC_RUN" "$d/bin/usefoo"
	[ "$status" -eq 0 ] && [ "$output" = foo=42 ] && [[ $stderr != *denied* ]] || { show_run; false; }
	# what it imports of the network is a note: the ports are not known yet
	need_commands rsync
	run --separate-stderr "$FBAC" new --yes -o - rsync
	[[ $stderr == *"note: it calls connect(): if it connects to servers, add HTTP_Client, or TCP_Client"* ]]
	[[ $output == *"# it calls listen(): if it serves clients, add TCP_Server or UDP_Server"* ]]
	# a per-user folder that is protected is reported, never granted
	need_commands ssh
	run --separate-stderr "$FBAC" new --yes -o - ssh
	[ "$status" -eq 0 ]
	[[ $output == *"# ~/.ssh exists but is protected: not granted"* ]]
	[[ $output != *'Read_Write_Directory: {dir: ["~/.ssh"]}'* ]]
}

@test "wizard: a script gets what its interpreter needs (zgrep, pydoc3)" {
	need_commands zgrep pydoc3 gzip
	new_policy zgrep
	grep -qF '  # it is a script for /bin/sh' "$FBAC_USER_DIR/zgrep.yaml"
	grep -qF '  - Shell_Scripts' "$FBAC_USER_DIR/zgrep.yaml"
	gzip -c "$HOME/Documents/fruit.txt" >"$HOME/Documents/fruit.txt.gz"
	confined zgrep -n fig fruit.txt.gz
	[ "$status" -eq 0 ]
	[ "$output" = 3:fig ]
	new_policy pydoc3
	run --separate-stderr "$FBAC" new --yes -o - pydoc3
	[[ $stderr == *"evidence for Python_Interpreter: it is a script for /usr/bin/python3"* ]]
	printf 'def ripe():\n    "Say whether the fruit is ripe."\n' >"$HOME/Documents/fruitmod.py"
	confined pydoc3 ./fruitmod.py
	[ "$status" -eq 0 ]
	[[ $output == *"Say whether the fruit is ripe."* ]]
}
