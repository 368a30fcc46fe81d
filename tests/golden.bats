#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Golden diagnostics of `fbac check`.
#
# Each tests/fixtures/invalid/NAME.yaml has one defect, and its first line
# states the exact diagnostic that `fbac check` must print for it:
#
#	# expect: tests/fixtures/invalid/NAME.yaml:LINE:COL: MESSAGE
#
# fbac runs from the repository root with the path as written there, an
# empty library (FBAC_DATADIR is an empty directory) and the empty user and
# administrator layers of helpers.bash, so only the fixture is loaded: a
# fixture defines whatever it includes. A fixture must make `fbac check`
# exit 1 and print its expectation as one whole line of stderr.
#
# To add one: write the fixture, then add `@test "invalid: NAME" {
# check_invalid NAME; }` below (a test checks that none is forgotten).
#
# tests/fixtures/valid/*.yaml are rich valid files: each must pass alone,
# and all of them together.

# shellcheck disable=SC2154 # bats sets stderr_lines

bats_require_minimum_version 1.5.0

load helpers

INVALID=tests/fixtures/invalid
VALID=tests/fixtures/valid
MIN_FIXTURES=30
# Seconds fbac may take on one fixture before it counts as a hang.
CHECK_TIMEOUT=20

setup() {
	export FBAC_DATADIR=$BATS_TEST_TMPDIR/empty-library
	mkdir -p "$FBAC_DATADIR"
	cd "$REPO" || return 1
}

# expectation FILE: print the text after '# expect: ' on FILE's first line,
# or fail when the first line is not such a comment.
expectation() {
	local first=''
	IFS= read -r first <"$1" || true
	if [[ $first != '# expect: '?* ]]; then
		fail "$1: the first line must be '# expect: FILE:LINE:COL: MESSAGE', not '$first'"
		return 1
	fi
	printf '%s\n' "${first#'# expect: '}"
}

# check_invalid NAME: fbac check tests/fixtures/invalid/NAME.yaml exits 1
# and prints the fixture's expectation as a line of stderr.
check_invalid() {
	local f=$INVALID/$1.yaml expect line

	[[ -f $f ]] || fail "no fixture $f" || return 1
	expect=$(expectation "$f") || return 1
	run --separate-stderr timeout "$CHECK_TIMEOUT" "$FBAC" check "$f"
	case $status in
	1) ;;
	124)
		show_run
		fail "$f: fbac check did not finish within ${CHECK_TIMEOUT}s"
		return 1
		;;
	0)
		show_run
		fail "$f: fbac check accepted the defect (exit 0)"
		return 1
		;;
	*)
		show_run
		fail "$f: fbac check exited $status, expected 1 (a crash is 128+signal)"
		return 1
		;;
	esac
	for line in "${stderr_lines[@]}"; do
		[[ $line == "$expect" ]] && return 0
	done
	show_run
	fail "$f: expected this line on stderr:
$expect"
}

# ---------------------------------------------------------------------------
# The fixtures themselves

@test "every invalid fixture starts with an '# expect:' line naming its own path" {
	local f n=0 expect bad=0
	for f in "$INVALID"/*.yaml; do
		[[ -e $f ]] || continue
		n=$((n + 1))
		expect=$(expectation "$f") || {
			bad=1
			continue
		}
		if [[ $expect != "$f:"[0-9]*:[0-9]*': '?* ]]; then
			echo "$f: the expectation must be '$f:LINE:COL: MESSAGE', not '$expect'" >&2
			bad=1
		fi
	done
	[[ $n -gt 0 ]] || fail "no fixtures in $INVALID"
	[[ $bad == 0 ]]
}

@test "there are at least 30 invalid fixtures" {
	local -a files=("$INVALID"/*.yaml)
	[[ -e ${files[0]} ]] || fail "no fixtures in $INVALID"
	[[ ${#files[@]} -ge $MIN_FIXTURES ]] ||
		fail "only ${#files[@]} fixtures in $INVALID (want at least $MIN_FIXTURES)"
}

@test "every invalid fixture has its own test in golden.bats" {
	local f name bad=0
	for f in "$INVALID"/*.yaml; do
		[[ -e $f ]] || continue
		name=$(basename "$f" .yaml)
		if ! grep -Eq "^@test \"invalid: $name\" \\{ check_invalid $name; \\}\$" \
			"$BATS_TEST_FILENAME"; then
			echo "$f: add '@test \"invalid: $name\" { check_invalid $name; }' to tests/golden.bats" >&2
			bad=1
		fi
	done
	[[ $bad == 0 ]]
}

@test "every test of golden.bats has its fixture" {
	local name bad=0
	while read -r name; do
		if [[ ! -f $INVALID/$name.yaml ]]; then
			echo "golden.bats tests '$name', but $INVALID/$name.yaml does not exist" >&2
			bad=1
		fi
	done < <(sed -n 's/^@test "invalid: \([^"]*\)".*/\1/p' "$BATS_TEST_FILENAME")
	[[ $bad == 0 ]]
}

@test "the alias bomb fails fast with the expansion limit" {
	local start end
	start=$(date +%s%N)
	run --separate-stderr timeout "$CHECK_TIMEOUT" "$FBAC" check "$INVALID/alias-bomb.yaml"
	end=$(date +%s%N)
	[[ $status -eq 1 ]] || { show_run; fail "exit $status, expected 1"; }
	[[ $stderr == *"document expands to more than 200000 nodes"* ]] ||
		{ show_run; fail "no expansion limit message"; }
	# A linear scan of a 1 KiB file: far below a second even under ASan.
	[[ $(((end - start) / 1000000)) -lt 2000 ]] ||
		fail "took $(((end - start) / 1000000)) ms"
}

@test "the NUL byte fixture really holds a NUL byte" {
	# Editors and tools like to drop it; without it the test is void.
	local n
	n=$(tr -cd '\000' <"$INVALID/nul-byte.yaml" | wc -c)
	[[ $n -eq 1 ]] || fail "$INVALID/nul-byte.yaml has $n NUL bytes, expected 1"
}

# ---------------------------------------------------------------------------
# One test per invalid fixture

# YAML syntax and structure
@test "invalid: yaml-bad-indent" { check_invalid yaml-bad-indent; }
@test "invalid: yaml-unclosed-quote" { check_invalid yaml-unclosed-quote; }
@test "invalid: yaml-unclosed-flow" { check_invalid yaml-unclosed-flow; }
@test "invalid: nul-byte" { check_invalid nul-byte; }
@test "invalid: dup-key" { check_invalid dup-key; }
@test "invalid: yaml-tag" { check_invalid yaml-tag; }
@test "invalid: alias-bomb" { check_invalid alias-bomb; }
@test "invalid: alias-recursive" { check_invalid alias-recursive; }
@test "invalid: alias-unknown" { check_invalid alias-unknown; }

# Documents
@test "invalid: missing-fbac" { check_invalid missing-fbac; }
@test "invalid: wrong-version" { check_invalid wrong-version; }
@test "invalid: both-kinds" { check_invalid both-kinds; }
@test "invalid: empty-document" { check_invalid empty-document; }
@test "invalid: unknown-key-document" { check_invalid unknown-key-document; }
@test "invalid: metadata-bad-value" { check_invalid metadata-bad-value; }
@test "invalid: settings-visible" { check_invalid settings-visible; }
@test "invalid: param-reserved-metadata" { check_invalid param-reserved-metadata; }
@test "invalid: missing-category" { check_invalid missing-category; }
@test "invalid: unknown-category" { check_invalid unknown-category; }
@test "invalid: bad-functionality-name" { check_invalid bad-functionality-name; }
@test "invalid: high-level-yes" { check_invalid high-level-yes; }
@test "invalid: duplicate-functionality" { check_invalid duplicate-functionality; }

# Parameters
@test "invalid: unknown-key-parameter" { check_invalid unknown-key-parameter; }
@test "invalid: param-unknown-type" { check_invalid param-unknown-type; }
@test "invalid: param-bad-name" { check_invalid param-bad-name; }
@test "invalid: param-path-relative" { check_invalid param-path-relative; }
@test "invalid: param-path-dotdot" { check_invalid param-path-dotdot; }
@test "invalid: param-path-wildcard" { check_invalid param-path-wildcard; }
@test "invalid: param-paths-item" { check_invalid param-paths-item; }
@test "invalid: param-ports-zero" { check_invalid param-ports-zero; }
@test "invalid: param-ports-too-big" { check_invalid param-ports-too-big; }
@test "invalid: param-ports-reversed" { check_invalid param-ports-reversed; }
@test "invalid: param-ports-list-item" { check_invalid param-ports-list-item; }
@test "invalid: param-hosts-invalid" { check_invalid param-hosts-invalid; }
@test "invalid: param-hosts-cidr" { check_invalid param-hosts-cidr; }
@test "invalid: param-hosts-bad-ipv4" { check_invalid param-hosts-bad-ipv4; }
@test "invalid: param-string-slash" { check_invalid param-string-slash; }
@test "invalid: param-bool-yes" { check_invalid param-bool-yes; }
@test "invalid: default-self" { check_invalid default-self; }
@test "invalid: default-cycle" { check_invalid default-cycle; }

# Includes
@test "invalid: unknown-include" { check_invalid unknown-include; }
@test "invalid: unknown-include-arg" { check_invalid unknown-include-arg; }
@test "invalid: missing-required-arg" { check_invalid missing-required-arg; }
@test "invalid: include-cycle-self" { check_invalid include-cycle-self; }
@test "invalid: include-cycle-two" { check_invalid include-cycle-two; }

# Privileges
@test "invalid: unknown-privilege" { check_invalid unknown-privilege; }
@test "invalid: unknown-key-privilege" { check_invalid unknown-key-privilege; }
@test "invalid: privilege-two-ops" { check_invalid privilege-two-ops; }
@test "invalid: unknown-key-network" { check_invalid unknown-key-network; }
@test "invalid: network-no-ports" { check_invalid network-no-ports; }
@test "invalid: protocol-icmp" { check_invalid protocol-icmp; }
@test "invalid: signal-denied" { check_invalid signal-denied; }
@test "invalid: abstract-with-file-read" { check_invalid abstract-with-file-read; }
@test "invalid: abstract-empty" { check_invalid abstract-empty; }
@test "invalid: globstar-in-component" { check_invalid globstar-in-component; }
@test "invalid: globstar-twice" { check_invalid globstar-twice; }

# Substitution
@test "invalid: unknown-variable" { check_invalid unknown-variable; }
@test "invalid: unknown-parameter-ref" { check_invalid unknown-parameter-ref; }
@test "invalid: two-list-params" { check_invalid two-list-params; }
@test "invalid: bad-variable-syntax" { check_invalid bad-variable-syntax; }
@test "invalid: tilde-user" { check_invalid tilde-user; }

# Applications
@test "invalid: bad-application-name" { check_invalid bad-application-name; }
@test "invalid: relative-executable" { check_invalid relative-executable; }
@test "invalid: executable-dotdot" { check_invalid executable-dotdot; }
@test "invalid: executable-trailing-dotdot" { check_invalid executable-trailing-dotdot; }
@test "invalid: app-unknown-functionality" { check_invalid app-unknown-functionality; }
@test "invalid: duplicate-application" { check_invalid duplicate-application; }

# Protected paths
@test "invalid: protected-relative" { check_invalid protected-relative; }
@test "invalid: settings-key" { check_invalid settings-key; }
@test "invalid: settings-name" { check_invalid settings-name; }
@test "invalid: settings-param" { check_invalid settings-param; }

# ---------------------------------------------------------------------------
# Valid files

@test "there are valid fixtures" {
	local -a files=("$VALID"/*.yaml)
	[[ -e ${files[0]} ]] || fail "no fixtures in $VALID"
}

@test "each valid fixture passes fbac check on its own" {
	local f bad=0
	for f in "$VALID"/*.yaml; do
		[[ -e $f ]] || continue
		run --separate-stderr timeout "$CHECK_TIMEOUT" "$FBAC" check "$f"
		if [[ $status -ne 0 || -n $stderr ]]; then
			echo "$f:" >&2
			show_run
			bad=1
		fi
	done
	[[ $bad == 0 ]]
}

@test "the valid fixtures pass fbac check together, and are all counted" {
	local -a files=("$VALID"/*.yaml)
	run --separate-stderr timeout "$CHECK_TIMEOUT" "$FBAC" check "$VALID"
	[[ $status -eq 0 && -z $stderr ]] || { show_run; fail "fbac check $VALID failed"; }
	[[ $output == "${#files[@]} files, "*": no problems" ]] ||
		{ show_run; fail "expected ${#files[@]} files to be counted"; }
}

@test "the valid fixtures load as a -P layer and show their policies" {
	run --separate-stderr "$FBAC" -P "$VALID" show --full Valid_High_Level
	[[ $status -eq 0 ]] || { show_run; fail "show failed"; }
	[[ $output == *"Valid_Workspace(roots=$HOME/work, name=demo_app-1.0, keep_history=true, cache=$HOME/.cache/demo_app-1.0)"* ]] ||
		{ show_run; fail "arguments not passed down"; }
	[[ $output == *"Valid_Network(ports=[443,8443], hosts=any, listen=any)"* ]] ||
		{ show_run; fail "a list argument with a list reference inside"; }
	[[ $output == *"allow file_read /opt/price-\$5/?.txt"* ]] ||
		{ show_run; fail "'\$\$' is not a literal dollar sign"; }
	run --separate-stderr "$FBAC" -P "$VALID" show --full valid.tool+2-beta
	[[ $status -eq 0 ]] || { show_run; fail "show application failed"; }
	[[ $output == *"executables: /opt/valid/bin/tool"* ]] || { show_run; fail; }
}
