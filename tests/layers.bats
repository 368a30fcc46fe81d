#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The policy layers of a program, with real runs of curl against a loopback
# HTTP server (fbac-profile(5), LAYERS):
#   - the shipped policy applies when the user has none of their own;
#   - the user's own application policy replaces the shipped one, so it may
#     grant more than the shipped default;
#   - the administrator's layer is the ceiling: it applies whatever the user
#     writes, and a refusal there is a denial line naming it;
#   - a -P layer narrows whatever applies.
# The shipped curl policy reaches ports 80 and 443 only; the server listens
# on another port, which the tests' user policies grant.

# shellcheck disable=SC2154 # bats sets output, stderr, lines

bats_require_minimum_version 1.5.0

load helpers

setup() {
	[[ -x $FBAC_RUN ]] || fail "no $FBAC_RUN: run make"
	need_commands /usr/bin/curl python3
	BG_PIDS=$BATS_TEST_TMPDIR/pids
	WWW=$BATS_TEST_TMPDIR/www
	mkdir -p "$WWW"
	printf 'served over loopback\n' >"$WWW/page.txt"
	chmod -R a+rX "$WWW"
	start_http "$WWW"
	PORT=$REPLY
	cd / || return 1
}

teardown() {
	kill_tracked
	fbac_teardown
}

# start_http DIR: serve DIR on a free port of 127.0.0.1, outside the
# sandbox; REPLY is the port.
start_http() {
	local dir=$1 port i
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	python3 -m http.server "$port" --bind 127.0.0.1 --directory "$dir" \
		</dev/null >/dev/null 2>"$dir.log" 3>&- &
	track $!
	disown $!
	for ((i = 0; i < 200; i++)); do
		python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' \
			"$port" 2>/dev/null && break
		sleep 0.05
	done
	((i < 200)) || fail "http server on $port did not start: $(cat "$dir.log")" || return
	REPLY=$port
}

# curl_policy DIR PORTS...: an application policy for curl in DIR that
# grants Download_Manager on PORTS (the shipped one: 80 and 443).
curl_policy() {
	local dir=$1 ports
	shift
	ports=$(
		IFS=,
		printf '%s' "$*"
	)
	mkdir -p "$dir"
	cat >"$dir/curl.yaml" <<-EOF
		fbac: 1
		application: curl
		executables: [/usr/bin/curl]
		functionalities:
		  - Download_Manager: {ports: [$ports]}
	EOF
}

# admin_policy PORTS...: the same in the administrator's layer, root's.
admin_policy() {
	curl_policy "$FBAC_ADMIN_DIR" "$@"
	chown -R root:root "$FBAC_ADMIN_DIR"
	chmod 0644 "$FBAC_ADMIN_DIR/curl.yaml"
}

fetch() {
	run --separate-stderr "$FBAC_RUN" /usr/bin/curl -sS "http://127.0.0.1:$PORT/page.txt"
}

# denied_port LAYER: the last run was refused the server's port, with a
# denial line that names the layer that refused.
denied_port() {
	[[ $status -ne 0 ]] || { show_run; fail "curl reached port $PORT"; }
	[[ $output != *"served over loopback"* ]] || { show_run; fail "the page came through"; }
	[[ $stderr == *"fbac: denied network_outgoing 'tcp:127.0.0.1:$PORT' for curl["*"]: not granted by curl (layer $1)"* ]] ||
		{ show_run; fail "no denial line naming layer $1"; }
}

@test "layers: no user policy, the shipped one applies (and denies another port)" {
	fetch
	denied_port library
	run --separate-stderr "$FBAC_RUN" --check /usr/bin/curl
	expect_status 0
	[[ ${lines[0]} == "layer library: curl" ]] || { show_run; fail "the library's policy is not the one in force"; }
	[[ $output != *"layer user"* ]] || { show_run; fail "a user layer with no policy is in force"; }
}

@test "layers: the user's own policy replaces the shipped one and may grant more" {
	curl_policy "$FBAC_USER_DIR" 80 443 "$PORT"
	fetch
	expect_status 0
	[[ $output == "served over loopback" ]] || { show_run; fail "not the page"; }
	[[ $stderr != *"fbac: denied"* ]] || { show_run; fail "a denial"; }
	run --separate-stderr "$FBAC_RUN" --check /usr/bin/curl
	expect_status 0
	[[ ${lines[0]} == "layer user: curl (the user's own policy: replaces the library's)" ]] ||
		{ show_run; fail "--check does not say the user's policy replaces the library's"; }
	[[ $output != *"layer library"* ]] || { show_run; fail "the library's policy is still in force"; }
	grep -qx "  tcp connect: 53,80,443,$PORT" <<<"$output" || { show_run; fail "the port is not in the kernel plan"; }
	# fbac show and explain say the same.
	run --separate-stderr "$FBAC" show curl
	expect_status 0
	[[ ${lines[0]} == "curl: application policy in layer 'user'" ]] || { show_run; fail "show: not the user's policy"; }
	grep -qx "  in force for curl: layer user (the user's own policy, replacing layer library's)" <<<"$output" ||
		{ show_run; fail "show: no layers in force"; }
	run --separate-stderr "$FBAC" explain curl network_outgoing "tcp:127.0.0.1:$PORT"
	expect_status 0
	grep -qx "  (layer user's policy replaces layer library's)" <<<"$output" || { show_run; fail "explain: no replacement"; }
	[[ $output != *"layer library (curl)"* ]] || { show_run; fail "explain: the library's policy decided"; }
}

@test "layers: the user's own policy may also grant less than the shipped one" {
	# No port 80, no 443: the user's policy is all that applies.
	curl_policy "$FBAC_USER_DIR" 53
	run --separate-stderr "$FBAC" explain curl network_outgoing tcp:127.0.0.1:443
	expect_status 1
	grep -qx "  layer user (curl): denied: no rule grants it" <<<"$output" || { show_run; fail "443 allowed"; }
	fetch
	denied_port user
}

@test "layers: the administrator's layer is the ceiling over the user's policy" {
	[[ $EUID -eq 0 ]] || skip_or_fail "the administrator's layer must be root's: run as root"
	curl_policy "$FBAC_USER_DIR" 80 443 "$PORT"
	admin_policy 80 443
	fetch
	denied_port admin
	run --separate-stderr "$FBAC_RUN" --check /usr/bin/curl
	expect_status 0
	has() { grep -qxF "$1" <<<"$output" || { show_run; fail "no line '$1'"; }; }
	has "layer admin: curl (the administrator's ceiling: applies whatever the other layers grant)"
	has "layer user: curl (the user's own policy: replaces the library's)"
	run --separate-stderr "$FBAC" show curl
	expect_status 0
	has "  in force for curl: layer admin (the administrator's ceiling), layer user (the user's own policy, replacing layer library's); allowed only what each allows"
	# The administrator granting the port lets the user's policy decide.
	admin_policy 80 443 "$PORT"
	fetch
	expect_status 0
	[[ $output == "served over loopback" ]] || { show_run; fail "not the page"; }
}

@test "layers: a -P layer narrows the user's policy" {
	curl_policy "$FBAC_USER_DIR" 80 443 "$PORT"
	curl_policy "$BATS_TEST_TMPDIR/narrow" 80 443
	run --separate-stderr "$FBAC_RUN" -P "$BATS_TEST_TMPDIR/narrow" /usr/bin/curl -sS "http://127.0.0.1:$PORT/page.txt"
	denied_port "$BATS_TEST_TMPDIR/narrow"
}

@test "layers: a user policy written after a cached run takes effect at once" {
	# Let the layers age past the racy second, so that the first run is
	# cached; the new file must change the cache key.
	touch -d '1 hour ago' "$FBAC_USER_DIR" "$HOME/.config" "$HOME"
	sleep 1.1
	run --separate-stderr "$FBAC_RUN" -v /usr/bin/curl -sS "http://127.0.0.1:$PORT/page.txt"
	denied_port library
	run --separate-stderr "$FBAC_RUN" -v /usr/bin/curl -sS "http://127.0.0.1:$PORT/page.txt"
	denied_port library
	[[ $stderr == *"fbac: policy: from the cache"* ]] || { show_run; fail "the second run was not cached"; }
	curl_policy "$FBAC_USER_DIR" 80 443 "$PORT"
	run --separate-stderr "$FBAC_RUN" -v /usr/bin/curl -sS "http://127.0.0.1:$PORT/page.txt"
	expect_status 0
	[[ $output == "served over loopback" ]] || { show_run; fail "the cached shipped policy was used"; }
}

@test "layers: as uid 65534, the user's own policy replaces the shipped one" {
	require_unprivileged
	run run_unprivileged "$FBAC_RUN" /usr/bin/curl -sS "http://127.0.0.1:$PORT/page.txt"
	[[ $status -ne 0 && $output == *"not granted by curl (layer library)"* ]] ||
		{ show_run; fail "the shipped policy let uid 65534 reach port $PORT"; }
	fbac_teardown
	rm -f "$BATS_TEST_TMPDIR/.unprivileged-root"
	curl_policy "$FBAC_USER_DIR" 80 443 "$PORT"
	run run_unprivileged "$FBAC_RUN" /usr/bin/curl -sS "http://127.0.0.1:$PORT/page.txt"
	expect_status 0
	[[ $output == "served over loopback" ]] || { show_run; fail "not the page"; }
	run run_unprivileged "$FBAC_RUN" --check /usr/bin/curl
	expect_status 0
	[[ ${lines[0]} == "layer user: curl (the user's own policy: replaces the library's)" ]] ||
		{ show_run; fail "--check as uid 65534"; }
}

@test "layers: as uid 65534, the root-owned administrator's layer is the ceiling over the user's policy" {
	[[ $EUID -eq 0 ]] || skip_or_fail "the administrator's layer must be root's: run as root"
	require_unprivileged
	curl_policy "$FBAC_USER_DIR" 80 443 "$PORT"
	admin_policy 80 443
	run --separate-stderr run_unprivileged "$FBAC_RUN" /usr/bin/curl -sS "http://127.0.0.1:$PORT/page.txt"
	denied_port admin
	[[ $(stat -c %u "$(unprivileged_root)/etc-fbac/curl.yaml") == 0 ]] || fail "the staged admin layer is not root's"
}
