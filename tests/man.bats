#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fbac list --man and man/fbac-functionalities.7, the page it makes of the
# library: the checked-in page is the generated one, it has every
# functionality and application policy, it renders without a warning,
# profile text cannot break it, and bad input fails as elsewhere.
#
#   tests/fixtures/cli/lib/   a small, stable library (see tests/cli.bats)
#   tests/fixtures/man/lib/   text that roff and mdoc would misread unescaped

# shellcheck disable=SC2154 # bats sets stderr and stderr_lines

bats_require_minimum_version 1.5.0

load helpers

PAGE=$REPO/man/fbac-functionalities.7
CLI_LIB=$REPO/tests/fixtures/cli/lib
MAN_LIB=$REPO/tests/fixtures/man/lib

# has_err_line TEXT: TEXT is a whole line of stderr.
has_err_line() {
	local l
	for l in "${stderr_lines[@]}"; do
		[[ $l == "$1" ]] && return 0
	done
	show_run
	fail "expected this line on stderr:
$1"
}

# has_line TEXT: TEXT is a whole line of stdout (the page's source).
has_line() {
	local l
	for l in "${lines[@]}"; do
		[[ $l == "$1" ]] && return 0
	done
	fail "expected this line in the page:
$1"
}

# lint_page FILE [GROFF_DEVICE]: what `make lint-man` runs, plus man(1) at
# 80 columns when it is installed; any message fails.
lint_page() {
	local out
	out=$(groff -t -mandoc -ww -z ${2:+-T"$2"} "$1" 2>&1) || fail "groff failed on $1"
	[[ -z $out ]] || fail "groff -ww on $1:
$out"
	if command -v mandoc >/dev/null 2>&1; then
		out=$(mandoc -Tlint -Wwarning "$1" 2>&1) || fail "mandoc -Tlint on $1:
$out"
	fi
	if command -v man >/dev/null 2>&1; then
		out=$(MANWIDTH=80 MANPAGER=cat man -l "$1" 2>&1 >/dev/null) || fail "man -l failed on $1"
		[[ -z $out ]] || fail "man -l $1:
$out"
	fi
}

# render FILE: the page as plain text on one line, blanks squeezed, so
# that a check does not depend on where lines are broken.
render() {
	groff -t -mandoc -Tascii -P-cbou "$1" 2>/dev/null | tr -s ' \n\t' '   '
}

# ---------------------------------------------------------------------------
# The checked-in page

@test "the checked-in man/fbac-functionalities.7 is what 'fbac list --man' makes of profiles/" {
	run --separate-stderr "$FBAC" list --man
	expect_status 0
	[[ -z $stderr ]] || { show_run; fail "list --man wrote to stderr"; }
	if [[ $output != "$(cat "$PAGE")" ]]; then
		diff -u "$PAGE" <(printf '%s\n' "$output") | head -n 40 >&2
		fail "man/fbac-functionalities.7 is out of date: run make, and never edit it by hand (it is generated from profiles/)"
	fi
}

@test "the page has an entry for every functionality and application policy of the library" {
	local funcs apps
	funcs=$("$FBAC" list --json) || fail "list --json failed"
	apps=$("$FBAC" list --applications --json) || fail "list -a --json failed"
	FUNCS=$funcs APPS=$apps PAGE=$PAGE python3 -c '
import json, os
page = open(os.environ["PAGE"]).read().splitlines()
funcs = json.loads(os.environ["FUNCS"])
apps = json.loads(os.environ["APPS"])
assert funcs and apps, "an empty library"
def entry(name):
    return ".It Ic \"\\&%s\"" % name.replace("-", "\\-")
missing = [f["name"] for f in funcs if entry(f["name"]) not in page]
missing += [a["name"] for a in apps if entry(a["name"]) not in page]
assert not missing, "not in the page: " + ", ".join(missing)
# Each once, high-level ones before the building blocks.
heads = [l for l in page if l.startswith(".It Ic ")]
assert len(heads) == len(funcs) + len(apps), (len(heads), len(funcs), len(apps))
high = page.index(".Sh HIGH-LEVEL FUNCTIONALITIES")
blocks = page.index(".Sh BUILDING BLOCKS")
for f in funcs:
    i = page.index(entry(f["name"]))
    assert (high < i < blocks) == f["high_level"], f["name"]
' || fail "entries"
}

@test "the checked-in page renders without a warning (groff -ww, mandoc -Tlint, man -l)" {
	lint_page "$PAGE"
}

@test "the same page whatever the library path, the HOME and the XDG variables" {
	local a b c
	a=$(cd "$REPO" && FBAC_DATADIR=profiles "$FBAC" list --man) || fail "relative"
	b=$(FBAC_DATADIR=$REPO/profiles/ HOME=/ XDG_CONFIG_HOME=/nonexistent "$FBAC" list --man) ||
		fail "absolute, trailing slash"
	c=$("$FBAC" list --man) || fail "again"
	[[ $a == "$b" && $b == "$c" ]] || fail "the page depends on how fbac is run"
}

# ---------------------------------------------------------------------------
# The page's structure, on the small library

@test "list --man: sections in order, categories and names sorted" {
	export FBAC_DATADIR=$CLI_LIB
	run --separate-stderr "$FBAC" list --man
	expect_status 0
	local sh ss it
	sh=$(grep '^\.Sh ' <<<"$output" | tr '\n' '|')
	[[ $sh == ".Sh NAME|.Sh DESCRIPTION|.Sh HIGH-LEVEL FUNCTIONALITIES|.Sh BUILDING BLOCKS|.Sh APPLICATION POLICIES|.Sh PROTECTED PATHS|.Sh SEE ALSO|" ]] ||
		fail "sections: $sh"
	ss=$(grep '^\.Ss ' <<<"$output" | tr '\n' '|')
	[[ $ss == '.Ss "\&applications"|.Ss "\&files"|.Ss "\&network"|.Ss "\&security"|' ]] ||
		fail "categories: $ss"
	it=$(sed -n 's/^\.It Ic "\\&\(.*\)"$/\1/p' <<<"$output" | tr '\n' ' ')
	[[ $it == "Web_Downloader Home_Reader Read_Directory Save_Directory DNS_Client HTTP_Client LAN_Server SSH_Keys fetch serve " ]] ||
		fail "entries: $it"
	has_line ".Dd December 3, 2026"
	has_line ".Dt FBAC-FUNCTIONALITIES 7"
	has_line ".Xr fbac-profile 5"
}

@test "list --man: parameters, includes with their arguments, privileges as written" {
	export FBAC_DATADIR=$CLI_LIB
	run --separate-stderr "$FBAC" list --man
	expect_status 0
	local text
	# groff -Tascii quotes with '...' for .Ql, "..." for .Dq.
	text=$(render <(printf '%s\n' "$output"))
	local want
	for want in \
		"Web_Downloader Download files from the web into one folder (functionalities.yaml)." \
		"- parameter downloads (path, default '~/Downloads'): \"Where do downloads go?\"" \
		"- includes Save_Directory (dir: '\$downloads')" \
		"Read_Directory Read one directory tree (functionalities.yaml). - parameter dir (path, required): \"Which directory?\" - grants file_read, dir_read: '\$dir', '\$dir/**'" \
		"- includes Read_Directory (dir: '\$dir') - grants file_write, file_create, dir_mkdir: '\$dir/**' - denies file_write: '\$dir/.keep/**'" \
		"- parameter ports (ports, default '[80, 443]'): \"Which ports does it connect to?\" - parameter hosts (hosts, default 'any')" \
		"- grants network_outgoing: protocol 'tcp', ports '\$ports', hosts '\$hosts'" \
		"- grants network_incoming: protocol 'tcp', ports '\$port', hosts '[192.168.0.0/16, fd00::/8]'" \
		"fetch A test downloader (applications/fetch.yaml). - applies to /usr/bin/fetch - grants Web_Downloader - grants Home_Reader - grants file_read: '/etc/fetchrc'" \
		"- grants LAN_Server (port: '8000-8010')" \
		"~/.ssh SSH private keys." \
		"\$ fbac-run --as Web_Downloader command [arg ...]" \
		"\$ fbac-run --as Read_Directory -D dir=value command [arg ...]"; do
		[[ $text == *"$want"* ]] || fail "not in the rendered page: $want
--- page:
$text"
	done
}

@test "list --man: profile text is escaped: no request, macro or escape gets through" {
	export FBAC_DATADIR=$MAN_LIB
	run --separate-stderr "$FBAC" check
	expect_status 0
	run --separate-stderr "$FBAC" list --man
	expect_status 0
	printf '%s\n' "$output" >"$BATS_TEST_TMPDIR/x.7"
	# Only the generator's own macros start a line; ' never does.
	local bad
	bad=$(grep -nE "^[.']" "$BATS_TEST_TMPDIR/x.7" |
		grep -vE '^[0-9]+:\.(\\"|(Dd|Dt|Os|Sh|Ss|Nm|Nd|Xr|Pp|Em|Ic|Pq|Po|Pc|Li|Ar|Ql|Vt|Sx|Bl|It|El|Dl|Fl|Bd|Ed|Pa|Dq)( |$))' || true)
	[[ -z $bad ]] || fail "lines that are not the generator's macros:
$bad"
	has_line '\&.hidden files, '"'"'quoted'"'"' and "double" text, a \efB backslash, \-\-flag \-x,'
	has_line '\&.Sh NOT A SECTION'
	has_line '.It Ic "\&Ar"'
	has_line '.It Ic "\&x\-y+z.1"'
	has_line 'Caf\[u00E9] \[u2615] \[u1F600] \(ti \(ha `x`.'
	# The PostScript fonts of `make lint-man` have no coffee cup: this
	# one is checked for the terminal, as man(1) shows it.
	lint_page "$BATS_TEST_TMPDIR/x.7" utf8
	local text want
	text=$(render "$BATS_TEST_TMPDIR/x.7")
	[[ $(grep -c '^\.Sh ' "$BATS_TEST_TMPDIR/x.7") -eq 7 ]] || fail "a section was added"
	for want in \
		"Ar .hidden files, 'quoted' and \"double\" text, a \\fB backslash, --flag -x, x86-64 (functionalities.yaml)." \
		"- parameter dir (path, default '~/it's-a dir'): \"'Which' directory? (\\e is not an escape)\"" \
		"- includes Ns (files: '[~/.a-b, /etc/x y]')" \
		"- grants file_read, dir_read: /usr/share/a-very-long-directory-name/sub-directory/** /opt/x" \
		"- grants ipc_signal: 'any' - denies file_read: '\$dir/.git/**'" \
		"Ns .Sh NOT A SECTION (functionalities.yaml)." \
		"x-y+z.1 \\ backslash first (applications/x.yaml). - applies to /usr/bin/x-y+z.1 - grants Ar - grants Ns (files: '/etc/x-y')" \
		"~/.x-y 'folded' over \\ lines. Broad rules may still grant file_getattr."; do
		[[ $text == *"$want"* ]] || fail "not in the rendered page: $want
--- page:
$text"
	done
}

# ---------------------------------------------------------------------------
# Bad input

@test "list --man: a broken library file fails with its file:line:col (exit 1) and prints no page" {
	local lib=$BATS_TEST_TMPDIR/lib fixture=$REPO/tests/fixtures/invalid/dup-key.yaml want
	cp -R "$CLI_LIB" "$lib"
	cp "$fixture" "$lib/"
	want=$(sed -n '1s/^# expect: //p' "$fixture")
	want=$lib/dup-key.yaml:${want#tests/fixtures/invalid/dup-key.yaml:}
	FBAC_DATADIR=$lib run --separate-stderr "$FBAC" list --man
	expect_status 1
	has_err_line "$want"
	has_err_line "fbac: the profiles have errors: run 'fbac check'"
	[[ -z $output ]] || { show_run; fail "a page was printed"; }
}

@test "list --man: a functionality defined twice fails with both places (exit 1)" {
	local lib=$BATS_TEST_TMPDIR/lib fixture=$REPO/tests/fixtures/invalid/duplicate-functionality.yaml want
	cp -R "$CLI_LIB" "$lib"
	cp "$fixture" "$lib/"
	want=$(sed -n '1s/^# expect: //p' "$fixture")
	want=${want//tests\/fixtures\/invalid\//$lib/}
	FBAC_DATADIR=$lib run --separate-stderr "$FBAC" list --man
	expect_status 1
	has_err_line "$want"
	[[ -z $output ]] || { show_run; fail "a page was printed"; }
}

@test "list --man: a broken user layer stops it too, as every command" {
	export FBAC_DATADIR=$CLI_LIB
	cp "$REPO/tests/fixtures/cli/broken/1-yaml-error.yaml" "$FBAC_USER_DIR/"
	run --separate-stderr "$FBAC" list --man
	expect_status 1
	[[ ${stderr_lines[0]} == "$FBAC_USER_DIR/1-yaml-error.yaml:"[0-9]*:[0-9]*": "* ]] ||
		{ show_run; fail "no file:line:col"; }
	[[ -z $output ]] || { show_run; fail "a page was printed"; }
}

@test "list --man with --json, --applications or -P is a usage error (exit 2)" {
	export FBAC_DATADIR=$CLI_LIB
	run --separate-stderr "$FBAC" list --man --json
	expect_status 2
	has_err_line "fbac list: --man cannot be combined with --json"
	run --separate-stderr "$FBAC" list -j -m
	expect_status 2
	run --separate-stderr "$FBAC" list --man -a
	expect_status 2
	has_err_line "fbac list: --man cannot be combined with --applications"
	run --separate-stderr "$FBAC" -P "$REPO/tests/fixtures/cli/user" list --man
	expect_status 2
	has_err_line "fbac list: --man documents the library layer only: set FBAC_DATADIR=DIR instead of -P DIR"
	[[ -z $output ]] || { show_run; fail "a page was printed"; }
	run --separate-stderr "$FBAC" list --man extra
	expect_status 2
}

@test "list --man: a page that cannot be written is an error (exit 2)" {
	export FBAC_DATADIR=$CLI_LIB
	run --separate-stderr bash -c '"$FBAC" list --man >/dev/full'
	expect_status 2
	has_err_line "fbac: cannot write the page: No space left on device"
}

# ---------------------------------------------------------------------------
# docs/architecture.md (tests/lint-docs, run by make check)

@test "docs: the module map of docs/architecture.md names every source file, and only files that exist" {
	run --separate-stderr "$REPO/tests/lint-docs"
	expect_status 0
	[[ $output == "lint-docs: "*" source files named in docs/architecture.md, every lib/ function documented in its header" ]] || { show_run; fail "summary"; }
}

@test "docs: lint-docs names a source file the map lacks, and a stale entry" {
	local t=$BATS_TEST_TMPDIR/tree
	mkdir -p "$t/docs" "$t/lib" "$t/src/prog"
	touch "$t/lib/a.c" "$t/lib/a.h" "$t/src/prog/main.c" "$t/src/prog/new.c"
	cat >"$t/docs/architecture.md" <<-'MAP'
		# x
		## Module map
		### lib/ (pure)
		| file | responsibility |
		|---|---|
		| `a.[ch]` | a |
		### src/prog/ (a program)
		| file | responsibility |
		|---|---|
		| `main.c`, `gone.h` | main |
		## From YAML to decisions
		| `other.c` | not in the map |
	MAP
	run --separate-stderr "$REPO/tests/lint-docs" "$t"
	expect_status 1
	[[ ${lines[0]} == "docs/architecture.md: the module map does not name 'src/prog/new.c' (add it to the table of 'src/prog/')" &&
		${lines[1]} == "docs/architecture.md: the module map names 'src/prog/gone.h', which does not exist" &&
		${lines[2]} == "lint-docs: FAILED" && ${#lines[@]} -eq 3 ]] || { show_run; fail "lint-docs output"; }
	rm "$t/src/prog/new.c"
	touch "$t/src/prog/gone.h"
	run --separate-stderr "$REPO/tests/lint-docs" "$t"
	expect_status 0
}
