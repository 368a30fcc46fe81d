#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# No refusal that fbac causes is silent, and a denial says the way
# forward: every EACCES/EPERM that fbac-run causes comes with a denial line
# (or its reason) and an event, whichever part refused (the supervisor, the
# kernel's Landlock rules, exec, start-up); the line names what would grant
# it (with the -D to use for a port, host or folder), or the user's own rule
# or the protected path that refuses it; and the terminal is not drawn over.
# Real programs (curl, dash, vim), real loopback servers, the shipped
# library.

# shellcheck disable=SC2154 # bats sets output, stderr, lines, stderr_lines
# shellcheck disable=SC2016 # $... in single quotes is for the sandboxed shell

bats_require_minimum_version 1.5.0

load helpers

setup_file() {
	[[ -x $FBAC_RUN ]] || return 0
	# Whether this kernel can enforce the shipped policies.
	"$FBAC_RUN" --check curl >"$BATS_FILE_TMPDIR/check" 2>&1 || true
}

setup() {
	[[ -x $FBAC_RUN ]] || fail "no $FBAC_RUN: run make"
	if grep -q '; missing:' "$BATS_FILE_TMPDIR/check"; then
		skip_kernel_feature "this kernel's Landlock cannot enforce the shipped policies: $(tail -n1 "$BATS_FILE_TMPDIR/check")"
	fi
	LOG=$BATS_TEST_TMPDIR/events.jsonl
	BG_PIDS=$BATS_TEST_TMPDIR/bg.pids
	: >"$BG_PIDS"
	cd "$HOME" || return 1
}

teardown() {
	kill_tracked
	fbac_teardown
	[[ -z ${DAC-} ]] || rm -rf -- "$DAC"
}

# serve_http DIR: a loopback HTTP server on a free port for DIR, outside
# the sandbox; sets PORT.
serve_http() {
	local portfile=$BATS_TEST_TMPDIR/port
	rm -f "$portfile"
	python3 -c '
import http.server, socketserver, sys, os, functools
os.chdir(sys.argv[1])
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
h.log_message = lambda *a: None
s = socketserver.TCPServer(("127.0.0.1", 0), h)
open(sys.argv[2] + ".tmp", "w").write(str(s.server_address[1]))
os.rename(sys.argv[2] + ".tmp", sys.argv[2])
s.serve_forever()' "$1" "$portfile" >/dev/null 2>&1 &
	track $!
	local i
	for i in $(seq 100); do
		[[ -s $portfile ]] && break
		sleep 0.05
	done
	PORT=$(cat "$portfile") || fail "the test server did not start"
}

# ---- item 3: refusals at exec and start-up ----

@test "a program --as cannot start: the loader's denial, an event, and what grants it" {
	need_commands curl
	run --separate-stderr "$FBAC_RUN" --log "$LOG" --as HTTP_Client curl -sS http://127.0.0.1:1/
	expect_status 126
	[[ $stderr == *"fbac: denied file_execute '"*"ld-linux"*"' (the loader of '/usr/bin/curl') for "*": not granted by --as (layer command line); granted by Read_Shared_Libraries"* ]] || { show_run; fail "no denial line for the loader"; }
	[[ $stderr == *"cannot run '/usr/bin/curl': the --as functionalities do not grant running it (denied above): add --as Basic_Runtime"* ]] || { show_run; fail "no way forward"; }
	[[ $stderr != *"Permission denied"* ]] || { show_run; fail "the bare errno is back"; }
	grep -q '"operation": "file_execute".*"decision": "deny".*"about": "the loader of' "$LOG" || { cat "$LOG"; fail "no event"; }
	# Basic_Runtime is what it lacked.
	run --separate-stderr "$FBAC_RUN" --as HTTP_Client --as Basic_Runtime curl -sS http://127.0.0.1:1/
	[[ $stderr != *"file_execute"* ]] || { show_run; fail "still refused"; }
}

@test "a script named to --as starts its own interpreter, also unprivileged" {
	require_unprivileged
	printf '#!/bin/sh\necho ran\n' >"$HOME/hello.sh"
	chmod 0755 "$HOME/hello.sh"
	# As typed: the script named may start the interpreter of its '#!'
	# (an interpreter that a script run in turn names is decided, next).
	run --separate-stderr run_unprivileged "$FBAC_RUN" -q --as Basic_Runtime "$HOME/hello.sh"
	expect_status 0
	[[ $output == ran && -z $stderr ]] || { show_run; fail "the script named did not run cleanly"; }
}

@test "an exec inside the sandbox whose interpreter is not granted: a line and an event, not a bare EACCES" {
	need_commands perl
	mkdir -p "$HOME/bin"
	printf '#!/usr/bin/perl\nprint "ran\\n";\n' >"$HOME/bin/p.pl"
	chmod 0755 "$HOME/bin/p.pl"
	# The shell may run what is in ~/bin, not perl: the kernel would
	# refuse perl unseen.
	run --separate-stderr "$FBAC_RUN" --log "$LOG" --as Spawn_Shell --as Basic_Runtime \
		--as Run_Programs_From -D Run_Programs_From.dir="$HOME/bin" \
		sh -c '"$1"; echo "rc=$?"' sh "$HOME/bin/p.pl"
	expect_status 0
	[[ $output == *rc=126* && $output != *ran* ]] || { show_run; fail "perl ran or the error changed"; }
	[[ $stderr == *"denied file_execute '/usr/bin/perl' (the interpreter of '$HOME/bin/p.pl') for "* ]] || { show_run; fail "no denial line"; }
	grep -q '"object": "/usr/bin/perl", "decision": "deny".*"about": "the interpreter of ' "$LOG" || { cat "$LOG"; fail "no event"; }
}

# watch NAME COMMAND...: run COMMAND unconfined and under its shipped
# policy, each under strace -f; every EACCES/EPERM only the confined run
# saw must have its event in the log (tests/denial-watch.py).
watch() {
	local name=$1 d=$BATS_TEST_TMPDIR/watch
	shift
	mkdir -p "$d"
	local trace=(strace -f -Z -qq -e 'trace=%file,%network,%process,ioctl,ftruncate,kill,tgkill,ptrace,keyctl,bpf,quotactl,perf_event_open,unshare')
	"${trace[@]}" -o "$d/$name.plain" "$@" </dev/null >/dev/null 2>&1 || true
	"${trace[@]}" -o "$d/$name.confined" "$FBAC_RUN" -q --log "$d/$name.jsonl" "$@" </dev/null >/dev/null 2>&1 || true
	[[ -s $d/$name.confined ]] || fail "$name: no trace"
	python3 "$REPO/tests/denial-watch.py" "$d/$name.plain" "$d/$name.confined" "$d/$name.jsonl" "$PWD" \
		>"$d/$name.out" || { echo "--- $name:"; cat "$d/$name.out"; return 1; }
}

@test "watcher: every EACCES/EPERM real programs see only confined comes with an event" {
	need_commands strace curl wget git jq file perl python3 tar gzip sqlite3 make less xz vim.basic ssh
	mkdir -p "$HOME/Downloads" "$HOME/Documents" "$HOME/src/p" "$HOME/.ssh" "$HOME/www"
	echo '{"a": 1}' >"$HOME/Documents/a.json"
	echo page >"$HOME/www/index.html"
	echo key >"$HOME/.ssh/id_rsa"
	printf 'all:\n\techo built\n' >"$HOME/src/p/Makefile"
	git -C "$HOME/src/p" init -q
	serve_http "$HOME/www"
	local bad=0
	# Working runs, and runs refused on purpose (a port, a secret).
	watch curl curl -sS -o "$HOME/Downloads/p.html" "http://127.0.0.1:$PORT/" || bad=1
	watch curl-port curl -sS "http://127.0.0.1:$PORT/" || bad=1
	watch wget wget -q --tries=1 -O "$HOME/Downloads/w.html" "http://127.0.0.1:$PORT/" || bad=1
	watch git git -C "$HOME/src/p" status || bad=1
	watch jq jq . "$HOME/Documents/a.json" /dev/null || bad=1
	watch jq-key jq . "$HOME/.ssh/id_rsa" || bad=1
	watch file file "$HOME/Documents/a.json" /etc/passwd || bad=1
	watch perl perl -e 'open(F, "<", "$ENV{HOME}/.ssh/id_rsa"); print "x"' || bad=1
	watch python3 python3 -c 'import os; os.listdir(os.path.expanduser("~/Documents"))' || bad=1
	watch tar tar czf "$HOME/Documents/a.tgz" -C "$HOME/Documents" a.json || bad=1
	watch gzip gzip -kf "$HOME/Documents/a.json" || bad=1
	watch sqlite3 sqlite3 "$HOME/Documents/d.db" 'create table t(x); select 1' || bad=1
	watch make make -C "$HOME/src/p" || bad=1
	watch less less "$HOME/Documents/a.json" || bad=1
	watch xz xz -kf "$HOME/Documents/a.json" || bad=1
	watch vim vim.basic -es -c q "$HOME/Documents/a.json" || bad=1
	# From a working directory its policy does not grant: vim opens "."
	# to come back to it, which is logged without a line.
	(cd /var/lib && watch vim-cwd vim.basic -es -c q "$HOME/Documents/a.json") || bad=1
	grep -q "^ok .*openat('.')" "$BATS_TEST_TMPDIR/watch/vim-cwd.out" || fail "vim's probe of its working directory was not seen" || bad=1
	watch ssh ssh -o BatchMode=yes -p 1 127.0.0.1 true || bad=1
	# A call refused to every program, by its name.
	watch perl-keyctl perl -e 'syscall(250, 0, 0, 0, 0)' || bad=1
	[[ $bad -eq 0 ]] || fail "silent refusals (above)"
	# The watcher does see refusals: the port and the key were refused.
	grep -q '^ok .*connect' "$BATS_TEST_TMPDIR/watch/curl-port.out" || fail "the watcher saw no refused connect"
	grep -q "^ok .*id_rsa" "$BATS_TEST_TMPDIR/watch/jq-key.out" || fail "the watcher saw no refused key"
	grep -q '^ok .*connect' "$BATS_TEST_TMPDIR/watch/ssh.out" || fail "the watcher saw no refused ssh connect"
	grep -q "^ok .*keyctl('syscall:keyctl')" "$BATS_TEST_TMPDIR/watch/perl-keyctl.out" || fail "the watcher saw no refused keyctl"
}

# ---- item 3: refusals that no path rule decides ----

# x86_64 numbers for perl's syscall().
need_x86_64() {
	[[ $(uname -m) == x86_64 ]] || skip "the system call numbers below are x86_64's"
}

@test "a call refused to every program (ptrace, keyctl): a line and an event, in every mode, also unprivileged" {
	need_commands perl
	need_x86_64
	local prog='for (101, 250) { my $r = syscall($_, 0, 0, 0, 0); print "$_:$r:", $! + 0, "\n" }'
	run --separate-stderr "$FBAC_RUN" --log "$LOG" --as Basic_Runtime perl -e "$prog"
	expect_status 0
	[[ $output == *"101:-1:1"*"250:-1:1"* ]] || { show_run; fail "not EPERM"; }
	[[ $stderr == *"fbac: denied syscall 'ptrace' for perl["*"]: refused to every confined program: it would reach into another process"* ]] || { show_run; fail "no line for ptrace"; }
	[[ $stderr == *"fbac: denied syscall 'keyctl' for perl["*"]: refused to every confined program: the kernel's keyrings"* ]] || { show_run; fail "no line for keyctl"; }
	grep -q '"syscall": "ptrace", "operation": "syscall", "object": "ptrace", "decision": "deny"' "$LOG" || { cat "$LOG"; fail "no event"; }
	# The filter refuses it in complain mode too: said as a denial.
	run --separate-stderr "$FBAC_RUN" -m complain --as Basic_Runtime perl -e "$prog"
	[[ $output == *"101:-1:1"* && $stderr == *"fbac: denied syscall 'ptrace'"* ]] || { show_run; fail "complain mode"; }
	# -q: no line, the event in the user's log; fbac log shows it.
	run --separate-stderr "$FBAC_RUN" -q --as Basic_Runtime perl -e "$prog"
	[[ -z $stderr ]] || { show_run; fail "a line with -q"; }
	run "$FBAC" log --program perl
	[[ $output == *"denied syscall 'keyctl' for perl["*"refused to every confined program"* ]] || { show_run; fail "not in fbac log"; }
	run "$FBAC" log --operation syscall
	expect_status 0
	[[ $output == *"denied syscall 'ptrace'"* && $output != *file_* ]] || { show_run; fail "fbac log --operation syscall"; }
	# --learn reads its log back: the refusal is fbac-run's own, not a
	# grant to propose.
	run --separate-stderr "$FBAC_RUN" --learn -o "$BATS_TEST_TMPDIR/perl.yaml" --as Basic_Runtime perl -e "$prog"
	expect_status 0
	[[ $stderr != *"unknown operation"* ]] || { show_run; fail "--learn cannot read its log"; }
	require_unprivileged
	run --separate-stderr run_unprivileged "$FBAC_RUN" --as Basic_Runtime perl -e "$prog"
	[[ $output == *"101:-1:1"* && $stderr == *"fbac: denied syscall 'ptrace' for perl["* ]] || { show_run; fail "unprivileged"; }
}

@test "TIOCSTI has its line; the probes programs go on without (io_uring_setup, quotactl) only their events" {
	need_commands perl
	need_x86_64
	# ioctl(2, TIOCSTI, "x"); io_uring_setup(8, params); quotactl(0, ...),
	# which Firefox asks for free space.
	run --separate-stderr "$FBAC_RUN" --log "$LOG" --as Basic_Runtime perl -e '
		my $c = "x"; my $r = syscall(16, 2, 0x5412, $c); print "sti:$r:", $! + 0, "\n";
		my $p = "\0" x 120; $r = syscall(425, 8, $p); print "uring:$r:", $! + 0, "\n";
		$r = syscall(179, 0, 0, 0, 0); print "quota:$r:", $! + 0, "\n";'
	expect_status 0
	[[ $output == *"sti:-1:1"*"uring:-1:38"*"quota:-1:1"* ]] || { show_run; fail "errnos"; }
	[[ $stderr == *"fbac: denied syscall 'ioctl' for perl["*"typing into the terminal (TIOCSTI, TIOCLINUX)"* ]] || { show_run; fail "no TIOCSTI line"; }
	[[ $stderr != *io_uring* && $stderr != *quotactl* ]] || { show_run; fail "a line for a probe"; }
	grep -q '"object": "io_uring_setup", "decision": "deny"' "$LOG" || { cat "$LOG"; fail "no io_uring event"; }
	grep -q '"object": "quotactl", "decision": "deny"' "$LOG" || { cat "$LOG"; fail "no quotactl event"; }
}

@test "a system call of another architecture: the program is killed, and fbac-run says why, with an event" {
	need_commands perl
	need_x86_64
	# An x32 getpid (0x40000000 + 39): the filter kills it.
	run --separate-stderr "$FBAC_RUN" --log "$LOG" --as Basic_Runtime perl -e 'syscall(0x40000000 + 39)'
	expect_status 159
	[[ $stderr == *"fbac: perl["*"] was killed by SIGSYS: fbac's seccomp filter kills a system call of another architecture"* ]] || { show_run; fail "no line"; }
	grep -q '"object": "another architecture", "decision": "deny"' "$LOG" || { cat "$LOG"; fail "no event"; }
}

@test "nested run: a call refused to every program has the outer supervisor's line, not the inner filter's bare EPERM" {
	need_commands perl
	need_x86_64
	local inner='my $r = syscall(101, 0, 0, 0, 0); print "r=$r:", $! + 0, "\n"'
	# The outer program may run this build's fbac-run and perl, and
	# read the library (as in wrap.bats).
	run --separate-stderr "$FBAC_RUN" --as Version_Control_Client --as Run_Helper_Programs \
		-D "Run_Helper_Programs.programs=$FBAC_RUN,/usr/bin/perl" \
		--as Read_Only_Directory -D "Read_Only_Directory.dir=$REPO/profiles" \
		sh -c '"$1" -v --no-infer --as Basic_Runtime perl -e "$2"' sh "$FBAC_RUN" "$inner"
	expect_status 0
	[[ $stderr == *"fbac: nested run: '/usr/bin/perl' starts under another supervisor"* ]] || { show_run; fail "not nested"; }
	[[ $output == "r=-1:1" ]] || { show_run; fail "not refused with EPERM"; }
	[[ $stderr == *"fbac: denied syscall 'ptrace' for perl["*"refused to every confined program"* ]] || { show_run; fail "no line"; }
	[[ $stderr != *"'seccomp'"* ]] || { show_run; fail "a line for the nested probe"; }
}

@test "a signal to a process outside the sandbox, which Landlock's scope refuses: the policy's line and event; inside, none" {
	need_commands perl
	sleep 60 &
	local outside=$!
	track "$outside"
	run --separate-stderr "$FBAC_RUN" --log "$LOG" --as Basic_Runtime perl -e '
		print "out:", kill("TERM", $ARGV[0]), ":", $! + 0, "\n";
		my $p = fork(); if (!$p) { sleep 5; exit 0 }
		print "child:", kill("TERM", $p), "\n"; waitpid($p, 0);
		print "self:", kill(0, $$), "\n"' "$outside"
	expect_status 0
	[[ $output == *"out:0:1"*"child:1"*"self:1"* ]] || { show_run; fail "not the kernel's answers"; }
	[[ $stderr == *"fbac: denied ipc_signal 'signal' (signal 15 to pid $outside, outside the sandbox) for perl["*"]: not granted by --as (layer command line)"* ]] || { show_run; fail "no line"; }
	[[ $(grep -c '"operation": "ipc_signal"' "$LOG") == 1 ]] || { cat "$LOG"; fail "not one event"; }
	kill -0 "$outside" || fail "the process outside was signalled"
}

# user_policy NAME EXE PRIVILEGES-YAML: an application policy in the
# user's layer with Basic_Runtime and the given privileges.
user_policy() {
	{
		printf 'fbac: 1\napplication: %s\nexecutables: [%s]\n' "$1" "$2"
		printf 'functionalities: [Basic_Runtime%s]\nprivileges:\n%s\n' "${4:+, $4}" "$3"
	} >"$FBAC_USER_DIR/$1.yaml"
}

@test "ftruncate of a file the policy may write but not truncate: the kernel's refusal has its line and event" {
	need_commands perl
	mkdir -p "$HOME/data"
	echo hello >"$HOME/data/f.txt"
	echo hello >"$HOME/data/g.txt"
	user_policy perl /usr/bin/perl '  - access: [file_read, file_write, file_getattr]
    paths: ["~/data/f.txt"]
  - access: [file_read, file_write, file_truncate, file_getattr]
    paths: ["~/data/g.txt"]'
	local prog='for my $f (@ARGV) { open(F, "+<", $f) or die "open: $!"; print truncate(F, 2) ? "ok\n" : "refused: " . ($! + 0) . "\n"; close F }'
	run --separate-stderr "$FBAC_RUN" --log "$LOG" perl -e "$prog" "$HOME/data/f.txt" "$HOME/data/g.txt"
	expect_status 0
	[[ ${lines[0]} == "refused: 13" && ${lines[1]} == ok ]] || { show_run; fail "not the kernel's answers"; }
	[[ $(cat "$HOME/data/f.txt") == hello && $(cat "$HOME/data/g.txt") == he ]] || fail "the files"
	[[ $stderr == *"fbac: denied file_truncate '$HOME/data/f.txt' for perl["*"]: not granted by perl (layer user)"* ]] || { show_run; fail "no line"; }
	grep -q "\"syscall\": \"ftruncate\", \"operation\": \"file_truncate\", \"object\": \"$HOME/data/f.txt\", \"decision\": \"deny\"" "$LOG" || { cat "$LOG"; fail "no event"; }
	# A memory file is no path's: truncated as before.
	[[ $(uname -m) == x86_64 ]] || return 0
	run --separate-stderr "$FBAC_RUN" perl -e 'my $n = "m"; my $fd = syscall(319, $n, 0); open(my $m, "+<&=", $fd) or die "$fd: $!"; print truncate($m, 4096) ? "ok\n" : "no: $!\n"'
	[[ $output == ok && -z $stderr ]] || { show_run; fail "a memory file"; }
}

# A device ioctl in perl by raw system calls (no isatty of PerlIO's):
# open(2) each device named, then ioctl(fd, REQUEST)
# (a buffer of 64 bytes) prints NAME:RESULT:ERRNO.
IOCTL_PROG='my $req = shift; for my $d (@ARGV) { my $fd = syscall(2, $d, 0); if ($fd < 0) { print "$d:open:", $! + 0, "\n"; next } my $b = "\0" x 64; my $r = syscall(16, $fd, hex($req), $b); print "$d:$r:", ($r < 0 ? $! + 0 : 0), "\n" }'

@test "a device opened without file_ioctl: the policy's line and event at the open, its ioctls Landlock's EACCES, unseen, also unprivileged" {
	need_commands perl
	need_x86_64
	# RNDGETENTCNT on /dev/urandom, which perl's policy lets it open, not
	# ioctl; on /dev/zero, granted, it gets the device's ENOTTY. Landlock
	# fixes a device's ioctl right when it is opened: the refusal is told
	# there, once, and the ioctls run in the kernel, unnotified.
	local devices='  - access: [file_read, file_getattr]
    paths: [/dev/urandom]
  - access: [file_read, file_getattr, file_ioctl]
    paths: [/dev/zero, /dev/null]'
	local line="fbac: denied file_ioctl '/dev/urandom' (its device ioctls) for perl["
	printf 'fbac: 1\napplication: perl\nexecutables: [/usr/bin/perl]\nfunctionalities: [Read_Shared_Libraries, Locale_Data, Proc_Self]\nprivileges:\n%s\n' "$devices" >"$FBAC_USER_DIR/perl.yaml"
	run --separate-stderr "$FBAC_RUN" --log "$LOG" perl -e "$IOCTL_PROG" 0x80045200 /dev/urandom /dev/zero
	expect_status 0
	[[ ${lines[0]} == "/dev/urandom:-1:13" && ${lines[1]} == "/dev/zero:-1:25" ]] || { show_run; fail "not the kernel's answers"; }
	[[ $stderr == *"$line"*"]: not granted by perl (layer user)"* ]] || { show_run; fail "no line"; }
	[[ $(grep -c 'denied file_ioctl' <<<"$stderr") == 1 ]] || { show_run; fail "not one line"; }
	[[ $stderr != *"/dev/zero"* ]] || { show_run; fail "a line for a granted device"; }
	grep -q '"syscall": "open", "operation": "file_ioctl", "object": "/dev/urandom", "decision": "deny".*"about": "its device ioctls"' "$LOG" || { cat "$LOG"; fail "no event for the open"; }
	! grep '"operation": "file_ioctl"' "$LOG" | grep -qv '"object": "/dev/urandom"' || { cat "$LOG"; fail "an event for another file"; }
	! grep -q '"syscall": "ioctl"' "$LOG" || { cat "$LOG"; fail "an ioctl was notified"; }
	# What Landlock never refuses (FIOCLEX) works on it all the same, and
	# TIOCSTI is still refused by its own rule.
	run --separate-stderr "$FBAC_RUN" perl -e "$IOCTL_PROG" 0x5451 /dev/urandom
	[[ $output == "/dev/urandom:0:0" && $stderr == *"$line"* && $(grep -c fbac: <<<"$stderr") == 1 ]] || { show_run; fail "FIOCLEX"; }
	run --separate-stderr "$FBAC_RUN" perl -e "$IOCTL_PROG" 0x5412 /dev/urandom
	[[ $output == "/dev/urandom:-1:1" && $stderr == *"fbac: denied syscall 'ioctl' for perl["*"typing into the terminal"* ]] || { show_run; fail "TIOCSTI"; }
	# Complain mode: no Landlock, the ioctl works, nothing to say.
	run --separate-stderr "$FBAC_RUN" -m complain perl -e "$IOCTL_PROG" 0x80045200 /dev/urandom
	[[ $output == "/dev/urandom:0:0" && $stderr != *file_ioctl* ]] || { show_run; fail "complain mode"; }
	# Standard_Devices grants it: perl's own open (PerlIO asks isatty,
	# TCGETS) and RNDGETENTCNT work with no line.
	run --separate-stderr "$FBAC_RUN" --as Basic_Runtime perl -e 'open(F, "<", "/dev/urandom") or die; read(F, $x, 4); print length($x), "\n"; exec($^X, "-e", $ARGV[0], @ARGV[1..$#ARGV])' "$IOCTL_PROG" 0x80045200 /dev/urandom
	[[ ${lines[0]} == 4 && ${lines[1]} == "/dev/urandom:0:0" && -z $stderr ]] || { show_run; fail "Standard_Devices"; }
	require_unprivileged
	run --separate-stderr run_unprivileged "$FBAC_RUN" perl -e "$IOCTL_PROG" 0x80045200 /dev/urandom /dev/zero
	[[ ${lines[0]} == "/dev/urandom:-1:13" && ${lines[1]} == "/dev/zero:-1:25" ]] || { show_run; fail "unprivileged: not the kernel's answers"; }
	[[ $stderr == *"$line"* && $stderr != *"/dev/zero"* ]] || { show_run; fail "unprivileged: the line"; }
}

@test "terminal ioctls on the user's terminal and on /dev/tty (Terminal_IO grants file_ioctl): they work, no line" {
	need_commands perl tmux
	need_x86_64
	# TCGETS and TIOCGWINSZ on standard input (the terminal, opened
	# outside the sandbox) and on /dev/tty (opened in it).
	local prog='for my $req (0x5401, 0x5413) { my $b = "\0" x 64; my $r = syscall(16, 0, $req, $b); print "stdin:$r:", ($r < 0 ? $! + 0 : 0), "\n" }'
	local script=$BATS_TEST_TMPDIR/tty.sh out=$BATS_TEST_TMPDIR/out ERR=$BATS_TEST_TMPDIR/err
	{
		declare -p PATH FBAC_DATADIR HOME FBAC_USER_DIR LC_ALL IOCTL_PROG ${FBAC_ADMIN_DIR:+FBAC_ADMIN_DIR}
		printf 'echo $$ >%q\n' "$BATS_TEST_TMPDIR/tty.pid"
		printf '%q --log %q --as Basic_Runtime --as Terminal_IO perl -e %q >%q 2>%q\n' "$FBAC_RUN" "$LOG" "$prog" "$out" "$ERR"
		printf '%q --log %q --as Basic_Runtime --as Terminal_IO perl -e "$IOCTL_PROG" 0x5401 /dev/tty >>%q 2>>%q\n' "$FBAC_RUN" "$LOG" "$out" "$ERR"
		printf 'echo done-$?\nsleep 600\n'
	} >"$script"
	tmux_script "$script"
	wait_pane done-0
	tmux -S "$TMUX_SOCK" kill-server
	[[ $(cat "$out") == $'stdin:0:0\nstdin:0:0\n/dev/tty:0:0' ]] || { cat "$out" "$ERR"; fail "not the terminal's answers"; }
	[[ ! -s $ERR ]] || { cat "$ERR"; fail "a line"; }
	! grep -q file_ioctl "$LOG" 2>/dev/null || { cat "$LOG"; fail "an event"; }
}

@test "exec of a program made after start-up where a pattern grants it: refused with the reason, and it runs in the next run" {
	mkdir -p "$HOME/tools"
	printf '#!/bin/sh\necho old\n' >"$HOME/tools/old"
	chmod 0755 "$HOME/tools/old"
	user_policy dash /usr/bin/dash '  - access: [file_read, file_write, file_create, file_delete, file_execute, file_getattr, file_setattr]
    paths: ["~/tools/*"]
  - access: [file_getattr, dir_read]
    paths: ["~/tools"]' 'Spawn_Shell, Run_System_Programs'
	run --separate-stderr "$FBAC_RUN" --log "$LOG" dash -c 'cd ~/tools && ./old && printf "#!/bin/sh\necho new\n" >new && chmod +x new; ./new; echo "rc=$?"'
	expect_status 0
	[[ ${lines[0]} == old && $output == *rc=126* ]] || { show_run; fail "the exec"; }
	[[ $stderr == *"fbac: denied file_execute '$HOME/tools/new' for dash["*"]: granted by dash (layer user), but the kernel's rules were made as fbac-run started, and this file was made or replaced since: it runs in the next run"* ]] || { show_run; fail "no line"; }
	grep -q "\"object\": \"$HOME/tools/new\", \"decision\": \"deny\".*\"reason\": \"granted by dash" "$LOG" || { cat "$LOG"; fail "no event"; }
	run --separate-stderr "$FBAC_RUN" dash -c '~/tools/new'
	[[ $output == new && -z $stderr ]] || { show_run; fail "not in the next run"; }
	# A program replaced under its name (a rebuild) is another file.
	run --separate-stderr "$FBAC_RUN" dash -c 'cd ~/tools && rm old && printf "#!/bin/sh\necho rebuilt\n" >old && chmod +x old; ./old'
	[[ $output != *rebuilt* && $stderr == *"denied file_execute '$HOME/tools/old'"*"made or replaced since"* ]] || { show_run; fail "the rebuilt program"; }
}

@test "exec of a program a literal rule names, made after start-up: refused with the reason, and it runs in the next run" {
	mkdir -p "$HOME/tools"
	user_policy dash /usr/bin/dash '  - access: [file_read, file_write, file_create, file_delete, file_execute, file_getattr, file_setattr]
    paths: ["~/tools/prog"]
  - access: [file_getattr, dir_read]
    paths: ["~/tools"]' 'Spawn_Shell, Run_System_Programs'
	run --separate-stderr "$FBAC_RUN" --log "$LOG" dash -c 'printf "#!/bin/sh\necho prog\n" >~/tools/prog && chmod +x ~/tools/prog; ~/tools/prog; echo "rc=$?"'
	expect_status 0
	[[ $output == rc=126 ]] || { show_run; fail "the exec"; }
	[[ $stderr == *"fbac: denied file_execute '$HOME/tools/prog' for dash["*"]: granted by dash (layer user), but the kernel's rules were made as fbac-run started, and this file was made or replaced since: it runs in the next run"* ]] || { show_run; fail "no line"; }
	run --separate-stderr "$FBAC_RUN" dash -c '~/tools/prog'
	[[ $output == prog && -z $stderr ]] || { show_run; fail "not in the next run"; }
}

# ---- item 4: denials with a way forward ----

@test "a port not granted: the line gives the -D to use, and the -D works" {
	need_commands curl
	mkdir -p "$HOME/www" "$HOME/Downloads"
	echo page >"$HOME/www/index.html"
	serve_http "$HOME/www"
	run --separate-stderr "$FBAC_RUN" curl -sS -o "$HOME/Downloads/p.html" "http://127.0.0.1:$PORT/"
	[[ $status -ne 0 ]] || { show_run; fail "the port was granted"; }
	[[ $stderr == *"denied network_outgoing 'tcp:127.0.0.1:$PORT' for curl["*"]: not granted by curl (layer library); allowed with -D HTTP_Client.ports=80,443,$PORT; granted by HTTP_Client(ports=$PORT)"* ]] || { show_run; fail "no -D hint"; }
	# Pasted as given, it works (and keeps 80 and 443).
	run --separate-stderr "$FBAC_RUN" -D "HTTP_Client.ports=80,443,$PORT" curl -sS -o "$HOME/Downloads/p.html" "http://127.0.0.1:$PORT/"
	expect_status 0
	[[ -z $stderr ]] || { show_run; fail "a denial with the hint followed"; }
	[[ $(cat "$HOME/Downloads/p.html") == page ]]
}

@test "fbac explain: parameterised grants for a port and a host" {
	run "$FBAC" explain curl network_outgoing tcp:127.0.0.1:8000
	expect_status 1
	[[ $output == *"granted for it with -D HTTP_Client.ports=80,443,8000"* ]] || { show_run; fail "no -D for curl"; }
	[[ $output == *"would be granted by: HTTP_Client(ports=8000)"* ]] || { show_run; fail "no parameterised grant"; }
	[[ $output != *"no functionality of the library grants it"* ]] || { show_run; fail "says nothing grants it"; }
	run "$FBAC" explain --as SSH_Client -D SSH_Client.hosts=10.0.0.1 network_outgoing tcp:127.0.0.1:22
	expect_status 1
	[[ $output == *"-D TCP_Client.hosts=10.0.0.1,127.0.0.1"* || $output == *"-D SSH_Client.hosts=10.0.0.1,127.0.0.1"* ]] || { show_run; fail "no host hint"; }
	# Following it allows it.
	run "$FBAC" explain --as SSH_Client -D SSH_Client.hosts=10.0.0.1,127.0.0.1 network_outgoing tcp:127.0.0.1:22
	expect_status 0
}

@test "a folder not granted: the line gives the -D that adds it, and the -D works" {
	need_commands curl
	mkdir -p "$HOME/www" "$HOME/Downloads" "$HOME/Pages"
	echo page >"$HOME/www/index.html"
	serve_http "$HOME/www"
	run --separate-stderr "$FBAC_RUN" -D "HTTP_Client.ports=80,443,$PORT" curl -sS -o "$HOME/Pages/p.html" "http://127.0.0.1:$PORT/"
	[[ $status -ne 0 ]] || { show_run; fail "the folder was granted"; }
	local hint
	hint=$(grep -o "allowed with -D [^;]*" <<<"$stderr" | head -n1 | sed 's/^allowed with //')
	[[ $hint == "-D Save_Files.dir=$HOME/Downloads,$HOME/Pages" || $hint == "-D Download_Manager.downloads=$HOME/Pages" ]] || { show_run; fail "no folder hint (got '$hint')"; }
	# shellcheck disable=SC2086 # the hint is one word
	run --separate-stderr "$FBAC_RUN" -D "HTTP_Client.ports=80,443,$PORT" $hint curl -sS -o "$HOME/Pages/p.html" "http://127.0.0.1:$PORT/"
	expect_status 0
	[[ $(cat "$HOME/Pages/p.html") == page ]]
}

@test "a user's own 'denied:' rule: the line says so, and suggests nothing" {
	echo note >"$HOME/notes.txt"
	cat >"$FBAC_USER_DIR/cat.yaml" <<-EOF
	fbac: 1
	application: cat
	executables: [/usr/bin/cat]
	functionalities: [Text_Viewer]
	denied:
	  - file_read: ~/notes.txt
	EOF
	run --separate-stderr "$FBAC_RUN" cat "$HOME/notes.txt"
	expect_status 1
	[[ $stderr == *"denied file_read '$HOME/notes.txt' for cat["*"]: not granted by cat (layer user): its 'denied:' rule 'file_read $HOME/notes.txt' refuses it ($FBAC_USER_DIR/cat.yaml:6)"* ]] || { show_run; fail "the rule is not named"; }
	[[ $stderr != *"; granted by"* && $stderr != *"-D "* ]] || { show_run; fail "a suggestion that cannot help"; }
	run "$FBAC" explain cat file_read "$HOME/notes.txt"
	expect_status 1
	[[ $output == *"denied by the carve-out"* && $output == *"the policy's own 'denied:' rule refuses it"* ]] || { show_run; fail "explain"; }
	[[ $output != *"would be granted by"* ]] || { show_run; fail "explain suggests"; }
}

@test "a protected path: only what names it is suggested, never a broad functionality or a -D" {
	# The test HOME is under /tmp, which Temporary_Files grants.
	mkdir -p "$HOME/.ssh"
	echo key >"$HOME/.ssh/id_rsa"
	run --separate-stderr "$FBAC_RUN" --as Basic_Runtime --as Temporary_Files cat "$HOME/.ssh/id_rsa"
	expect_status 1
	[[ $stderr == *"'$HOME/.ssh' is protected (SSH private keys"*"; granted only by SSH_Keys"* ]] || { show_run; fail "the protected path is not named"; }
	[[ $stderr != *Temporary_Files* && $stderr != *Build_Tools* && $stderr != *C_Compiler* && $stderr != *"-D "* ]] || { show_run; fail "a hint that exposes the protected path"; }
	run "$FBAC" explain curl file_read "$HOME/.ssh/id_rsa"
	expect_status 1
	[[ $output == *"is protected"*"would be granted by: SSH_Keys, SSH_Client, Version_Control_Client"* ]] || { show_run; fail "explain"; }
	[[ $output != *"-D "* && $output != *Temporary_Files* ]] || { show_run; fail "explain suggests a -D or a broad functionality"; }
}

# ---- item 5: every denial in the user's log, the terminal kept readable ----

STATE_LOG_REL=.local/state/fbac/denials.jsonl

@test "every denial goes to the user's denial log, also with -q, and 'fbac log' filters it" {
	need_commands curl
	run --separate-stderr "$FBAC_RUN" -q --as Basic_Runtime --as Spawn_Shell sh -c 'cat /etc/hostname; true'
	expect_status 0
	[[ $stderr != *"fbac:"* ]] || { show_run; fail "a line with -q"; }
	[[ -s $HOME/$STATE_LOG_REL ]] || fail "no denial log in ~/$STATE_LOG_REL"
	[[ $(stat -c %a "$HOME/.local/state/fbac") == 700 && $(stat -c %a "$HOME/$STATE_LOG_REL") == 600 ]] || fail "the log is readable by others"
	run --separate-stderr "$FBAC_RUN" curl -sS "http://127.0.0.1:1/"
	run --separate-stderr "$FBAC" log
	expect_status 0
	[[ $output == *" denied file_execute '/usr/bin/cat' for dash["*"]: not granted by --as (layer command line)"* ]] || { show_run; fail "no cat"; }
	[[ $output == *" denied network_outgoing 'tcp:127.0.0.1:1' for curl["*"]: not granted by curl (layer library)"* ]] || { show_run; fail "no curl"; }
	run --separate-stderr "$FBAC" log --program curl
	expect_status 0
	[[ $output == *curl* && $output != *dash* ]] || { show_run; fail "--program"; }
	run --separate-stderr "$FBAC" log --operation file_execute --json
	expect_status 0
	[[ ${#lines[@]} -ge 1 && $output == *'"operation": "file_execute"'* && $output != *network_outgoing* ]] || { show_run; fail "--operation --json"; }
	run --separate-stderr "$FBAC" log --since 1h
	[[ $output == *curl* ]] || { show_run; fail "--since 1h"; }
	run --separate-stderr "$FBAC" log --since 2099-01-01
	expect_status 0
	[[ -z $output ]] || { show_run; fail "--since in the future"; }
	run --separate-stderr "$FBAC" log --since yesterday
	expect_status 2
	# XDG_STATE_HOME moves it.
	XDG_STATE_HOME=$HOME/state run --separate-stderr "$FBAC_RUN" curl -sS "http://127.0.0.1:2/"
	[[ -s $HOME/state/fbac/denials.jsonl ]] || fail "XDG_STATE_HOME is not followed"
	XDG_STATE_HOME=$HOME/state run --separate-stderr "$FBAC" log
	[[ $output == *"tcp:127.0.0.1:2"* && $output != *"tcp:127.0.0.1:1'"* ]] || { show_run; fail "fbac log reads another log"; }
}

@test "the denial log rotates at its size limit, and 'fbac log' reads both files" {
	local limit
	limit=$(sed -n 's/^#define FBAC_MAX_DENIAL_LOG (\([0-9]*\) \* \([0-9]*\) \* \([0-9]*\)).*/\1*\2*\3/p' "$REPO/lib/fbac-limits.h")
	[[ -n $limit ]] || fail "FBAC_MAX_DENIAL_LOG not found"
	mkdir -p "$HOME/.local/state/fbac"
	chmod 700 "$HOME/.local/state/fbac"
	python3 -c '
import sys
line = "{\"time\": 1.000, \"pid\": 7, \"exe\": \"/usr/bin/old\", \"syscall\": \"openat\", \"operation\": \"file_read\", \"object\": \"/old\", \"decision\": \"deny\"}\n"
with open(sys.argv[1], "w") as f:
    n = 0
    while n < int(sys.argv[2]):
        f.write(line); n += len(line)' "$HOME/$STATE_LOG_REL" "$((limit))"
	run --separate-stderr "$FBAC_RUN" curl -sS "http://127.0.0.1:1/"
	[[ -s $HOME/$STATE_LOG_REL.1 ]] || fail "not rotated"
	[[ $(stat -c %s "$HOME/$STATE_LOG_REL") -lt 4096 ]] || fail "the new log is not new"
	run --separate-stderr "$FBAC" log --program old
	[[ ${lines[0]} == *"denied file_read '/old' for old[7]"* ]] || { show_run; fail "the rotated log is not read"; }
	run --separate-stderr "$FBAC" log --program curl
	[[ $output == *"tcp:127.0.0.1:1"* ]] || { show_run; fail "the new log is not read"; }
}

@test "denials past the printed lines, with no denial log to keep them, say so and how to keep them" {
	# 70 distinct refused reads: 64 lines, then the rest are only counted.
	local -a files
	local script='for f; do read -r x <"$f"; done 2>/dev/null; true'
	mapfile -t files < <(ls /usr/share/doc/*/copyright | head -n 70)
	[[ ${#files[@]} -eq 70 ]] || fail "not 70 files to read in /usr/share/doc"
	run --separate-stderr "$FBAC_RUN" --as Basic_Runtime --as Spawn_Shell sh -c "$script" sh "${files[@]}"
	expect_status 0
	[[ $stderr == *"more denials not shown (see 'fbac log')"* && $stderr != *"could not be opened"* ]] ||
		{ show_run; fail "with a log"; }
	# A state directory that cannot be made: nothing to list them.
	: >"$HOME/not-a-dir"
	XDG_STATE_HOME=$HOME/not-a-dir run --separate-stderr "$FBAC_RUN" --as Basic_Runtime --as Spawn_Shell sh -c "$script" sh "${files[@]}"
	expect_status 0
	[[ $stderr == *"more denials not shown"*"fbac: but the denial log could not be opened (Not a directory): run again with --log FILE to keep them"* ]] ||
		{ show_run; fail "no word of the lost denials"; }
}

@test "a confined program can neither read nor write the denial log" {
	run "$FBAC_RUN" curl -sS "http://127.0.0.1:1/"
	run --separate-stderr "$FBAC_RUN" --as Basic_Runtime --as Spawn_Shell --as Read_Write_Directory \
		-D "Read_Write_Directory.dir=$HOME" sh -c "echo forged >>'$HOME/$STATE_LOG_REL'; cat '$HOME/$STATE_LOG_REL'"
	[[ $stderr == *"denied file_append '$HOME/$STATE_LOG_REL'"*"is protected (the user's denial log"* ]] || { show_run; fail "no protection"; }
	[[ $stderr != *"(downloads="* && $stderr != *"-D "* ]] || { show_run; fail "a parameterised grant of a protected path"; }
	[[ $(cat "$HOME/$STATE_LOG_REL") != *forged* ]] || fail "the log was forged"
}

@test "probes of the working directory are logged without a line; the man page's curl example prints nothing" {
	need_commands curl
	mkdir -p "$HOME/proj" "$HOME/www" "$HOME/Downloads"
	echo page >"$HOME/www/index.html"
	serve_http "$HOME/www"
	cd "$HOME/proj"
	# --no-infer: inference would let it look up the working directory.
	run --separate-stderr "$FBAC_RUN" --no-infer --as Basic_Runtime --as Spawn_Shell sh -c 'echo hi'
	expect_status 0
	[[ $output == hi && -z $stderr ]] || { show_run; fail "a line for the working directory"; }
	grep -q "\"operation\": \"file_getattr\", \"object\": \"$HOME/proj\", \"decision\": \"deny\"" "$HOME/$STATE_LOG_REL" || fail "the probe is not logged"
	# What is not a probe of it still has its line.
	run --separate-stderr "$FBAC_RUN" --as Basic_Runtime --as Spawn_Shell sh -c 'echo x >"$HOME/proj/f"'
	[[ $stderr == *"denied file_create '$HOME/proj/f'"* ]] || { show_run; fail "a real denial lost its line"; }
	# fbac-run(1), EXAMPLES, from the home and from the root directory.
	local d
	for d in "$HOME" /; do
		cd "$d"
		run --separate-stderr "$FBAC_RUN" -D "HTTP_Client.ports=$PORT" curl -sS -o "$HOME/Downloads/index.html" "http://127.0.0.1:$PORT/"
		expect_status 0
		[[ -z $stderr ]] || { show_run; fail "the example prints a line from $d"; }
	done
}

@test "a full-screen program (vim in tmux): no line drawn over it, one summary line at exit, all in 'fbac log'" {
	need_commands tmux /usr/bin/vim.basic
	mkdir -p "$HOME/Documents" "$HOME/.ssh"
	printf 'first line\n' >"$HOME/Documents/notes.txt"
	echo TOPSECRET-vim >"$HOME/.ssh/id_rsa"
	cd "$HOME/Documents"
	local sock=$BATS_TEST_TMPDIR/tmux.sock script=$BATS_TEST_TMPDIR/tty.sh
	{
		declare -p PATH FBAC_DATADIR HOME FBAC_USER_DIR LC_ALL ${FBAC_ADMIN_DIR:+FBAC_ADMIN_DIR}
		printf 'export TERM=xterm-256color\n'
		printf 'cd %q\n' "$HOME/Documents"
		# fbac-run's standard error is the terminal, as for a user.
		printf '%q /usr/bin/vim.basic notes.txt\n' "$FBAC_RUN"
		printf 'echo fbac-run-status=$?\n'
		printf 'sleep 600\n'
	} >"$script"
	tmux -S "$sock" new-session -d -x 120 -y 30 bash --norc --noprofile "$script"
	track "$(tmux -S "$sock" display-message -p '#{pid}')"
	pane() { tmux -S "$sock" capture-pane -p -J; }
	wait_for() {
		local end=$((SECONDS + 30))
		until [[ $(pane) == *"$1"* ]]; do
			((SECONDS < end)) || { tmux -S "$sock" kill-server; fail "the terminal does not show '$1':"$'\n'"$(pane)"; return; }
			sleep 0.05
		done
	}
	wait_for "first line"
	tmux -S "$sock" send-keys ':r ~/.ssh/id_rsa' Enter
	wait_for "E484"
	sleep 0.3
	local screen
	screen=$(pane)
	[[ $screen != *"fbac:"* ]] || { tmux -S "$sock" kill-server; fail "a line drawn over vim:"$'\n'"$screen"; }
	tmux -S "$sock" send-keys ':q!' Enter
	wait_for "fbac-run-status="
	screen=$(pane)
	tmux -S "$sock" kill-server
	[[ $screen =~ fbac:\ [0-9]+\ denials?\ while\ the\ program\ had\ the\ terminal\ full-screen,\ not\ shown:\ \'fbac\ log\'\ lists\ (it|them) ]] || fail "no summary:"$'\n'"$screen"
	[[ $screen != *TOPSECRET* ]] || fail "the secret is on the screen"
	run --separate-stderr "$FBAC" log --program vim.basic
	[[ $output == *"denied file_read '$HOME/.ssh/id_rsa' for vim.basic["* ]] || { show_run; fail "not in fbac log"; }
}

# dac_tree: under a folder every user may search, what only uid 65534 may
# reach: locked/ (700) with a file, open/secret (600), nowrite/ (755, so
# no one else may make names in it); and root's own rootonly (600).
dac_tree() {
	DAC=$(mktemp -d /tmp/fbac-dac.XXXXXX)
	chmod 755 "$DAC"
	mkdir "$DAC/locked" "$DAC/open" "$DAC/nowrite"
	echo locked-content >"$DAC/locked/f"
	echo secret-content >"$DAC/open/secret"
	echo root-content >"$DAC/open/rootonly"
	chmod 600 "$DAC/open/secret" "$DAC/open/rootonly"
	cp /bin/true "$DAC/open/prog744"
	chmod 744 "$DAC/open/prog744"
	chmod 700 "$DAC/locked"
	chown -R 65534:65534 "$DAC/locked" "$DAC/open/secret" "$DAC/open/prog744" "$DAC/nowrite"
}

@test "root's program under fbac-run has no capabilities: the file permissions that refuse it are told (a walk, a continued open, an injected open, a creation, a mkdir, a chmod, a chown, an exec); uid 65534's are the kernel's own, silent" {
	[[ $EUID -eq 0 ]] || skip "needs root: only root's capabilities are dropped by fbac-run"
	require_unprivileged
	dac_tree
	local rw=(--as Basic_Runtime --as Read_Write_Directory -D "Read_Write_Directory.dir=$DAC")
	local why="the file's permissions refuse it: fbac-run runs root's programs without root's capabilities"
	# Natively root reads and makes all of it: the refusals are fbac's.
	cat "$DAC/locked/f" "$DAC/open/secret" >/dev/null
	# Through a folder it may not search (the supervisor's walk).
	run --separate-stderr "$FBAC_RUN" --log="$LOG" "${rw[@]}" cat "$DAC/locked/f"
	[[ $status -eq 1 && $stderr == *"fbac: denied file_read '$DAC/locked/f' for cat["*"]: $why"* ]] || { show_run; fail "the walk"; }
	grep -q "\"operation\": \"file_read\", \"object\": \"$DAC/locked/f\", \"decision\": \"deny\"" "$LOG" || { cat "$LOG"; fail "no event for the walk"; }
	# A file it may not read, opened read-only: continued in the kernel.
	run --separate-stderr "$FBAC_RUN" "${rw[@]}" cat "$DAC/open/secret"
	[[ $status -eq 1 && $stderr == *"fbac: denied file_read '$DAC/open/secret' for cat["*"]: $why"* ]] || { show_run; fail "the continued open"; }
	# Opened for writing: made by the supervisor, which the kernel refuses.
	run --separate-stderr "$FBAC_RUN" "${rw[@]}" dash -c "echo x >>'$DAC/open/secret'"
	[[ $status -ne 0 && $stderr == *"fbac: denied file_write '$DAC/open/secret' for dash["*"]: $why"* ]] || { show_run; fail "the injected open"; }
	# A name made in a folder it may not write.
	run --separate-stderr "$FBAC_RUN" "${rw[@]}" touch "$DAC/nowrite/new"
	[[ $status -eq 1 && $stderr == *"fbac: denied file_create '$DAC/nowrite/new' for touch["*"]: $why"* ]] || { show_run; fail "the creation"; }
	run --separate-stderr "$FBAC_RUN" "${rw[@]}" mkdir "$DAC/nowrite/d"
	[[ $status -eq 1 && $stderr == *"fbac: denied dir_mkdir '$DAC/nowrite/d' for mkdir["*"]: $why"* ]] || { show_run; fail "the mkdir"; }
	# Changes only the owner, or root with its capabilities, may make.
	local owner="it needs root's capabilities (another user's file, or a new owner), and fbac-run runs root's programs without them"
	run --separate-stderr "$FBAC_RUN" "${rw[@]}" chmod 644 "$DAC/open/secret"
	[[ $status -eq 1 && $stderr == *"fbac: denied file_setattr '$DAC/open/secret' for chmod["*"]: $owner"* ]] || { show_run; fail "the chmod"; }
	run --separate-stderr "$FBAC_RUN" "${rw[@]}" chown 65534 "$DAC/open/rootonly"
	[[ $status -eq 1 && $stderr == *"fbac: denied file_setattr '$DAC/open/rootonly' for chown["*"]: $owner"* ]] || { show_run; fail "the chown"; }
	[[ $(stat -c %u "$DAC/open/rootonly") == 0 ]] || fail "chown happened"
	# A program root runs natively (its owner's execute bit), not here.
	"$DAC/open/prog744"
	run --separate-stderr "$FBAC_RUN" --as Basic_Runtime --as Spawn_Shell --as Run_Programs_From \
		-D "Run_Programs_From.dir=$DAC" dash -c "'$DAC/open/prog744'"
	[[ $status -eq 126 && $stderr == *"fbac: denied file_execute '$DAC/open/prog744' for dash["*"]: $why"* ]] || { show_run; fail "the exec"; }
	# What root may do without capabilities stays quiet: its own 600 file.
	run --separate-stderr "$FBAC_RUN" "${rw[@]}" cat "$DAC/open/rootonly"
	[[ $status -eq 0 && $output == root-content && $stderr != *fbac:* ]] || { show_run; fail "root's own file"; }
	# uid 65534: root's 600 file is the kernel's refusal, natively too.
	run --separate-stderr run_unprivileged "$FBAC_RUN" "${rw[@]}" cat "$DAC/open/rootonly"
	[[ $status -eq 1 && $stderr == *"Permission denied"* && $stderr != *"fbac: denied"* ]] || { show_run; fail "uid 65534: a line for the kernel's own refusal"; }
}

@test "O_PATH of a file the permissions let no one but its owner read: opened as natively (the kernel's O_PATH), for root and for uid 65534" {
	require_unprivileged
	dac_tree
	local py=(--as Script_Interpreter -D "Script_Interpreter.projects=$DAC" /usr/bin/python3 -c)
	local code="import os, stat, sys; fd = os.open(sys.argv[1], os.O_PATH); print(stat.S_ISREG(os.fstat(fd).st_mode))"
	need_commands /usr/bin/python3
	run --separate-stderr "$FBAC_RUN" "${py[@]}" "$code" "$DAC/open/secret"
	[[ $status -eq 0 && $output == True && $stderr != *fbac:* ]] || { show_run; fail "root"; }
	run --separate-stderr run_unprivileged "$FBAC_RUN" "${py[@]}" "$code" "$DAC/open/rootonly"
	[[ $status -eq 0 && $output == True && $stderr != *fbac:* ]] || { show_run; fail "uid 65534"; }
}
