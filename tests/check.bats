#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `fbac check` reports every problem of every file in one run (at most
# FBAC_MAX_PROBLEMS printed, the rest counted), each as file:line:col, with
# "did you mean" when a name in scope is close; and list, show and explain
# refuse what check refuses (fbac(1), check; fbac-profile(5), DIAGNOSTICS).
# The profiles are written by each test into its own directory, on top of
# the shipped library.

# shellcheck disable=SC2154 # bats sets output, stderr, lines

bats_require_minimum_version 1.5.0

load helpers

setup() {
	[[ -x $FBAC ]] || fail "no $FBAC: run make"
	D=$BATS_TEST_TMPDIR/p
	mkdir -p "$D"
	cd "$BATS_TEST_TMPDIR" || return 1
}

has_err_line() {
	local l
	for l in "${stderr_lines[@]}"; do
		[[ $l == "$1" ]] && return 0
	done
	show_run
	fail "no line on stderr: $1"
}

# The broken set: several problems in one document, a file that is not
# YAML, and files whose only problems are found after linking.
write_broken() {
	cat >"$D/a-typos.yaml" <<-'EOF'
		fbac: 1
		functionality: Notes_Reader
		categroy: files
		description: Read my notes
		includes: [Text_Veiwer, text_viewer]
		privileges:
		  - file_raed: ~/Notes/**
		  - file_read: ~/Other/**
	EOF
	cat >"$D/b-yaml.yaml" <<-'EOF'
		fbac: 1
		functionality: [Broken
	EOF
	cat >"$D/c-include.yaml" <<-'EOF'
		fbac: 1
		functionality: Mail_Reader
		category: files
		description: Read mail
		includes: [Text_Viewer, Web_Browzer]
	EOF
	cat >"$D/d-variable.yaml" <<-'EOF'
		fbac: 1
		functionality: Uses_Variable
		category: files
		description: A variable that is not one
		privileges:
		  - file_read: $XDG_NOTES_DIR/**
	EOF
	cat >"$D/e-app.yaml" <<-'EOF'
		fbac: 1
		application: notes
		executables: [/usr/bin/notes]
		functionalities: [Text_Viewr]
	EOF
}

@test "check: every problem of every file in one run, each at file:line:col" {
	write_broken
	run --separate-stderr "$FBAC" check "$D"
	expect_status 1
	# All three of the first document, and what the key left out.
	has_err_line "$D/a-typos.yaml:3:1: unknown key 'categroy' in a functionality (did you mean 'category'?)"
	has_err_line "$D/a-typos.yaml:1:1: a functionality lacks the required key 'category'"
	has_err_line "$D/a-typos.yaml:5:25: invalid functionality name 'text_viewer' (did you mean 'Text_Viewer'?)"
	has_err_line "$D/a-typos.yaml:7:5: unknown privilege 'file_raed' (did you mean 'file_read'?)"
	# The document is still checked after linking: its includes too.
	has_err_line "$D/a-typos.yaml:5:12: unknown functionality 'Text_Veiwer' (did you mean 'Text_Viewer'?)"
	# A YAML error in one file hides nothing of the others.
	[[ $stderr == *"$D/b-yaml.yaml:2:"*": invalid yaml: "* ]] || { show_run; fail "no yaml error"; }
	has_err_line "$D/c-include.yaml:5:25: unknown functionality 'Web_Browzer' (did you mean 'Web_Browser'?)"
	has_err_line "$D/d-variable.yaml:6:16: unknown variable '\$XDG_NOTES_DIR'"
	has_err_line "$D/e-app.yaml:4:19: unknown functionality 'Text_Viewr' (did you mean 'Text_Viewer'?)"
	has_err_line "fbac: 9 problems found"
	[[ ${#stderr_lines[@]} -eq 10 ]] || { show_run; fail "a problem reported twice, or one more"; }
}

@test "check: a name defined twice hides nothing else" {
	cat >"$D/dup.yaml" <<-'EOF'
		fbac: 1
		functionality: Text_Viewer
		category: files
		description: Mine
		---
		fbac: 1
		functionality: Other
		category: files
		description: Other
		includes: [Not_Defined_Anywhere]
	EOF
	run --separate-stderr "$FBAC" check "$D"
	expect_status 1
	[[ $stderr == *"functionality 'Text_Viewer' is already defined at "* ]] || { show_run; fail "no duplicate"; }
	has_err_line "$D/dup.yaml:10:12: unknown functionality 'Not_Defined_Anywhere'"
	has_err_line "fbac: 2 problems found"
}

@test "check: at most FBAC_MAX_PROBLEMS (50) printed, the others counted and said" {
	local i
	for ((i = 0; i < 30; i++)); do
		printf 'fbac: 1\nfunctionality: F%02d\ncategory: files\ndescription: x\nincludes: [Nowhere_%02d]\n' \
			"$i" "$i" >"$D/f$i.yaml"
	done
	{
		printf 'fbac: 1\nfunctionality: Many_Keys\ncategory: files\ndescription: x\n'
		for ((i = 0; i < 40; i++)); do printf 'key%02d: 1\n' "$i"; done
	} >"$D/many.yaml"
	run --separate-stderr "$FBAC" check "$D"
	expect_status 1
	[[ ${#stderr_lines[@]} -eq 51 ]] || { show_run; fail "expected 50 problems and a summary line"; }
	[[ ${stderr_lines[50]} == "fbac: 70 problems found; only the first 50 are shown (FBAC_MAX_PROBLEMS)" ]] ||
		{ show_run; fail "the last line does not count what it did not show"; }
	[[ ${stderr_lines[0]} == "$D/many.yaml:5:1: unknown key 'key00' in a functionality (expected "* ]] ||
		{ show_run; fail "first line"; }
}

@test "check: a clean directory still passes, with no suggestion noise" {
	cat >"$D/ok.yaml" <<-'EOF'
		fbac: 1
		functionality: Notes_Reader
		category: files
		description: Read my notes
		includes: [Text_Viewer]
	EOF
	run --separate-stderr "$FBAC" check "$D"
	expect_status 0
	[[ -z $stderr ]] || { show_run; fail "stderr"; }
}

@test "list, show and explain refuse a library that check refuses (exit 1)" {
	cat >"$D/broken.yaml" <<-'EOF'
		fbac: 1
		functionality: Notes_Reader
		category: files
		description: Read my notes
		includes: [Text_Veiwer]
	EOF
	local cmd
	for cmd in list "show Text_Viewer" "explain --as Text_Viewer file_read /etc/hostname"; do
		# shellcheck disable=SC2086 # cmd is words
		run --separate-stderr "$FBAC" -P "$D/broken.yaml" $cmd
		[[ $status -eq 1 ]] || { show_run; fail "fbac -P broken.yaml $cmd: exit $status"; }
		has_err_line "$D/broken.yaml:5:12: unknown functionality 'Text_Veiwer' (did you mean 'Text_Viewer'?)"
		has_err_line "fbac: the profiles have errors: run 'fbac check'"
		[[ -z $output ]] || { show_run; fail "fbac $cmd printed a result"; }
	done
	# A YAML error too.
	printf 'fbac: 1\nfunctionality: [x\n' >"$D/broken.yaml"
	run --separate-stderr "$FBAC" -P "$D/broken.yaml" list
	expect_status 1
}

@test "did you mean: a misspelt functionality on the command line" {
	run --separate-stderr "$FBAC" show text_viewer
	expect_status 2
	has_err_line "fbac: unknown functionality or application 'text_viewer' (did you mean 'Text_Viewer'? see 'fbac list')"
	run --separate-stderr "$FBAC" explain --as Text_Veiwer file_read /etc/hostname
	expect_status 2
	has_err_line "fbac: unknown functionality 'Text_Veiwer' (did you mean 'Text_Viewer'? see 'fbac list')"
	run --separate-stderr "$FBAC_RUN" --as Text_Veiwer /bin/true
	expect_status 125
	has_err_line "fbac-run: unknown functionality 'Text_Veiwer' (did you mean 'Text_Viewer'? see 'fbac list')"
	# Nothing close: no guess.
	run --separate-stderr "$FBAC" show Qqqq_Zzzz
	expect_status 2
	has_err_line "fbac: unknown functionality or application 'Qqqq_Zzzz' (see 'fbac list')"
}

@test "check as uid 65534: every problem, the user's own layer too" {
	require_unprivileged
	write_broken
	cp "$D"/*.yaml "$FBAC_USER_DIR/"
	local u
	u=$(unprivileged_home)/.config/fbac
	run --separate-stderr run_unprivileged "$FBAC" check
	expect_status 1
	has_err_line "$u/a-typos.yaml:7:5: unknown privilege 'file_raed' (did you mean 'file_read'?)"
	has_err_line "$u/e-app.yaml:4:19: unknown functionality 'Text_Viewr' (did you mean 'Text_Viewer'?)"
	has_err_line "fbac: 9 problems found"
}

@test "did you mean: include arguments, variables and parameters" {
	cat >"$D/args.yaml" <<-'EOF2'
		fbac: 1
		functionality: Typo_Argument
		category: files
		description: a misspelt argument
		includes:
		  - Read_Only_Directory: {dri: /srv}
	EOF2
	cat >"$D/vars.yaml" <<-'EOF2'
		fbac: 1
		functionality: Typo_Variable
		category: files
		description: a misspelt variable
		privileges:
		  - file_read: $HOEM/x
		---
		fbac: 1
		functionality: Typo_Parameter
		category: files
		description: a misspelt parameter
		parameters:
		  notes: {type: path, default: /srv/notes}
		privileges:
		  - file_read: $nots/y
	EOF2
	run --separate-stderr "$FBAC" check "$D"
	expect_status 1
	has_err_line "$D/args.yaml:6:27: 'Read_Only_Directory' has no parameter 'dri' (did you mean 'dir'?)"
	has_err_line "$D/vars.yaml:6:16: unknown variable '\$HOEM' (did you mean '\$HOME'?)"
	has_err_line "$D/vars.yaml:15:16: unknown parameter '\$nots' of 'Typo_Parameter' (did you mean '\$notes'?)"
	has_err_line "fbac: 3 problems found"
}
