#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The flagship proofs: real graphical programs under the shipped library.
#
#   Web_Browser   firefox-esr (its application policy, and --as Web_Browser)
#                 takes a screenshot of a page served on loopback, and its
#                 content processes (as a user) add their own user namespace
#                 and seccomp filter; chromium (its policy, --no-sandbox)
#                 prints the DOM of one (--dump-dom); with its own sandbox it
#                 fails for one known reason, which is checked.
#   Graphical_X11 xeyes draws on an Xvfb display; without the functionality
#                 it cannot connect to it.
#
#   Terminal_Emulator  xterm (its application policy) runs a command in
#                 its window on Xvfb; Terminal_Application, the type of
#                 text-mode programs, gives it neither the display nor a
#                 pseudo-terminal.
#
# And for each, what it must not do: read the planted ~/.ssh/id_rsa, write
# ~/.bashrc, reach a loopback port it was not granted.
#
# Each test has its own HOME (helpers.bash) with the planted secret, a web
# root $WWW served by python3 -m http.server on a free port (outside the
# sandbox), and, for the X11 tests, its own Xvfb display. Browsers are slow
# and can hang on error pages: every run is bounded by timeout(1), and
# teardown kills what the test started.
#
# A test that meets a known limit of fbac-run says so and skips (fails with
# FBAC_MUST_WORK=1).
#
# Tags: app:NAME for each application policy a test runs, fn:NAME for the
# high-level functionality it exercises (bats --filter-tags).

# shellcheck disable=SC2154 # bats sets output, stderr, lines, status
# shellcheck disable=SC2030,SC2031 # run's subshells see our variables
# shellcheck disable=SC2016 # $... in single quotes is for the sandboxed shell
# shellcheck disable=SC2088 # ~ in messages is for the reader

bats_require_minimum_version 1.5.0

load helpers

SECRET=SSH-PRIVATE-KEY-7f3a91c2
BASHRC='# the user own bashrc'
PY=/usr/bin/python3
# Seconds a browser may take for one page (they take 2 to 10 here).
BROWSER_TIMEOUT=120

setup_file() {
	[[ -x $FBAC_RUN ]] || return 0
	"$FBAC_RUN" --as Basic_Runtime --check true >"$BATS_FILE_TMPDIR/check" 2>&1 || true
}

setup() {
	[[ -x $FBAC_RUN ]] || fail "no $FBAC_RUN: run make"
	local abi
	abi=$(sed -n 's/^landlock ABI \([0-9]*\).*/\1/p' "$BATS_FILE_TMPDIR/check")
	if [[ -z $abi ]]; then
		skip_or_fail "fbac-run --check did not report a Landlock ABI: $(tail -n1 "$BATS_FILE_TMPDIR/check")"
	elif [[ $abi -lt 6 ]] || grep -q '; missing:' "$BATS_FILE_TMPDIR/check"; then
		skip_kernel_feature "this kernel's Landlock cannot enforce the shipped policies: $(tail -n1 "$BATS_FILE_TMPDIR/check")"
	fi
	BG_PIDS=$BATS_TEST_TMPDIR/bg.pids
	: >"$BG_PIDS"
	# The planted secrets and the user's folders (before any
	# run_unprivileged, which copies HOME).
	mkdir -p "$HOME/.ssh" "$HOME/Downloads" "$HOME/Documents" "$HOME/.cache"
	chmod 0700 "$HOME/.ssh"
	printf '%s\n' "$SECRET" >"$HOME/.ssh/id_rsa"
	printf '%s\n' "$BASHRC" >"$HOME/.bashrc"
	WWW=$BATS_TEST_TMPDIR/www
	mkdir -p "$WWW"
	chmod 0755 "$BATS_TEST_TMPDIR" "$WWW"
	LOG=$HOME/events.jsonl
	cd / || return 1
}

teardown() {
	kill_tracked
	stop_xvfb
	fbac_teardown
}

# ---------------------------------------------------------------------------
# Helpers

# note TEXT: a figure for the reader of the TAP output.
note() {
	printf '# %s\n' "$*" >&3
}

# bg_run OUT CMD...: run CMD in the background, output to OUT; REPLY = pid.
bg_run() {
	local out=$1
	shift
	"$@" </dev/null >"$out" 2>&1 3>&- &
	REPLY=$!
	track "$REPLY"
}

# free_port: a TCP port of 127.0.0.1 nobody listens on (right now).
free_port() {
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_http DIR: serve DIR on a free port of 127.0.0.1 (outside the
# sandbox); REPLY is the port. Requests are logged to $DIR.log.
start_http() {
	local dir=$1 port i
	port=$(free_port)
	"$PY" -m http.server "$port" --bind 127.0.0.1 --directory "$dir" \
		</dev/null >/dev/null 2>"$dir.log" 3>&- &
	track $!
	disown $!
	for ((i = 0; i < 200; i++)); do
		"$PY" -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' \
			"$port" 2>/dev/null && break
		sleep 0.05
	done
	((i < 200)) || fail "http server on $port did not start: $(cat "$dir.log")" || return
	REPLY=$port
}

# requests DIR: the request lines the server of DIR logged.
requests() {
	grep -o '"GET [^"]*"' "$1.log" || true
}

# png_ok FILE MIN_COLOURS: FILE is a PNG of at least 200x100 pixels and
# 2 kB with at least MIN_COLOURS colours.
png_ok() {
	local f=$1 min=$2 colours
	if [[ ! -f $f ]]; then
		# Firefox says why a screenshot failed on stderr only.
		printf -- '--- status %s; stderr of the run (last 25 lines):\n%s\n' \
			"${status-}" "$(tail -n 25 <<<"${stderr-}")" >&2
		fail "no picture $f"
		return
	fi
	"$PY" - "$f" <<-'EOF' || fail "$f is not a PNG of a page" || return
		import struct, sys
		d = open(sys.argv[1], "rb").read()
		assert d[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
		assert d[12:16] == b"IHDR", "no IHDR"
		w, h = struct.unpack(">II", d[16:24])
		assert w >= 200 and h >= 100, (w, h)
		assert len(d) > 2048, len(d)
	EOF
	colours=$(identify -format '%k' "$f") || fail "identify $f" || return
	[[ $colours -ge $min ]] || fail "$f has $colours colours, expected at least $min" || return
	note "$(basename "$f"): $(identify -format '%wx%h' "$f"), $colours colours, $(stat -c %s "$f") bytes"
}

# pixel_is FILE X Y HEX: the pixel at X,Y of FILE is #HEX (RRGGBB).
pixel_is() {
	local px
	px=$(convert "$1" -crop "1x1+$2+$3" -depth 8 txt:- | grep -o '#[0-9A-F]\{6\}' | head -n1)
	[[ $px == "#$4" ]] || fail "pixel $2,$3 of $1 is $px, expected #$4"
}

# denials LOG: the denials of LOG, one "operation object" per line.
denials() {
	[[ -f $1 ]] || return 0
	"$PY" -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e["decision"] != "allow":
        print(e["operation"], e["object"], e["exe"].rsplit("/", 1)[-1], e["pid"])
' "$1"
}

# unexpected_denials LOG: every denial of LOG (none is expected: a
# browser's reads of its content processes' /proc entries are its own,
# /proc/self meaning the sandbox's processes), but Firefox's quotactl, a
# probe for its profile's disk quota that the filter refuses to every
# program and fbac-run logs without a line (fbac-run(1), The filter).
unexpected_denials() {
	denials "$1" | grep -v '^syscall quotactl ' || true
}

# no_unexpected_denials LOG
no_unexpected_denials() {
	local d
	d=$(unexpected_denials "$1")
	[[ -z $d ]] || { show_run; fail "denials in $1:"$'\n'"$d"; }
}

# denied_line OP OBJECT: the last run printed the denial line for it.
denied_line() {
	[[ ${stderr-}$'\n'$output =~ fbac:\ denied\ $1\ \'$2\' ]] ||
		{ show_run; fail "no denial line for $1 '$2'"; }
}

# no_secret TEXT...: the secret is not in TEXT.
no_secret() {
	local t
	for t; do
		[[ $t != *"$SECRET"* ]] || fail "the secret leaked"
	done
}

need_firefox() {
	need_commands firefox-esr identify convert
}

need_chromium() {
	need_commands chromium
}

# A page in three colours: red background, a green block, blue text.
make_page() {
	cat >"$WWW/index.html" <<-'EOF'
		<!doctype html><html><head><title>fbac test page</title></head>
		<body style="background:#ff0000;margin:0">
		<div style="width:400px;height:200px;background:#00ff00"></div>
		<h1 style="color:#0000ff;font-size:64px">fbac test page</h1>
		</body></html>
	EOF
}

# The firefox-esr application policy's Web_Browser, spelt out for --as.
web_browser_firefox() {
	WB=(--as Web_Browser -D app_name=mozilla -D "profile_dir=$1/.config/mozilla"
		-D install_dir=/usr/lib/firefox-esr -D system_config=/etc/firefox-esr)
}

# ---------------------------------------------------------------------------
# 1. Web_Browser: Firefox

# bats test_tags=app:firefox-esr,fn:Web_Browser
@test "firefox-esr (its policy, uid 65534): screenshot of a loopback page, no denial" {
	need_firefox
	require_unprivileged
	make_page
	start_http "$WWW"
	local port=$REPLY uhome t0
	uhome=$(unprivileged_home)
	t0=$(date +%s)
	run --separate-stderr run_unprivileged timeout "$BROWSER_TIMEOUT" "$FBAC_RUN" \
		--log "$LOG" -D "ports=80,443,$port" \
		firefox-esr --headless --screenshot "$HOME/Downloads/shot.png" \
		"http://127.0.0.1:$port/index.html"
	note "firefox-esr screenshot as uid $(stat -c %u "$uhome"): $(($(date +%s) - t0)) s"
	expect_status 0
	png_ok "$uhome/Downloads/shot.png" 3
	pixel_is "$uhome/Downloads/shot.png" 600 20 FF0000
	pixel_is "$uhome/Downloads/shot.png" 20 20 00FF00
	[[ $(requests "$WWW") == *'GET /index.html'* ]] || fail "the server saw no request"
	no_unexpected_denials "$uhome/events.jsonl"
	# Its profile went where the policy says, owned by the user.
	[[ -n $(find "$uhome/.mozilla" "$uhome/.config/mozilla" -name prefs.js 2>/dev/null) ]] ||
		fail "no Firefox profile in ~/.mozilla or ~/.config/mozilla"
}

# bats test_tags=fn:Web_Browser
@test "firefox-esr --as Web_Browser: screenshot; the page cannot read ~/.ssh/id_rsa nor reach an ungranted port" {
	need_firefox
	make_page
	start_http "$WWW"
	local port=$REPLY
	mkdir -p "$BATS_TEST_TMPDIR/other"
	start_http "$BATS_TEST_TMPDIR/other"
	local other=$REPLY
	web_browser_firefox "$HOME"
	# Allowed: the page itself.
	run --separate-stderr timeout "$BROWSER_TIMEOUT" "$FBAC_RUN" --log "$LOG" \
		"${WB[@]}" -D "ports=80,443,$port" \
		firefox-esr --headless --screenshot "$HOME/Downloads/shot.png" \
		"http://127.0.0.1:$port/index.html"
	expect_status 0
	png_ok "$HOME/Downloads/shot.png" 3
	pixel_is "$HOME/Downloads/shot.png" 20 20 00FF00
	# A local page (the user's Documents are readable) that frames the
	# key and loads a picture from a port the policy does not grant.
	cat >"$HOME/Documents/page.html" <<-EOF
		<!doctype html><html><body style="background:#00ff00">
		<h1>local page</h1>
		<iframe src="file://$HOME/.ssh/id_rsa" width="600" height="100"></iframe>
		<img src="http://127.0.0.1:$other/pixel.png">
		</body></html>
	EOF
	: >"$LOG"
	run --separate-stderr timeout "$BROWSER_TIMEOUT" "$FBAC_RUN" --log "$LOG" \
		"${WB[@]}" -D "ports=80,443,$port" \
		firefox-esr --headless --screenshot "$HOME/Downloads/local.png" \
		"file://$HOME/Documents/page.html"
	expect_status 0
	png_ok "$HOME/Downloads/local.png" 2
	pixel_is "$HOME/Downloads/local.png" 600 5 00FF00
	# The key: refused, with the denial line and event.
	[[ $stderr =~ fbac:\ denied\ file_(getattr|read)\ \'$HOME/.ssh/id_rsa\'\ for\ firefox-esr ]] ||
		{ show_run; fail "no denial line for the key"; }
	denials "$LOG" | grep -q "^file_\(getattr\|read\) $HOME/.ssh/id_rsa " ||
		fail "no denial event for the key"
	# The port: refused before any packet.
	denied_line network_outgoing "tcp:127.0.0.1:$other"
	[[ -z $(requests "$BATS_TEST_TMPDIR/other") ]] ||
		fail "the ungranted server saw: $(requests "$BATS_TEST_TMPDIR/other")"
	no_secret "$output" "$stderr"
	! grep -rqs "$SECRET" "$HOME/.mozilla" "$HOME/.config/mozilla" "$HOME/.cache/mozilla" "$HOME/Downloads" ||
		fail "the secret is in the browser's files"
}

# bats test_tags=app:firefox-esr,fn:Web_Browser
@test "firefox-esr (its policy): cannot write ~/.bashrc, and the screenshot works elsewhere" {
	need_firefox
	make_page
	start_http "$WWW"
	local port=$REPLY
	run --separate-stderr timeout "$BROWSER_TIMEOUT" "$FBAC_RUN" --log "$LOG" \
		-D "ports=80,443,$port" \
		firefox-esr --headless --screenshot "$HOME/.bashrc" \
		"http://127.0.0.1:$port/index.html"
	# Firefox reports a failed screenshot on stderr only.
	[[ $(<"$HOME/.bashrc") == "$BASHRC" ]] || fail "~/.bashrc was changed"
	denied_line file_write "$HOME/.bashrc"
	denials "$LOG" | grep -q "^file_write $HOME/.bashrc " || fail "no denial event"
	[[ $(requests "$WWW") == *'GET /index.html'* ]] || fail "the page was not loaded"
}

# bats test_tags=app:firefox-esr,fn:Web_Browser
@test "firefox-esr (its policy): a port the policy does not grant is refused" {
	need_firefox
	make_page
	start_http "$WWW"
	local port=$REPLY
	# Web_Browser grants 80 and 443; the page's port is not added here. The
	# page is loaded from the user's Documents and links the server.
	cat >"$HOME/Documents/page.html" <<-EOF
		<!doctype html><html><body style="background:#00ff00">
		<img src="http://127.0.0.1:$port/index.html">
		<iframe src="http://127.0.0.1:$port/index.html"></iframe>
		</body></html>
	EOF
	run --separate-stderr timeout "$BROWSER_TIMEOUT" "$FBAC_RUN" --log "$LOG" \
		firefox-esr --headless --screenshot "$HOME/Downloads/shot.png" \
		"file://$HOME/Documents/page.html"
	# About one CI run in six, Firefox exits 0 here without a picture and
	# with the very stderr of a good run (sessions 3 and 4; never in 18
	# runs by hand, 12 of them under load): once more, said in the log.
	if [[ $status -eq 0 && ! -f $HOME/Downloads/shot.png ]]; then
		note "firefox-esr exited 0 without its screenshot; once more"
		run --separate-stderr timeout "$BROWSER_TIMEOUT" "$FBAC_RUN" --log "$LOG" \
			firefox-esr --headless --screenshot "$HOME/Downloads/shot.png" \
			"file://$HOME/Documents/page.html"
	fi
	expect_status 0
	png_ok "$HOME/Downloads/shot.png" 2
	denied_line network_outgoing "tcp:127.0.0.1:$port"
	[[ -z $(requests "$WWW") ]] || fail "the server saw: $(requests "$WWW")"
	# What the policy grants: 80 and 443 only (and DNS).
	run --separate-stderr "$FBAC_RUN" --check firefox-esr
	expect_status 0
	grep -qx '  tcp connect: 53,80,443' <<<"$output" || { show_run; fail "firefox-esr grants other TCP ports"; }
}

# bats test_tags=app:firefox-esr,fn:Web_Browser
@test "firefox-esr (its policy, uid 65534): its content processes add their own sandbox inside fbac's (Nested_Sandbox)" {
	need_firefox
	require_unprivileged
	make_page
	start_http "$WWW"
	local port=$REPLY
	# As a user: run by root, fbac-run refuses user namespaces (root
	# cannot be mapped without CAP_SETFCAP), and Firefox keeps only its
	# seccomp-bpf layer.
	bg_run "$BATS_TEST_TMPDIR/ff.out" run_unprivileged timeout 60 "$FBAC_RUN" -D "ports=80,443,$port" \
		firefox-esr --headless "http://127.0.0.1:$port/index.html"
	local top=$REPLY i c content=''
	for ((i = 0; i < 300; i++)); do
		[[ -z $content ]] || break
		for c in $(descendants "$top"); do
			if tr '\0' ' ' <"/proc/$c/cmdline" 2>/dev/null | grep -q -- '-contentproc.*-isForBrowser'; then
				content=$c
				break
			fi
		done
		[[ -n $content ]] || sleep 0.1
	done
	[[ -n $content ]] || fail "no content process: $(cat "$BATS_TEST_TMPDIR/ff.out")"
	# Its sandbox is in place once the process has its second filter.
	local filters=0
	for ((i = 0; i < 100; i++)); do
		filters=$(sed -n 's/^Seccomp_filters:[[:space:]]*//p' "/proc/$content/status")
		[[ $filters -ge 2 ]] && break
		sleep 0.1
	done
	local userns root
	userns=$(readlink "/proc/$content/ns/user")
	root=$(readlink "/proc/$content/root")
	note "content process $content: $filters seccomp filters, $userns, root $root"
	# fbac's filter, then Firefox's own seccomp-bpf sandbox.
	[[ $filters -ge 2 ]] || fail "the content process has only $filters seccomp filter(s)"
	# Its own user namespace (not the one fbac-run and the browser run in)...
	[[ $userns != "$(readlink /proc/self/ns/user)" ]] ||
		fail "the content process has no user namespace of its own: $(cat "$BATS_TEST_TMPDIR/ff.out")"
	[[ $userns != "$(readlink "/proc/$top/ns/user")" ]] || fail "the content process shares the browser's user namespace"
	# ... in which it chroots to an empty directory (/proc/PID/fdinfo).
	[[ -n $root && $root != / ]] || fail "the content process did not chroot (root: $root)"
	kill -0 "$top" 2>/dev/null || fail "firefox-esr exited: $(cat "$BATS_TEST_TMPDIR/ff.out")"
}

# ---------------------------------------------------------------------------
# 2. Web_Browser: Chromium

# chromium_dom URL [FLAG...]: chromium (its policy) as uid 65534 prints the
# DOM of URL; ports 80, 443 and $PORT; bounded by $CHROMIUM_TIMEOUT seconds
# (default $BROWSER_TIMEOUT). (run_unprivileged maps arguments that start
# with $HOME, not "--flag=$HOME/...": the staged HOME is named.)
chromium_dom() {
	local url=$1 uhome
	shift
	uhome=$(unprivileged_home)
	run --separate-stderr run_unprivileged timeout "${CHROMIUM_TIMEOUT:-$BROWSER_TIMEOUT}" "$FBAC_RUN" \
		--log "$LOG" -D "ports=80,443,$PORT" \
		chromium --headless --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		"--user-data-dir=$uhome/.config/chromium" "$@" --dump-dom "$url"
}

# chromium_denials LOG: the unexpected denials of LOG but one that changes
# nothing: as uid 65534, chromium tries to make /usr/lib/chromium/extensions,
# which the kernel refuses a user anyway (EACCES); the policy rightly does
# not grant it, and fbac-run prints a denial where the kernel would have
# refused.
chromium_denials() {
	unexpected_denials "$1" | grep -v '^dir_mkdir /usr/lib/chromium/extensions ' || true
}

# chromium_no_denials LOG
chromium_no_denials() {
	local d
	d=$(chromium_denials "$1")
	[[ -z $d ]] || { show_run; fail "denials in $1:"$'\n'"$d"; }
}

# A page whose script tries to read the key (fetch and XHR of file://) and
# writes what it got into the DOM.
make_dom_page() {
	cat >"$WWW/dom.html" <<-EOF
		<!doctype html><html><body><h1>fbac DOM page</h1><pre id="out">script-ran</pre>
		<iframe src="file://$1/.ssh/id_rsa"></iframe>
		<script>
		var out = document.getElementById("out");
		try {
			var x = new XMLHttpRequest();
			x.open("GET", "file://$1/.ssh/id_rsa", false);
			x.send();
			out.textContent += "\nxhr:" + x.responseText;
		} catch (e) { out.textContent += "\nxhr-error"; }
		</script></body></html>
	EOF
}

# Chromium's own sandbox cannot start under fbac-run (fbac-run(1), "Not
# covered today"): its policy's sandbox_fallback makes fbac-run add
# --no-sandbox --no-zygote, and say so in one line. The page's script runs
# and reads no key; nothing is denied.
# bats test_tags=app:chromium,fn:Web_Browser
@test "chromium (its policy, uid 65534): fbac-run adds --no-sandbox --no-zygote, says so once; the DOM of a loopback page" {
	need_chromium
	require_unprivileged
	local uhome
	uhome=$(unprivileged_home)
	make_dom_page "$uhome"
	start_http "$WWW"
	PORT=$REPLY
	chromium_dom "http://127.0.0.1:$PORT/dom.html"
	expect_status 0
	[[ $output == *'fbac DOM page'* && $output == *'script-ran'* ]] ||
		{ show_run; fail "no DOM of the page"; }
	[[ $(grep -c "^fbac: chromium's own sandbox cannot start inside fbac-run; running it with --no-sandbox --no-zygote (fbac-run's sandbox confines it)\$" <<<"$stderr") == 1 ]] ||
		{ show_run; fail "expected the fallback line once"; }
	no_secret "$output" "$stderr"
	chromium_no_denials "$uhome/events.jsonl"
}

# --no-sandbox typed: Chromium's own sandbox cannot start under fbac-run
# (the previous test); fbac's is the only one here, and fbac-run adds
# nothing, nor says so. --no-zygote (allowed only with
# --no-sandbox): through its zygote, the browser learns each renderer's pid
# from the SCM_CREDENTIALS of a message the renderer sends, and under
# fbac-run the supervisor sends it, so every renderer is announced with
# fbac-run's pid and none runs (fbac-run(1), "Not covered today").
CHROMIUM_NO_SANDBOX=(--no-sandbox --no-zygote)

# bats test_tags=app:chromium,fn:Web_Browser
@test "chromium --no-sandbox --no-zygote (its policy, uid 65534): DOM of a loopback page; the key and an ungranted port stay out" {
	need_chromium
	require_unprivileged
	local uhome t0
	uhome=$(unprivileged_home)
	make_dom_page "$uhome"
	start_http "$WWW"
	PORT=$REPLY
	mkdir -p "$BATS_TEST_TMPDIR/other"
	start_http "$BATS_TEST_TMPDIR/other"
	local other=$REPLY
	# The page: its DOM, its script ran, but got no key; nothing denied.
	t0=$(date +%s)
	chromium_dom "http://127.0.0.1:$PORT/dom.html" "${CHROMIUM_NO_SANDBOX[@]}"
	note "chromium --dump-dom as uid 65534: $(($(date +%s) - t0)) s, status $status"
	expect_status 0
	[[ $output == *'fbac DOM page'* && $output == *'script-ran'* ]] ||
		{ show_run; fail "no DOM of the page"; }
	[[ $(requests "$WWW") == *'GET /dom.html'* ]] || fail "the server saw no request"
	[[ $stderr != *"own sandbox cannot start"* ]] || { show_run; fail "a fallback line for options typed"; }
	no_secret "$output" "$stderr"
	chromium_no_denials "$uhome/events.jsonl"
	# The key itself, opened as the page: an error page, not the key.
	: >"$uhome/events.jsonl"
	chromium_dom "file://$uhome/.ssh/id_rsa" "${CHROMIUM_NO_SANDBOX[@]}"
	no_secret "$output" "$stderr"
	[[ $stderr =~ fbac:\ denied\ file_(getattr|read)\ \'$uhome/.ssh/id_rsa\' ]] ||
		{ show_run; fail "no denial line for the key"; }
	denials "$uhome/events.jsonl" | grep -q "^file_\(getattr\|read\) $uhome/.ssh/id_rsa " ||
		fail "no denial event for the key"
	# A port the policy does not grant: refused before any packet.
	chromium_dom "http://127.0.0.1:$other/" "${CHROMIUM_NO_SANDBOX[@]}"
	denied_line network_outgoing "tcp:127.0.0.1:$other"
	[[ -z $(requests "$BATS_TEST_TMPDIR/other") ]] || fail "the ungranted server was reached"
	# Nor can it write the user's shell start-up file.
	[[ $(<"$uhome/.bashrc") == "$BASHRC" ]] || fail "~/.bashrc was changed"
}

# A run that lasts: seconds after the start its device monitor (libudev)
# lists /sys/bus and /sys/class, which a screenshot on a busy machine lives
# long enough to see. Ended after 8 s; nothing is denied meanwhile.
# bats test_tags=app:chromium,fn:Web_Browser
@test "chromium --headless (its policy, uid 65534): 8 s on a loopback page, no denial" {
	need_chromium
	require_unprivileged
	local uhome
	uhome=$(unprivileged_home)
	make_page
	start_http "$WWW"
	PORT=$REPLY
	run --separate-stderr run_unprivileged timeout -s TERM 8 "$FBAC_RUN" --log "$LOG" \
		-D "ports=80,443,$PORT" chromium --headless "http://127.0.0.1:$PORT/index.html"
	[[ $status -eq 124 ]] || { show_run; fail "chromium ended before the 8 s (status $status)"; }
	[[ $stderr != *'fbac: denied'* ]] || { show_run; fail "a denial line"; }
	chromium_no_denials "$uhome/events.jsonl"
}

# The process singleton's socket goes under $TMPDIR, often a directory of
# its own below /tmp (pam_tmpdir's /tmp/user/UID): the policy grants it
# there too (it granted /tmp/org.chromium.Chromium.*/ only, and Chromium
# aborted: "Failed to create a ProcessSingleton", status 21). A window on
# Xvfb (headless makes no singleton), ended after 10 s.
# bats test_tags=app:chromium,fn:Web_Browser
@test "chromium (its policy) with TMPDIR below /tmp: its process singleton binds its socket there" {
	need_chromium
	start_gui_xvfb
	local tmp sock ext=/usr/lib/chromium/extensions had_ext=0
	tmp=$(mktemp -d /tmp/fbac-tmpdir.XXXXXX) || fail "mktemp" || return
	mkdir -p "$tmp/user/$EUID"
	[[ -e $ext ]] && had_ext=1
	run --separate-stderr env TMPDIR="$tmp/user/$EUID" DISPLAY=":$DISPLAY_N" \
		timeout -s TERM 10 "$FBAC_RUN" --log "$LOG" chromium --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync about:blank
	sock=$(readlink "$HOME/.config/chromium/SingletonSocket") || true
	rm -rf -- "$tmp"
	# As root it makes the (empty) directory of external extensions beside
	# its executable, as unconfined: not left behind by this test.
	((had_ext)) || rmdir "$ext" 2>/dev/null || true
	[[ $status -eq 124 ]] || { show_run; fail "chromium ended before the 10 s (status $status)"; }
	[[ $stderr != *'denied unix_bind'* && $stderr != *'Failed to create a ProcessSingleton'* ]] ||
		{ show_run; fail "the singleton socket was refused"; }
	[[ $sock == "$tmp/user/$EUID/org.chromium.Chromium."*/SingletonSocket ]] ||
		{ show_run; fail "no singleton socket under TMPDIR: '$sock'"; }
	! denials "$LOG" | grep '^unix_bind ' || fail "a unix_bind denial event"
}

# ---------------------------------------------------------------------------
# 3. Graphical_X11 on Xvfb

# start_gui_xvfb: start_xvfb (helpers.bash), with the tools that take
# screenshots.
start_gui_xvfb() {
	need_commands xwd convert identify
	start_xvfb
}

# screen_colours FILE: take a screenshot of the display into FILE and print
# its number of colours.
screen_colours() {
	xwd -root -display ":$DISPLAY_N" | convert xwd:- "png:$1" || return
	identify -format '%k' "$1"
}

# wait_drawn FILE [OUT]: wait (30 s: a loaded 2-CPU machine is slow to start a
# client) until the screen has more than one colour; on failure show OUT,
# what the program printed.
wait_drawn() {
	local c end=$((SECONDS + 30))
	while :; do
		c=$(screen_colours "$1")
		[[ $c -gt 1 ]] && { note "screen: $c colours"; return 0; }
		((SECONDS < end)) || break
		sleep 0.2
	done
	# What the program said, and whether it still runs (a one-off seen in CI).
	[[ -z ${2-} ]] || note "output of the program: $(cat "$2" 2>&1); processes: $(pgrep -a -f 'fbac-run|xeyes|xterm' | tr '\n' ';')"
	fail "the screen stays blank ($c colours)"
}

@test "Graphical_X11: xeyes draws on the display; without it, no connection" {
	need_commands xeyes
	start_gui_xvfb
	[[ $(screen_colours "$BATS_TEST_TMPDIR/before.png") -eq 1 ]] || fail "the screen is not blank at first"
	# Without Graphical_X11: refused, with the denial line, nothing drawn.
	run --separate-stderr timeout 20 "$FBAC_RUN" --log "$LOG" --as Basic_Runtime \
		xeyes -display ":$DISPLAY_N"
	expect_status 1
	[[ $stderr =~ fbac:\ denied\ unix_connect\ \'@?/tmp/.X11-unix/X$DISPLAY_N\'\ for\ xeyes ]] ||
		{ show_run; fail "no denial line for the X11 socket"; }
	[[ $stderr == *"Can't open display"* ]] || { show_run; fail "xeyes did not fail to open the display"; }
	denials "$LOG" | grep -q "^unix_connect @\?/tmp/.X11-unix/X$DISPLAY_N " || fail "no denial event"
	[[ $(screen_colours "$BATS_TEST_TMPDIR/denied.png") -eq 1 ]] || fail "something was drawn"
	# With it: the window appears, and nothing is denied.
	: >"$LOG"
	bg_run "$BATS_TEST_TMPDIR/xeyes.out" timeout 30 "$FBAC_RUN" --log "$LOG" \
		--as Basic_Runtime --as Graphical_X11 xeyes -display ":$DISPLAY_N" -geometry 300x200+10+10
	local pid=$REPLY
	wait_drawn "$BATS_TEST_TMPDIR/after.png" "$BATS_TEST_TMPDIR/xeyes.out"
	kill -0 "$pid" 2>/dev/null || fail "xeyes exited: $(cat "$BATS_TEST_TMPDIR/xeyes.out")"
	[[ -z $(denials "$LOG") ]] || fail "denials: $(denials "$LOG")"
	[[ ! -s $BATS_TEST_TMPDIR/xeyes.out ]] || fail "xeyes printed: $(cat "$BATS_TEST_TMPDIR/xeyes.out")"
}

@test "Graphical_X11: a client cannot read ~/.ssh/id_rsa nor write ~/.bashrc" {
	need_commands xmessage
	start_gui_xvfb
	# xmessage -file shows a file in a window: the key is refused before
	# anything is drawn from it; a granted file is shown.
	printf 'hello from a document\n' >"$HOME/Documents/note.txt"
	bg_run "$BATS_TEST_TMPDIR/ok.out" timeout 30 "$FBAC_RUN" --log "$LOG" \
		--as Basic_Runtime --as Graphical_X11 --as Read_Only_Directory -D "dir=$HOME/Documents" \
		xmessage -display ":$DISPLAY_N" -file "$HOME/Documents/note.txt"
	wait_drawn "$BATS_TEST_TMPDIR/ok.png" "$BATS_TEST_TMPDIR/ok.out"
	run --separate-stderr timeout 20 "$FBAC_RUN" --log "$LOG" \
		--as Basic_Runtime --as Graphical_X11 --as Read_Only_Directory -D "dir=$HOME/Documents" \
		xmessage -display ":$DISPLAY_N" -file "$HOME/.ssh/id_rsa"
	[[ $status -ne 0 ]] || fail "xmessage showed the key"
	[[ $stderr =~ fbac:\ denied\ file_(getattr|read)\ \'$HOME/.ssh/id_rsa\' ]] ||
		{ show_run; fail "no denial line for the key"; }
	no_secret "$output" "$stderr"
	run --separate-stderr timeout 20 "$FBAC_RUN" --as Basic_Runtime --as Graphical_X11 \
		sh -c 'echo evil >>"$HOME/.bashrc"'
	[[ $status -ne 0 ]] || fail "the append succeeded"
	denied_line file_append "$HOME/.bashrc"
	[[ $(<"$HOME/.bashrc") == "$BASHRC" ]] || fail "~/.bashrc was changed"
}

# ---------------------------------------------------------------------------
# 4. Terminal_Emulator: xterm

# bats test_tags=app:xterm,fn:Terminal_Emulator
@test "xterm (its policy, uid 65534): runs a command in its window; the key and ~/.bashrc stay out of reach" {
	need_commands xterm
	# As root it would give its terminal to root's tty group: CAP_CHOWN,
	# which no confined program keeps. Users' terminals are theirs.
	require_unprivileged
	start_gui_xvfb
	mkdir -p "$HOME/Documents"
	local uhome
	uhome=$(unprivileged_home)
	# Its child takes the new pty as its controlling terminal by opening
	# it (a session leader without O_NOCTTY), then opens /dev/tty.
	local script='echo XTERM-RAN >"$HOME/Documents/ran"; cat "$HOME/.ssh/id_rsa" >"$HOME/Documents/key" 2>&1; echo evil >>"$HOME/.bashrc"; sleep 5'
	bg_run "$BATS_TEST_TMPDIR/xterm.out" run_unprivileged timeout 40 "$FBAC_RUN" \
		--log "$LOG" xterm -display ":$DISPLAY_N" -geometry 60x10+0+0 \
		-e sh -c "$script"
	local pid=$REPLY i
	for ((i = 0; i < 150; i++)); do
		[[ -s $uhome/Documents/key ]] && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.1
	done
	[[ $(<"$uhome/Documents/ran") == XTERM-RAN ]] ||
		fail "the command did not run: $(cat "$BATS_TEST_TMPDIR/xterm.out")"
	wait_drawn "$BATS_TEST_TMPDIR/xterm.png" "$BATS_TEST_TMPDIR/xterm.out"
	wait "$pid" || true # its status is the command's; checked below
	no_secret "$(cat "$uhome/Documents/key")"
	[[ $(<"$uhome/.bashrc") == "$BASHRC" ]] || fail "~/.bashrc was changed"
	local ulog=$uhome/events.jsonl
	denials "$ulog" | grep -q "^file_\(getattr\|read\) $uhome/.ssh/id_rsa " ||
		fail "no denial event for the key: $(denials "$ulog")"
	denials "$ulog" | grep -q "^file_\(write\|append\) $uhome/.bashrc " ||
		fail "no denial event for ~/.bashrc: $(denials "$ulog")"
	# Nothing else was refused (the command's own attempts aside).
	[[ -z $(denials "$ulog" | grep -v -e "$uhome/.ssh/id_rsa " -e "$uhome/.bashrc ") ]] ||
		fail "other denials: $(denials "$ulog")"
}

# The text-mode type is not enough for a terminal emulator, on purpose:
# every text program would otherwise get the X display and new terminals.
# bats test_tags=fn:Terminal_Emulator,fn:Terminal_Application
@test "Terminal_Emulator: with Terminal_Application instead, xterm gets no display and script no pseudo-terminal" {
	need_commands xterm script
	start_gui_xvfb
	run --separate-stderr timeout 20 "$FBAC_RUN" --log "$LOG" --as Terminal_Application \
		-D Terminal_Application.app_name=xterm \
		xterm -display ":$DISPLAY_N" -e sh -c 'echo ran >"$HOME/Documents/ran"'
	[[ $status -ne 0 ]] || { show_run; fail "xterm started"; }
	[[ $stderr =~ fbac:\ denied\ unix_connect\ \'@?/tmp/.X11-unix/X$DISPLAY_N\'\ for\ xterm ]] ||
		{ show_run; fail "no denial line for the X11 socket"; }
	[[ ! -e $HOME/Documents/ran ]] || fail "the command ran"
	[[ $(screen_colours "$BATS_TEST_TMPDIR/denied.png") -eq 1 ]] || fail "something was drawn"
	# A new pseudo-terminal (script(1) makes one, as xterm does): refused
	# with Terminal_Application, given with Terminal_Emulator. (In a granted
	# folder: the shell it starts looks at its working directory.)
	cd "$HOME/Documents" || return
	run --separate-stderr timeout 20 "$FBAC_RUN" --as Terminal_Application \
		-D Terminal_Application.app_name=script script -q -c 'echo in-pty' /dev/null
	[[ $status -ne 0 ]] || { show_run; fail "script got a pseudo-terminal"; }
	denied_line 'file_[a-z]*' /dev/ptmx
	run --separate-stderr timeout 20 "$FBAC_RUN" --as Terminal_Emulator \
		-D Terminal_Emulator.app_name=script script -q -c 'echo in-pty' /dev/null
	[[ $status -eq 0 && $output == *in-pty* ]] || { show_run; fail "script failed with Terminal_Emulator"; }
	[[ $stderr != *"fbac: denied"* ]] || { show_run; fail "denials with Terminal_Emulator"; }
}
