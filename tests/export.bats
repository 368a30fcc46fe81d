#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fbac export --apparmor: every shipped application policy becomes a
# profile that apparmor_parser accepts (-Q: parse and compile, load
# nothing; -K: no cache), with its rules' modes, the functionality each
# came from, the protected paths as deny rules, and what AppArmor cannot
# say listed as comments.

# shellcheck disable=SC2154 # bats sets output, stderr, lines

bats_require_minimum_version 1.5.0

load helpers

# parse FILE: apparmor_parser accepts the profile (its warning about the
# missing kernel interface aside).
parse() {
	run --separate-stderr apparmor_parser -Q -K "$1"
	if [[ $status -ne 0 ]]; then
		show_run
		fail "apparmor_parser refuses $1"
	fi
}

@test "export: every shipped application policy gives a profile apparmor_parser accepts" {
	need_commands apparmor_parser
	local app n=0
	mkdir -p "$BATS_TEST_TMPDIR/aa"
	for app in $("$FBAC" list -a | awk '{print $1}'); do
		run --separate-stderr "$FBAC" export --apparmor -o "$BATS_TEST_TMPDIR/aa/$app" "$app"
		[[ $status -eq 0 ]] || { show_run; fail "fbac export $app failed"; }
		grep -q "^profile $app /" "$BATS_TEST_TMPDIR/aa/$app"
		parse "$BATS_TEST_TMPDIR/aa/$app"
		n=$((n + 1))
	done
	[ "$n" -eq "$(ls "$REPO"/profiles/applications/*.yaml | wc -l)" ]
}

@test "export: curl's profile: modes, origins, network, protected paths, what AppArmor cannot say" {
	need_commands apparmor_parser
	run --separate-stderr "$FBAC" export --apparmor curl
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/curl"
	[[ $output == *$'\nprofile curl /usr/bin/curl {\n'* ]]
	# where it saves, with the functionality that grants it
	[[ $output == *"# from curl > Download_Manager > Save_Files ("*$'\n'"  $HOME/Downloads{,/**} mrwk,"* ]]
	[[ $output == *"  /etc/resolv.conf mrk,"* ]]
	[[ $output == *"  /usr/bin/curl mrkix,"* ]]
	# network rules, with the ports they cannot name
	[[ $output == *"# network_outgoing tcp ports 80,443, any host"*"  network inet stream,"* ]]
	[[ $output == *"network_outgoing tcp ports 80,443 to any host from curl > Download_Manager > HTTP_Client"*"AppArmor 3 network rules name no port or host"* ]]
	# protected paths are deny rules, with their reasons
	[[ $output == *"# protected: SSH private keys"*$'\n'"  deny $HOME/.ssh{,/**} rwlmx,"* ]]
	[[ $output == *"  deny $HOME/.netrc{,/**} rwlmx,"* ]]
	# stat is listed, not dropped
	[[ $output == *"# Not expressible in AppArmor 3 (listed, not dropped):"*"file_getattr (stat, access, readlink)"* ]]
	[[ $output == *"file_ioctl: AppArmor 3 has no ioctl rule"*"/dev/tty"* ]]
	# last: parse runs apparmor_parser, which replaces $output
	parse "$BATS_TEST_TMPDIR/curl"
}

@test "export: a policy that names a protected path keeps it, and says what AppArmor cannot cut" {
	need_commands apparmor_parser
	run --separate-stderr "$FBAC" export --apparmor ssh
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/ssh"
	[[ $output == *"  $HOME/.ssh{,/**} mrk,"* ]]
	# only what no rule of ssh needs there is denied
	[[ $output == *"  deny $HOME/.ssh{,/**} lx,"* ]]
	[[ $output == *"protected '$HOME/.ssh': fbac keeps broad rules out of it for file_read,"*"AppArmor cannot, since this policy names it"* ]]
	# scp has a policy of its own: ssh runs it under both (stacked)
	[[ $output == *"  # /usr/bin/scp has a policy of its own: it runs under both"$'\n'"  /usr/bin/scp mrkpix -> &scp,"* ]]
	# last: parse runs apparmor_parser, which replaces $output
	parse "$BATS_TEST_TMPDIR/ssh"
}

@test "export: patterns, carve-outs, unix and udp rules of a user's policy" {
	need_commands apparmor_parser
	cat >"$FBAC_USER_DIR/odd.yaml" <<-'EOF2'
	fbac: 1
	functionality: Odd_Things
	category: files
	description: Rules with every shape
	privileges:
	  - access: [file_read, dir_read]
	    paths: ["~/My Files/**", "~/a/**/b", "/srv/x?y/*.txt"]
	  - file_create: ["~/made"]
	  - file_append: ["~/log"]
	  - file_link: ["~/links/**"]
	  - unix_connect: ["@/tmp/odd-*", "/run/odd.sock"]
	  - unix_bind: ["@odd-server"]
	  - network_outgoing: {protocol: udp, ports: [5353, 6000-6010], hosts: [127.0.0.1]}
	  - network_incoming: {protocol: tcp, ports: 8080}
	  - ipc_signal: any
	denied:
	  - access: [file_read, file_write]
	    paths: ["~/My Files/secret/**"]
	---
	fbac: 1
	application: odd
	executables: [/usr/bin/true, /usr/bin/odd tool]
	functionalities: [Odd_Things]
	EOF2
	run --separate-stderr "$FBAC" check
	[ "$status" -eq 0 ] || { show_run; false; }
	run --separate-stderr "$FBAC" export --apparmor odd
	[ "$status" -eq 0 ] || { show_run; false; }
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/odd"
	[[ $output == *'profile odd "/{usr/bin/true,usr/bin/odd tool}" {'* ]]
	[[ $output == *"  \"$HOME/My Files{,/**}\" mrk,"* ]]
	[[ $output == *"  $HOME/a/{,**/}b mrk,"* ]]
	[[ $output == *"  $HOME/a/{,**/}b/ r,"* ]]
	[[ $output == *"  /srv/x?y/*.txt mrk,"* ]]
	[[ $output == *"  deny \"$HOME/My Files/secret{,/**}\" rwm,"* ]]
	[[ $output == *"wider here: AppArmor grants file_create only with w"*"  $HOME/made wk,"* ]]
	[[ $output == *"  $HOME/log ak,"* ]]
	[[ $output == *"  $HOME/links{,/**} l,"* ]]
	[[ $output == *'  unix (connect, send, receive) peer=(addr="@/tmp/odd-*"),'* ]]
	[[ $output == *'  unix (bind, listen, accept, send, receive) addr="@odd-server",'* ]]
	[[ $output == *"  /run/odd.sock wk,"* ]]
	[[ $output == *"# network_outgoing udp ports 5353,6000-6010, 127.0.0.1"*"  network inet dgram,"* ]]
	[[ $output == *"# network_incoming tcp ports 8080, any host"*"  network inet stream,"* ]]
	[[ $output == *"  signal (send),"* ]]
	[[ $output != *"signal (send) peer=odd,"* ]]
	# last: parse runs apparmor_parser, which replaces $output
	parse "$BATS_TEST_TMPDIR/odd"
}

@test "export: programs with a policy of their own that a pattern lets it run are listed" {
	need_commands apparmor_parser
	run --separate-stderr "$FBAC" export --apparmor git
	[ "$status" -eq 0 ]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/git"
	[[ $output == *"#   programs with a policy of their own that this one runs through a"*"/usr/bin/vim.basic"* ]]
	[[ $output != *"/usr/bin/vim.basic pix"* ]]
	# last: parse runs apparmor_parser, which replaces $output
	parse "$BATS_TEST_TMPDIR/git"
}

@test "export: refusals are usage errors with a message" {
	run --separate-stderr "$FBAC" export --apparmor no-such-app
	[ "$status" -eq 2 ]
	[[ $stderr == *"no application policy named 'no-such-app'"* ]]
	run --separate-stderr "$FBAC" export curl
	[ "$status" -eq 2 ]
	[[ $stderr == *"missing the format (--apparmor)"* ]]
	run --separate-stderr "$FBAC" export --apparmor -o /nonexistent/dir/x curl
	[ "$status" -eq 2 ]
	[[ $stderr == *"cannot write '/nonexistent/dir/x'"* ]]
}

@test "export: an unprivileged user exports a policy the wizard wrote" {
	require_unprivileged
	need_commands apparmor_parser bc
	run --separate-stderr run_unprivileged "$FBAC" new --yes bc
	[ "$status" -eq 0 ] || { show_run; false; }
	run --separate-stderr run_unprivileged "$FBAC" export --apparmor bc
	[ "$status" -eq 0 ] || { show_run; false; }
	[[ $output == *"layer 'user'"* ]]
	[[ $output == *"# from bc > Terminal_Application"* ]]
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/bc"
	# last: parse runs apparmor_parser, which replaces $output
	parse "$BATS_TEST_TMPDIR/bc"
}
