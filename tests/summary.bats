#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `fbac show NAME` and `fbac-run --check PROGRAM` print a summary a person
# reads (what the policy grants by kind, the protected paths it reaches and
# does not, the functionalities it includes, the kernel's part), well
# under 60 lines for the largest shipped policies; `--full` prints every
# rule with its origin (fbac(1), show; fbac-run(1), --check).

# shellcheck disable=SC2154 # bats sets output, stderr, lines

bats_require_minimum_version 1.5.0

load helpers

setup() {
	[[ -x $FBAC && -x $FBAC_RUN ]] || fail "no $FBAC or $FBAC_RUN: run make"
	cd "$BATS_TEST_TMPDIR" || return 1
}

has_line() {
	grep -qxF -- "$1" <<<"$output" || { show_run; fail "no line: $1"; }
}

@test "show Web_Browser: a summary under 60 lines, --full the whole listing" {
	run --separate-stderr "$FBAC" show Web_Browser
	expect_status 0
	((${#lines[@]} < 60)) || { show_run; fail "${#lines[@]} lines"; }
	has_line "Web_Browser: (high-level) Browse the web in a graphical browser that keeps its own profile [applications]"
	has_line "grants (~ is the home directory):"
	[[ $output == *$'\n  read:          ~/'* ]] || { show_run; fail "no read line starting in the home"; }
	[[ $output == *$'\n  write:         ~/Downloads/**, '* ]] || { show_run; fail "the downloads are not first among the writes"; }
	[[ $output == *$'\n  network:       '*"outgoing tcp 80,443"* ]] || { show_run; fail "no network line"; }
	has_line "protected paths it does not reach:"
	# ~/.ssh and ~/.gnupg are listed among those it does not reach.
	[[ $(sed -n '/^protected paths it does not reach:/,/^includes/p' <<<"$output") == *"~/.ssh,"*"~/.gnupg"* ||
		$(sed -n '/^protected paths it does not reach:/,/^includes/p' <<<"$output") == *"~/.gnupg,"*"~/.ssh"* ]] ||
		{ show_run; fail "~/.ssh or ~/.gnupg not listed as out of reach"; }
	[[ $output == *$'\nincludes '[0-9]*' functionalities:'* ]] || { show_run; fail "no includes"; }
	[[ $output == *"HTTP_Client"* && $output == *"Graphical_Application"* ]] || { show_run; fail "includes"; }
	[[ $output == *$'\nkernel: '[0-9]*' Landlock rules; '[0-9]*' decided by the supervisor; scoped: '* ]] ||
		{ show_run; fail "no kernel line"; }
	has_line "  tcp connect: 53,80,443"
	has_line "(fbac show --full Web_Browser: every rule with its origin)"
	[[ $output != *"hierarchy:"* && $output != *"        from "* ]] || { show_run; fail "the full listing"; }
	local short=${#lines[@]}
	run --separate-stderr "$FBAC" show --full Web_Browser
	expect_status 0
	((${#lines[@]} > 10 * short)) || { show_run; fail "--full: only ${#lines[@]} lines"; }
	has_line "hierarchy:"
	has_line "privileges:"
	has_line "kernel (Landlock) rules:"
	has_line "decided by the supervisor (the kernel cannot express them):"
}

@test "show: the summary names the protected paths a policy reaches, and how" {
	run --separate-stderr "$FBAC" show firefox-esr
	expect_status 0
	((${#lines[@]} < 60)) || { show_run; fail "${#lines[@]} lines"; }
	has_line "protected paths it reaches:"
	has_line "  ~/.mozilla: read, write, create/delete (Firefox profiles)"
	has_line "  ~/.Xauthority: read (X11 authorization cookie)"
	# And an application that reaches none says only what it does not.
	run --separate-stderr "$FBAC" show curl
	expect_status 0
	[[ $output != *"protected paths it reaches:"* ]] || { show_run; fail "curl reaches a protected path"; }
	has_line "protected paths it does not reach:"
}

@test "fbac-run --check firefox-esr: a summary under 60 lines, --full the whole listing" {
	run --separate-stderr "$FBAC_RUN" --check firefox-esr
	expect_status 0
	((${#lines[@]} < 60)) || { show_run; fail "${#lines[@]} lines"; }
	[[ ${lines[0]} == "layer library: firefox-esr" ]] || { show_run; fail "first line"; }
	has_line "  tcp connect: 53,80,443"
	has_line "protected paths it does not reach:"
	[[ ${lines[-1]} == "landlock ABI "[0-9]* ]] || { show_run; fail "the landlock line is not the last"; }
	has_line "(fbac-run --check --full: every rule with its origin)"
	local short=${#lines[@]}
	run --separate-stderr "$FBAC_RUN" --check --full firefox-esr
	expect_status 0
	((${#lines[@]} > 10 * short)) || { show_run; fail "--full: only ${#lines[@]} lines"; }
	has_line "privileges:"
	has_line "decided by the supervisor (the kernel cannot express them):"
	# The README's example still reads the same.
	run --separate-stderr bash -c "'$FBAC_RUN' --check curl | grep -E '^(layer|landlock)|tcp connect'"
	expect_status 0
	[[ ${lines[0]} == "layer library: curl" && ${lines[1]} == "  tcp connect: 53,80,443" &&
		${lines[2]} == "landlock ABI "* && ${#lines[@]} -eq 3 ]] || { show_run; fail "README example"; }
}

@test "fbac-run --full without --check is a usage error" {
	run --separate-stderr "$FBAC_RUN" --full true
	[[ $status -ne 0 ]] || { show_run; fail "ran"; }
	[[ $stderr == *"--full goes with --check"* ]] || { show_run; fail "no reason"; }
}

@test "the summary from the stack cache is the summary compiled" {
	touch -d '1 hour ago' "$HOME" "$HOME/.config" "$FBAC_USER_DIR"
	sleep 1.1
	run --separate-stderr "$FBAC_RUN" -v --as Web_Browser -D Web_Browser.app_name=test true
	[[ $stderr == *"fbac: policy: compiled, cached as "* ]] || { show_run; fail "not cached"; }
	run --separate-stderr "$FBAC_RUN" --check --as Web_Browser -D Web_Browser.app_name=test true
	expect_status 0
	local cached=$output
	rm -rf "$HOME/.cache/fbac"
	run --separate-stderr "$FBAC_RUN" --check --as Web_Browser -D Web_Browser.app_name=test true
	expect_status 0
	[[ $output == "$cached" ]] || { diff <(echo "$cached") <(echo "$output") | head; fail "differs"; }
	[[ $output == *$'\nincludes '[0-9]*' functionalities:'* ]] || { show_run; fail "no includes from the cache"; }
}

@test "show as uid 65534: ~ is that user's home" {
	require_unprivileged
	run run_unprivileged "$FBAC" show Text_Viewer
	expect_status 0
	[[ $output == *"grants (~ is the home directory):"* && $output == *"  read:          ~/"* ]] ||
		{ show_run; fail "the home is not abbreviated"; }
}
