#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The escape suite: real attacks on fbac-run, each a C program in
# tests/progs/escape-NAME.c (the protocol is in tests/progs/escape-common.h),
# run under `fbac-run -p tests/fixtures/escape/escape.yaml --as POLICY` as an
# unprivileged user (uid 65534 when the suite runs as root, see
# run_unprivileged in helpers.bash).
#
# Every test plants a random secret in ~/.ssh/id_rsa (a protected path: no
# rule of the test policies reaches it) and asserts that
#   - the attack ran: its START and END lines are there, and at least one
#     "CONTROL ok" line shows that the allowed counterpart of the attack was
#     served (an attack that could not start proves nothing);
#   - the attack was held: exit status 1 (0 means it succeeded, 2 that it
#     could not be set up, anything else that it died or hung);
#   - the secret appears nowhere in the output nor in any file the attacker
#     can write (~/work), and the secret file is unchanged;
#   - for the network attacks, the listener outside the sandbox received
#     nothing (tests/fixtures/escape/listener.py logs every datagram and
#     connection).
# Two policies (tests/fixtures/escape/escape.yaml):
#   Escape_Home   ~ is readable, so Landlock must allow ~/.ssh as well: only
#                 the supervisor keeps the secret out of reach;
#   Escape_Tight  ~ is not readable: Landlock alone already refuses ~/.ssh.
# The "real attack" tests run the same programs unconfined against the same
# (then unprotected) files and require them to succeed: the attacks are real.
#
# A failing "held" test is a vulnerability in fbac-run, not a flaky test:
# the attack's ESCAPE lines say what got through.
#
# Environment: ESC_SECONDS (default 2) bounds every race loop.

bats_require_minimum_version 1.5.0

load helpers

ESC_FIX=$REPO/tests/fixtures/escape
ESC_POLICY=$ESC_FIX/escape.yaml
PROGS=$FBAC_BUILD_DIR/tests/progs
export ESC_SECONDS=${ESC_SECONDS:-2}

# Every attack of the suite (tests/progs/escape-NAME.c).
ATTACKS=(
	race-open race-stat race-exec symlink-swap rename-swap
	proc-self proc-fd noncanonical openat2
	io-uring int80 x32 nested-listener
	supervisor ptrace-sibling vm-writev
	memfd-exec deleted-exec ldso
	abstract-unix named-unix udp tcp-fastopen sendmsg-race
	tiocsti signal-storm fifo-block chdir vfork-clonevm link-rename
)

# Attacks whose success is decided (also) by the listener's log.
NETWORK_ATTACKS=" abstract-unix named-unix udp tcp-fastopen sendmsg-race "

show() {
	printf 'status: %s\n--- output:\n%s\n---\n' "$status" "$output" >&2
}

# esc_prepare NAME: lay out HOME for attack NAME (see escape-common.h).
esc_prepare() {
	local name=$1 p
	for p in "escape-$name" escape-helper-marker; do
		[[ -x $PROGS/$p ]] ||
			fail "$PROGS/$p is not built (make test-progs)" || return 1
	done
	SECRET="fbac-secret-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
	mkdir -p "$HOME/.ssh" "$HOME/work/.a/.ssh" "$HOME/bin"
	chmod 700 "$HOME/.ssh"
	printf '%s\n' "$SECRET" >"$HOME/.ssh/id_rsa"
	chmod 600 "$HOME/.ssh/id_rsa"
	printf 'DECOY-not-a-secret\n' >"$HOME/work/.a/.ssh/id_rsa"
	printf 'RO-DATA\n' >"$HOME/bin/ro-data"
	cp "$PROGS/escape-helper-marker" "$HOME/bin/prog-A"
	cp "$PROGS/escape-helper-marker" "$HOME/bin/prog-D"
	cp "$PROGS/escape-helper-marker" "$HOME/work/noexec-prog"
	cp "$PROGS/escape-$name" "$HOME/bin/"
}

# The home the attack ran with (the staged copy when run as root).
attack_home() {
	if [[ $EUID -eq 0 ]]; then
		unprivileged_home
	else
		printf '%s\n' "$HOME"
	fi
}

# as_user CMD...: run CMD (under bats' run) as the unprivileged user.
as_user() {
	if [[ $EUID -eq 0 ]]; then
		run_unprivileged "$@"
	else
		"$@"
	fi
}

# The fbac-run command line for POLICY; paths into HOME, REPO and the build
# are mapped to the staged copies by run_unprivileged.
fbac_run_cmd() {
	printf '%s\0' "$FBAC_RUN" -p "$ESC_POLICY" --as "$1"
}

# ---------------------------------------------------------------- listener

start_listener() {
	local py ready i name
	py=$(command -v python3) || {
		skip_or_fail "python3 is needed for the listener outside the sandbox"
		return 1
	}
	NETDIR=$(mktemp -d /tmp/fbac-esc-net.XXXXXX)
	chmod 755 "$NETDIR"
	ESC_LOG=$NETDIR/log
	: >"$ESC_LOG"
	ready=$NETDIR/ready
	name=fbac-esc-$$-$RANDOM
	"$py" "$ESC_FIX/listener.py" --log "$ESC_LOG" --ready "$ready" \
		--seconds 120 udp:127.0.0.2 tcp:127.0.0.2 \
		"unix-stream:$NETDIR/stream.sock" "unix-dgram:$NETDIR/dgram.sock" \
		"abstract:$name" "abstract-dgram:$name-dgram" \
		</dev/null >"$NETDIR/listener.out" 2>&1 3>&- &
	LISTENER_PID=$!
	for ((i = 0; i < 100; i++)); do
		[[ -s $ready ]] && break
		sleep 0.05
	done
	[[ -s $ready ]] || fail "the listener did not start: $(cat "$NETDIR/listener.out")" ||
		return 1
	ESC_UDP_PORT=$(awk '$1 == "udp" { print $3 }' "$ready")
	ESC_TCP_PORT=$(awk '$1 == "tcp" { print $3 }' "$ready")
	export ESC_UDP_PORT ESC_TCP_PORT
	export ESC_UNIX_STREAM=$NETDIR/stream.sock ESC_UNIX_DGRAM=$NETDIR/dgram.sock
	export ESC_ABSTRACT=$name ESC_ABSTRACT_DGRAM=$name-dgram
}

stop_listener() {
	if [[ -n ${LISTENER_PID:-} ]]; then
		kill "$LISTENER_PID" 2>/dev/null || true
		wait "$LISTENER_PID" 2>/dev/null || true
		LISTENER_PID=
	fi
}

teardown() {
	stop_listener
	if [[ -n ${NETDIR:-} && $NETDIR == /tmp/fbac-esc-net.* ]]; then
		rm -rf -- "$NETDIR"
	fi
	fbac_teardown
}

# ---------------------------------------------------------------- running

# run_attack NAME POLICY|unconfined: run the attack; sets status and output.
run_attack() {
	local name=$1 policy=$2 prog
	local -a cmd=()
	esc_prepare "$name" || return 1
	if [[ $NETWORK_ATTACKS == *" $name "* ]]; then
		start_listener || return 1
	fi
	prog=$HOME/bin/escape-$name
	if [[ $policy != unconfined ]]; then
		mapfile -d '' cmd < <(fbac_run_cmd "$policy")
	fi
	if [[ $EUID -eq 0 ]]; then
		require_unprivileged
	fi
	if [[ $name == tiocsti ]]; then
		command -v script >/dev/null 2>&1 ||
			{ skip_or_fail "script (util-linux) is needed for a terminal"; return 1; }
		# The command is a string for script's shell: it names the
		# staged files through the variables run_unprivileged sets.
		local c='exec "$HOME/bin/escape-tiocsti"'
		[[ $policy == unconfined ]] ||
			c="exec \"\$FBAC_RUN\" -p \"\${FBAC_DATADIR%/profiles}/tests/fixtures/escape/escape.yaml\" --as $policy \"\$HOME/bin/escape-tiocsti\""
		run as_user timeout -k 5 60 script -qec "$c" /dev/null
	else
		run as_user timeout -k 5 60 "${cmd[@]}" "$prog"
	fi
	stop_listener
}

# The secret must not have left ~/.ssh: not in the output, not in any file
# the attacker could write, and the file itself unchanged.
assert_secret_kept() {
	local home work
	home=$(attack_home)
	[[ $output != *"$SECRET"* ]] ||
		{ show; fail "the secret appears in the output"; return 1; }
	for work in "$home/work" "$HOME/work"; do
		if grep -rqF -D skip -- "$SECRET" "$work" 2>/dev/null; then
			show
			fail "the secret was copied into $work: $(grep -rlF -D skip -- "$SECRET" "$work")"
			return 1
		fi
	done
	[[ $(cat "$home/.ssh/id_rsa") == "$SECRET" ]] ||
		{ show; fail "the secret file was changed"; return 1; }
	[[ $(stat -c %a "$home/.ssh/id_rsa") == 600 ]] ||
		{ show; fail "the secret's mode was changed to $(stat -c %a "$home/.ssh/id_rsa")"; return 1; }
}

# attack_held NAME POLICY: the attack ran, was held, and nothing leaked.
attack_held() {
	local name=$1 policy=$2
	run_attack "$name" "$policy" || return 1
	if [[ $output != *"ATTACK $name START"* ]]; then
		show
		fail "escape-$name did not start under fbac-run (status $status)"
		return 1
	fi
	case $status in
	1) ;;
	0)
		show
		fail "VULNERABLE: escape-$name succeeded under $policy: $(grep -a 'ESCAPE' <<<"$output" | head -n 5)"
		return 1
		;;
	2)
		show
		fail "escape-$name could not be set up under $policy (a broken test, not a pass)"
		return 1
		;;
	124 | 137)
		show
		fail "escape-$name did not finish within 60 s under $policy (the sandbox hangs)"
		return 1
		;;
	*)
		show
		fail "escape-$name ended with status $status under $policy"
		return 1
		;;
	esac
	[[ $output == *"ATTACK $name END: held"* ]] ||
		{ show; fail "no END line: the attack did not run to its end"; return 1; }
	[[ $output == *"CONTROL ok:"* ]] ||
		{ show; fail "no CONTROL line: the allowed counterpart never worked, so the attack proves nothing"; return 1; }
	[[ $output != *"ESCAPE:"* ]] ||
		{ show; fail "an ESCAPE line despite exit status 1"; return 1; }
	assert_secret_kept || return 1
	if [[ $NETWORK_ATTACKS == *" $name "* && -s $ESC_LOG ]]; then
		show
		fail "VULNERABLE: the listener outside the sandbox received: $(head -n 5 "$ESC_LOG")"
		return 1
	fi
	return 0
}

# attack_real NAME: unconfined, the same attack succeeds (it is real).
attack_real() {
	local name=$1
	run_attack "$name" unconfined || return 1
	[[ $status -eq 0 && $output == *"ESCAPE:"* ]] ||
		{ show; fail "escape-$name did not succeed unconfined: it tests nothing"; return 1; }
	if [[ $NETWORK_ATTACKS == *" $name "* && ! -s $ESC_LOG ]]; then
		show
		fail "unconfined, escape-$name reached nothing on the listener"
		return 1
	fi
	return 0
}

setup_file() {
	local out
	# The kernel features the policies need (Landlock ABI 6 for the
	# scopes); without them fbac-run refuses to run, and every test would
	# fail for a reason that is not an escape.
	[[ -x $FBAC_RUN ]] || return 0
	out=$(HOME=$BATS_FILE_TMPDIR FBAC_DATADIR=$REPO/profiles \
		"$FBAC_RUN" -p "$ESC_POLICY" --as Escape_Home --check /bin/true 2>&1 | tail -n 1)
	export ESC_LANDLOCK=$out
}

setup() {
	[[ -x $FBAC_RUN ]] || fail "$FBAC_RUN is not built (make)"
	if [[ ${ESC_LANDLOCK:-} == *missing* ]]; then
		skip_kernel_feature "this kernel cannot enforce the test policy: $ESC_LANDLOCK"
	fi
}

# ---------------------------------------------------------------- the suite

@test "escape suite: every attack program exists, is built and is run here (>= 26)" {
	local f name n=0 missing=
	for f in "$REPO"/tests/progs/escape-*.c; do
		name=${f##*/escape-}
		name=${name%.c}
		[[ $name == helper-* ]] && continue
		n=$((n + 1))
		[[ " ${ATTACKS[*]} " == *" $name "* ]] || missing+=" $name(not in ATTACKS)"
		[[ -x $PROGS/escape-$name ]] || missing+=" $name(not built)"
		grep -q "attack_held $name Escape_Home" "$BATS_TEST_FILENAME" ||
			missing+=" $name(no confined test)"
	done
	for name in "${ATTACKS[@]}"; do
		[[ -f $REPO/tests/progs/escape-$name.c ]] || missing+=" $name(no source)"
	done
	[[ -z $missing ]] || fail "not wired:$missing"
	[[ $n -ge 26 ]] || fail "only $n attacks"
	[[ ${#ATTACKS[@]} -eq $n ]] || fail "ATTACKS lists ${#ATTACKS[@]}, the tree has $n"
}

@test "escape suite: the test policies mean what the attacks assume" {
	local home=$HOME q
	export FBAC_USER_DIR=$ESC_FIX
	for pol in Escape_Home Escape_Tight; do
		for q in "file_read $home/.ssh/id_rsa" "file_getattr $home/.ssh/id_rsa" \
			"file_link $home/.ssh/id_rsa" "file_rename $home/.ssh/id_rsa" \
			"file_execute $home/bin/prog-D" "file_execute $home/work/noexec-prog" \
			"file_write $home/bin/ro-data" "unix_connect /tmp/x.sock" \
			"network_outgoing udp:127.0.0.2:4000" "network_outgoing tcp:127.0.0.2:4000"; do
			# shellcheck disable=SC2086 # two words: operation, object
			run "$FBAC" explain --as "$pol" $q
			[[ $status -eq 1 ]] || { show; fail "$pol allows $q"; }
		done
		for q in "file_read $home/work/.a/.ssh/id_rsa" "file_write $home/work/x" \
			"special_create $home/work/x" "unix_connect $home/work/x.sock" \
			"file_execute $home/bin/prog-A" "file_read $home/bin/prog-D" \
			"file_read $home/work/noexec-prog" \
			"file_execute /usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" \
			"network_outgoing udp:127.0.0.1:47811"; do
			# shellcheck disable=SC2086
			run "$FBAC" explain --as "$pol" $q
			[[ $status -eq 0 ]] || { show; fail "$pol denies $q"; }
		done
	done
	# Home reads the home directory (so Landlock cannot protect ~/.ssh);
	# Tight does not.
	run "$FBAC" explain --as Escape_Home file_read "$home/notes.txt"
	[[ $status -eq 0 ]] || { show; fail "Escape_Home does not read ~"; }
	run "$FBAC" explain --as Escape_Tight file_read "$home/notes.txt"
	[[ $status -eq 1 ]] || { show; fail "Escape_Tight reads ~"; }
}

# 1-3: path races on open, stat and exec.
@test "escape 1: path race on open/openat/openat2 (home)" { attack_held race-open Escape_Home; }
@test "escape 1: path race on open/openat/openat2 (tight)" { attack_held race-open Escape_Tight; }
@test "escape 2: path race on newfstatat/stat/statx/O_PATH (home)" { attack_held race-stat Escape_Home; }
@test "escape 2: path race on newfstatat/stat/statx/O_PATH (tight)" { attack_held race-stat Escape_Tight; }
@test "escape 3: path race on execve/execveat into a denied program (home)" { attack_held race-exec Escape_Home; }
@test "escape 3: path race on execve/execveat into a denied program (tight)" { attack_held race-exec Escape_Tight; }

# 4-5: file-system swaps.
@test "escape 4: symlink swap race (home)" { attack_held symlink-swap Escape_Home; }
@test "escape 4: symlink swap race (tight)" { attack_held symlink-swap Escape_Tight; }
@test "escape 5: rename swap race (home)" { attack_held rename-swap Escape_Home; }
@test "escape 5: rename swap race (tight)" { attack_held rename-swap Escape_Tight; }

# 6-9: names.
@test "escape 6: /proc/self/root, /proc/self/cwd and spellings of self (home)" { attack_held proc-self Escape_Home; }
@test "escape 6: /proc/self/root, /proc/self/cwd and spellings of self (tight)" { attack_held proc-self Escape_Tight; }
@test "escape 7: /proc/PID/fd magic links and the supervisor's /proc (home)" { attack_held proc-fd Escape_Home; }
@test "escape 7: /proc/PID/fd magic links and the supervisor's /proc (tight)" { attack_held proc-fd Escape_Tight; }
@test "escape 8: non-canonical spellings of the secret's path (home)" { attack_held noncanonical Escape_Home; }
@test "escape 8: non-canonical spellings of the secret's path (tight)" { attack_held noncanonical Escape_Tight; }
@test "escape 9: openat2 struct abuse and O_ACCMODE opens (home)" { attack_held openat2 Escape_Home; }
@test "escape 9: openat2 struct abuse and O_ACCMODE opens (tight)" { attack_held openat2 Escape_Tight; }

# 10-13: around the filter.
@test "escape 10: io_uring OPENAT of the secret (home)" { attack_held io-uring Escape_Home; }
@test "escape 11: i386 int 0x80 open of the secret (home)" { attack_held int80 Escape_Home; }
@test "escape 12: x32 system call numbers (home)" { attack_held x32 Escape_Home; }
@test "escape 13: a nested seccomp listener answering its own opens (home)" { attack_held nested-listener Escape_Home; }

# 14-16: other processes.
@test "escape 14: signal, trace, read or rob the supervisor (home)" { attack_held supervisor Escape_Home; }
@test "escape 15: ptrace a sibling to rewrite its path (home)" { attack_held ptrace-sibling Escape_Home; }
@test "escape 16: process_vm_writev and shared memory under a sibling's open (home)" { attack_held vm-writev Escape_Home; }

# 17-19: running what may not be run.
@test "escape 17: memfd_create + fexecve, and a descriptor race (home)" { attack_held memfd-exec Escape_Home; }
@test "escape 17: memfd_create + fexecve, and a descriptor race (tight)" { attack_held memfd-exec Escape_Tight; }
@test "escape 18: exec of deleted and denied files by descriptor (home)" { attack_held deleted-exec Escape_Home; }
@test "escape 18: exec of deleted and denied files by descriptor (tight)" { attack_held deleted-exec Escape_Tight; }
# Expectation (see escape-ldso.c): ~/work/noexec-prog may be read but not
# run (no execute in ~/work: Landlock), ~/bin/prog-D likewise (a denied
# carve-out: the supervisor). `ld.so PROGRAM` maps PROGRAM without an
# execute check, so only a supervisor that refuses to run the loader as a
# program can stop it. If this test fails, fbac-run does not.
@test "escape 19: the ld.so trick on non-executable programs (home)" { attack_held ldso Escape_Home; }
@test "escape 19: the ld.so trick on non-executable programs (tight)" { attack_held ldso Escape_Tight; }

# 20-22: sockets.
@test "escape 20: abstract unix sockets of a server outside (home)" { attack_held abstract-unix Escape_Home; }
@test "escape 21: named unix sockets outside the allowed tree (home)" { attack_held named-unix Escape_Home; }
@test "escape 21: named unix sockets outside the allowed tree (tight)" { attack_held named-unix Escape_Tight; }
@test "escape 22: UDP sendto/sendmsg/sendmmsg to a denied host (home)" { attack_held udp Escape_Home; }
@test "escape 22: TCP fast open and TCP_FASTOPEN_CONNECT to a denied port (home)" { attack_held tcp-fastopen Escape_Home; }
@test "escape 22: sendmsg on a descriptor swapped between stream and datagram (home)" { attack_held sendmsg-race Escape_Home; }

# 23-25: the terminal, signals, blocking.
@test "escape 23: TIOCSTI into the controlling terminal (home)" { attack_held tiocsti Escape_Home; }
@test "escape 24: a signal storm during supervised calls (home)" { attack_held signal-storm Escape_Home; }
@test "escape 24: a signal storm during supervised calls (tight)" { attack_held signal-storm Escape_Tight; }
@test "escape 25: FIFO, lease and full-queue calls that block the supervisor (home)" { attack_held fifo-block Escape_Home; }

# 26-28.
@test "escape 26: chdir race into ~/.ssh, then relative opens (home)" { attack_held chdir Escape_Home; }
@test "escape 26: chdir race into ~/.ssh, then relative opens (tight)" { attack_held chdir Escape_Tight; }
@test "escape 27: vfork and CLONE_VM writers under open and execve (home)" { attack_held vfork-clonevm Escape_Home; }
@test "escape 27: vfork and CLONE_VM writers under open and execve (tight)" { attack_held vfork-clonevm Escape_Tight; }
@test "escape 28: hard link or rename the secret into the work directory (home)" { attack_held link-rename Escape_Home; }
@test "escape 28: hard link or rename the secret into the work directory (tight)" { attack_held link-rename Escape_Tight; }

# ---------------------------------------------------------------- visible metadata
#
# Escape_Visible is Escape_Home with `metadata: visible`: the kernel
# answers stat, access and readlink for any path, and chdir and O_PATH are
# allowed anywhere (fbac-profile(5), METADATA). That is all it may give
# away: every attack below wants content, a forbidden exec or a way out,
# and must be held as under Escape_Home. (race-stat, noncanonical, openat2
# and chdir count a stat, an access or an O_PATH descriptor of the secret
# as an escape: under visible that is the stated trade-off, not run here.)
@test "escape suite: Escape_Visible gives metadata away, nothing else" {
	local home=$HOME q
	export FBAC_USER_DIR=$ESC_FIX
	run "$FBAC" explain --as Escape_Visible file_getattr "$home/.ssh/id_rsa"
	[[ $status -eq 0 && $output == *"metadata is visible"* ]] || { show; fail "Escape_Visible hides metadata"; }
	for q in "file_read $home/.ssh/id_rsa" "dir_read $home/.ssh" "file_link $home/.ssh/id_rsa" \
		"file_rename $home/.ssh/id_rsa" "file_execute $home/bin/prog-D" \
		"file_execute $home/work/noexec-prog" "file_write $home/bin/ro-data"; do
		# shellcheck disable=SC2086 # two words: operation, object
		run "$FBAC" explain --as Escape_Visible $q
		[[ $status -eq 1 ]] || { show; fail "Escape_Visible allows $q"; }
	done
}
@test "escape 1: path race on open/openat/openat2 (visible)" { attack_held race-open Escape_Visible; }
@test "escape 3: path race on execve/execveat into a denied program (visible)" { attack_held race-exec Escape_Visible; }
@test "escape 4: symlink swap race (visible)" { attack_held symlink-swap Escape_Visible; }
@test "escape 5: rename swap race (visible)" { attack_held rename-swap Escape_Visible; }
@test "escape 6: /proc/self/root, /proc/self/cwd and spellings of self (visible)" { attack_held proc-self Escape_Visible; }
@test "escape 7: /proc/PID/fd magic links and the supervisor's /proc (visible)" { attack_held proc-fd Escape_Visible; }
@test "escape 11: i386 int 0x80 open of the secret (visible)" { attack_held int80 Escape_Visible; }
@test "escape 12: x32 system call numbers (visible)" { attack_held x32 Escape_Visible; }
@test "escape 14: signal, trace, read or rob the supervisor (visible)" { attack_held supervisor Escape_Visible; }
@test "escape 17: memfd_create + fexecve, and a descriptor race (visible)" { attack_held memfd-exec Escape_Visible; }
@test "escape 18: exec of deleted and denied files by descriptor (visible)" { attack_held deleted-exec Escape_Visible; }
@test "escape 19: the ld.so trick on non-executable programs (visible)" { attack_held ldso Escape_Visible; }
@test "escape 28: hard link or rename the secret into the work directory (visible)" { attack_held link-rename Escape_Visible; }

# ---------------------------------------------------------------- the attacks are real
#
# Unconfined, against the same files, each attack must succeed. Not run
# here, because there is nothing to show without a sandbox: x32 (the
# kernel has no x32 entry: ENOSYS either way), supervisor (there is none
# to attack), fifo-block (no supervisor to stall).

@test "real attack: race-open" { attack_real race-open; }
@test "real attack: race-stat" { attack_real race-stat; }
@test "real attack: race-exec" { attack_real race-exec; }
@test "real attack: symlink-swap" { attack_real symlink-swap; }
@test "real attack: rename-swap" { attack_real rename-swap; }
@test "real attack: proc-self" { attack_real proc-self; }
@test "real attack: proc-fd" { attack_real proc-fd; }
@test "real attack: noncanonical" { attack_real noncanonical; }
@test "real attack: openat2" { attack_real openat2; }
@test "real attack: io-uring" {
	[[ $(cat /proc/sys/kernel/io_uring_disabled 2>/dev/null || echo 0) == 0 ]] ||
		skip_kernel_feature "io_uring is disabled on this kernel (kernel.io_uring_disabled)"
	attack_real io-uring
}
@test "real attack: int80" {
	run_attack int80 unconfined
	if [[ $output == *"killed by signal"* || $output == *"getpid returned -"* ]]; then
		skip_kernel_feature "this kernel has no i386 entry (IA32 emulation) for a 64-bit program"
	fi
	[[ $status -eq 0 && $output == *"ESCAPE:"* ]] || { show; fail "int80 did not succeed unconfined"; }
}
@test "real attack: nested-listener" { attack_real nested-listener; }
@test "real attack: ptrace-sibling" { attack_real ptrace-sibling; }
@test "real attack: vm-writev" { attack_real vm-writev; }
@test "real attack: memfd-exec" { attack_real memfd-exec; }
@test "real attack: deleted-exec" { attack_real deleted-exec; }
@test "real attack: ldso" { attack_real ldso; }
@test "real attack: abstract-unix" { attack_real abstract-unix; }
@test "real attack: named-unix" { attack_real named-unix; }
@test "real attack: udp" { attack_real udp; }
@test "real attack: tcp-fastopen" { attack_real tcp-fastopen; }
@test "real attack: sendmsg-race" { attack_real sendmsg-race; }
@test "real attack: tiocsti" {
	[[ $(cat /proc/sys/dev/tty/legacy_tiocsti 2>/dev/null || echo 1) == 1 ]] ||
		skip_kernel_feature "TIOCSTI is disabled for everyone on this kernel (dev.tty.legacy_tiocsti=0)"
	attack_real tiocsti
}
@test "real attack: signal-storm" { attack_real signal-storm; }
@test "real attack: chdir" { attack_real chdir; }
@test "real attack: vfork-clonevm" { attack_real vfork-clonevm; }
@test "real attack: link-rename" { attack_real link-rename; }
