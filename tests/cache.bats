#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fbac-run's cache ($XDG_CACHE_HOME/fbac): the parsed library and the
# seccomp filter are taken from it while they are current, never when
# they are stale, damaged or writable by others, and a confined program
# cannot rewrite them. `-v` says at exit where each came from:
#   fbac: library: N files, K of them from the cache 'PATH'[ (written)]
#   fbac: seccomp filter: from the cache 'PATH' | built 'PATH'[ (written)]

# shellcheck disable=SC2154 # bats sets output, stderr, lines

bats_require_minimum_version 1.5.0

load helpers

setup() {
	[[ -x $FBAC_RUN ]] || fail "no $FBAC_RUN: run make"
	export FBAC_DATADIR=$REPO/profiles
	CACHE=$HOME/.cache/fbac
	NFILES=$(find "$FBAC_DATADIR" -name '*.yaml' | wc -l)
	cd / || return 1
}

# A file changed within the last second is never cached (its identity could
# not tell two quick versions apart): let copies and edits age past that.
age() {
	sleep 1.1
}

# vrun ARGS...: fbac-run -v ARGS... as Text_Viewer, stderr kept apart.
vrun() {
	run --separate-stderr "$FBAC_RUN" -v --as Text_Viewer "$@"
}

library_line() {
	printf '%s\n' "${stderr_lines[@]}" | grep '^fbac: library: ' || true
}

filter_line() {
	printf '%s\n' "${stderr_lines[@]}" | grep '^fbac: seccomp filter: ' || true
}

expect_library() {
	local want="fbac: library: $NFILES files, $1 of them from the cache '$(ls "$CACHE"/library-*.cache)'$2"
	[[ $(library_line) == "$want" ]] || {
		printf 'expected: %s\n     got: %s\n' "$want" "$(library_line)"
		printf '%s\n' "${stderr_lines[@]}"
		fail "library line"
	}
}

@test "the second run takes the library and the filter from the cache" {
	vrun true
	expect_status 0
	expect_library 0 " (written)"
	[[ $(filter_line) == "fbac: seccomp filter: built '$CACHE/seccomp.bpf' (written)" ]] ||
		fail "first filter line: $(filter_line)"
	[[ $(stat -c %a "$CACHE") == 700 ]] || fail "cache directory mode $(stat -c %a "$CACHE")"
	[[ $(stat -c %a "$CACHE/seccomp.bpf") == 600 ]] || fail "cache file mode"

	vrun true
	expect_status 0
	expect_library "$NFILES" ""
	[[ $(filter_line) == "fbac: seccomp filter: from the cache '$CACHE/seccomp.bpf'" ]] ||
		fail "second filter line: $(filter_line)"
	# The policy from the cache is the policy from the files.
	run --separate-stderr "$FBAC_RUN" --as Text_Viewer --check true
	local cached=$output
	rm -rf "$CACHE"
	run --separate-stderr "$FBAC_RUN" --as Text_Viewer --check true
	[[ $output == "$cached" ]] || fail "--check differs with and without the cache"
}

@test "an edited profile takes effect at the next run, the rest still cached" {
	# A library of our own, to edit.
	LIB=$BATS_TEST_TMPDIR/lib
	cp -R "$REPO/profiles" "$LIB"
	export FBAC_DATADIR=$LIB
	age
	mkdir -p "$HOME/docs"
	echo hello >"$HOME/docs/a"
	vrun cat "$HOME/docs/a"
	[[ $status -ne 0 ]] || fail "read outside Text_Viewer's folders"
	vrun true
	expect_library "$NFILES" ""
	# Text_Viewer's folders by default, in the library file, now the test's.
	grep -q '^    default: \["$XDG_DOCUMENTS_DIR", "$XDG_DOWNLOAD_DIR"\]$' \
		"$LIB/functionalities/applications.yaml" || fail "Text_Viewer changed: adjust this test"
	sed -i "s|^    default: \[\"\$XDG_DOCUMENTS_DIR\", \"\$XDG_DOWNLOAD_DIR\"\]\$|    default: [\"$HOME/docs\"]|" \
		"$LIB/functionalities/applications.yaml"
	vrun cat "$HOME/docs/a"
	expect_status 0
	[[ $output == hello ]] || fail "read through the edited default: $output"
	expect_library "$((NFILES - 1))" " (written)"
	# Just changed: parsed again, not yet cached.
	vrun cat "$HOME/docs/a"
	expect_status 0
	expect_library "$((NFILES - 1))" " (written)"
	age
	vrun cat "$HOME/docs/a"
	expect_library "$((NFILES - 1))" " (written)"
	vrun cat "$HOME/docs/a"
	expect_status 0
	[[ $output == hello ]] || fail "read through the cached edit: $output"
	expect_library "$NFILES" ""
}

@test "a damaged, a foreign-key or a shared cache is not used, and is rewritten" {
	vrun true
	expect_library 0 " (written)"
	local lib
	lib=$(ls "$CACHE"/library-*.cache)

	# Cut short.
	truncate -s 1000 "$lib"
	vrun true
	expect_status 0
	expect_library 0 " (written)"
	# One byte changed in the middle.
	printf 'Z' | dd of="$lib" bs=1 seek=$(($(stat -c %s "$lib") / 2)) conv=notrunc status=none
	vrun true
	expect_status 0
	expect_library 0 " (written)"
	# Written by another fbac-run: a copy of the binary is another file.
	cp "$FBAC_RUN" "$BATS_TEST_TMPDIR/fbac-run-copy"
	run --separate-stderr "$BATS_TEST_TMPDIR/fbac-run-copy" -v --as Text_Viewer true
	expect_status 0
	expect_library 0 " (written)"
	[[ $(filter_line) == *"built '$CACHE/seccomp.bpf' (written)" ]] || fail "filter: $(filter_line)"
	vrun true
	expect_library 0 " (written)"
	[[ $(filter_line) == *"built '$CACHE/seccomp.bpf' (written)" ]] || fail "filter: $(filter_line)"
	# Writable by the group: someone else could have written it.
	chmod g+w "$lib" "$CACHE/seccomp.bpf"
	vrun true
	expect_status 0
	expect_library 0 " (written)"
	[[ $(filter_line) == *"built '$CACHE/seccomp.bpf' (written)" ]] || fail "filter: $(filter_line)"
	[[ $(stat -c %a "$lib") == 600 ]] || fail "rewritten with mode $(stat -c %a "$lib")"
	# A damaged filter is built again (the kernel would refuse garbage, but
	# a valid other program must not load either).
	printf '\x06\x00\x00\x00\x00\x00\xff\x7f' | dd of="$CACHE/seccomp.bpf" bs=1 \
		seek=$(($(stat -c %s "$CACHE/seccomp.bpf") - 8)) conv=notrunc status=none
	vrun true
	expect_status 0
	[[ $(filter_line) == *"built '$CACHE/seccomp.bpf' (written)" ]] || fail "filter: $(filter_line)"
	# A symlink in its place is not followed.
	rm -f "$lib"
	ln -s /etc/passwd "$lib"
	vrun true
	expect_status 0
	expect_library 0 " (written)"
	[[ -f $lib && ! -L $lib ]] || fail "the symlink was not replaced"
}

@test "a confined program cannot rewrite the cache, even where the policy grants the cache directory" {
	vrun true
	expect_status 0
	local lib before
	lib=$(ls "$CACHE"/library-*.cache)
	before=$(sha256sum "$lib" "$CACHE/seccomp.bpf")
	run --separate-stderr "$FBAC_RUN" --as Shell_Scripts \
		--as Read_Write_Directory -D Read_Write_Directory.dir="$HOME/.cache" \
		sh -c "echo ok >'$HOME/.cache/other' && cat '$HOME/.cache/other';
		       echo x >'$lib'; echo x >'$CACHE/seccomp.bpf'; rm -f '$lib';
		       mv '$CACHE' '$HOME/.cache/moved'; echo x >'$CACHE/new'; true"
	expect_status 0
	[[ ${lines[0]} == ok ]] || fail "the granted write: $output"
	[[ $stderr == *"fbac: denied file_write '$lib'"* ]] || { echo "$stderr"; fail "no denial of the write"; }
	[[ $(sha256sum "$lib" "$CACHE/seccomp.bpf") == "$before" ]] || fail "the cache changed"
	[[ ! -e $HOME/.cache/moved && ! -e $CACHE/new ]] || fail "the cache directory was moved or written"
}

@test "no cache is made in a directory that is not the user's own (sudo without -H)" {
	local mine=$HOME/.cache
	if [[ $EUID -eq 0 ]]; then
		# Root with another user's HOME: ~/.cache is that user's.
		mkdir -p "$mine"
		chown 65534:65534 "$mine"
	else
		# A user's XDG_CACHE_HOME under root's /tmp, not yet made.
		mine=$BATS_TEST_TMPDIR/not-made-yet
		export XDG_CACHE_HOME=/tmp/fbac-test-cache-$$/cache
	fi
	vrun true
	expect_status 0
	[[ $(library_line) == "fbac: library: $NFILES files, 0 of them from the cache '"*"'" ]] ||
		fail "library: $(library_line)"
	[[ ! -e $HOME/.cache/fbac && ! -e /tmp/fbac-test-cache-$$ ]] || fail "a cache was made"
	# The user's own, once it is.
	if [[ $EUID -eq 0 ]]; then
		chown 0:0 "$mine"
		vrun true
		expect_library 0 " (written)"
	fi
}

@test "unprivileged: the second run takes both from the cache" {
	require_unprivileged
	local uh
	uh=$(unprivileged_home) # stages copies of profiles/ (new files)
	age
	run --separate-stderr run_unprivileged "$FBAC_RUN" -v --as Text_Viewer true
	expect_status 0
	[[ $(library_line) == *", 0 of them from the cache '$uh/.cache/fbac/library-"*".cache' (written)" ]] ||
		fail "first: $(library_line)"
	run --separate-stderr run_unprivileged "$FBAC_RUN" -v --as Text_Viewer true
	expect_status 0
	[[ $(library_line) == *" $NFILES of them from the cache '$uh/.cache/fbac/library-"*".cache'" ]] ||
		fail "second: $(library_line)"
	[[ $(filter_line) == "fbac: seccomp filter: from the cache '$uh/.cache/fbac/seccomp.bpf'" ]] ||
		fail "filter: $(filter_line)"
	[[ $EUID -ne 0 || $(stat -c %u "$uh/.cache/fbac/seccomp.bpf") == 65534 ]] || fail "not the user's"
}
