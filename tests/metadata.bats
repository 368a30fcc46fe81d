#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Metadata visibility (fbac-profile(5), METADATA; fbac-run(1)): with
# `visible`, the stat family runs in the kernel and answers about any path,
# while listing and reading stay decided; with `mediated` (the default) a
# stat of an ungranted path is refused with a denial line. Real runs of
# coreutils under fbac-run, with the shipped library.
#
# Each test has a tree in its HOME:
#   $H/pub/a          granted (Read_Only_Directory)
#   $H/secret/s       the secret ($SECRET), never granted
#   $H/secret/link -> s
#   $H/.ssh/id_rsa    a key, protected

# shellcheck disable=SC2154 # bats sets output, stderr, lines, stderr_lines
# shellcheck disable=SC2030,SC2031 # run's subshells see our variables

bats_require_minimum_version 1.5.0

load helpers

shopt -s extglob

SECRET=TOPSECRET-7f3a0c

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
	elif grep -q '; missing:' "$BATS_FILE_TMPDIR/check"; then
		skip_kernel_feature "this kernel's Landlock cannot enforce the shipped policies: $(tail -n1 "$BATS_FILE_TMPDIR/check")"
	fi
	mkdir -p "$HOME/pub" "$HOME/secret" "$HOME/.ssh"
	H=$(cd "$HOME" && pwd -P)
	printf 'public\n' >"$H/pub/a"
	printf '%s\n' "$SECRET" >"$H/secret/s"
	ln -s s "$H/secret/link"
	printf 'PRIVATE KEY\n' >"$H/.ssh/id_rsa"
	chmod 0600 "$H/.ssh/id_rsa"
	LOG=$BATS_TEST_TMPDIR/events.jsonl
	cd / || return 1
}

# box ARG...: fbac-run as Basic_Runtime reading $H/pub, with ARG (fbac-run
# options, then -- and the command).
box() {
	"$FBAC_RUN" --log "$LOG" --as Basic_Runtime --as Read_Only_Directory \
		-D "Read_Only_Directory.dir=$H/pub" "$@"
}

# denied OP PATH PROG: the denial line on stderr and the deny event.
denied() {
	local l found=
	for l in "${stderr_lines[@]}"; do
		[[ $l == *"fbac: denied $1 '$2' for $3["+([0-9])"]: not granted by "* ]] && found=1
	done
	[[ -n $found ]] || { show_run; fail "expected on stderr: fbac: denied $1 '$2' for $3[PID]: not granted by ..."; return; }
	grep -q -F -- "\"operation\": \"$1\", \"object\": \"$2\", \"decision\": \"deny\"" "$LOG" ||
		{ show_run; fail "no deny event for $1 $2 in $LOG"; }
}

# no_denial OP PATH: no denial line names OP on PATH.
no_denial() {
	[[ $stderr != *"denied $1 '$2'"* ]] || { show_run; fail "$1 '$2' was refused"; }
}

@test "visible: stat of an ungranted path answers as the kernel does" {
	local want
	want=$(stat -c '%s %i %Y %F %a' "$H/secret/s" "$H/secret" "$H/.ssh/id_rsa")
	run --separate-stderr box -D metadata=visible -- \
		stat -c '%s %i %Y %F %a' "$H/secret/s" "$H/secret" "$H/.ssh/id_rsa"
	expect_status 0
	[[ $output == "$want" ]] || { show_run; fail "stat answered '$output', the kernel '$want'"; }
	no_denial file_getattr "$H/secret/s"
	# lstat, readlink, access and statfs too, and a missing path is ENOENT.
	run --separate-stderr box -D metadata=visible -- readlink "$H/secret/link"
	expect_status 0
	[[ $output == s ]] || { show_run; fail "readlink"; }
	run --separate-stderr box -D metadata=visible --as Run_System_Programs -- sh -c \
		"test -e '$H/.ssh/id_rsa' && test -L '$H/secret/link' && test -r '$H/secret/s' && stat -f -c %T '$H/secret' >/dev/null && echo yes"
	expect_status 0
	[[ $output == yes ]] || { show_run; fail "test -e, -L, -r, stat -f"; }
	run --separate-stderr box -D metadata=visible -- stat "$H/secret/none"
	expect_status 1
	[[ $stderr == *"No such file or directory"* ]] || { show_run; fail "not ENOENT"; }
	[[ $output != *"$SECRET"* && $stderr != *"$SECRET"* ]] || fail "the secret showed"
}

@test "visible: listing the folder and reading the file are still refused" {
	run --separate-stderr box -D metadata=visible -- ls "$H/secret"
	expect_status 2
	denied dir_read "$H/secret" ls
	[[ $output != *s* ]] || { show_run; fail "ls listed the folder"; }
	run --separate-stderr box -D metadata=visible -- cat "$H/secret/s"
	expect_status 1
	denied file_read "$H/secret/s" cat
	run --separate-stderr box -D metadata=visible -- cat "$H/secret/link"
	expect_status 1
	denied file_read "$H/secret/s" cat
	# chdir into it is allowed (it reveals no more than stat), not the rest.
	run --separate-stderr box -D metadata=visible --as Run_System_Programs -- \
		sh -c "cd '$H/secret' && cat s"
	expect_status 1
	denied file_read "$H/secret/s" cat
	[[ $output != *"$SECRET"* && $stderr != *"$SECRET"* ]] || fail "the secret showed"
	# What is granted still works.
	run --separate-stderr box -D metadata=visible -- cat "$H/pub/a"
	expect_status 0
	[[ $output == public ]] || { show_run; fail "the granted file"; }
}

@test "mediated: stat of an ungranted path is refused with a denial line" {
	# Basic_Runtime and Read_Only_Directory say nothing: the default.
	run --separate-stderr box -- stat -c %s "$H/secret/s"
	expect_status 1
	[[ $stderr == *"stat: cannot statx '$H/secret/s': Permission denied"* ]] || { show_run; fail "no EACCES"; }
	denied file_getattr "$H/secret/s" stat
	run --separate-stderr box -- stat -c %s "$H/pub/a"
	expect_status 0
	# A functionality that ships visible, made mediated with -D (the key:
	# Archive_Manager's Temporary_Files grants /tmp, where HOME is).
	run --separate-stderr "$FBAC_RUN" --log "$LOG" --as Archive_Manager \
		-D "Archive_Manager.sources=$H/pub" -D "Archive_Manager.destinations=$H/pub" \
		-D metadata=mediated -- stat -c %s "$H/.ssh/id_rsa"
	expect_status 1
	denied file_getattr "$H/.ssh/id_rsa" stat
	run --separate-stderr "$FBAC_RUN" --log "$LOG" --as Archive_Manager \
		-D "Archive_Manager.sources=$H/pub" -D "Archive_Manager.destinations=$H/pub" \
		-- stat -c %s "$H/.ssh/id_rsa"
	expect_status 0
	[[ $output == 12 ]] || { show_run; fail "Archive_Manager's visible stat"; }
}

@test "-v, --check and fbac show say which is in force and why" {
	run --separate-stderr "$FBAC_RUN" --check git
	expect_status 0
	[[ $output == *"in force: metadata: visible, from layer library: git > Version_Control_Client ($REPO/profiles/functionalities/applications.yaml:"* ]] ||
		{ show_run; fail "--check"; }
	run --separate-stderr "$FBAC_RUN" --check less
	expect_status 0
	[[ $output == *"in force: metadata: mediated, from layer library: less > Text_Viewer ("* ]] ||
		{ show_run; fail "--check less"; }
	run --separate-stderr box -- true
	run --separate-stderr box -v -- true
	expect_status 0
	[[ $stderr == *"fbac: metadata: mediated, from the default: no layer says visible"* ]] || { show_run; fail "-v mediated"; }
	[[ $stderr =~ fbac:\ [0-9]+\ of\ these\ calls\ read\ metadata ]] || { show_run; fail "-v count"; }
	run --separate-stderr box -v -D metadata=visible -- true
	expect_status 0
	[[ $stderr == *"fbac: metadata: visible, from layer command line: -D metadata=visible"* ]] || { show_run; fail "-v visible"; }
	[[ $stderr == *"fbac: metadata is visible: stat, statx, statfs, access and readlink ran in the kernel, unseen"* ]] || { show_run; fail "-v visible summary"; }
	run --separate-stderr "$FBAC" show Archive_Manager
	expect_status 0
	[[ $output == *"metadata: visible, from Archive_Manager ($REPO/profiles/functionalities/applications.yaml:"* ]] || { show_run; fail "fbac show"; }
	run --separate-stderr "$FBAC" show Web_Browser
	[[ $output == *"metadata: mediated, from Web_Browser ("* ]] || { show_run; fail "fbac show Web_Browser"; }
	# explain: the rules refuse, visible metadata answers all the same.
	run --separate-stderr "$FBAC" explain git file_getattr /etc/shadow
	expect_status 0
	[[ $output == "allowed: file_getattr '/etc/shadow' for git"* &&
		$output == *"layer library (git): denied: no rule grants it"* &&
		$output == *"metadata is visible (layer library: git > Version_Control_Client ("* ]] ||
		{ show_run; fail "explain git"; }
	run --separate-stderr "$FBAC" explain less file_getattr "$H/.ssh/id_rsa"
	expect_status 1
	[[ $output == "denied: file_getattr '$H/.ssh/id_rsa' for less"* &&
		$output != *"metadata is visible"* ]] || { show_run; fail "explain less"; }
	run --separate-stderr "$FBAC_RUN" -D metadata=shown --check git
	expect_status 125
	[[ $stderr == *"'-D metadata=shown': expected visible or mediated"* ]] || { show_run; fail "bad -D"; }
}

# An application policy for stat(1) in a layer: its metadata key.
stat_policy() { # FILE METADATA
	cat >"$1" <<-EOF
		fbac: 1
		application: stat
		metadata: $2
		executables: [/usr/bin/stat]
		functionalities: [Basic_Runtime]
	EOF
}

@test "mixed layers give mediated; visible needs every layer's word" {
	[[ $EUID -eq 0 ]] || skip "the administrator's layer needs root (FBAC_ADMIN_DIR)"
	stat_policy "$FBAC_USER_DIR/stat.yaml" visible
	stat_policy "$FBAC_ADMIN_DIR/stat.yaml" mediated
	run --separate-stderr "$FBAC_RUN" --log "$LOG" stat -c %s "$H/secret/s"
	expect_status 1
	denied file_getattr "$H/secret/s" stat
	run --separate-stderr "$FBAC_RUN" --check stat
	[[ $output == *"in force: metadata: mediated, from layer admin: stat ($FBAC_ADMIN_DIR/stat.yaml:3:11)"* ]] || { show_run; fail "--check"; }
	# The other way round.
	stat_policy "$FBAC_USER_DIR/stat.yaml" mediated
	stat_policy "$FBAC_ADMIN_DIR/stat.yaml" visible
	run --separate-stderr "$FBAC_RUN" --log "$LOG" stat -c %s "$H/secret/s"
	expect_status 1
	denied file_getattr "$H/secret/s" stat
	# -D speaks for the user's layer only: the administrator's stands.
	stat_policy "$FBAC_ADMIN_DIR/stat.yaml" mediated
	run --separate-stderr "$FBAC_RUN" --log "$LOG" -D metadata=visible stat -c %s "$H/secret/s"
	expect_status 1
	denied file_getattr "$H/secret/s" stat
	# Both visible: visible.
	stat_policy "$FBAC_USER_DIR/stat.yaml" visible
	stat_policy "$FBAC_ADMIN_DIR/stat.yaml" visible
	run --separate-stderr "$FBAC_RUN" --log "$LOG" stat -c %s "$H/secret/s"
	expect_status 0
	[[ $output == "$((${#SECRET} + 1))" ]] || { show_run; fail "both visible"; }
}

@test "an administrator's settings forbid visible for every program" {
	[[ $EUID -eq 0 ]] || skip "the administrator's layer needs root (FBAC_ADMIN_DIR)"
	printf 'fbac: 1\nsettings:\n  metadata: mediated\n' >"$FBAC_ADMIN_DIR/settings.yaml"
	run --separate-stderr "$FBAC_RUN" --check git
	[[ $output == *"in force: metadata: mediated, from layer library: the settings of layer admin ($FBAC_ADMIN_DIR/settings.yaml:3:13)"* ]] ||
		{ show_run; fail "--check git under the ban"; }
	run --separate-stderr box -D metadata=visible -- stat -c %s "$H/secret/s"
	expect_status 1
	denied file_getattr "$H/secret/s" stat
	stat_policy "$FBAC_USER_DIR/stat.yaml" visible
	run --separate-stderr "$FBAC_RUN" --log "$LOG" stat -c %s "$H/secret/s"
	expect_status 1
	denied file_getattr "$H/secret/s" stat
	# A settings document cannot do the opposite.
	printf 'fbac: 1\nsettings:\n  metadata: visible\n' >"$FBAC_ADMIN_DIR/settings.yaml"
	run --separate-stderr "$FBAC" check
	expect_status 1
	[[ $stderr == *"$FBAC_ADMIN_DIR/settings.yaml:3:13: 'settings' can only say 'metadata: mediated' (visible is each policy's choice)"* ]] ||
		{ show_run; fail "fbac check"; }
}

# Every shipped application policy that is mediated, run on stat(1) (its
# functionalities copied into a user-layer policy for /usr/bin/stat): the
# existence of ~/.ssh/id_rsa is refused, with a denial line, unless the
# policy grants the key itself (SSH_Client's ssh, scp, sftp, rsync).
@test "every mediated shipped application refuses the probe of ~/.ssh/id_rsa" {
	local f app n=0 granted=()
	for f in "$REPO"/profiles/applications/*.yaml; do
		app=$(sed -n 's/^application: //p' "$f")
		run --separate-stderr "$FBAC" show "$app"
		expect_status 0
		[[ $output == *$'\n'"metadata: mediated, from "* ]] || continue
		# The application as stat's policy: its name and executables
		# replaced, and no options of its own sandbox's fallback.
		awk -v exe=/usr/bin/stat '
			/^application:/ { print "application: stat"; next }
			/^executables:/ { print "executables: [" exe "]"; skip = ($0 !~ /\[/); next }
			/^sandbox_fallback:/ { skip = ($0 !~ /\[/); next }
			skip && /^  - / { next }
			{ skip = 0; print }' "$f" >"$FBAC_USER_DIR/probe.yaml"
		run --separate-stderr "$FBAC_RUN" --check stat
		[[ $output == *"in force: metadata: mediated"* ]] || { show_run; fail "$app: its copy is not mediated"; }
		run --separate-stderr "$FBAC" explain stat file_getattr "$H/.ssh/id_rsa"
		if [[ $status -eq 0 ]]; then
			granted+=("$app")
			continue
		fi
		run --separate-stderr "$FBAC_RUN" --log "$LOG" stat -c %s "$H/.ssh/id_rsa"
		[[ $status -ne 0 && $output != 12 ]] || { show_run; fail "$app: the probe answered"; }
		denied file_getattr "$H/.ssh/id_rsa" stat
		n=$((n + 1))
	done
	rm -f "$FBAC_USER_DIR/probe.yaml"
	# Only the policies that name the key may see it.
	[[ ${granted[*]} == "rsync scp sftp ssh" ]] || fail "granted the key: ${granted[*]}"
	((n >= 20)) || fail "only $n mediated policies probed"
}

@test "unprivileged: visible answers stat and refuses reading; mediated refuses stat" {
	require_unprivileged
	local uh
	uh=$(unprivileged_home)
	run --separate-stderr run_unprivileged "$FBAC_RUN" --as Basic_Runtime \
		-D metadata=visible -- stat -c %s "$H/secret/s"
	expect_status 0
	[[ $output == "$((${#SECRET} + 1))" ]] || { show_run; fail "visible stat"; }
	run --separate-stderr run_unprivileged "$FBAC_RUN" --as Basic_Runtime \
		-D metadata=visible -- cat "$H/secret/s"
	expect_status 1
	[[ $stderr == *"fbac: denied file_read '$uh/secret/s' for cat["* ]] || { show_run; fail "read"; }
	[[ $output != *"$SECRET"* ]] || fail "the secret showed"
	run --separate-stderr run_unprivileged "$FBAC_RUN" --as Basic_Runtime \
		-- stat -c %s "$H/secret/s"
	expect_status 1
	[[ $stderr == *"fbac: denied file_getattr '$uh/secret/s' for stat["* ]] || { show_run; fail "mediated stat"; }
}
