#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Job control: a confined program stopped on a terminal (^Z, a read in the
# background, its own kill(0, SIGTSTP)) stops fbac-run too, so that the
# shell gets its prompt back, and fg resumes both with the program working.
# Each test types into an interactive bash on a tmux terminal, as a user
# would; the prompt is 'jobs$ '. The program's own kill(0, SIGTSTP) reaches
# only its sandbox (Landlock scopes signals), and a program in a process
# group of its own is alone in it: fbac-run must follow its stop itself.

# shellcheck disable=SC2016 # $... in single quotes is for the inner shell

bats_require_minimum_version 1.5.0

load helpers

setup() {
	need_commands tmux
	BG_PIDS=$BATS_TEST_TMPDIR/bg.pids
	: >"$BG_PIDS"
	mkdir -p "$HOME/Documents"
	printf 'first line\n' >"$HOME/Documents/notes.txt"
	seq -f 'line %g' 1 200 >"$HOME/Documents/long.txt"
}

teardown() {
	if [[ -S ${TMUX_SOCK-} ]]; then
		tmux -S "$TMUX_SOCK" kill-server 2>/dev/null || true
	fi
	kill_tracked
	fbac_teardown
}

# shell_start: an interactive bash (job control on) on a new tmux terminal,
# in ~/Documents, with fbac-run first on PATH and the test's environment.
# JOBS_UNPRIV=1: as uid 65534 on the staged copy (see run_unprivileged).
shell_start() {
	local rc=$BATS_TEST_TMPDIR/jobs.rc root='' home=$HOME bin=$FBAC_BUILD_DIR
	local -a env=(FBAC_DATADIR="$FBAC_DATADIR" FBAC_USER_DIR="$FBAC_USER_DIR")
	local -a cmd=()
	[[ -z ${FBAC_ADMIN_DIR-} ]] || env+=(FBAC_ADMIN_DIR="$FBAC_ADMIN_DIR")
	if [[ -n ${JOBS_UNPRIV-} && $EUID -eq 0 ]]; then
		need_commands setpriv
		root=$(_unpriv_stage) || fail "cannot stage files for uid 65534" || return
		home=$(_unpriv_home "$root")
		bin=$root/build
		rc=$root/jobs.rc
		env=(FBAC_DATADIR="$(_unpriv_map "$root" "$FBAC_DATADIR")"
			FBAC_USER_DIR="$(_unpriv_map "$root" "$FBAC_USER_DIR")"
			FBAC_ADMIN_DIR="$(_unpriv_map "$root" "$FBAC_ADMIN_DIR")")
		cmd=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
	fi
	JOBS_HOME=$home
	{
		printf 'export %q\n' "${env[@]}" "HOME=$home" "PATH=$bin:$PATH" \
			LC_ALL=C.UTF-8 TERM=xterm-256color
		printf "PS1='jobs\$ '\n"
		printf 'cd %q\n' "$home/Documents"
	} >"$rc"
	chmod 0644 "$rc"
	TMUX_SOCK=$BATS_TEST_TMPDIR/tmux.sock
	tmux -S "$TMUX_SOCK" -f /dev/null new-session -d -x 160 -y 40 \
		"$(printf '%q ' "${cmd[@]}" bash --noprofile --rcfile "$rc" -i)" 3>&-
	track "$(tmux -S "$TMUX_SOCK" display -p '#{pane_pid}')"
	wait_pane 'jobs$'
}

# type_line TEXT: type TEXT and Enter.
type_line() {
	keys -l "$1"
	keys Enter
}

# stopped_to_prompt: the shell says the job stopped, and runs what is typed
# next (its output, 42, is not in what was typed).
stopped_to_prompt() {
	wait_pane "Stopped"
	type_line 'echo "prompt-$((6 * 7))"'
	wait_pane "prompt-42"
	# Both are stopped, the program and fbac-run.
	type_line 'jobs -l'
	wait_pane "Stopped"
}

# resume: fg, then the job's status once it ends (finished waits for it).
resume() {
	type_line 'fg; echo "job-status=$?"'
}

# finished STATUS: the job resumed by resume ended with STATUS.
finished() {
	wait_pane "job-status=$1"
}

# bats test_tags=app:vim
@test "jobs: vim stopped with ^Z gives the prompt back; fg resumes it" {
	need_commands /usr/bin/vim.basic
	shell_start
	type_line 'fbac-run -q vim.basic notes.txt'
	wait_pane "first line"
	keys C-z
	stopped_to_prompt
	resume
	wait_pane "first line"
	keys 'G' 'o' 'added after fg' Escape ':wq' Enter
	finished 0
	[[ $(cat "$JOBS_HOME/Documents/notes.txt") == $'first line\nadded after fg' ]] ||
		fail "vim did not save after fg: $(cat "$JOBS_HOME/Documents/notes.txt")"
}

# bats test_tags=app:less
@test "jobs: less stopped with ^Z gives the prompt back; fg resumes it" {
	need_commands /usr/bin/less
	shell_start
	type_line 'fbac-run -q less long.txt'
	wait_pane "line 1"$'\n'
	keys C-z
	stopped_to_prompt
	resume
	keys G
	wait_pane "line 200"
	keys q
	finished 0
}

# running ARGS: the pid of the process whose command line is exactly
# ARGS, once it runs (10 s at most; status 1 if it never does).
running() {
	local pid='' i
	for ((i = 0; i < 200; i++)); do
		pid=$(pgrep -x -f "$1") && break
		sleep 0.05
	done
	[[ -n $pid ]] && echo "$pid"
}

# running_in_foreground PID: wait (10 s at most) until PID runs again in
# the terminal's foreground process group (ps state S+), as after fg.
running_in_foreground() {
	local i
	for ((i = 0; i < 200; i++)); do
		[[ $(ps -o stat= -p "$1") == S+* ]] && break
		sleep 0.05
	done
}

# stop_fg_interrupt PID: ^Z stops the job, fg resumes it; once PID runs
# again (state S) in the foreground, ^C reaches it and ends the run (130).
stop_fg_interrupt() {
	keys C-z
	stopped_to_prompt
	resume
	running_in_foreground "$1"
	keys C-c
	finished 130
}

# A nested run (fbac-run(1), "Nested runs"): sleep under its own
# fbac-run, started by a confined sh. The nested fbac-run stays sleep's
# parent; ^Z stops the four, the outer fbac-run once sh has stopped.
@test "jobs: a nested run: ^Z stops it and its confined parent, fg resumes, ^C ends it (130)" {
	need_commands /usr/bin/sleep
	shell_start
	type_line "fbac-run -q --as Version_Control_Client --as Run_Helper_Programs -D Run_Helper_Programs.programs=\$(command -v fbac-run),/usr/bin/sleep --as Read_Only_Directory -D Read_Only_Directory.dir=\$FBAC_DATADIR sh -c 'fbac-run -q --as Basic_Runtime sleep 62'"
	local pid
	pid=$(running 'sleep 62') || fail "sleep does not run"
	# Its parent is the nested fbac-run, not the confined sh.
	[[ $(ps -o args= -p "$(ps -o ppid= -p "$pid" | tr -d ' ')") == 'fbac-run -q --as Basic_Runtime sleep 62' ]] ||
		fail "sleep's parent is not the nested fbac-run"
	stop_fg_interrupt "$pid"
}

@test "jobs: a program without a handler: ^Z stops both, fg resumes, ^C ends it (130)" {
	need_commands /usr/bin/sleep
	shell_start
	type_line 'fbac-run -q --as Basic_Runtime sleep 61'
	local pid
	pid=$(running 'sleep 61') || fail "sleep does not run"
	stop_fg_interrupt "$pid"
}

# bats test_tags=app:python3
@test "jobs: python3's os.kill(0, SIGTSTP) stops fbac-run; fg resumes it" {
	need_commands /usr/bin/python3
	shell_start
	type_line "fbac-run -q python3 -c 'import os, signal; os.kill(0, signal.SIGTSTP); print(\"resumed\", 6 * 7)'"
	stopped_to_prompt
	resume
	wait_pane "resumed 42"
	finished 0
}

# The program makes a process group of its own and gives it the terminal:
# ^Z stops that group only. fbac-run takes the terminal back for the shell,
# and on fg gives it to the program again (else input() would stop with
# SIGTTIN at once).
own_group() {
	cat >"$JOBS_HOME/Documents/own-group.py" <<-'EOF'
		import os, signal
		signal.signal(signal.SIGTTOU, signal.SIG_IGN)
		os.setpgid(0, 0)
		os.tcsetpgrp(0, os.getpgrp())
		signal.signal(signal.SIGTTOU, signal.SIG_DFL)
		line = input("ready> ")
		print("got", line, "foreground" if os.tcgetpgrp(0) == os.getpgrp() else "background")
	EOF
	chmod a+r "$JOBS_HOME/Documents/own-group.py"
	type_line 'fbac-run -q python3 own-group.py'
	wait_pane "ready>"
	keys C-z
	stopped_to_prompt
	resume
	type_line "typed after fg"
	wait_pane "got typed after fg foreground"
	finished 0
}

# bats test_tags=app:python3
@test "jobs: a program in its own process group: ^Z, the prompt, fg gives it the terminal again" {
	need_commands /usr/bin/python3
	shell_start
	own_group
}

# bats test_tags=app:python3
@test "jobs: a program in its own process group, as an unprivileged user" {
	need_commands /usr/bin/python3
	require_unprivileged
	JOBS_UNPRIV=1 shell_start
	[[ $EUID -ne 0 ]] || type_line 'echo "uid=$(id -u)"'
	[[ $EUID -ne 0 ]] || wait_pane "uid=65534"
	own_group
}

# bats test_tags=app:python3
@test "jobs: a program in its own process group that reads the terminal gets it while fbac-run has it" {
	need_commands /usr/bin/python3
	shell_start
	cat >"$JOBS_HOME/Documents/own-read.py" <<-'EOF'
		import os
		os.setpgid(0, 0)
		line = input("ready> ")
		print("got", line, "foreground" if os.tcgetpgrp(0) == os.getpgrp() else "background")
	EOF
	# Its read stops it with SIGTTIN (its group is not the terminal's):
	# fbac-run, in the foreground, gives it the terminal, as sudo does.
	type_line 'fbac-run -q python3 own-read.py; echo "job-status=$?"'
	wait_pane "ready>"
	type_line "typed at once"
	wait_pane "got typed at once foreground"
	finished 0
}

@test "jobs: an interactive shell's suspend (SIGSTOP, its own process group) stops fbac-run" {
	need_commands /usr/bin/bash
	shell_start
	type_line 'fbac-run -q --as Interactive_Shell bash --norc --noprofile -i'
	wait_pane 'bash-'
	type_line suspend
	stopped_to_prompt
	resume
	type_line 'echo "inner-$((6 * 7))"; exit 3'
	wait_pane "inner-42"
	finished 3
}

@test "jobs: a program reading the terminal in the background stops with SIGTTIN; fg resumes it" {
	need_commands /usr/bin/python3
	shell_start
	type_line "fbac-run -q python3 -c 'print(\"read\", input())' &"
	# wait returns when the job changes state: 128 + SIGTTIN.
	type_line 'wait %1; echo "wait-status=$?"'
	wait_pane "wait-status=149"
	resume
	type_line "in the foreground"
	wait_pane "read in the foreground"
	finished 0
}
