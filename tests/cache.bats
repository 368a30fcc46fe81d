#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fbac-run's cache ($XDG_CACHE_HOME/fbac): the compiled stack, the parsed
# library and the seccomp filter are taken from it while they are current,
# never when they are stale, damaged or writable by others, and a confined
# program cannot rewrite them. `-v` says at exit where each came from:
#   fbac: policy: from the cache 'PATH' | compiled[, cached as 'PATH']
#   fbac: library: N files, K of them from the cache 'PATH'[ (written)]
#   fbac: seccomp filter: from the cache 'PATH' | built 'PATH'[ (written)]
# (no library line when the policy came from the cache and nothing asked
# for the library).

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

# vrun ARGS...: fbac-run -v ARGS... as Text_Viewer, stderr kept apart. The
# tests of the parsed library take the compiled stacks away first, so that
# each run reads the library (srun keeps them).
vrun() {
	rm -f "$CACHE"/stack-*.cache
	run --separate-stderr "$FBAC_RUN" -v --as Text_Viewer "$@"
}

# srun ARGS...: fbac-run -v ARGS..., stderr kept apart, the cache as it is.
srun() {
	run --separate-stderr "$FBAC_RUN" -v "$@"
}

policy_line() {
	printf '%s\n' "${stderr_lines[@]}" | grep '^fbac: policy: ' || true
}

# expect_policy cached|compiled|compiled-not-cached
expect_policy() {
	local want
	case $1 in
	cached) want="fbac: policy: from the cache '$CACHE/stack-*.cache'" ;;
	compiled) want="fbac: policy: compiled, cached as '$CACHE/stack-*.cache'" ;;
	*) want="fbac: policy: compiled (not cached: a policy file changed within the last second)" ;;
	esac
	# shellcheck disable=SC2053 # want is a pattern
	[[ $(policy_line) == $want ]] || {
		printf 'expected: %s\n     got: %s\n' "$want" "$(policy_line)"
		printf '%s\n' "${stderr_lines[@]}"
		fail "policy line"
	}
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
	# --no-infer: the file named on the command line is not granted.
	vrun --no-infer cat "$HOME/docs/a"
	[[ $status -ne 0 ]] || fail "read outside Text_Viewer's folders"
	vrun true
	expect_library "$NFILES" ""
	# Text_Viewer's folders by default, in the library file, now the test's.
	grep -q '^    default: \["$XDG_DOCUMENTS_DIR", "$XDG_DOWNLOAD_DIR"\]$' \
		"$LIB/functionalities/applications.yaml" || fail "Text_Viewer changed: adjust this test"
	sed -i "s|^    default: \[\"\$XDG_DOCUMENTS_DIR\", \"\$XDG_DOWNLOAD_DIR\"\]\$|    default: [\"$HOME/docs\"]|" \
		"$LIB/functionalities/applications.yaml"
	vrun --no-infer cat "$HOME/docs/a"
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
	age
	vrun true
	expect_status 0
	srun --as Text_Viewer true
	expect_policy cached
	local lib stack before
	lib=$(ls "$CACHE"/library-*.cache)
	stack=$(ls "$CACHE"/stack-*.cache)
	before=$(sha256sum "$lib" "$CACHE/seccomp.bpf" "$stack")
	run --separate-stderr "$FBAC_RUN" --as Shell_Scripts \
		--as Read_Write_Directory -D Read_Write_Directory.dir="$HOME/.cache" \
		sh -c "echo ok >'$HOME/.cache/other' && cat '$HOME/.cache/other';
		       echo x >'$lib'; echo x >'$CACHE/seccomp.bpf'; rm -f '$lib';
		       echo x >'$stack'; rm -f '$stack';
		       mv '$CACHE' '$HOME/.cache/moved'; echo x >'$CACHE/new'; true"
	expect_status 0
	[[ ${lines[0]} == ok ]] || fail "the granted write: $output"
	[[ $stderr == *"fbac: denied file_write '$lib'"* ]] || { echo "$stderr"; fail "no denial of the write"; }
	[[ $stderr == *"fbac: denied file_write '$stack'"* ]] || { echo "$stderr"; fail "no denial of the write"; }
	[[ $(sha256sum "$lib" "$CACHE/seccomp.bpf" "$stack") == "$before" ]] || fail "the cache changed"
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
	rm -f "$uh"/.cache/fbac/stack-*.cache # this test is the library's
	run --separate-stderr run_unprivileged "$FBAC_RUN" -v --as Text_Viewer true
	expect_status 0
	[[ $(library_line) == *" $NFILES of them from the cache '$uh/.cache/fbac/library-"*".cache'" ]] ||
		fail "second: $(library_line)"
	[[ $(policy_line) == "fbac: policy: compiled, cached as '$uh/.cache/fbac/stack-"*".cache'" ]] ||
		fail "second policy: $(policy_line)"
	run --separate-stderr run_unprivileged "$FBAC_RUN" -v --as Text_Viewer true
	expect_status 0
	[[ $(policy_line) == "fbac: policy: from the cache '$uh/.cache/fbac/stack-"*".cache'" ]] ||
		fail "third policy: $(policy_line)"
	[[ -z $(library_line) ]] || fail "the library was read: $(library_line)"
	[[ $(filter_line) == "fbac: seccomp filter: from the cache '$uh/.cache/fbac/seccomp.bpf'" ]] ||
		fail "filter: $(filter_line)"
	[[ $EUID -ne 0 || $(stat -c %u "$uh/.cache/fbac/seccomp.bpf") == 65534 ]] || fail "not the user's"
}

# ---------------------------------------------------------------------------
# The compiled stack

@test "the compiled policy is cached: the next run reads no policy file, and it is the same policy" {
	age # the test's fresh layer directories
	mkdir -p "$HOME/docs"
	echo hello >"$HOME/docs/a"
	srun --as Text_Viewer -D Text_Viewer.files="$HOME/docs" cat "$HOME/docs/a"
	expect_status 0
	[[ $output == hello ]] || fail "read: $output"
	expect_policy compiled
	[[ -n $(library_line) ]] || fail "no library line"
	[[ $(stat -c %a "$CACHE"/stack-*.cache) == 600 ]] || fail "cache file mode"
	srun --as Text_Viewer -D Text_Viewer.files="$HOME/docs" cat "$HOME/docs/a"
	expect_status 0
	[[ $output == hello ]] || fail "read from the cached policy: $output"
	expect_policy cached
	[[ -z $(library_line) ]] || fail "the library was read: $(library_line)"
	# Each shipped application policy (its program run harmlessly) and
	# some --as stacks: --check prints the same policy, rule for rule,
	# origin for origin, from the cache as compiled.
	local -a cmds=(
		"tar --version" "gzip --version" "git --version" "make --version"
		"python3 -c pass" "curl --version" "jq --version" "xz --version"
		"--as Software_Build -D Software_Build.sources=$HOME/docs true"
		"--as Archive_Manager -D Archive_Manager.sources=$HOME/docs -D Archive_Manager.destinations=$HOME true"
		"--as Web_Browser -D Web_Browser.app_name=test true"
	)
	local c cached compiled n=0
	for c in "${cmds[@]}"; do
		# shellcheck disable=SC2086 # words
		command -v ${c%% *} >/dev/null 2>&1 || [[ $c == --as* ]] || continue
		# shellcheck disable=SC2086
		srun $c
		[[ $(policy_line) == *"cached as"* || $(policy_line) == *"from the cache"* ]] ||
			fail "$c: $(policy_line)"
		# shellcheck disable=SC2086
		run --separate-stderr "$FBAC_RUN" --check --full $c
		cached=$output
		rm -f "$CACHE"/stack-*.cache
		# shellcheck disable=SC2086
		run --separate-stderr "$FBAC_RUN" --check --full $c
		compiled=$output
		[[ $cached == "$compiled" && -n $cached ]] || {
			diff <(echo "$cached") <(echo "$compiled") | head -n 20
			fail "$c: --check differs from the cache"
		}
		# fbac-run compiles without the gaps when it only runs the
		# program; --check prints them, from the cache as well.
		grep -A1 '^decided by the supervisor' <<<"$cached" | grep -q '^  ' ||
			fail "$c: --check from the cache lists no gap"
		n=$((n + 1))
	done
	((n >= 8)) || fail "only $n policies compared"
}

@test "the compiled policy is compiled again when any of its inputs changed" {
	mkdir -p "$HOME/a" "$HOME/b" "$HOME/.config"
	echo A >"$HOME/a/f"
	echo B >"$HOME/b/f"
	age
	# A parameter: the policy of one value is never the other's
	# (--no-infer: the file named is not granted, nor part of the key).
	srun --as Text_Viewer --no-infer -D Text_Viewer.files="$HOME/a" cat "$HOME/a/f"
	expect_status 0
	srun --as Text_Viewer --no-infer -D Text_Viewer.files="$HOME/a" cat "$HOME/b/f"
	[[ $status -ne 0 ]] || fail "read b with the policy for a"
	expect_policy cached
	srun --as Text_Viewer --no-infer -D Text_Viewer.files="$HOME/b" cat "$HOME/b/f"
	expect_status 0
	[[ $output == B ]] || fail "read b: $output"
	expect_policy compiled
	# A variable: Text_Viewer's default folders are the user's documents.
	printf 'XDG_DOCUMENTS_DIR="$HOME/a"\n' >"$HOME/.config/user-dirs.dirs"
	age
	srun --as Text_Viewer --no-infer cat "$HOME/a/f"
	expect_status 0
	expect_policy compiled
	srun --as Text_Viewer --no-infer cat "$HOME/a/f"
	expect_status 0
	expect_policy cached
	printf 'XDG_DOCUMENTS_DIR="$HOME/b"\n' >"$HOME/.config/user-dirs.dirs"
	srun --as Text_Viewer --no-infer cat "$HOME/a/f"
	[[ $status -ne 0 ]] || fail "read a after the documents moved to b"
	expect_policy compiled
	# A file of a layer: a user-layer functionality grants a.
	cat >"$FBAC_USER_DIR/mine.yaml" <<-EOF
		fbac: 1
		functionality: Mine
		category: files
		description: test
		privileges:
		  - access: [file_read, file_getattr]
		    paths: ["$HOME/a/f"]
	EOF
	srun --as Text_Viewer --as Mine --no-infer cat "$HOME/a/f"
	expect_status 0
	expect_policy compiled-not-cached
	age
	srun --as Text_Viewer --as Mine --no-infer cat "$HOME/a/f"
	expect_status 0
	expect_policy compiled
	srun --as Text_Viewer --as Mine --no-infer cat "$HOME/a/f"
	expect_status 0
	expect_policy cached
	sed -i "s|$HOME/a/f|$HOME/b/f|" "$FBAC_USER_DIR/mine.yaml"
	srun --as Text_Viewer --as Mine --no-infer cat "$HOME/a/f"
	[[ $status -ne 0 ]] || fail "read a after the layer stopped granting it"
	expect_policy compiled-not-cached
	# A new file in a layer, even one that changes nothing.
	age
	srun --as Text_Viewer --as Mine true
	expect_policy compiled
	touch -d '1 hour ago' "$FBAC_USER_DIR/other.yaml"
	srun --as Text_Viewer --as Mine true
	expect_policy compiled-not-cached # the directory changed just now
	# The program: another executable under the same name is another key.
	mkdir -p "$HOME/bin"
	cp /bin/true "$HOME/bin/prog"
	touch -d '1 hour ago' "$HOME/bin/prog"
	age
	srun --as Text_Viewer "$HOME/bin/prog"
	expect_policy compiled
	srun --as Text_Viewer "$HOME/bin/prog"
	expect_policy cached
	# The same name, now a link to another file: the program's canonical
	# path is in the policy (it may run), so it is in the key.
	ln -s /bin/true "$HOME/bin/prog2"
	srun --as Text_Viewer "$HOME/bin/prog2"
	expect_policy compiled
	srun --as Text_Viewer "$HOME/bin/prog2"
	expect_policy cached
	ln -sfn /bin/false "$HOME/bin/prog2"
	srun --as Text_Viewer "$HOME/bin/prog2"
	[[ $status -eq 1 ]] || fail "/bin/false did not run: $status"
	expect_policy compiled
	# Only the link's target differs (the same names, no package, the
	# same folders): its canonical path alone tells the two apart.
	mkdir -p "$HOME/x" "$HOME/y"
	cp /bin/true "$HOME/x/prog3"
	cp /bin/true "$HOME/y/prog3"
	touch -d '1 hour ago' "$HOME/x/prog3" "$HOME/y/prog3"
	ln -s "$HOME/x/prog3" "$HOME/bin/prog3"
	srun --as Text_Viewer --no-infer "$HOME/bin/prog3"
	expect_policy compiled
	srun --as Text_Viewer --no-infer "$HOME/bin/prog3"
	expect_policy cached
	ln -sfn "$HOME/y/prog3" "$HOME/bin/prog3"
	srun --as Text_Viewer --no-infer "$HOME/bin/prog3"
	expect_status 0
	expect_policy compiled
}

@test "a damaged, shared or symlinked compiled policy is not used, and is rewritten" {
	age
	srun --as Text_Viewer true
	expect_policy compiled
	local f
	f=$(ls "$CACHE"/stack-*.cache)
	truncate -s 100 "$f"
	srun --as Text_Viewer true
	expect_status 0
	expect_policy compiled
	printf 'Z' | dd of="$f" bs=1 seek=$(($(stat -c %s "$f") / 2)) conv=notrunc status=none
	srun --as Text_Viewer true
	expect_status 0
	expect_policy compiled
	chmod g+w "$f"
	srun --as Text_Viewer true
	expect_status 0
	expect_policy compiled
	[[ $(stat -c %a "$f") == 600 ]] || fail "rewritten with mode $(stat -c %a "$f")"
	rm -f "$f"
	ln -s /etc/passwd "$f"
	srun --as Text_Viewer true
	expect_status 0
	expect_policy compiled
	[[ -f $f && ! -L $f ]] || fail "the symlink was not replaced"
	srun --as Text_Viewer true
	expect_policy cached
}

@test "with the policy from the cache, a denial still names what would grant it" {
	mkdir -p "$HOME/other"
	echo o >"$HOME/other/f"
	age
	srun --as Text_Viewer --no-infer -D Text_Viewer.files="$HOME/docs" cat "$HOME/other/f"
	[[ $status -ne 0 ]] || fail "read outside the policy"
	expect_policy compiled
	local first
	first=$(printf '%s\n' "${stderr_lines[@]}" | grep '^fbac: denied file_read')
	[[ $first == *"; granted by "* ]] || fail "no suggestion: $first"
	srun --as Text_Viewer --no-infer -D Text_Viewer.files="$HOME/docs" cat "$HOME/other/f"
	[[ $status -ne 0 ]] || fail "read outside the cached policy"
	expect_policy cached
	# The supervisor read the library for it, from inside its domain.
	[[ -n $(library_line) ]] || fail "no library line"
	[[ $(printf '%s\n' "${stderr_lines[@]}" | grep '^fbac: denied file_read' | sed 's/\[[0-9]*\]//') == \
		"$(sed 's/\[[0-9]*\]//' <<<"$first")" ]] ||
		fail "the denial differs: $(printf '%s\n' "${stderr_lines[@]}" | grep '^fbac: denied')"
}

@test "at most 64 compiled policies are kept, the oldest go first" {
	mkdir -p "$CACHE"
	chmod 700 "$CACHE"
	local i
	for ((i = 0; i < 70; i++)); do
		printf x >"$CACHE/stack-old$i.cache"
		touch -d "$((100 - i)) minutes ago" "$CACHE/stack-old$i.cache"
	done
	# What --as printed for a stack goes with it.
	printf x >"$CACHE/values-old0.cache"
	printf x >"$CACHE/values-old69.cache"
	age
	srun --as Text_Viewer true
	expect_policy compiled
	[[ $(find "$CACHE" -name 'stack-*.cache' | wc -l) -eq 64 ]] ||
		fail "$(find "$CACHE" -name 'stack-*.cache' | wc -l) kept"
	[[ ! -e $CACHE/stack-old0.cache && ! -e $CACHE/stack-old6.cache ]] || fail "an old one stayed"
	[[ -e $CACHE/stack-old7.cache && -e $CACHE/stack-old69.cache ]] || fail "a newer one went"
	[[ ! -e $CACHE/values-old0.cache && -e $CACHE/values-old69.cache ]] ||
		fail "the values of an evicted stack stayed, or a kept one's went"
	srun --as Text_Viewer true
	expect_policy cached
}
