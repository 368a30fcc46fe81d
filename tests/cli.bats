#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The fbac command: list, show, check, explain, exit statuses and usage.
#
# Most tests use the small, stable library of tests/fixtures/cli/lib (set by
# use_cli_library); a few check the shipped library under profiles/.
#
#   tests/fixtures/cli/lib/     the test library: functionalities, protected
#                               paths, applications 'fetch' and 'serve'
#   tests/fixtures/cli/user/    a user policy for fetch narrower than the library's
#   tests/fixtures/cli/admin/   an administrator's policy for fetch (HTTPS only)
#   tests/fixtures/cli/broken/  files with one problem each (and one without)
#
# Exit statuses: 0 ok/allowed, 1 denied or invalid profiles, 2 usage errors.

# shellcheck disable=SC2088 # '~' is for fbac to expand, not the shell
# shellcheck disable=SC2154 # bats sets stderr_lines

bats_require_minimum_version 1.5.0

load helpers

CLI=$REPO/tests/fixtures/cli
CLI_FUNCS=$CLI/lib/functionalities.yaml
CLI_PROT=$CLI/lib/protected.yaml
CLI_APPS=$CLI/lib/applications/fetch.yaml

use_cli_library() {
	export FBAC_DATADIR=$CLI/lib
}

# has_line TEXT: TEXT is a whole line of stdout.
has_line() {
	local l
	for l in "${lines[@]}"; do
		[[ $l == "$1" ]] && return 0
	done
	show_run
	fail "expected this line on stdout:
$1"
}

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

# contains TEXT / err_contains TEXT: stdout / stderr contains TEXT.
contains() {
	[[ $output == *"$1"* ]] && return 0
	show_run
	fail "expected stdout to contain: $1"
}

err_contains() {
	[[ $stderr == *"$1"* ]] && return 0
	show_run
	fail "expected stderr to contain: $1"
}

# line_no FILE TEXT: the number of the first line of FILE containing TEXT.
line_no() {
	grep -nF -- "$2" "$1" | head -n1 | cut -d: -f1
}

# as_root: skip (or fail, FBAC_MUST_WORK=1) unless running as root.
as_root() {
	[[ $EUID -eq 0 ]] || skip_or_fail "needs root (a root-owned administrator's layer)"
}

# ---------------------------------------------------------------------------
# Finding the library without FBAC_DATADIR

@test "library: from the build tree without FBAC_DATADIR, fbac and fbac-run use its profiles/, from any directory" {
	local lib
	lib=$(cd "$REPO" && pwd -P)/profiles
	mkdir -p "$BATS_TEST_TMPDIR/elsewhere" "$HOME/Documents"
	printf 'Buy milk.\n' >"$HOME/Documents/notes.txt"
	cd "$BATS_TEST_TMPDIR/elsewhere"
	run --separate-stderr env -u FBAC_DATADIR "$FBAC" list
	expect_status 0
	has_line "High-level functionalities (pick one for a program):"
	run --separate-stderr env -u FBAC_DATADIR "$FBAC" check
	expect_status 0
	[[ $output == *" applications: no problems" && -z $stderr ]] || { show_run; fail "check"; }
	run --separate-stderr env -u FBAC_DATADIR "$FBAC" explain less file_read '~/.ssh/id_rsa'
	expect_status 1
	contains "$lib/protected.yaml:"
	run --separate-stderr env -u FBAC_DATADIR "$FBAC_RUN" --as Text_Viewer cat "$HOME/Documents/notes.txt"
	expect_status 0
	# Nothing on stderr but, on this first run, the values --as filled.
	[[ $output == "Buy milk." && $stderr != *"fbac: denied"* && $stderr != *"library"* ]] ||
		{ show_run; fail "fbac-run"; }
	[[ -z $(grep -v -e '^fbac: Text_Viewer\.' -e "^fbac: keep a value with 'fbac set" <<<"$stderr") ]] ||
		{ show_run; fail "fbac-run: more than the values on stderr"; }
}

# missing_library_line DIR: the one line that says DIR is missing.
missing_library_line() {
	printf "%s: missing library '%s' (No such file or directory): install it with 'make install' in fbac's source tree, or set FBAC_DATADIR to a library directory, such as that tree's profiles/" "$1" "$2"
}

@test "library: an installed fbac says once which library is missing, and how to install or point at it" {
	# The programs outside the build tree, with no profiles/ beside them.
	local bin=$BATS_TEST_TMPDIR/prefix/bin
	mkdir -p "$bin"
	cp "$FBAC" "$FBAC_RUN" "$bin/"
	[[ ! -e /usr/local/share/fbac ]] || skip "a library is installed in /usr/local/share/fbac"
	cd "$BATS_TEST_TMPDIR"
	local c
	for c in list check "explain less file_read /etc/passwd"; do
		# shellcheck disable=SC2086 # the words of the command
		run --separate-stderr env -u FBAC_DATADIR "$bin/fbac" $c
		expect_status 1
		[[ $stderr == "$(missing_library_line fbac /usr/local/share/fbac)" ]] ||
			{ show_run; fail "fbac $c: not the one line naming the library"; }
	done
	run --separate-stderr env -u FBAC_DATADIR "$bin/fbac-run" --as Text_Viewer true
	expect_status 125
	[[ $stderr == "$(missing_library_line fbac-run /usr/local/share/fbac)" ]] ||
		{ show_run; fail "fbac-run: not the one line naming the library"; }
	# Named by FBAC_DATADIR: the message says so.
	run --separate-stderr env FBAC_DATADIR="$BATS_TEST_TMPDIR/nowhere" "$FBAC" list
	expect_status 1
	[[ $stderr == "fbac: missing library '$BATS_TEST_TMPDIR/nowhere' (No such file or directory), named by FBAC_DATADIR: set it to a library directory, such as profiles/ in fbac's source tree, or unset it" ]] ||
		{ show_run; fail "FBAC_DATADIR"; }
}

@test "library: as uid 65534, a copy of the programs with no profiles/ beside them says which library is missing" {
	require_unprivileged
	[[ ! -e /usr/local/share/fbac ]] || skip "a library is installed in /usr/local/share/fbac"
	[[ $EUID -eq 0 ]] || skip "not root: run_unprivileged runs the build tree's own programs"
	# run_unprivileged stages build/ and profiles/ apart (ROOT/build,
	# ROOT/repo/profiles): ROOT/profiles does not exist.
	run --separate-stderr run_unprivileged env -u FBAC_DATADIR "$FBAC" list
	expect_status 1
	[[ $stderr == "$(missing_library_line fbac /usr/local/share/fbac)" ]] || { show_run; fail "fbac"; }
	run --separate-stderr run_unprivileged env -u FBAC_DATADIR "$FBAC_RUN" --as Text_Viewer true
	expect_status 125
	[[ $stderr == "$(missing_library_line fbac-run /usr/local/share/fbac)" ]] || { show_run; fail "fbac-run"; }
}

# ---------------------------------------------------------------------------
# The shipped library (profiles/)

@test "shipped library: fbac check finds no problem" {
	run --separate-stderr "$FBAC" check
	expect_status 0
	[[ $output =~ ^[0-9]+\ files,\ [0-9]+\ functionalities,\ [0-9]+\ applications:\ no\ problems$ ]] ||
		{ show_run; fail "unexpected summary"; }
	[[ -z $stderr ]] || { show_run; fail "check printed to stderr"; }
}

@test "shipped library: list shows the high-level functionalities first" {
	run --separate-stderr "$FBAC" list
	expect_status 0
	[[ ${lines[0]} == "High-level functionalities (pick one for a program):" ]] ||
		{ show_run; fail "first line"; }
	has_line "Building blocks:"
	# Every line before "Building blocks:" names a high-level functionality.
	run --separate-stderr "$FBAC" list --json
	expect_status 0
	python3 -c '
import json, sys
v = json.load(sys.stdin)
assert v, "no functionalities"
levels = [f["high_level"] for f in v]
assert any(levels), "no high-level functionality"
assert levels == sorted(levels, reverse=True), "high-level ones are not first"
' <<<"$output" || fail "list --json: high-level first"
}

@test "shipped library: list --json parses and has the fields" {
	run --separate-stderr "$FBAC" list --json
	expect_status 0
	python3 -c '
import json, sys
v = json.load(sys.stdin)
assert isinstance(v, list) and v
for f in v:
    for k, t in (("name", str), ("category", str), ("high_level", bool),
                 ("description", str), ("layer", str), ("file", str),
                 ("line", int), ("parameters", list), ("includes", list)):
        assert isinstance(f.get(k), t), (f.get("name"), k)
    assert f["layer"] == "library", f
    assert f["file"].endswith(".yaml") and f["line"] > 0, f
    for p in f["parameters"]:
        assert isinstance(p["name"], str) and isinstance(p["type"], str)
        assert p["type"] in ("path", "paths", "ports", "hosts", "string", "bool")
        assert isinstance(p["required"], bool)
    for i in f["includes"]:
        assert isinstance(i, str)
names = [f["name"] for f in v]
assert len(names) == len(set(names)), "a name is listed twice"
' <<<"$output" || { show_run; fail "list --json"; }
}

@test "shipped library: list --applications, as a table and as JSON" {
	run --separate-stderr "$FBAC" list --applications
	expect_status 0
	[[ ${#lines[@]} -gt 0 ]] || fail "no applications"
	[[ $output =~ (^|$'\n')curl\ +library\  ]] || { show_run; fail "curl is not listed"; }
	run --separate-stderr "$FBAC" list --applications --json
	expect_status 0
	python3 -c '
import json, sys
v = json.load(sys.stdin)
assert v
for a in v:
    assert isinstance(a["name"], str) and a["layer"] == "library"
    assert a["executables"] and all(e.startswith("/") for e in a["executables"])
    assert isinstance(a["functionalities"], list)
' <<<"$output" || { show_run; fail "list -a --json"; }
}

@test "shipped library: curl cannot read the user's SSH keys" {
	run --separate-stderr "$FBAC" explain curl file_read '~/.ssh/id_rsa'
	expect_status 1
	[[ ${lines[0]} == "denied: file_read '$HOME/.ssh/id_rsa' for curl" ]] ||
		{ show_run; fail "first line"; }
	contains "  layer library (curl): denied"
	[[ $output =~ (^|$'\n')\ \ would\ be\ granted\ by:\ [^$'\n']*SSH_Keys ]] ||
		{ show_run; fail "SSH_Keys is not suggested"; }
}

# ---------------------------------------------------------------------------
# list

@test "list: high-level first, then building blocks by category and name" {
	use_cli_library
	run --separate-stderr "$FBAC" list
	expect_status 0
	[[ ${lines[0]} == "High-level functionalities (pick one for a program):" ]] ||
		{ show_run; fail "first line"; }
	[[ ${lines[1]} =~ ^\ \ Web_Downloader\ +applications\ +Download\ files\ from\ the\ web\ into\ one\ folder$ ]] ||
		{ show_run; fail "second line"; }
	[[ ${lines[2]} == "Building blocks:" ]] || { show_run; fail "third line"; }
	local -a names=()
	local l
	for l in "${lines[@]:3}"; do
		read -r l _ <<<"$l"
		names+=("$l")
	done
	[[ "${names[*]}" == "Home_Reader Read_Directory Save_Directory DNS_Client HTTP_Client LAN_Server SSH_Keys" ]] ||
		{ show_run; fail "order: ${names[*]}"; }
}

@test "list --json: every field, with the file and line of each definition" {
	use_cli_library
	run --separate-stderr "$FBAC" list --json
	expect_status 0
	CLI_FUNCS=$CLI_FUNCS \
		WD_LINE=$(line_no "$CLI_FUNCS" "functionality: Web_Downloader") \
		python3 -c '
import json, os, sys
v = json.load(sys.stdin)
by = {f["name"]: f for f in v}
assert [f["name"] for f in v][0] == "Web_Downloader"
assert len(v) == 8, len(v)
wd = by["Web_Downloader"]
assert wd == {
    "name": "Web_Downloader", "category": "applications", "high_level": True,
    "description": "Download files from the web into one folder",
    "layer": "library", "file": os.environ["CLI_FUNCS"],
    "line": int(os.environ["WD_LINE"]),
    "parameters": [{"name": "downloads", "type": "path", "required": False,
                    "ask": "Where do downloads go?"}],
    "includes": ["HTTP_Client", "Save_Directory"],
}, wd
rd = by["Read_Directory"]["parameters"]
assert rd == [{"name": "dir", "type": "path", "required": True,
               "ask": "Which directory?"}], rd
hc = by["HTTP_Client"]["parameters"]
assert [(p["name"], p["type"], p["required"]) for p in hc] == \
    [("ports", "ports", False), ("hosts", "hosts", False)], hc
' <<<"$output" || { show_run; fail "list --json"; }
}

@test "list --applications: one line per policy and layer" {
	use_cli_library
	cp "$CLI/user/fetch.yaml" "$FBAC_USER_DIR/"
	run --separate-stderr "$FBAC" list --applications
	expect_status 0
	[[ ${#lines[@]} -eq 3 ]] || { show_run; fail "expected 3 lines"; }
	[[ ${lines[0]} =~ ^fetch\ +library\ +Web_Downloader,\ Home_Reader$ ]] || { show_run; fail "line 1"; }
	[[ ${lines[1]} =~ ^serve\ +library\ +LAN_Server,\ Read_Directory$ ]] || { show_run; fail "line 2"; }
	[[ ${lines[2]} =~ ^fetch\ +user\ +Web_Downloader$ ]] || { show_run; fail "line 3"; }
	run --separate-stderr "$FBAC" list -a --json
	expect_status 0
	python3 -c '
import json, sys
v = json.load(sys.stdin)
assert v == [
    {"name": "fetch", "layer": "library", "executables": ["/usr/bin/fetch"],
     "functionalities": ["Web_Downloader", "Home_Reader"]},
    {"name": "serve", "layer": "library", "executables": ["/usr/bin/serve"],
     "functionalities": ["LAN_Server", "Read_Directory"]},
    {"name": "fetch", "layer": "user", "executables": ["/usr/bin/fetch"],
     "functionalities": ["Web_Downloader"]},
], v
' <<<"$output" || { show_run; fail "list -a --json"; }
}

@test "list: broken profiles make it fail with a pointer to fbac check" {
	use_cli_library
	run --separate-stderr "$FBAC" -P "$CLI/broken" list
	expect_status 1
	has_err_line "fbac: the profiles have errors: run 'fbac check'"
}

# ---------------------------------------------------------------------------
# show

@test "show FUNCTIONALITY: header, parameters and the tree with arguments" {
	use_cli_library
	run --separate-stderr "$FBAC" show --full Web_Downloader
	expect_status 0
	has_line "Web_Downloader: (high-level) Download files from the web into one folder [applications]"
	has_line "  defined at $CLI_FUNCS:$(line_no "$CLI_FUNCS" "functionality: Web_Downloader"):16"
	has_line "  parameter downloads (path): Where do downloads go?"
	has_line "hierarchy:"
	has_line "  Web_Downloader(downloads=$HOME/Downloads)"
	has_line "    HTTP_Client(ports=[80,443], hosts=any)"
	has_line "      DNS_Client"
	has_line "    Save_Directory(dir=$HOME/Downloads)"
	has_line "      Read_Directory(dir=$HOME/Downloads)"
}

@test "show FUNCTIONALITY: privileges with their provenance file:line:col" {
	use_cli_library
	local dns save
	dns=$(line_no "$CLI_FUNCS" "file_read: [/etc/resolv.conf, /etc/hosts]")
	save=$(line_no "$CLI_FUNCS" "file_write: \$dir/.keep/**")
	run --separate-stderr "$FBAC" show --full Web_Downloader
	expect_status 0
	has_line "privileges:"
	has_line "  allow file_read /etc/hosts"
	contains "> HTTP_Client > DNS_Client ($CLI_FUNCS:$dns:5)"
	has_line "  deny  file_write $HOME/Downloads/.keep/**"
	contains "> Save_Directory ($CLI_FUNCS:$save:5)"
	has_line "  allow network_outgoing tcp ports 80,443 hosts any"
	has_line "protected (reached only by rules written at or below them):"
	has_line "  $HOME/.ssh  (SSH private keys)"
}

@test "show FUNCTIONALITY: the chain starts once with the functionality" {
	use_cli_library
	local dns
	dns=$(line_no "$CLI_FUNCS" "file_read: [/etc/resolv.conf, /etc/hosts]")
	run --separate-stderr "$FBAC" show --full Web_Downloader
	expect_status 0
	# Not "Web_Downloader > Web_Downloader > HTTP_Client ...": it does
	# not include itself.
	has_line "        from Web_Downloader > HTTP_Client > DNS_Client ($CLI_FUNCS:$dns:5)"
}

@test "show: kernel rules and what the supervisor decides" {
	use_cli_library
	run --separate-stderr "$FBAC" show --full Web_Downloader
	expect_status 0
	has_line "kernel (Landlock) rules:"
	has_line "  /etc/hosts  read_file"
	has_line "  /etc/resolv.conf  read_file"
	has_line "  $HOME/Downloads  write_file,read_file,read_dir,make_dir,make_reg"
	has_line "  tcp connect: 80,443"
	has_line "  tcp bind: none"
	has_line "decided by the supervisor (the kernel cannot express them):"
	contains "  file_write: denied '$HOME/Downloads/.keep/**' is carved out of '$HOME/Downloads/**'"
	has_line "  network_outgoing: udp: the kernel does not restrict it"
	# The sections come in this order.
	[[ $output == *"hierarchy:"*"privileges:"*"kernel (Landlock) rules:"*"decided by the supervisor"* ]] ||
		{ show_run; fail "section order"; }
}

@test "show -D changes an argument, and what follows from it" {
	use_cli_library
	run --separate-stderr "$FBAC" show --full -D downloads=/srv/dl Web_Downloader
	expect_status 0
	has_line "  Web_Downloader(downloads=/srv/dl)"
	has_line "    Save_Directory(dir=/srv/dl)"
	has_line "      Read_Directory(dir=/srv/dl)"
	has_line "  allow file_write,file_create,dir_mkdir /srv/dl/**"
	has_line "  /srv/dl  write_file,read_file,read_dir,make_dir,make_reg"
	[[ $output != *"$HOME/Downloads"* ]] || { show_run; fail "the default is still used"; }

	run --separate-stderr "$FBAC" show --full -D Web_Downloader.downloads=/srv/other Web_Downloader
	expect_status 0
	has_line "  Web_Downloader(downloads=/srv/other)"
}

@test "show -D sets a list parameter from comma-separated values" {
	use_cli_library
	run --separate-stderr "$FBAC" show --full -D ports=8080,8443 HTTP_Client
	expect_status 0
	has_line "  HTTP_Client(ports=[8080,8443], hosts=any)"
	has_line "  allow network_outgoing tcp ports 8080,8443 hosts any"
	has_line "  tcp connect: 8080,8443"
}

@test "show: a required parameter without a value is shown with a placeholder" {
	use_cli_library
	run --separate-stderr "$FBAC" show --full Read_Directory
	expect_status 0
	has_line "  parameter dir (path) required: Which directory?"
	has_line "  Read_Directory(dir=/fbac-placeholder)"
}

@test "show APPLICATION: layer, executables, tree and the application's own privileges" {
	use_cli_library
	local own
	own=$(line_no "$CLI_APPS" "file_read: /etc/fetchrc")
	run --separate-stderr "$FBAC" show --full fetch
	expect_status 0
	has_line "fetch: application policy in layer 'library': A test downloader"
	has_line "  defined at $CLI_APPS:$(line_no "$CLI_APPS" "application: fetch"):14"
	has_line "  executables: /usr/bin/fetch"
	has_line "  fetch"
	has_line "    Web_Downloader(downloads=$HOME/Downloads)"
	has_line "      HTTP_Client(ports=[80,443], hosts=any)"
	has_line "    Home_Reader"
	has_line "  allow file_read /etc/fetchrc"
	has_line "        from fetch ($CLI_APPS:$own:5)"
	has_line "  allow file_read $HOME/**"
}

@test "show: an unknown name fails with a message (exit 2, a usage error)" {
	use_cli_library
	run --separate-stderr "$FBAC" show No_Such_Thing
	expect_status 2
	has_err_line "fbac: unknown functionality or application 'No_Such_Thing' (see 'fbac list')"
}

@test "show -D naming no parameter is a usage error (exit 2)" {
	use_cli_library
	run --separate-stderr "$FBAC" show -D nope=1 Web_Downloader
	err_contains "'-D nope=1' sets nothing"
	expect_status 2
}

@test "show -D with an invalid value is a usage error (exit 2)" {
	use_cli_library
	run --separate-stderr "$FBAC" show -D ports=0 HTTP_Client
	err_contains "value '0' of parameter 'ports' is not a port"
	expect_status 2
}

# ---------------------------------------------------------------------------
# check

@test "check: a clean library passes (exit 0), -q prints nothing" {
	use_cli_library
	run --separate-stderr "$FBAC" check
	expect_status 0
	[[ $output == "3 files, 8 functionalities, 2 applications: no problems" ]] ||
		{ show_run; fail "summary"; }
	[[ -z $stderr ]] || { show_run; fail "stderr"; }
	run --separate-stderr "$FBAC" check -q
	expect_status 0
	[[ -z $output && -z $stderr ]] || { show_run; fail "-q printed something"; }
}

@test "check: a file already in a layer is not loaded twice" {
	use_cli_library
	run --separate-stderr "$FBAC" check "$CLI_FUNCS" "$CLI/lib"
	expect_status 0
	[[ $output == "3 files, 8 functionalities, 2 applications: no problems" ]] ||
		{ show_run; fail "summary"; }
}

@test "check: each broken file given is reported (exit 1)" {
	use_cli_library
	cd "$REPO"
	local -a files=(tests/fixtures/invalid/dup-key.yaml
		tests/fixtures/invalid/unknown-category.yaml
		tests/fixtures/invalid/nul-byte.yaml
		tests/fixtures/invalid/wrong-version.yaml)
	local f expect
	run --separate-stderr "$FBAC" check "${files[@]}"
	expect_status 1
	for f in "${files[@]}"; do
		IFS= read -r expect <"$f"
		has_err_line "${expect#'# expect: '}"
	done
	has_err_line "fbac: 4 problems found"
}

@test "check: a missing path is a problem (exit 1)" {
	use_cli_library
	run --separate-stderr "$FBAC" check "$BATS_TEST_TMPDIR/missing.yaml"
	expect_status 1
	err_contains "$BATS_TEST_TMPDIR/missing.yaml: cannot open"
	err_contains "No such file or directory"
}

@test "check: several problems in several files are all reported in one run" {
	use_cli_library
	cd "$REPO"
	local d=tests/fixtures/cli/broken
	run --separate-stderr "$FBAC" check "$d"
	expect_status 1
	# An unknown include must not stop the checks of the other files.
	# (The yaml error's position is golden.bats' business: yaml-unclosed-quote.)
	err_contains "$d/1-yaml-error.yaml:"
	err_contains ": invalid yaml: found unexpected end of stream while scanning a quoted scalar"
	has_err_line "$d/2-unknown-include.yaml:7:5: unknown functionality 'Not_There_One'"
	has_err_line "$d/3-unknown-include.yaml:7:5: unknown functionality 'Not_There_Two'"
	has_err_line "$d/4-bad-port.yaml:7:46: value '0' of 'ports' is not a port, a range 'lo-hi' of 1..65535, or 'any'"
	has_err_line "$d/5-unknown-variable.yaml:7:16: unknown variable '\$NOT_A_VARIABLE'"
	has_err_line "fbac: 5 problems found"
}

# ---------------------------------------------------------------------------
# explain

@test "explain: allowed, with the chain and file:line:col (exit 0)" {
	use_cli_library
	local dns
	dns=$(line_no "$CLI_FUNCS" "file_read: [/etc/resolv.conf, /etc/hosts]")
	run --separate-stderr "$FBAC" explain fetch file_read /etc/hosts
	expect_status 0
	[[ ${lines[0]} == "allowed: file_read '/etc/hosts' for fetch" ]] || { show_run; fail "first line"; }
	has_line "  layer library (fetch): allowed by 'file_read /etc/hosts' from fetch > Web_Downloader > HTTP_Client > DNS_Client ($CLI_FUNCS:$dns:5)"
	[[ -z $stderr ]] || { show_run; fail "stderr"; }
}

@test "explain: an executable path finds its application" {
	use_cli_library
	run --separate-stderr "$FBAC" explain /usr/bin/fetch file_read /etc/hosts
	expect_status 0
	[[ ${lines[0]} == "allowed: file_read '/etc/hosts' for /usr/bin/fetch" ]] || { show_run; fail "first line"; }
	contains "layer library (fetch): allowed"
}

@test "explain: denied under a protected path, and what would grant it (exit 1)" {
	use_cli_library
	local home_rule
	home_rule=$(line_no "$CLI_FUNCS" "file_read: ~/**")
	run --separate-stderr "$FBAC" explain fetch file_read '~/.ssh/id_rsa'
	expect_status 1
	[[ ${lines[0]} == "denied: file_read '$HOME/.ssh/id_rsa' for fetch" ]] || { show_run; fail "first line"; }
	has_line "  layer library (fetch): denied"
	has_line "    '$HOME/.ssh' is protected (SSH private keys, $CLI_PROT:3:12)"
	has_line "    the rule 'file_read $HOME/**' from fetch > Home_Reader ($CLI_FUNCS:$home_rule:5) does not reach it"
	[[ $output =~ (^|$'\n')\ \ would\ be\ granted\ by:\ [^$'\n']*SSH_Keys ]] ||
		{ show_run; fail "SSH_Keys is not suggested"; }
	contains "Read_Directory($HOME/.ssh)"
}

@test "explain: a rule written below the protected path reaches it" {
	use_cli_library
	run --separate-stderr "$FBAC" explain --as SSH_Keys file_read '~/.ssh/id_rsa'
	expect_status 0
	[[ ${lines[0]} == "allowed: file_read '$HOME/.ssh/id_rsa' for --as" ]] || { show_run; fail "first line"; }
	contains "allowed by 'file_read $HOME/.ssh/**' from --as > SSH_Keys ("
}

@test "explain: a carve-out denies inside an allowed tree" {
	use_cli_library
	local save
	save=$(line_no "$CLI_FUNCS" "file_write: \$dir/.keep/**")
	run --separate-stderr "$FBAC" explain fetch file_write '~/Downloads/a.txt'
	expect_status 0
	run --separate-stderr "$FBAC" explain fetch file_write '~/Downloads/.keep/a.txt'
	expect_status 1
	[[ ${lines[0]} == "denied: file_write '$HOME/Downloads/.keep/a.txt' for fetch" ]] || { show_run; fail "first line"; }
	has_line "  layer library (fetch): denied by the carve-out 'file_write $HOME/Downloads/.keep/**' from fetch > Web_Downloader > Save_Directory ($CLI_FUNCS:$save:5)"
}

@test "explain: network tcp:HOST:PORT and tcp:PORT" {
	use_cli_library
	local http
	http=$(line_no "$CLI_FUNCS" "network_outgoing: {protocol: tcp, ports: \$ports, hosts: \$hosts}")
	run --separate-stderr "$FBAC" explain fetch network_outgoing tcp:example.org:443
	expect_status 0
	[[ ${lines[0]} == "allowed: network_outgoing tcp:example.org:443 for fetch" ]] || { show_run; fail "first line"; }
	has_line "  layer library (fetch): allowed by a 'network_outgoing' rule from fetch > Web_Downloader > HTTP_Client ($CLI_FUNCS:$http:5)"
	run --separate-stderr "$FBAC" explain fetch network_outgoing tcp:443
	expect_status 0
	run --separate-stderr "$FBAC" explain fetch network_outgoing udp:192.0.2.53:53
	expect_status 0
	run --separate-stderr "$FBAC" explain fetch network_outgoing tcp:example.org:22
	expect_status 1
	[[ ${lines[0]} == "denied: network_outgoing tcp:example.org:22 for fetch" ]] || { show_run; fail "first line"; }
	has_line "  layer library (fetch): denied: no rule grants it"
	run --separate-stderr "$FBAC" explain fetch network_incoming tcp:example.org:443
	expect_status 1
}

@test "explain: network rules with CIDR hosts" {
	use_cli_library
	run --separate-stderr "$FBAC" explain serve network_incoming tcp:192.168.1.5:8005
	expect_status 0
	contains "allowed by a 'network_incoming' rule from serve > LAN_Server ("
	run --separate-stderr "$FBAC" explain serve network_incoming tcp:192.168.255.255:8010
	expect_status 0
	run --separate-stderr "$FBAC" explain serve network_incoming tcp:192.169.0.1:8005
	expect_status 1
	run --separate-stderr "$FBAC" explain serve network_incoming tcp:192.168.1.5:8011
	expect_status 1
	run --separate-stderr "$FBAC" explain serve network_incoming 'tcp:[fd00::1]:8001'
	expect_status 0
	run --separate-stderr "$FBAC" explain serve network_incoming 'tcp:[fe80::1]:8001'
	expect_status 1
}

@test "explain: an IPv6 object is printed with brackets" {
	use_cli_library
	run --separate-stderr "$FBAC" explain serve network_incoming 'tcp:[fd00::1]:8001'
	expect_status 0
	# "tcp:fd00::1:8001" would read as the address fd00::1:8001.
	[[ ${lines[0]} == "allowed: network_incoming tcp:[fd00::1]:8001 for serve" ]] ||
		{ show_run; fail "first line"; }
}

@test "explain --as with -D" {
	use_cli_library
	local save
	save=$(line_no "$CLI_FUNCS" "paths: [\"\$dir/**\"]}")
	run --separate-stderr "$FBAC" explain --as Web_Downloader file_write /srv/dl/x
	expect_status 1
	[[ ${lines[0]} == "denied: file_write '/srv/dl/x' for --as" ]] || { show_run; fail "first line"; }
	has_line "  layer command line (--as): denied: no rule grants it"
	run --separate-stderr "$FBAC" explain --as Web_Downloader -D downloads=/srv/dl file_write /srv/dl/x
	expect_status 0
	[[ ${lines[0]} == "allowed: file_write '/srv/dl/x' for --as" ]] || { show_run; fail "first line"; }
	has_line "  layer command line (--as): allowed by 'file_write /srv/dl/**' from --as > Web_Downloader > Save_Directory ($CLI_FUNCS:$save:5)"
	run --separate-stderr "$FBAC" explain --as Web_Downloader -D Web_Downloader.downloads=/srv/dl file_write /srv/dl/x
	expect_status 0
	run --separate-stderr "$FBAC" explain --as Home_Reader --as Web_Downloader -D downloads=/srv/dl file_read '~/notes.txt'
	expect_status 0
}

@test "explain: the user's own policy replaces the library's, and is named" {
	use_cli_library
	cp "$CLI/user/fetch.yaml" "$FBAC_USER_DIR/"
	run --separate-stderr "$FBAC" explain fetch file_read '~/notes.txt'
	expect_status 1
	[[ ${lines[0]} == "denied: file_read '$HOME/notes.txt' for fetch" ]] || { show_run; fail "first line"; }
	has_line "  layer user (fetch): denied: no rule grants it"
	has_line "  (layer user's policy replaces layer library's)"
	[[ $output != *"layer library (fetch)"* ]] || { show_run; fail "the library's policy still decides"; }
	run --separate-stderr "$FBAC" explain fetch file_read /etc/hosts
	expect_status 0
	contains "  layer user (fetch): allowed by 'file_read /etc/hosts'"
}

@test "explain: a -P layer intersects too, named by its directory" {
	use_cli_library
	run --separate-stderr "$FBAC" -P "$CLI/user" explain fetch file_read '~/notes.txt'
	expect_status 1
	has_line "  layer $CLI/user (fetch): denied: no rule grants it"
}

@test "explain: the user layer does not apply with --as, the library's policy neither" {
	use_cli_library
	cp "$CLI/user/fetch.yaml" "$FBAC_USER_DIR/"
	run --separate-stderr "$FBAC" explain --as Home_Reader fetch file_read '~/notes.txt'
	expect_status 0
	[[ $output != *"layer user"* && $output != *"layer library"* ]] ||
		{ show_run; fail "--as replaces the library and user policies"; }
}

@test "explain: a root-owned 0755 administrator's layer applies, even with --as" {
	as_root
	use_cli_library
	install -o root -g root -m 0644 "$CLI/admin/fetch.yaml" "$FBAC_ADMIN_DIR/fetch.yaml"
	chown root:root "$FBAC_ADMIN_DIR"
	chmod 0755 "$FBAC_ADMIN_DIR"
	run --separate-stderr "$FBAC" explain fetch network_outgoing tcp:example.org:80
	expect_status 1
	contains "  layer library (fetch): allowed by a 'network_outgoing' rule"
	has_line "  layer admin (fetch): denied: no rule grants it"
	run --separate-stderr "$FBAC" explain --as Web_Downloader fetch network_outgoing tcp:example.org:80
	expect_status 1
	has_line "  layer admin (fetch): denied: no rule grants it"
	contains "  layer command line (--as): allowed by a 'network_outgoing' rule"
	run --separate-stderr "$FBAC" explain --as Web_Downloader fetch network_outgoing tcp:example.org:443
	expect_status 0
	contains "  layer admin (fetch): allowed by a 'network_outgoing' rule from fetch > HTTP_Client ("
}

@test "explain: the administrator's layer ignores the caller's HOME" {
	as_root
	use_cli_library
	install -o root -g root -m 0644 "$CLI/admin/fetch.yaml" "$FBAC_ADMIN_DIR/fetch.yaml"
	# Save_Directory's default ~/Downloads is the caller's for the library,
	# but root's home (from the password database) for the administrator.
	run --separate-stderr "$FBAC" explain fetch file_write '~/Downloads/x'
	expect_status 1
	contains "  layer library (fetch): allowed by 'file_write $HOME/Downloads/**'"
	has_line "  layer admin (fetch): denied: no rule grants it"
}

@test "explain: a 0777 administrator's layer is refused (exit 1)" {
	as_root
	use_cli_library
	install -o root -g root -m 0644 "$CLI/admin/fetch.yaml" "$FBAC_ADMIN_DIR/fetch.yaml"
	chmod 0777 "$FBAC_ADMIN_DIR"
	run --separate-stderr "$FBAC" explain fetch file_read /etc/hosts
	expect_status 1
	has_err_line "$FBAC_ADMIN_DIR: refusing administrator's layer: writable by group or others (mode 0777)"
	has_err_line "fbac: the profiles have errors: run 'fbac check'"
	[[ -z $output ]] || { show_run; fail "no verdict may be printed"; }
	run --separate-stderr "$FBAC" check
	expect_status 1
	has_err_line "$FBAC_ADMIN_DIR: refusing administrator's layer: writable by group or others (mode 0777)"
}

@test "explain: an administrator's file not owned by root, or writable, is refused" {
	as_root
	use_cli_library
	install -o root -g root -m 0666 "$CLI/admin/fetch.yaml" "$FBAC_ADMIN_DIR/fetch.yaml"
	run --separate-stderr "$FBAC" explain fetch file_read /etc/hosts
	expect_status 1
	has_err_line "$FBAC_ADMIN_DIR/fetch.yaml: refusing administrator's layer: writable by group or others (mode 0666)"
	chmod 0644 "$FBAC_ADMIN_DIR/fetch.yaml"
	chown 65534 "$FBAC_ADMIN_DIR/fetch.yaml"
	run --separate-stderr "$FBAC" explain fetch file_read /etc/hosts
	expect_status 1
	has_err_line "$FBAC_ADMIN_DIR/fetch.yaml: refusing administrator's layer: owned by uid 65534, not root"
}

@test "explain: an application no layer names (exit 1)" {
	use_cli_library
	run --separate-stderr "$FBAC" explain nope file_read /etc/hosts
	expect_status 1
	has_err_line "fbac: no application policy names 'nope'"
}

@test "explain: ipc_signal is denied unless granted" {
	use_cli_library
	run --separate-stderr "$FBAC" explain fetch ipc_signal any
	expect_status 1
	[[ ${lines[0]} == "denied: ipc_signal processes outside the sandbox for fetch" ]] || { show_run; fail "first line"; }
}

@test "explain --as an unknown functionality fails with a message" {
	use_cli_library
	run --separate-stderr "$FBAC" explain --as No_Such_Thing file_read /etc/hosts
	[[ $status -ne 0 ]] || { show_run; fail "exit 0"; }
	has_err_line "fbac: unknown functionality 'No_Such_Thing' (see 'fbac list')"
}

@test "explain as uid 65534: its own HOME, the protected path, the library" {
	require_unprivileged
	use_cli_library
	local uhome
	uhome=$(unprivileged_home)
	if [[ $EUID -eq 0 ]]; then
		run run_unprivileged id -u
		[[ $output == 65534 ]] || { show_run; fail "not running as uid 65534"; }
	fi
	run --separate-stderr run_unprivileged "$FBAC" explain fetch file_read '~/.ssh/id_rsa'
	expect_status 1
	[[ ${lines[0]} == "denied: file_read '$uhome/.ssh/id_rsa' for fetch" ]] || { show_run; fail "first line"; }
	has_line "    '$uhome/.ssh' is protected (SSH private keys, $(unprivileged_root)/repo/tests/fixtures/cli/lib/protected.yaml:3:12)"
	run --separate-stderr run_unprivileged "$FBAC" explain fetch file_read '~/notes.txt'
	expect_status 0
	[[ ${lines[0]} == "allowed: file_read '$uhome/notes.txt' for fetch" ]] || { show_run; fail "first line"; }
	run --separate-stderr run_unprivileged "$FBAC" check
	expect_status 0
	[[ $output == "3 files, 8 functionalities, 2 applications: no problems" ]] || { show_run; fail "check"; }
}

@test "uid 65534 is bound by the root-owned administrator's layer" {
	require_unprivileged
	as_root
	use_cli_library
	install -o root -g root -m 0644 "$CLI/admin/fetch.yaml" "$FBAC_ADMIN_DIR/fetch.yaml"
	run --separate-stderr run_unprivileged "$FBAC" explain fetch network_outgoing tcp:example.org:80
	expect_status 1
	has_line "  layer admin (fetch): denied: no rule grants it"
	run --separate-stderr run_unprivileged "$FBAC" explain --as Web_Downloader fetch network_outgoing tcp:example.org:443
	expect_status 0
}

# ---------------------------------------------------------------------------
# Usage

@test "usage: no command, or an unknown one (exit 2)" {
	use_cli_library
	run --separate-stderr "$FBAC"
	expect_status 2
	err_contains "missing command"
	run --separate-stderr "$FBAC" frobnicate
	expect_status 2
	has_err_line "fbac: unknown command 'frobnicate' (expected list, show, check, explain, set or unset)"
	run --separate-stderr "$FBAC" --no-such-option list
	expect_status 2
	run --separate-stderr "$FBAC" -P
	expect_status 2
}

@test "usage: missing or extra arguments (exit 2)" {
	use_cli_library
	run --separate-stderr "$FBAC" show
	expect_status 2
	err_contains "missing NAME"
	run --separate-stderr "$FBAC" show fetch serve
	expect_status 2
	run --separate-stderr "$FBAC" explain
	expect_status 2
	run --separate-stderr "$FBAC" explain fetch
	expect_status 2
	run --separate-stderr "$FBAC" explain fetch file_read
	expect_status 2
	run --separate-stderr "$FBAC" explain fetch file_read /a /b
	expect_status 2
	run --separate-stderr "$FBAC" list extra
	expect_status 2
	run --separate-stderr "$FBAC" list --no-such-option
	expect_status 2
}

@test "usage: a malformed -D (exit 2)" {
	use_cli_library
	local d
	for d in novalue =x .p=x F.=x; do
		run --separate-stderr "$FBAC" explain -D "$d" fetch file_read /etc/hosts
		expect_status 2
		err_contains "fbac: invalid -D '"
		run --separate-stderr "$FBAC" show -D "$d" Web_Downloader
		expect_status 2
		err_contains "fbac: invalid -D '"
	done
	run --separate-stderr "$FBAC" explain -D novalue fetch file_read /etc/hosts
	has_err_line "fbac: invalid -D 'novalue' (expected [FUNCTIONALITY.]PARAMETER=VALUE)"
}

@test "usage: a malformed -D is quoted whole in the message" {
	use_cli_library
	local d
	for d in .p=x F.=x; do
		run --separate-stderr "$FBAC" explain -D "$d" fetch file_read /etc/hosts
		expect_status 2
		has_err_line "fbac: invalid -D '$d' (expected [FUNCTIONALITY.]PARAMETER=VALUE)"
	done
}

@test "usage: an unknown operation or a malformed object (exit 2)" {
	use_cli_library
	run --separate-stderr "$FBAC" explain fetch file_chmod /etc/hosts
	expect_status 2
	has_err_line "fbac: unknown operation 'file_chmod' (see fbac-profile(5))"
	run --separate-stderr "$FBAC" explain fetch file_read relative/path
	expect_status 2
	has_err_line "fbac: invalid object 'relative/path': path is not absolute"
	run --separate-stderr "$FBAC" explain fetch network_outgoing /etc/hosts
	expect_status 2
	local obj
	for obj in tcp:example.org:0 icmp:192.0.2.1:7 tcp:example.org:http tcp:any:80 'tcp:[::1:80'; do
		run --separate-stderr "$FBAC" explain fetch network_outgoing "$obj"
		expect_status 2
	done
}

@test "usage: a malformed object is quoted whole in the message" {
	use_cli_library
	run --separate-stderr "$FBAC" explain fetch network_outgoing tcp:example.org:0
	expect_status 2
	has_err_line "fbac: invalid object 'tcp:example.org:0' (expected tcp:HOST:PORT, tcp:PORT, udp:HOST:PORT)"
}

@test "--help and --version (exit 0)" {
	run --separate-stderr "$FBAC" --help
	expect_status 0
	contains "Usage: fbac [OPTION...] COMMAND [ARG...]"
	contains "explain    is an operation allowed"
	run --separate-stderr "$FBAC" --version
	expect_status 0
	[[ $output =~ ^fbac\ [0-9]+\.[0-9]+(\.[0-9]+)?$ ]] || { show_run; fail "version line"; }
	local c
	for c in list show check explain; do
		run --separate-stderr "$FBAC" "$c" --help
		expect_status 0
		contains "Usage: "
	done
}

@test "a command's usage names it as 'fbac COMMAND'" {
	run --separate-stderr "$FBAC" show --help
	expect_status 0
	[[ ${lines[0]} == "Usage: fbac show [OPTION...] NAME" ]] || { show_run; fail "usage line"; }
	run --separate-stderr "$FBAC" show
	expect_status 2
	err_contains "Try \`fbac show --help'"
}
