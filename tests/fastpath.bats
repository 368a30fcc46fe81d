#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The kernel fast path: a read-only open the supervisor decided to allow
# continues in the kernel when the program's own Landlock rules for
# reading (never wider than the policy) allow it too; otherwise the
# supervisor opens the file and injects it. Each test runs the same opens
# with the fast path and with --supervise-all (everything opened by the
# supervisor) and requires the same result for every path, line for line:
# the fast path may only change the speed. fbac-run -v counts what
# continued, so the tests also show that the fast path was taken.
#
# The tree, under the test's HOME:
#   $T/pub/a  $T/pub/sub/b      read through a tree with a hole
#   $T/secret/s                 the hole (denied), the secret
#   $T/pub/out -> ../secret/s   a way out through a symlink
#   $T/secret/in -> ../pub/a    a way back in
#   $T/pub2/c                   a subtree the test replaces mid-run
#   $G/x.txt $G/y.md            a directory read through a pattern (~/g)

# shellcheck disable=SC2154 # bats sets output, stderr, lines, stderr_lines

bats_require_minimum_version 1.5.0

load helpers

RUN_FIX=$REPO/tests/fixtures/run
PROGS=$(cd "$FBAC_BUILD_DIR/tests/progs" 2>/dev/null && pwd -P || echo "$FBAC_BUILD_DIR/tests/progs")
SECRET=TOPSECRET-7f3a91
# Fast-path checks before the supervisor watches directories instead of
# walking them (lib/fbac-limits.h): a run past it, for the watch's tests.
WATCH_AFTER=$(sed -n 's/^#define FBAC_WATCH_AFTER \([0-9]*\).*/\1/p' "$REPO/lib/fbac-limits.h")

setup() {
	[[ -x $FBAC_RUN ]] || fail "no $FBAC_RUN: run make"
	[[ -x $PROGS/open-many ]] || fail "no $PROGS/open-many: run make test-progs"
	[[ $WATCH_AFTER -gt 0 ]] || fail "FBAC_WATCH_AFTER not found in lib/fbac-limits.h"
	export FBAC_DATADIR=$RUN_FIX/empty
	require_kernel_feature "Landlock" \
		"'$FBAC_RUN' -P '$RUN_FIX/lib' --as Test_System --check true | grep -q '^landlock ABI [1-9]'"
	mkdir -p "$HOME/t/pub/sub" "$HOME/t/secret" "$HOME/t/pub2" "$HOME/g"
	T=$(cd "$HOME/t" && pwd -P)
	echo "public" >"$T/pub/a"
	echo "deeper" >"$T/pub/sub/b"
	echo "$SECRET" >"$T/secret/s"
	echo "replaced later" >"$T/pub2/c"
	G=$(cd "$HOME/g" && pwd -P)
	echo "text" >"$G/x.txt"
	echo "markdown" >"$G/y.md"
	ln -s ../secret/s "$T/pub/out"
	ln -s ../pub/a "$T/secret/in"
}

# opens MODE-OPTION...: run open-many on the paths of the tree as
# Test_System + Test_Read_Except ($T minus $T/secret) + Test_Read_Glob
# ($G/*.txt); the rest of "$@" after -- are its arguments.
opens() {
	local -a opt=()
	while [[ $1 != -- ]]; do
		opt+=("$1")
		shift
	done
	shift
	"$FBAC_RUN" -q -v "${opt[@]}" -P "$RUN_FIX/lib" --as Test_System \
		--as Test_Read_Except -D "Test_Read_Except.dir=$T" \
		-D "Test_Read_Except.except=$T/secret" \
		--as Test_Read_Glob -D "Test_Read_Glob.dir=$G" \
		"$PROGS/open-many" "$@"
}

# continued STDERR: the number of calls that continued in the kernel.
continued() {
	sed -n 's/.* \([0-9]*\) of them continued in the kernel, by .*/\1/p' <<<"$1"
}

# sizeless TEXT: the lines with the byte counts of /proc files left out.
sizeless() {
	sed 's|^\(/proc/[^ ]* ok\) [0-9]*$|\1|' <<<"$1"
}

PATHS=()
paths() {
	PATHS=("$T/pub/a" "$T/pub/sub/b" "$T/pub" "$T/pub/sub" "$T"
		"$T/secret/s" "$T/secret" "$T/pub/out" "$T/secret/in"
		"$T/pub/nope" "$G/x.txt" "$G/y.md" "$G"
		/etc/passwd /etc /proc/self/status /proc/self/fd
		"$HOME" /usr/bin/true /usr/lib)
}

@test "fast path: every open gives what the supervisor alone gives" {
	paths
	run --separate-stderr opens -- "${PATHS[@]}"
	[[ $status -eq 0 ]] || fail "open-many failed: $stderr"
	local fast=$output fast_err=$stderr
	run --separate-stderr opens --supervise-all -- "${PATHS[@]}"
	[[ $status -eq 0 ]] || fail "open-many failed: $stderr"
	# /proc/self/status is a little longer for a longer pid.
	if [[ $(sizeless "$output") != "$(sizeless "$fast")" ]]; then
		diff <(echo "$fast") <(echo "$output") >&2 || true
		fail "the fast path and the supervisor disagree"
	fi
	# The expected answers, so that both cannot be wrong the same way.
	grep -qx "$T/pub/a ok 7" <<<"$fast" || fail "pub/a not read: $fast"
	grep -qx "$T/pub/sub/b ok 7" <<<"$fast" || fail "pub/sub/b not read"
	grep -qx "$T/pub dir 5" <<<"$fast" || fail "pub not listed"
	grep -qx "$T dir 5" <<<"$fast" || fail "the tree's top not listed"
	grep -qx "$T/secret/s EACCES" <<<"$fast" || fail "the secret was opened"
	grep -qx "$T/secret EACCES" <<<"$fast" || fail "the hole was listed"
	grep -qx "$T/pub/out EACCES" <<<"$fast" || fail "the symlink led out"
	grep -qx "$T/secret/in ok 7" <<<"$fast" || fail "secret/in -> pub/a"
	grep -qx "$T/pub/nope ENOENT" <<<"$fast" || fail "a missing file"
	grep -qx "$G/x.txt ok 5" <<<"$fast" || fail "the pattern's file"
	grep -qx "$G/y.md EACCES" <<<"$fast" || fail "outside the pattern"
	grep -qx "$G EACCES" <<<"$fast" || fail "the pattern's directory"
	grep -qx "/proc/self/status ok [1-9][0-9]*" <<<"$fast" || fail "/proc/self"
	grep -qx "$HOME EACCES" <<<"$fast" || fail "HOME listed"
	[[ $fast != *"$SECRET"* ]] || fail "the secret leaked"
	# The fast path was taken, and not with --supervise-all.
	[[ $(continued "$fast_err") -ge 6 ]] ||
		fail "too few opens continued in the kernel: $fast_err"
	[[ $(continued "$stderr") -eq 0 ]] ||
		fail "--supervise-all let opens continue: $stderr"
}

@test "fast path: entries made or replaced after launch are opened all the same" {
	local go=$BATS_TEST_TMPDIR/go
	paths
	opens -- --wait "$go" "$T/new" "$T/pub2/c" "$T/pub2/d" "$T/pub/a" \
		>"$BATS_TEST_TMPDIR/fast" 2>"$BATS_TEST_TMPDIR/fast.err" &
	local pid=$!
	sleep 0.5
	# A new entry at the top of the tree (no launch-time rule names it)
	# and a subtree replaced by a new directory (its rule names the old).
	echo "new entry" >"$T/new"
	rm -rf "$T/pub2"
	mkdir "$T/pub2"
	echo "new c" >"$T/pub2/c"
	echo "new d" >"$T/pub2/d"
	touch "$go"
	wait "$pid" || fail "open-many failed: $(cat "$BATS_TEST_TMPDIR/fast.err")"
	run --separate-stderr opens --supervise-all -- "$T/new" "$T/pub2/c" \
		"$T/pub2/d" "$T/pub/a"
	[[ $output == "$(cat "$BATS_TEST_TMPDIR/fast")" ]] ||
		fail "disagree: fast=$(cat "$BATS_TEST_TMPDIR/fast") supervisor=$output"
	grep -qx "$T/new ok 10" "$BATS_TEST_TMPDIR/fast" || fail "new entry"
	grep -qx "$T/pub2/c ok 6" "$BATS_TEST_TMPDIR/fast" || fail "replaced subtree"
	grep -qx "$T/pub2/d ok 6" "$BATS_TEST_TMPDIR/fast" || fail "new file in it"
}

@test "fast path: a walk through the tree into its hole is refused" {
	# escape.bats races path swaps against the fast path with real attack
	# programs (race-open: the allowed file is read through it); here a
	# plain walk with `..` into the carved-out secret.
	run --separate-stderr opens -- "$T/secret/s" "$T/pub/../secret/s"
	[[ $output == *"$T/secret/s EACCES"* && $output != *"$SECRET"* ]] ||
		fail "$output"
}

@test "fast path: the same answers for an unprivileged user" {
	require_unprivileged
	local uh ut
	# The staged copy has the programs of the build directory only.
	mkdir -p "$HOME/progs"
	cp "$PROGS/open-many" "$HOME/progs/"
	uh=$(unprivileged_home)
	ut=$uh/t
	run --separate-stderr run_unprivileged "$FBAC_RUN" -q -v -P "$RUN_FIX/lib" \
		--as Test_System --as Test_Read_Except -D "Test_Read_Except.dir=$ut" \
		-D "Test_Read_Except.except=$ut/secret" "$uh/progs/open-many" \
		"$ut/pub/a" "$ut/secret/s" "$ut/pub/out" "$ut/pub"
	[[ $status -eq 0 ]] || fail "$stderr"
	[[ $output == *"$ut/pub/a ok 7"* && $output == *"$ut/secret/s EACCES"* &&
		$output == *"$ut/pub/out EACCES"* && $output == *"$ut/pub dir 5"* ]] ||
		fail "$output"
	[[ $(continued "$stderr") -ge 2 ]] || fail "no fast path: $stderr"
	[[ $output != *"$SECRET"* ]] || fail "the secret leaked"
}

@test "fast path: rules a rule above them implies are left out, with the same answers" {
	# $T/pub and $T/pub/sub are both granted: the kernel rules on
	# $T/pub/sub add nothing to those on $T/pub and are not made. The
	# answers must be those of the supervisor alone, also once the
	# subtree was replaced after launch (its old rule would name the old
	# directory) and through a symlink that leads out of the tree.
	local go=$BATS_TEST_TMPDIR/go
	ro() {
		"$FBAC_RUN" -q -v "$@" -P "$RUN_FIX/lib" --as Test_System \
			--as Test_Read -D "Test_Read.dirs=$T/pub,$T/pub/sub" \
			"$PROGS/open-many" "${args[@]}"
	}
	local -a args=(--wait "$go" "$T/pub/a" "$T/pub/sub/b" "$T/pub/sub"
		"$T/pub/sub/new" "$T/pub/out" "$T/secret/s" "$T/pub2/c")
	ro >"$BATS_TEST_TMPDIR/fast" 2>"$BATS_TEST_TMPDIR/fast.err" &
	local pid=$!
	sleep 0.5
	rm -rf "$T/pub/sub"
	mkdir "$T/pub/sub"
	echo "new b" >"$T/pub/sub/b"
	echo "newer" >"$T/pub/sub/new"
	touch "$go"
	wait "$pid" || fail "open-many failed: $(cat "$BATS_TEST_TMPDIR/fast.err")"
	local fast
	fast=$(cat "$BATS_TEST_TMPDIR/fast")
	run --separate-stderr ro --supervise-all
	[[ $status -eq 0 ]] || fail "open-many failed: $stderr"
	[[ $output == "$fast" ]] || fail "disagree: fast=$fast supervisor=$output"
	grep -qx "$T/pub/a ok 7" <<<"$fast" || fail "pub/a: $fast"
	grep -qx "$T/pub/sub/b ok 6" <<<"$fast" || fail "the replaced subtree: $fast"
	grep -qx "$T/pub/sub/new ok 6" <<<"$fast" || fail "a new file in it: $fast"
	grep -qx "$T/pub/sub dir 4" <<<"$fast" || fail "the subtree listed: $fast"
	grep -qx "$T/pub/out EACCES" <<<"$fast" || fail "the symlink led out"
	grep -qx "$T/secret/s EACCES" <<<"$fast" || fail "outside the grant"
	grep -qx "$T/pub2/c EACCES" <<<"$fast" || fail "outside the grant"
	[[ $fast != *"$SECRET"* ]] || fail "the secret leaked"
	# Left out: the narrow rule and both rulesets' rules on $T/pub/sub.
	local n
	n=$(sed -n 's/^fbac: landlock: \([0-9]*\) rules left out.*/\1/p' \
		"$BATS_TEST_TMPDIR/fast.err")
	[[ ${n:-0} -ge 2 ]] || fail "no rule left out: $(cat "$BATS_TEST_TMPDIR/fast.err")"
	[[ $(continued "$(cat "$BATS_TEST_TMPDIR/fast.err")") -ge 2 ]] ||
		fail "no fast path: $(cat "$BATS_TEST_TMPDIR/fast.err")"
}

# denial_lines STDERR: the objects of the denial lines in STDERR.
denial_lines() {
	sed -n "s/^fbac: denied [a-z_]* '\([^']*\)' for .*/\1/p" <<<"$1"
}

@test "fast path: an ungranted read and a read in the carve-out are refused, each with a line" {
	# The policy uses the fast path (reads in the tree continue in the
	# kernel); a read outside every grant and one in the carved-out
	# subtree are the supervisor's, refused with a denial line: the
	# kernel's rules never refuse alone.
	echo "$SECRET" >"$HOME/outside"
	run --separate-stderr "$FBAC_RUN" -v -P "$RUN_FIX/lib" --as Test_System \
		--as Test_Read_Except -D "Test_Read_Except.dir=$T" \
		-D "Test_Read_Except.except=$T/secret" \
		"$PROGS/open-many" "$T/pub/a" "$HOME/outside" "$T/secret/s" \
		"$T/secret" "$T/pub/sub/b"
	[[ $status -eq 0 ]] || fail "open-many failed: $stderr"
	grep -qx "$T/pub/a ok 7" <<<"$output" || fail "pub/a: $output"
	grep -qx "$HOME/outside EACCES" <<<"$output" || fail "outside: $output"
	grep -qx "$T/secret/s EACCES" <<<"$output" || fail "the hole: $output"
	grep -qx "$T/secret EACCES" <<<"$output" || fail "the hole listed: $output"
	[[ $output != *"$SECRET"* ]] || fail "the secret leaked"
	local d p
	d=$(denial_lines "$stderr")
	for p in "$HOME/outside" "$T/secret/s" "$T/secret"; do
		grep -qxF "$p" <<<"$d" || fail "no denial line for '$p': $stderr"
	done
	# The two allowed reads continued, nothing else did (the program's
	# own start, its libraries, continues as without any path).
	local n
	n=$(continued "$stderr")
	run --separate-stderr opens --
	[[ $status -eq 0 ]] || fail "open-many failed: $stderr"
	[[ $n -eq $(($(continued "$stderr") + 2)) ]] ||
		fail "continued: $n, without a path: $stderr"
}

@test "fast path: a carve-out in a directory of more than 64 entries leaves its reads to the supervisor" {
	# The tree's top has a hole, so its narrow rules list it entry by
	# entry; with 70 more entries it is not listed (start-up would pay
	# for each), and what is read there is opened by the supervisor,
	# with the same answers.
	for i in $(seq 1 70); do
		echo "entry $i" >"$T/e$i"
	done
	local -a p=("$T/e1" "$T/e70" "$T/pub/a" "$T/pub" "$T/secret/s"
		"$T/secret" "$T/pub/out" "$T")
	run --separate-stderr opens -- "${p[@]}"
	[[ $status -eq 0 ]] || fail "open-many failed: $stderr"
	local fast=$output fast_err=$stderr
	run --separate-stderr opens --supervise-all -- "${p[@]}"
	[[ $status -eq 0 ]] || fail "open-many failed: $stderr"
	[[ $output == "$fast" ]] || fail "disagree: fast=$fast supervisor=$output"
	grep -qx "$T/e70 ok 9" <<<"$fast" || fail "e70: $fast"
	grep -qx "$T/pub/a ok 7" <<<"$fast" || fail "pub/a: $fast"
	grep -qx "$T/secret/s EACCES" <<<"$fast" || fail "the hole: $fast"
	grep -qx "$T dir 75" <<<"$fast" || fail "the top: $fast"
	[[ $fast != *"$SECRET"* ]] || fail "the secret leaked"
	[[ $fast_err == *"fbac: landlock: 1 directories read entry by entry have more than 64 entries"* ]] ||
		fail "-v does not say so: $fast_err"
	# Nothing under the tree continued: as many as without a path (the
	# program's start).
	run --separate-stderr opens --
	[[ $status -eq 0 ]] || fail "open-many failed: $stderr"
	[[ $(continued "$fast_err") -eq $(continued "$stderr") ]] ||
		fail "continued: $fast_err; without a path: $stderr"
}

# replace_mid_run SETUP...: run open-many on $T/pub/a and $T/pub2/c (both
# continue in the kernel: their rules' paths are walked once, then
# watched), then SETUP (a shell command: it changes what those paths
# name), then the same paths again; sets fast and fast_err, and checks
# that the opens before the change continued.
replace_mid_run() {
	local go=$T/go
	opens -- --repeat "$WATCH_AFTER" "$T/pub/a" "$T/pub/a" "$T/pub2/c" \
		--wait "$go" "$T/pub/a" "$T/pub2/c" \
		"$T/pub2" >"$BATS_TEST_TMPDIR/fast" 2>"$BATS_TEST_TMPDIR/fast.err" &
	local pid=$!
	local i
	for i in $(seq 1 200); do
		[[ $(wc -l <"$BATS_TEST_TMPDIR/fast") -ge 2 ]] && break
		sleep 0.05
	done
	eval "$1"
	touch "$go"
	wait "$pid" || fail "open-many failed: $(cat "$BATS_TEST_TMPDIR/fast.err")"
	fast=$(cat "$BATS_TEST_TMPDIR/fast")
	fast_err=$(cat "$BATS_TEST_TMPDIR/fast.err")
	[[ $(continued "$fast_err") -ge 2 ]] || fail "no fast path: $fast_err"
}

@test "fast path: a rule's directory renamed away after its reads continued: the next reads are not refused" {
	# The first opens continue, and the rules' paths are watched from
	# then on; once pub and pub2 are renamed and made again, the kernel
	# rules (made on the old directories) no longer reach what the paths
	# name: the supervisor must see it and open them itself, not let the
	# kernel refuse them without a word.
	replace_mid_run 'mv "$T/pub" "$T/pub.old" && mkdir "$T/pub" &&
		echo "new a" >"$T/pub/a" && mv "$T/pub2" "$T/pub2.old" &&
		mkdir "$T/pub2" && echo "new c2" >"$T/pub2/c"'
	[[ $(grep -c "^$T/pub/a ok" <<<"$fast") -eq 2 ]] || fail "pub/a: $fast"
	grep -qx "$T/pub/a ok 6" <<<"$fast" || fail "new pub/a: $fast"
	grep -qx "$T/pub2/c ok 7" <<<"$fast" || fail "new pub2/c: $fast"
	grep -qx "$T/pub2 dir 3" <<<"$fast" || fail "new pub2: $fast"
	[[ $fast_err != *"fbac: denied"* ]] || fail "refused: $fast_err"
}

@test "fast path: a file system mounted over a rule's directory after its reads continued: the next reads are not refused" {
	[[ $(id -u) -eq 0 ]] || skip_or_fail "mounting a file system needs root"
	need_commands unshare mount || return
	# In a mount namespace of the test's own, shared by fbac-run: the
	# mount table's change is what the supervisor must see.
	export T RUN_FIX PROGS FBAC_RUN BATS_TEST_TMPDIR WATCH_AFTER
	run --separate-stderr unshare -m --propagation private bash -c '
		go=$T/go
		"$FBAC_RUN" -q -v -P "$RUN_FIX/lib" --as Test_System \
			--as Test_Read_Except -D "Test_Read_Except.dir=$T" \
			-D "Test_Read_Except.except=$T/secret" "$PROGS/open-many" \
			--repeat "$WATCH_AFTER" "$T/pub2/c" \
			"$T/pub2/c" --wait "$go" "$T/pub2/c" >"$BATS_TEST_TMPDIR/out" &
		pid=$!
		for i in $(seq 1 200); do
			[[ -s $BATS_TEST_TMPDIR/out ]] && break
			sleep 0.05
		done
		mount -t tmpfs fbac-test "$T/pub2" && echo "mounted c" >"$T/pub2/c"
		touch "$go"
		wait "$pid"
		status=$?
		cat "$BATS_TEST_TMPDIR/out"
		exit $status'
	[[ $status -eq 0 ]] || fail "failed: $output $stderr"
	grep -qx "$T/pub2/c ok 15" <<<"$output" || fail "the first: $output"
	grep -qx "$T/pub2/c ok 10" <<<"$output" || fail "the mounted one: $output"
	[[ $stderr != *"fbac: denied"* ]] || fail "refused: $stderr"
	[[ $(continued "$stderr") -ge 1 ]] || fail "no fast path: $stderr"
}

@test "fast path: names looked up in a known directory follow the directory when it is renamed or replaced by a symlink" {
	# Asked about twice, a directory is opened and watched, and the names
	# in it are looked up there with no walk (stat and read-only opens).
	# Once pub is renamed and made again, and pub2 renamed and replaced by
	# a symlink into the carved-out secret, the same names must give
	# what a walk gives: the new pub/a, and pub2/c refused, with a line,
	# as the secret it now is.
	local go=$T/go
	echo "$SECRET" >"$T/secret/c"
	opens -- --repeat "$WATCH_AFTER" "$T/pub/a" \
		--stat "$T/pub/a" "$T/pub/a" "$T/pub2/c" "$T/pub2/c" \
		--open "$T/pub/a" "$T/pub/a" "$T/pub2/c" --wait "$go" \
		--stat "$T/pub/a" "$T/pub2/c" --open "$T/pub/a" "$T/pub2/c" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	local pid=$! i
	for i in $(seq 1 200); do
		[[ $(wc -l <"$BATS_TEST_TMPDIR/out") -ge 7 ]] && break
		sleep 0.05
	done
	mv "$T/pub" "$T/pub.old" && mkdir "$T/pub" && echo "new a" >"$T/pub/a"
	mv "$T/pub2" "$T/pub2.old" && ln -s secret "$T/pub2"
	touch "$go"
	wait "$pid" || fail "open-many failed: $(cat "$BATS_TEST_TMPDIR/err")"
	local out err
	out=$(cat "$BATS_TEST_TMPDIR/out")
	err=$(cat "$BATS_TEST_TMPDIR/err")
	[[ $(sed -n 1,7p <<<"$out") == "$(printf '%s\n' "$T/pub/a size 7" \
		"$T/pub/a size 7" "$T/pub2/c size 15" "$T/pub2/c size 15" \
		"$T/pub/a ok 7" "$T/pub/a ok 7" "$T/pub2/c ok 15")" ]] ||
		fail "before: $out"
	[[ $(sed -n '8,$p' <<<"$out") == "$(printf '%s\n' "$T/pub/a size 6" \
		"$T/pub2/c EACCES" "$T/pub/a ok 6" "$T/pub2/c EACCES")" ]] ||
		fail "after: $out"
	[[ $out != *"$SECRET"* ]] || fail "the secret leaked"
	grep -q "fbac: denied file_getattr '$T/secret/c'" <<<"$err" ||
		fail "no line for the stat: $err"
	grep -q "fbac: denied file_read '$T/secret/c'" <<<"$err" ||
		fail "no line for the open: $err"
	[[ $(continued "$err") -ge 4 ]] || fail "no fast path: $err"
}

@test "fast path: a directory on another file system is not held open: it can be unmounted while the program runs" {
	[[ $(id -u) -eq 0 ]] || skip_or_fail "mounting a file system needs root"
	need_commands unshare mount umount || return
	export T RUN_FIX PROGS FBAC_RUN BATS_TEST_TMPDIR WATCH_AFTER
	run --separate-stderr unshare -m --propagation private bash -c '
		go=$T/go
		mount -t tmpfs fbac-test "$T/pub2" && echo "mounted c" >"$T/pub2/c" || exit 2
		"$FBAC_RUN" -q -P "$RUN_FIX/lib" --as Test_System \
			--as Test_Read_Except -D "Test_Read_Except.dir=$T" \
			-D "Test_Read_Except.except=$T/secret" "$PROGS/open-many" \
			--repeat "$WATCH_AFTER" "$T/pub/a" \
			--stat "$T/pub2/c" "$T/pub2/c" "$T/pub2/c" --wait "$go" \
			"$T/pub2/c" >"$BATS_TEST_TMPDIR/out" &
		pid=$!
		for i in $(seq 1 200); do
			[[ $(wc -l <"$BATS_TEST_TMPDIR/out") -ge 3 ]] && break
			sleep 0.05
		done
		umount "$T/pub2" || echo "umount failed"
		touch "$go"
		wait "$pid"
		status=$?
		cat "$BATS_TEST_TMPDIR/out"
		exit $status'
	[[ $status -eq 0 ]] || fail "failed: $output $stderr"
	[[ $output != *"umount failed"* ]] || fail "the supervisor kept it busy: $output"
	[[ $(grep -c "^$T/pub2/c size 10$" <<<"$output") -eq 3 ]] ||
		fail "the mounted file: $output"
	grep -qx "$T/pub2/c size 15" <<<"$output" || fail "the file below: $output"
}

@test "fast path: a short run makes no inotify instance (4-14 ms at exit); a long one watches" {
	need_commands strace || return
	ASAN_OPTIONS=detect_leaks=0 run --separate-stderr strace -f -qq -e trace=inotify_init1 -o "$BATS_TEST_TMPDIR/st" \
		"$FBAC_RUN" -q -P "$RUN_FIX/lib" --as Test_System \
		--as Test_Read_Except -D "Test_Read_Except.dir=$T" \
		-D "Test_Read_Except.except=$T/secret" "$PROGS/open-many" \
		--repeat 100 "$T/pub/a" "$T/pub/a"
	[[ $status -eq 0 && $output == "$T/pub/a ok 7" ]] || fail "short: $output $stderr"
	[[ $(grep -c inotify_init1 "$BATS_TEST_TMPDIR/st") -eq 0 ]] ||
		fail "a short run made an inotify instance: $(cat "$BATS_TEST_TMPDIR/st")"
	ASAN_OPTIONS=detect_leaks=0 run --separate-stderr strace -f -qq -e trace=inotify_init1 -o "$BATS_TEST_TMPDIR/st" \
		"$FBAC_RUN" -q -P "$RUN_FIX/lib" --as Test_System \
		--as Test_Read_Except -D "Test_Read_Except.dir=$T" \
		-D "Test_Read_Except.except=$T/secret" "$PROGS/open-many" \
		--repeat "$WATCH_AFTER" "$T/pub/a" "$T/pub/a"
	[[ $status -eq 0 && $output == "$T/pub/a ok 7" ]] || fail "long: $output $stderr"
	[[ $(grep -c 'inotify_init1.* = [0-9]' "$BATS_TEST_TMPDIR/st") -eq 1 ]] ||
		fail "a long run made no inotify instance: $(cat "$BATS_TEST_TMPDIR/st")"
}

@test "fast path: a directory of many entries is given up after its first batch of names" {
	# A busy /tmp, read entry by entry for Temporary_Files' holes, was
	# read whole at every start (getdents64 of 500 names, each matched
	# against the holes) to be given up for 64: now the first batch of
	# names past the budget ends it.
	need_commands strace
	for i in $(seq 1 2000); do
		: >"$T/entry-with-a-long-name-$i"
	done
	# (LeakSanitizer cannot run under ptrace: a sanitizer build's check
	# is off for the traced run.)
	ASAN_OPTIONS=detect_leaks=0 strace -f -y -e trace=getdents64 -o "$BATS_TEST_TMPDIR/trace" \
		"$FBAC_RUN" -q -v -P "$RUN_FIX/lib" --as Test_System \
		--as Test_Read_Except -D "Test_Read_Except.dir=$T" \
		-D "Test_Read_Except.except=$T/secret" \
		"$PROGS/open-many" "$T/entry-with-a-long-name-7" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" ||
		fail "open-many failed: $(cat "$BATS_TEST_TMPDIR/err")"
	grep -qx "$T/entry-with-a-long-name-7 ok 0" "$BATS_TEST_TMPDIR/out" ||
		fail "the read: $(cat "$BATS_TEST_TMPDIR/out")"
	grep -q "1 directories read entry by entry have more than 64 entries" \
		"$BATS_TEST_TMPDIR/err" || fail "-v: $(cat "$BATS_TEST_TMPDIR/err")"
	local calls
	calls=$(grep -c "getdents64([0-9]*<$T>" "$BATS_TEST_TMPDIR/trace")
	[[ $calls -eq 1 ]] ||
		fail "$calls reads of '$T': $(grep "<$T>" "$BATS_TEST_TMPDIR/trace")"
}

@test "fast path: a folder both run and read through the narrow rules has one rule in the program's ruleset" {
	# $T/pub is a plan rule (running) and a narrow rule (reading) of the
	# program's ruleset, on one object: the kernel would merge the two
	# into their union, so the narrow rights go into the plan's rule.
	need_commands strace
	ASAN_OPTIONS=detect_leaks=0 strace -f -y -e trace=landlock_add_rule -o "$BATS_TEST_TMPDIR/trace" \
		"$FBAC_RUN" -q -P "$RUN_FIX/lib" --as Test_System \
		--as Test_Read -D "Test_Read.dirs=$T/pub" \
		--as Test_Execute -D "Test_Execute.dirs=$T/pub" \
		"$PROGS/open-many" "$T/pub/a" "$T/pub" >"$BATS_TEST_TMPDIR/out" ||
		fail "open-many failed: $(cat "$BATS_TEST_TMPDIR/out")"
	grep -qx "$T/pub/a ok 7" "$BATS_TEST_TMPDIR/out" ||
		fail "pub/a: $(cat "$BATS_TEST_TMPDIR/out")"
	local rules
	rules=$(grep -c "parent_fd=[0-9]*<$T/pub>" "$BATS_TEST_TMPDIR/trace")
	# One in the supervisor's ruleset, one in the program's.
	[[ $rules -eq 2 ]] ||
		fail "$rules rules on '$T/pub': $(grep "<$T/pub>" "$BATS_TEST_TMPDIR/trace")"
	run --separate-stderr "$FBAC_RUN" -q --supervise-all -P "$RUN_FIX/lib" \
		--as Test_System --as Test_Read -D "Test_Read.dirs=$T/pub" \
		--as Test_Execute -D "Test_Execute.dirs=$T/pub" \
		"$PROGS/open-many" "$T/pub/a" "$T/pub"
	[[ $output == "$(cat "$BATS_TEST_TMPDIR/out")" ]] ||
		fail "disagree: fast=$(cat "$BATS_TEST_TMPDIR/out") supervisor=$output"
}
