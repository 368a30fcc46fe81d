#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Nested runs whose policy the outer supervisor enforces (fbac-run(1),
# "Nested runs"): a fbac-run started by a confined program registers its
# policy with the outer fbac-run's supervisor (a sealed memfd and an ioctl,
# src/fbac-run/nest-abi.h), stays the parent of what it runs, and every
# call the outer supervisor decides for those processes (the opens it
# makes for them, creations, execs, the reads it lets continue) must be
# allowed by the inner policy too, with a denial line naming it and an
# event. Real programs (sh, cat, sleep), real files in a test HOME.

# shellcheck disable=SC2154 # bats sets output, stderr, lines, stderr_lines
# shellcheck disable=SC2016 # $... in single quotes is for the shell run

bats_require_minimum_version 1.5.0

load helpers

setup() {
	[[ -x $FBAC_RUN ]] || fail "no $FBAC_RUN: run make"
	DATA=$HOME/data
	mkdir -p "$DATA/ok" "$HOME/.ssh"
	echo 'the secret' >"$DATA/secret"
	echo 'fine' >"$DATA/ok/f"
	echo 'ssh-ed25519 AAAA the key' >"$HOME/.ssh/authorized_keys"
	LOG=$BATS_TEST_TMPDIR/outer.log
}

# The outer run, a bash script (run_unprivileged runs it too) that takes
# fbac-run's options, "--", then the command; $FBAC_RUN, $FBAC_DATADIR and
# $HOME come from the environment. The outer program may run this build's
# fbac-run, cat, sleep and true, read the library, and read and write ~/data
# (and $MORE_RW).
OUTER_SH='opts=()
while [[ $1 != -- ]]; do opts+=("$1"); shift; done
shift
exec "$FBAC_RUN" "${opts[@]}" --as Version_Control_Client --as Run_Helper_Programs \
	-D "Run_Helper_Programs.programs=$FBAC_RUN,/usr/bin/cat,/usr/bin/sleep,/usr/bin/true" \
	--as Read_Only_Directory -D "Read_Only_Directory.dir=$FBAC_DATADIR" \
	--as Read_Write_Directory -D "Read_Write_Directory.dir=$HOME/data${MORE_RW:+,$MORE_RW}" "$@"'

outer() { bash -c "$OUTER_SH" outer "$@"; }

# The nested run, in the outer program's sh -c scripts: Text_Viewer,
# which may read ~/data/ok only.
INNER='"$FBAC_RUN" --as Text_Viewer -D "Text_Viewer.files=$HOME/data/ok"'

expect_nested_line() { # OP PATH
	[[ $stderr == *"fbac: denied $1 '$2' for "*"a nested run's policy"* ]] ||
		{ show_run; fail "no denial line naming the nested run's policy for $1 '$2'"; }
}

expect_event() { # OP PATH
	grep -F "\"operation\": \"$1\", \"object\": \"$2\", \"decision\": \"deny\"" "$LOG" |
		grep -qF "a nested run's policy" ||
		{ cat "$LOG"; fail "no event for $1 '$2' naming the nested run's policy"; }
}

@test "nested: a read the outer supervisor performs, which only the outer policy grants, is refused with the inner policy's line and an event" {
	# --supervise-all: the outer supervisor opens every file for the
	# program, out of the inner Landlock layers' sight.
	run --separate-stderr outer --supervise-all -l "$LOG" -- sh -c \
		"$INNER"' cat "$HOME/data/secret" "$HOME/data/ok/f"; echo "inner=$?"'
	expect_status 0
	[[ $output == $'fine\ninner=1' ]] || { show_run; fail "the secret was read"; }
	expect_nested_line file_read "$DATA/secret"
	[[ $stderr == *"not granted by --as (layer command line, a nested run's policy)"* ]] ||
		{ show_run; fail "the line does not name the inner policy"; }
	expect_event file_read "$DATA/secret"
	grep -q '"operation": "syscall", "object": "ioctl", "decision": "allow", "reason": "nested run registered: its processes are decided by its policy (--as) too"' "$LOG" ||
		{ cat "$LOG"; fail "no event for the registration"; }
}

@test "nested: a read the outer supervisor would let continue in the kernel, which the inner policy refuses, has its line and event (silent EACCES on main)" {
	run --separate-stderr outer -l "$LOG" -- sh -c \
		"$INNER"' cat "$HOME/data/secret" "$HOME/data/ok/f"; echo "inner=$?"'
	expect_status 0
	[[ $output == $'fine\ninner=1' ]] || { show_run; fail "the secret was read"; }
	expect_nested_line file_read "$DATA/secret"
	expect_event file_read "$DATA/secret"
}

# A write and an exec that only the outer policy grants, and what both
# grant (a read of ~/data/ok/f, the program's exit status).
WRITE_EXEC="$INNER"' sh -c "
	read -r l <\"\$HOME/data/ok/f\"; echo \"\$l\"
	echo hacked >\"\$HOME/data/secret\" || echo write-refused
	sleep 0 || echo exec-refused
	exit 7"; echo "inner=$?"'

expect_write_exec() { # HOME
	expect_status 0
	[[ $output == $'fine\nwrite-refused\nexec-refused\ninner=7' ]] || { show_run; fail "unexpected output"; }
	[[ $(cat "$1/data/secret") == 'the secret' ]] || fail "the secret was overwritten"
	[[ $stderr == *"fbac: denied file_write '$1/data/secret' for "*"a nested run's policy"* ]] ||
		{ show_run; fail "no line for the write"; }
	[[ $stderr == *"fbac: denied file_execute '/usr/bin/sleep' for "*"a nested run's policy"* ]] ||
		{ show_run; fail "no line for the exec"; }
}

@test "nested: a write and an exec only the outer policy grants are refused with lines; what both grant works, with the program's status" {
	run --separate-stderr outer -l "$LOG" -- sh -c "$WRITE_EXEC"
	expect_write_exec "$HOME"
	expect_event file_write "$DATA/secret"
	expect_event file_execute /usr/bin/sleep
}

@test "nested (uid 65534): a write and an exec only the outer policy grants are refused with lines" {
	require_unprivileged
	run --separate-stderr run_unprivileged bash -c "$OUTER_SH" outer -- sh -c "$WRITE_EXEC"
	expect_write_exec "$(unprivileged_home)"
}

@test "nested: the inner policy's protected path (~/.ssh), which the outer grants by name, is refused and said to be protected" {
	MORE_RW=$HOME/.ssh run --separate-stderr outer -l "$LOG" -- sh -c \
		'"$FBAC_RUN" --as Text_Viewer -D "Text_Viewer.files=$HOME" sh -c "echo ssh-rsa evil >>\"\$HOME/.ssh/authorized_keys\" || echo refused"'
	expect_status 0
	[[ $output == refused ]] || { show_run; fail "the key was added"; }
	[[ $(cat "$HOME/.ssh/authorized_keys") == 'ssh-ed25519 AAAA the key' ]] || fail "authorized_keys changed"
	expect_nested_line file_append "$HOME/.ssh/authorized_keys"
	[[ $stderr == *"'$HOME/.ssh' is protected"* ]] || { show_run; fail "the line does not say it is protected"; }
	expect_event file_append "$HOME/.ssh/authorized_keys"
}

@test "nested: with mediated metadata, the nested policy decides the stat of a file only the outer policy lets it see" {
	# Basic_Runtime, not Version_Control_Client: metadata stays mediated
	# (a visible one lets the stat family through in the kernel); the
	# nested fbac-run must then be let see its layers' directories.
	run --separate-stderr "$FBAC_RUN" -l "$LOG" --as Basic_Runtime --as Run_Helper_Programs \
		-D "Run_Helper_Programs.programs=$FBAC_RUN" \
		--as Read_Only_Directory -D "Read_Only_Directory.dir=$FBAC_DATADIR,$FBAC_USER_DIR,$FBAC_ADMIN_DIR" \
		--as Read_Write_Directory -D "Read_Write_Directory.dir=$DATA" \
		sh -c "$INNER"' sh -c "[ -e \"\$HOME/data/secret\" ] && echo exists || echo hidden"'
	expect_status 0
	[[ $output == hidden ]] || { show_run; fail "the secret's metadata was seen"; }
	expect_nested_line file_getattr "$DATA/secret"
	expect_event file_getattr "$DATA/secret"
}

@test "nested: a daemon of the nested run (double fork, the program gone) is still under its policy" {
	run --separate-stderr outer -l "$LOG" -- sh -c "$INNER"' sh -c "
		( (sleep 1; echo hacked >\"\$HOME/data/secret\" && echo daemon-wrote || echo daemon-refused) & )
		exit 0"; echo "inner=$?"'
	expect_status 0
	# The nested fbac-run waits for it, as a supervised run does.
	[[ $output == $'daemon-refused\ninner=0' ]] || { show_run; fail "unexpected output"; }
	[[ $(cat "$DATA/secret") == 'the secret' ]] || fail "the secret was overwritten"
	expect_nested_line file_write "$DATA/secret"
}

# For the outer program's sh -c scripts: wait (up to 20 s) until the
# nested fbac-run started in the background as $inner has registered and
# started its program, which is then $child.
STARTED='for i in $(seq 200); do
		read -r child </proc/$inner/task/$inner/children
		[ -n "$child" ] && break
		sleep 0.1
	done'

@test "nested: kill -9 of the nested fbac-run leaves its processes under its policy (orphaned)" {
	mkfifo "$DATA/go"
	# The inner program leaves a subshell that waits for a line (from
	# the FIFO, its standard input); the nested fbac-run is killed, the
	# subshell is re-parented outside it, and its next call is decided by
	# the orphaned registration's policy (its seccomp filters outnumber
	# the nested fbac-run's).
	run --separate-stderr outer -l "$LOG" -- sh -c '
		exec 3<>"$HOME/data/go"
		'"$INNER"' sh -c "exec 4<&0; (read -r x <&4; echo hacked >\"\$HOME/data/secret\" && echo orphan-wrote || echo orphan-refused) & exit 0" <&3 &
		inner=$!
		'"$STARTED"'
		kill -9 "$inner"
		wait "$inner"; echo "inner=$?"
		# Another nested run: its registration forgets which processes
		# were found under which, so the subshell is looked up afresh.
		"$FBAC_RUN" -q --as Basic_Runtime true
		echo go >&3
		sleep 1'
	expect_status 0
	[[ $output == $'inner=137\norphan-refused' ]] || { show_run; fail "unexpected output"; }
	[[ $(cat "$DATA/secret") == 'the secret' ]] || fail "the secret was overwritten"
	expect_nested_line file_write "$DATA/secret"
}

@test "nested: once every process of a killed nested run is gone, its policy no longer narrows the next nested run" {
	run --separate-stderr outer -l "$LOG" -- sh -c '
		'"$INNER"' sleep 60 &
		inner=$!
		'"$STARTED"'
		kill -9 "$inner" $child
		wait
		"$FBAC_RUN" --as Basic_Runtime --as Read_Write_Directory -D "Read_Write_Directory.dir=$HOME/data" \
			sh -c "echo new >\"\$HOME/data/new\" && echo wrote"'
	expect_status 0
	[[ $output == wrote ]] || { show_run; fail "the next nested run was narrowed by the killed one's policy"; }
	[[ $stderr != *"a nested run's policy"* ]] || { show_run; fail "a denial by a nested run's policy"; }
}

@test "nested: past FBAC_MAX_NESTED (32) registrations a nested run falls back to its own layers, and says so; an orphaned registration goes with its last process" {
	# 32 nested runs hold their registrations; the next one is refused
	# (EUSERS), says so, and still runs under its Landlock layers.
	cat >"$DATA/many.sh" <<'EOF'
pids=
for i in $(seq 32); do
	"$FBAC_RUN" -q --as Basic_Runtime sleep 60 &
	pids="$pids $!"
done
for i in $(seq 120); do
	"$FBAC_RUN" --as Basic_Runtime true 2>"$HOME/data/err" && grep -q 'did not take' "$HOME/data/err" && break
	sleep 0.5
done
cat "$HOME/data/err" >&2
# One holder killed (-9) while its sleep lives: its registration is
# orphaned and kept; once the sleep is gone too, the next nested run
# takes its place.
set -- $pids
for i in $(seq 200); do
	read -r child </proc/$1/task/$1/children
	[ -n "$child" ] && break
	sleep 0.1
done
kill -9 "$1"
"$FBAC_RUN" --as Basic_Runtime true 2>"$HOME/data/err"
grep -q 'did not take' "$HOME/data/err" && echo orphan-kept
kill -9 $child
sleep 0.5
"$FBAC_RUN" --as Basic_Runtime true 2>"$HOME/data/err"
grep -q 'did not take' "$HOME/data/err" || echo orphan-retired
shift
# One at a time, again when a child's SIGCHLD interrupted the notified
# kill() (EINTR: dash would give up the rest of the list).
for p in "$@"; do kill "$p" 2>/dev/null || kill "$p" 2>/dev/null || :; done
wait
echo done
EOF
	run --separate-stderr outer -q -- sh "$DATA/many.sh"
	expect_status 0
	[[ $output == $'orphan-kept\norphan-retired\ndone' ]] || { show_run; fail "unexpected output"; }
	[[ $stderr == *"fbac-run: warning: nested run: the outer supervisor did not take this policy (Too many users): only its landlock layers and static filter narrow what '/usr/bin/true' does"* ]] ||
		{ show_run; fail "no line for the fallback"; }
}

@test "nested: a registration the supervisor refuses (not sealed, too big, not a stack, done without one), natively ENOTTY, and on a device the kernel's answer" {
	local prog=$FBAC_BUILD_DIR/tests/progs/nest-register
	[[ -x $prog ]] || fail "$prog is not built (make test-progs)"
	run -0 "$prog" unsealed big garbage done device
	[[ $output == $'unsealed ENOTTY\nbig ENOTTY\ngarbage ENOTTY\ndone ENOTTY\ndevice ENOTTY' ]] || { show_run; fail "not the memfd's own answer"; }
	# On a device the request is the kernel's, as without fbac-run.
	run -0 --separate-stderr "$FBAC_RUN" --as Basic_Runtime "$prog" unsealed big garbage done device
	[[ $output == $'unsealed EPERM\nbig EFBIG\ngarbage EBADMSG\ndone ENOENT\ndevice ENOTTY' ]] || { show_run; fail "not refused"; }
	[[ $stderr == *"fbac: denied syscall 'ioctl' for nest-register["*"]: a nested run's policy not registered: Operation not permitted (the memfd is not sealed); it adds its landlock layers only"* ]] ||
		{ show_run; fail "no line"; }
}

@test "nested: an exec the nested run's kernel rules will refuse (a file made after it started) is refused with its line, not a silent EACCES" {
	local tools=$DATA/tools
	mkdir -p "$tools"
	printf '%s\n' 'printf "#!/bin/sh\necho prog\n" >"$1" && chmod +x "$1"' \
		'"$1"; echo "rc=$?"' >"$tools/make-and-run.sh"
	# The outer policy runs anything in tools (a tree rule: a new file
	# too); the nested one names tools/prog, which does not exist when it
	# starts, so its kernel rules have no rule for it.
	run --separate-stderr "$FBAC_RUN" -l "$LOG" --as Version_Control_Client \
		--as Run_Helper_Programs -D "Run_Helper_Programs.programs=$FBAC_RUN" \
		--as Run_Programs_From -D "Run_Programs_From.dir=$tools" \
		--as Read_Only_Directory -D "Read_Only_Directory.dir=$FBAC_DATADIR" \
		--as Read_Write_Directory -D "Read_Write_Directory.dir=$DATA" \
		sh -c '"$FBAC_RUN" --as Basic_Runtime --as Spawn_Shell --as Run_Helper_Programs -D "Run_Helper_Programs.programs=$1,/usr/bin/chmod" --as Read_Write_Directory -D "Read_Write_Directory.dir=$2" sh "$2/make-and-run.sh" "$1"' \
		sh "$tools/prog" "$tools"
	expect_status 0
	[[ $output == *rc=126* ]] || { show_run; fail "it ran"; }
	[[ $stderr == *"fbac: denied file_execute '$tools/prog' for "*"a nested run's policy), but that nested run's kernel rules were made as it started, and this file was made or replaced since"* ]] ||
		{ show_run; fail "no line for the nested run's kernel refusal"; }
	[[ -x $tools/prog ]] || fail "prog was not made executable: $stderr"
	expect_event file_execute "$tools/prog"
	# What the nested fbac-run itself is refused (dpkg's lists, its
	# caches) it goes on without: logged, no line.
	[[ $stderr != *"for fbac-run["* ]] || { show_run; fail "a line for the nested fbac-run's own probes"; }
}
