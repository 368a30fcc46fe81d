#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# fbac wrap, unwrap, wrap --list and aliases: wrappers in ~/.local/bin that
# run the real program under fbac-run, copies of its desktop entry whose
# Exec= runs the wrapper, run from a real shell on a terminal (tmux), from
# the desktop entry, and nested (git, confined, runs the wrapped less as its
# pager). Real programs (less, vim, git), a test HOME, the real sandbox.

# shellcheck disable=SC2154 # bats sets output, stderr, lines, stderr_lines
# shellcheck disable=SC2016 # $... in single quotes is for the shell run
# shellcheck disable=SC2030,SC2031 # run's subshells see our variables

bats_require_minimum_version 1.5.0

load helpers

setup() {
	BG_PIDS=$BATS_TEST_TMPDIR/bg.pids
	: >"$BG_PIDS"
	BIN=$HOME/.local/bin
	APPS=$HOME/.local/share/applications
	mkdir -p "$HOME/.ssh" "$HOME/Documents"
	echo 'PRIVATE KEY 1234' >"$HOME/.ssh/id_rsa"
	echo 'Buy milk.' >"$HOME/Documents/notes.txt"
	# Only the system's entries: no desktop of the machine's user.
	export XDG_DATA_DIRS=/usr/share
}

teardown() {
	if [[ -S ${TMUX_SOCK-} ]]; then
		tmux -S "$TMUX_SOCK" kill-server 2>/dev/null || true
	fi
	kill_tracked
	if [[ -n ${SYSTEM_WRAPPED-} && $EUID -eq 0 ]]; then
		"$FBAC" unwrap --system "$SYSTEM_WRAPPED" >/dev/null 2>&1 || true
	fi
	fbac_teardown
}

# The marker lines every wrapper starts with.
is_wrapper() {
	[[ -f $1 && -x $1 ]] || return 1
	[[ $(head -c 27 "$1") == "#!/bin/sh"$'\n'"# fbac-wrapper 1 " ]]
}

# tty_run SCRIPT: run bash on SCRIPT in a new tmux session (160x40).
tty_run() {
	need_commands tmux
	TMUX_SOCK=$BATS_TEST_TMPDIR/tmux.sock
	tmux -S "$TMUX_SOCK" -f /dev/null new-session -d -x 160 -y 40 "bash $1" 3>&-
}

# The environment a tmux script starts with.
tty_env() {
	declare -p FBAC_DATADIR HOME FBAC_USER_DIR LC_ALL XDG_DATA_DIRS \
		${FBAC_ADMIN_DIR:+FBAC_ADMIN_DIR}
	printf 'export TERM=xterm-256color\n'
}

@test "wrap writes a marked wrapper that runs the real program confined" {
	run -0 --separate-stderr "$FBAC" wrap less
	[[ $output == *"wrapped 'less': '$BIN/less' runs '/usr/bin/less' confined"* ]]
	is_wrapper "$BIN/less"
	[[ $(stat -c %a "$BIN/less") == 755 ]]
	# The fbac-run next to fbac, the real program by absolute path.
	grep -qxF "exec '$FBAC_RUN' -- '/usr/bin/less' \"\$@\"" "$BIN/less"
	# ~/.local/bin is not in the test's PATH: the exact fix is printed.
	[[ $stderr == *"'$BIN' is not in PATH, so 'less' still starts '/usr/bin/less' unconfined"* ]]
	[[ $stderr == *"export PATH=\"\$HOME/.local/bin:\$PATH\""* ]]

	# Through PATH, ~/.local/bin first: the wrapper, which never finds
	# itself (it names /usr/bin/less).
	PATH=$BIN:$PATH run -0 --separate-stderr less "$HOME/Documents/notes.txt"
	[[ $output == 'Buy milk.' ]]
	[[ -z $stderr ]]
	PATH=$BIN:$PATH run --separate-stderr less "$HOME/.ssh/id_rsa"
	[[ $output != *1234* ]]
	[[ $stderr == *"denied file_getattr '$HOME/.ssh/id_rsa' for less"* ]]
	# fbac-run less, with the wrapper first in PATH, runs the real less.
	PATH=$BIN:$PATH run -0 --separate-stderr "$FBAC_RUN" less "$HOME/Documents/notes.txt"
	[[ $output == 'Buy milk.' ]]
}

@test "wrap --as and -D go into the wrapper; wrap refuses options fbac-run refuses" {
	# Options may come after the program too.
	run -0 "$FBAC" wrap cat --as Text_Viewer -D "Text_Viewer.files=$HOME/Documents"
	grep -qxF "exec '$FBAC_RUN' '--as' 'Text_Viewer' '-D' 'Text_Viewer.files=$HOME/Documents' -- '/usr/bin/cat' \"\$@\"" "$BIN/cat"
	run -0 --separate-stderr "$BIN/cat" "$HOME/Documents/notes.txt"
	[[ $output == 'Buy milk.' ]]
	echo 'not in Documents' >"$HOME/other.txt"
	run --separate-stderr "$BIN/cat" "$HOME/other.txt"
	((status != 0))
	[[ $output != *'not in'* ]]
	[[ $stderr == *"denied file_"*" '$HOME/other.txt' for cat"* ]]

	run -0 "$FBAC" wrap --list
	[[ $output == *"cat	/usr/bin/cat"* ]]
	[[ $output == *"wrapper: $BIN/cat"* ]]
	[[ $output == *"options: '--as' 'Text_Viewer' '-D' 'Text_Viewer.files=$HOME/Documents'"* ]]
	[[ $output == *"desktop entry: (none)"* ]]

	# Nothing is written for options that cannot confine the program.
	run -1 --separate-stderr "$FBAC" wrap --as No_Such_Thing tac
	[[ $stderr == *"unknown functionality 'No_Such_Thing'"* ]]
	[[ $stderr == *"cannot wrap 'tac': fbac-run cannot confine '/usr/bin/tac' as asked"* ]]
	[[ ! -e $BIN/tac ]]
	run -1 --separate-stderr "$FBAC" wrap no-such-program-x
	[[ $stderr == *"cannot wrap 'no-such-program-x': not found in PATH"* ]]
}

@test "wrap as an unprivileged user; the wrapper runs through PATH" {
	require_unprivileged
	run -0 --separate-stderr run_unprivileged bash -c '
		"$FBAC" wrap less >/dev/null 2>&1 || exit 9
		export PATH=$HOME/.local/bin:$PATH
		[ "$(command -v less)" = "$HOME/.local/bin/less" ] || exit 8
		less "$HOME/Documents/notes.txt"
		less "$HOME/.ssh/id_rsa"
		echo "status=$?"
		"$FBAC" unwrap less'
	[[ $output == *'Buy milk.'* ]]
	[[ $output != *1234* ]]
	[[ $output == *"removed '"*"/.local/bin/less': 'less' starts unconfined again"* ]]
	[[ $stderr == *"denied file_getattr '"*"/.ssh/id_rsa' for less"* ]]
}

@test "a wrapped program typed in a real shell on a terminal runs confined" {
	run -0 "$FBAC" wrap less
	local script=$BATS_TEST_TMPDIR/shell.sh
	{
		tty_env
		printf 'export PATH=%q\n' "$BIN:$PATH"
		printf 'cd %q\n' "$HOME"
		printf 'exec bash --norc --noprofile -i\n'
	} >"$script"
	tty_run "$script"
	keys 'PS1="ready> "' Enter
	wait_pane 'ready>'
	keys 'type less' Enter
	wait_pane "less is $BIN/less"
	keys 'less Documents/notes.txt' Enter
	wait_pane 'Buy milk.'
	# It is the confined less: fbac-run is its parent.
	local pid
	pid=$(pgrep -x -f '/usr/bin/less Documents/notes.txt' | head -1)
	[[ -n $pid ]]
	[[ $(ps -o args= -p "$(ps -o ppid= -p "$pid" | tr -d ' ')") == "$FBAC_RUN -- /usr/bin/less Documents/notes.txt" ]]
	keys q
	keys 'clear; less .ssh/id_rsa 2>&1 | cat' Enter
	wait_pane "denied file_getattr '$HOME/.ssh/id_rsa' for less"
	[[ $(pane) != *1234* ]]
}

@test "the desktop entry copy runs the wrapper from its Exec line" {
	need_commands vim tmux
	[[ -f /usr/share/applications/vim.desktop ]] ||
		skip_or_fail "vim.desktop is not installed"
	run -0 "$FBAC" wrap vim
	[[ $output == *"desktop entry: '$APPS/vim.desktop' (a copy of '/usr/share/applications/vim.desktop')"* ]]
	grep -qx 'X-Fbac-Wrapped=true' "$APPS/vim.desktop"
	grep -qx "TryExec=$BIN/vim" "$APPS/vim.desktop"
	grep -qx "Exec=$BIN/vim %F" "$APPS/vim.desktop"
	# Everything else as the system's entry has it.
	diff <(grep -v -e '^Exec=' -e '^TryExec=' -e '^X-Fbac-Wrapped=' -e '^#' "$APPS/vim.desktop") \
		<(grep -v -e '^Exec=' -e '^TryExec=' -e '^#' /usr/share/applications/vim.desktop)

	# What a menu does (Terminal=true): run the Exec line, %F the files.
	local exec
	exec=$(sed -n 's/^Exec=//p' "$APPS/vim.desktop" | head -1)
	local script=$BATS_TEST_TMPDIR/menu.sh
	{
		tty_env
		printf 'export PATH=%q\n' "$PATH"
		printf 'cd %q\n' "$HOME"
		printf '%s 2>%q\n' "${exec/\%F/$HOME/Documents/notes.txt}" "$BATS_TEST_TMPDIR/vim.err"
		printf 'echo "vim-status=$?"\nsleep 60\n'
	} >"$script"
	tty_run "$script"
	wait_pane 'Buy milk.'
	pgrep -f "^$FBAC_RUN -- /usr/bin/vim $HOME/Documents/notes.txt" >/dev/null
	# A secret it is not granted stays unread.
	keys ':e ~/.ssh/id_rsa' Enter
	wait_pane '[Permission Denied]'
	[[ $(pane) != *1234* ]]
	keys ':qa!' Enter
	wait_pane 'vim-status=0'
	grep -q "denied file_[a-z]* '$HOME/.ssh/id_rsa' for vim" "$BATS_TEST_TMPDIR/vim.err"
}

@test "the desktop entry is found by its name, else by what its Exec= runs" {
	need_commands python3
	[[ -f /usr/share/applications/python3.11.desktop && $(readlink -f /usr/bin/python3) == /usr/bin/python3.11 ]] ||
		skip_or_fail "python3.11.desktop and /usr/bin/python3 -> python3.11 are Debian 12's"
	# No python3.desktop: the one named after the real program.
	run -0 "$FBAC" wrap python3
	[[ $output == *"desktop entry: '$APPS/python3.11.desktop' (a copy of '/usr/share/applications/python3.11.desktop')"* ]]
	grep -qx "Exec=$BIN/python3" "$APPS/python3.11.desktop"
	run -0 "$FBAC" unwrap python3
	[[ ! -e $APPS/python3.11.desktop && ! -e $BIN/python3 ]]

	# Named otherwise: the first whose Exec= runs the program (by path
	# after symbolic links, after env), in XDG_DATA_DIRS order; the rest
	# of the entry kept.
	local share=$BATS_TEST_TMPDIR/share
	mkdir -p "$share/applications"
	printf '[Desktop Entry]\nName=Pager\nExec=env LESS=R /bin/less %%f\nX-Other=1\n[Desktop Action raw]\nExec=less -r %%f\n' \
		>"$share/applications/org.example.Pager.desktop"
	printf '[Desktop Entry]\nName=Other\nExec=/usr/bin/more %%f\n' >"$share/applications/a-more.desktop"
	XDG_DATA_DIRS=$share:/usr/share run -0 "$FBAC" wrap less
	[[ $output == *"(a copy of '$share/applications/org.example.Pager.desktop')"* ]]
	grep -qx "Exec=env LESS=R $BIN/less %f" "$APPS/org.example.Pager.desktop"
	grep -qx "Exec=$BIN/less -r %f" "$APPS/org.example.Pager.desktop"
	grep -qx 'X-Other=1' "$APPS/org.example.Pager.desktop"
	[[ ! -e $APPS/a-more.desktop ]]
	run -0 "$FBAC" unwrap less
	[[ ! -e $APPS/org.example.Pager.desktop ]]
}

@test "unwrap removes exactly what wrap wrote and refuses what it did not" {
	need_commands vim
	run -0 "$FBAC" wrap vim less
	[[ -f $APPS/vim.desktop ]]
	echo 'keep me' >"$APPS/other.desktop"
	echo 'keep me' >"$BIN/mytool"

	# Files fbac did not write are never replaced nor removed.
	printf '#!/bin/sh\nexec /usr/bin/cat "$@"\n' >"$BIN/cat"
	chmod 755 "$BIN/cat"
	run -1 --separate-stderr "$FBAC" wrap cat
	[[ $stderr == *"refusing to overwrite '$BIN/cat': fbac wrap did not write it"* ]]
	run -1 --separate-stderr "$FBAC" unwrap cat mytool
	[[ $stderr == *"refusing to remove '$BIN/cat': fbac wrap did not write it"* ]]
	[[ $stderr == *"refusing to remove '$BIN/mytool': fbac wrap did not write it"* ]]
	grep -q /usr/bin/cat "$BIN/cat"
	ln -s /usr/bin/tac "$BIN/tac"
	run -1 --separate-stderr "$FBAC" wrap tac
	[[ $stderr == *"refusing to overwrite '$BIN/tac'"* ]]
	[[ -L $BIN/tac ]]
	run -1 --separate-stderr "$FBAC" unwrap nano
	[[ $stderr == *"cannot unwrap 'nano': it is not wrapped (no '$BIN/nano')"* ]]
	# A wrapper made by someone else (owner) is not ours either.
	if [[ $EUID -eq 0 ]]; then
		cp -p "$BIN/less" "$BIN/more"
		chown 65534 "$BIN/more"
		run -1 --separate-stderr "$FBAC" unwrap more
		[[ $stderr == *"refusing to remove '$BIN/more'"* ]]
		rm "$BIN/more"
	fi

	# A desktop entry the user edited (marker gone) is left alone.
	run -0 "$FBAC" wrap less # again: replaces its own wrapper
	sed -i '/^X-Fbac-Wrapped=true$/d' "$APPS/vim.desktop"
	run -1 --separate-stderr "$FBAC" unwrap vim
	[[ $stderr == *"left '$APPS/vim.desktop' alone: fbac wrap did not write it"* ]]
	[[ -f $APPS/vim.desktop && ! -e $BIN/vim ]]
	run -0 "$FBAC" unwrap less
	[[ ! -e $BIN/less ]]

	# What is left is exactly what fbac did not write.
	run -0 bash -c "cd '$HOME/.local' && find . -type f -o -type l | sort"
	[[ $output == "./bin/cat"$'\n'"./bin/mytool"$'\n'"./bin/tac"$'\n'"./share/applications/other.desktop"$'\n'"./share/applications/vim.desktop" ]]

	# A desktop entry of the user's own is never overwritten: nothing
	# is written for the program then.
	run -1 --separate-stderr "$FBAC" wrap vim
	[[ $stderr == *"refusing to overwrite '$APPS/vim.desktop': fbac wrap did not write it (nothing written for 'vim')"* ]]
	[[ ! -e $BIN/vim ]]
	run -0 "$FBAC" wrap --list
	[[ $output == "no program is wrapped in '$BIN'" ]]

	# Wrapped again where it gets no desktop entry: its old copy goes.
	rm "$APPS/vim.desktop"
	run -0 "$FBAC" wrap vim
	[[ -f $APPS/vim.desktop ]]
	XDG_DATA_DIRS=$BATS_TEST_TMPDIR/none run -0 "$FBAC" wrap vim
	[[ $output == *"removed '$APPS/vim.desktop' (the entry of an earlier wrap)"* ]]
	[[ ! -e $APPS/vim.desktop ]]
	grep -qx '# desktop: -' "$BIN/vim"
}

@test "wrap says how to fix a PATH where the wrapper comes after the program" {
	PATH=/usr/bin:$BIN:/bin run -0 --separate-stderr "$FBAC" wrap less
	[[ $stderr == *"'$BIN' comes after the program's directory in PATH, so 'less' still starts '/usr/bin/less' unconfined: add the line 'export PATH=\"\$HOME/.local/bin:\$PATH\"' to ~/.profile"* ]]
	PATH=$BIN:/usr/bin:/bin run -0 --separate-stderr "$FBAC" wrap less
	[[ -z $stderr ]]
}

@test "a confined program cannot write the wrappers nor the desktop entries" {
	need_commands vim
	run -0 "$FBAC" wrap vim
	cp "$BIN/vim" "$BATS_TEST_TMPDIR/vim.before"
	cp "$APPS/vim.desktop" "$BATS_TEST_TMPDIR/desktop.before"
	# The whole home granted for writing, and every system program.
	run --separate-stderr "$FBAC_RUN" --as Read_Write_Directory -D "Read_Write_Directory.dir=$HOME" \
		--as Run_System_Programs sh -c '
		rm -f ~/.local/bin/vim; echo hacked >~/.local/bin/vim
		echo evil >~/.local/bin/ls
		mv ~/.local/share/applications/vim.desktop ~/x.desktop
		echo "Exec=evil" >>~/.local/share/applications/vim.desktop
		echo "[Desktop Entry]" >~/.local/share/applications/evil.desktop
		echo done'
	[[ $output == "done" ]]
	[[ $stderr == *"denied file_delete '$BIN/vim'"* ]]
	[[ $stderr == *"'$BIN/ls'"* ]]
	[[ $stderr == *"'$APPS/vim.desktop'"* ]]
	[[ $stderr == *"'$APPS/evil.desktop'"* ]]
	cmp "$BIN/vim" "$BATS_TEST_TMPDIR/vim.before"
	cmp "$APPS/vim.desktop" "$BATS_TEST_TMPDIR/desktop.before"
	[[ ! -e $BIN/ls && ! -e $APPS/evil.desktop && ! -e $HOME/x.desktop ]]
	# Nor unwrap: fbac itself, confined, is refused too.
	run --separate-stderr "$FBAC_RUN" --as Read_Write_Directory -D "Read_Write_Directory.dir=$HOME" \
		--as Run_Helper_Programs -D "Run_Helper_Programs.programs=$FBAC" \
		--as Read_Only_Directory -D "Read_Only_Directory.dir=$REPO/profiles" "$FBAC" unwrap vim
	((status != 0))
	is_wrapper "$BIN/vim"
	[[ -f $APPS/vim.desktop ]]
}

# The outer program may run this build's fbac-run and read its library
# (an installed fbac lives in /usr/local, which Run_System_Programs and
# Run_Wrapped_Programs grant).
OUTER=(--as Version_Control_Client --as Run_Helper_Programs
	-D "Run_Helper_Programs.programs=$FBAC_RUN"
	--as Read_Only_Directory -D "Read_Only_Directory.dir=$REPO/profiles")

@test "nested: the inner fbac-run adds its landlock layers and static filter" {
	# sh alone may run id; under the inner Text_Viewer it may not.
	run -0 --separate-stderr "$FBAC_RUN" "${OUTER[@]}" sh -c '
		id -u >/dev/null && echo outer-runs-id
		"$FBAC_RUN" -v -l "$HOME/inner.log" --as Text_Viewer -D "Text_Viewer.files=$HOME/Documents" \
			sh -c "read -r l <\"$HOME/Documents/notes.txt\"; echo \"\$l\";
			       while read -r k v; do [ \$k != Seccomp_filters: ] || echo \$k \$v; done </proc/self/status
			       id -u"
		echo "inner=$?"'
	[[ $output == *outer-runs-id* ]]
	[[ $output == *'Buy milk.'* ]]
	[[ $output == *"Seccomp_filters: 2"* ]]
	[[ $output == *inner=126* ]]
	[[ $stderr == *"id: Permission denied"* ]]
	# The outer supervisor refuses it, by the inner policy, with a line.
	[[ $stderr == *"fbac: denied file_execute '/usr/bin/id' for "*"not granted by --as (layer command line, a nested run's policy)"* ]]
	[[ $stderr == *"warning: nested run: no event goes to '$HOME/inner.log'"* ]]
	[[ $stderr == *"fbac: nested run: '/usr/bin/sh' starts under another supervisor (a second seccomp listener is refused: Operation not permitted); this policy is registered with it, which decides the calls of every process of this run by this policy too; adding this policy's landlock layers and the static seccomp filter"* ]]
}

@test "nested: git, confined, runs the wrapped less as its pager" {
	need_commands git tmux
	run -0 "$FBAC" wrap less
	mkdir -p "$HOME/src/repo"
	git -C "$HOME/src/repo" init -q
	git -C "$HOME/src/repo" -c user.name=t -c user.email=t@example.org \
		commit -q --allow-empty -m 'the first commit'
	local script=$BATS_TEST_TMPDIR/git.sh
	{
		tty_env
		printf 'export PATH=%q PAGER=less LESS=R\n' "$BIN:$PATH"
		printf 'cd %q\n' "$HOME/src/repo"
		printf '%q ' "$FBAC_RUN" "${OUTER[@]}" git log
		printf '2>%q\n' "$BATS_TEST_TMPDIR/git.err"
		printf 'echo "git-status=$?"\nsleep 60\n'
	} >"$script"
	tty_run "$script"
	wait_pane 'the first commit'
	# The pager is the wrapped less (the wrapper names /usr/bin/less),
	# under git's filter and its own: two seccomp filters. Its parent is
	# the nested fbac-run, which registered less's policy with git's
	# supervisor and stays until less is gone; git started it.
	local pid p
	for p in $(descendants "$(tmux -S "$TMUX_SOCK" display-message -p '#{pane_pid}')"); do
		[[ $(ps -o args= -p "$p") == /usr/bin/less ]] && pid=$p
	done
	[[ -n $pid ]]
	local parent
	parent=$(ps -o ppid= -p "$pid" | tr -d ' ')
	[[ $(ps -o args= -p "$parent") == "$FBAC_RUN -- /usr/bin/less" ]]
	[[ $(ps -o args= -p "$(ps -o ppid= -p "$parent" | tr -d ' ')") == git\ log ]]
	grep -q '^Seccomp_filters:	2$' "/proc/$pid/status"
	keys q
	wait_pane 'git-status=0'
	# The nested fbac-run's own look at paths git may not see (less's
	# /var/log) only narrows the inner layers: no denial line for it.
	if grep 'fbac: denied' "$BATS_TEST_TMPDIR/git.err"; then
		fail "denial lines in a nested run that works"
	fi
}

@test "nested: git under its own policy runs the wrapped less, fbac installed in ~/.local" {
	need_commands git tmux
	# What 'make install PREFIX=~/.local' puts where git's policy
	# (Run_Wrapped_Programs) lets a nested fbac-run reach it.
	install -Dm0755 "$FBAC" "$BIN/fbac"
	install -Dm0755 "$FBAC_RUN" "$BIN/fbac-run"
	mkdir -p "$HOME/.local/share"
	cp -R "$REPO/profiles" "$HOME/.local/share/fbac"
	export FBAC_DATADIR=$HOME/.local/share/fbac
	run -0 "$BIN/fbac" wrap less
	grep -qxF "exec '$BIN/fbac-run' -- '/usr/bin/less' \"\$@\"" "$BIN/less"
	mkdir -p "$HOME/src/repo"
	git -C "$HOME/src/repo" init -q
	git -C "$HOME/src/repo" -c user.name=t -c user.email=t@example.org \
		commit -q --allow-empty -m 'the second commit'
	local script=$BATS_TEST_TMPDIR/git.sh
	{
		tty_env
		printf 'export PATH=%q PAGER=less LESS=R\n' "$BIN:$PATH"
		printf 'cd %q\n' "$HOME/src/repo"
		printf 'fbac-run git log 2>%q\n' "$BATS_TEST_TMPDIR/git.err"
		printf 'echo "git-status=$?"\nsleep 60\n'
	} >"$script"
	tty_run "$script"
	wait_pane 'the second commit'
	local pid p
	for p in $(descendants "$(tmux -S "$TMUX_SOCK" display-message -p '#{pane_pid}')"); do
		[[ $(ps -o args= -p "$p") == /usr/bin/less ]] && pid=$p
	done
	[[ -n $pid ]]
	grep -q '^Seccomp_filters:	2$' "/proc/$pid/status"
	keys q
	wait_pane 'git-status=0'
	if grep 'fbac: ' "$BATS_TEST_TMPDIR/git.err"; then
		fail "fbac printed something in a nested run that works"
	fi
}

@test "wrap --system is for root and writes /usr/local/bin" {
	require_unprivileged
	run -2 --separate-stderr run_unprivileged "$FBAC" wrap --system jq
	[[ $stderr == *"cannot use --system as uid "[1-9]*": it writes /usr/local/bin and /usr/local/share/applications for every user (run it as root)"* ]]
	run -2 --separate-stderr run_unprivileged "$FBAC" unwrap --system jq
	[[ $stderr == *"cannot use --system as uid "[1-9]* ]]
	[[ $EUID -eq 0 ]] || return 0
	need_commands jq
	[[ ! -e /usr/local/bin/jq ]] || skip_or_fail "/usr/local/bin/jq exists already"
	SYSTEM_WRAPPED=jq
	run -0 "$FBAC" wrap --system jq
	is_wrapper /usr/local/bin/jq
	PATH=/usr/local/bin:$PATH run -0 jq -n '1+1'
	[[ $output == 2 ]]
	run -0 "$FBAC" wrap --list --system
	[[ $output == *"jq	/usr/bin/jq"* ]]
	run -0 "$FBAC" unwrap --system jq
	[[ ! -e /usr/local/bin/jq ]]
}

@test "aliases: one per installed program with an application policy" {
	run -0 "$FBAC" wrap less
	run -0 "$FBAC" aliases bash
	[[ ${lines[0]} == "# fbac aliases (bash): programs with an application policy run confined" ]]
	[[ $output == *"alias tar='$FBAC_RUN /usr/bin/tar'"* ]]
	[[ $output == *"# less: wrapped in '$BIN' already"* ]]
	[[ $output != *"alias less="* ]]
	run -0 "$FBAC" aliases fish
	[[ $output == *"function tar --wraps tar; $FBAC_RUN /usr/bin/tar \$argv; end"* ]]
	run -2 --separate-stderr "$FBAC" aliases csh
	[[ $stderr == *"unknown shell 'csh' (expected bash, zsh or fish)"* ]]

	# As a shell's rc file uses them.
	cat >"$BATS_TEST_TMPDIR/rc.sh" <<-EOF
		shopt -s expand_aliases
		eval "\$("$FBAC" aliases bash)"
		tar -cf - "$HOME/.ssh/id_rsa" | wc -c
	EOF
	run --separate-stderr bash "$BATS_TEST_TMPDIR/rc.sh"
	# Archive_Manager's metadata is visible: tar sees the key exists, and
	# is refused reading it.
	[[ $stderr == *"denied file_read '$HOME/.ssh/id_rsa' for tar"* ]]
}

@test "fbac wrap firefox (Debian's launcher script) as typed: the wrapped firefox takes a screenshot, no denial, unprivileged" {
	need_commands firefox firefox-esr
	require_unprivileged
	mkdir -p "$HOME/Downloads"
	run -0 --separate-stderr run_unprivileged bash -c '
		"$FBAC" wrap firefox || exit 9
		export PATH=$HOME/.local/bin:$PATH
		[ "$(command -v firefox)" = "$HOME/.local/bin/firefox" ] || exit 8
		timeout 120 firefox --headless --screenshot ~/Downloads/notes.png \
			"file://$HOME/Documents/notes.txt" || exit 7
		[ -s ~/Downloads/notes.png ] || exit 6
		"$FBAC" unwrap firefox'
	[[ $stderr != *"fbac: denied"* ]] || { printf '%s\n' "$stderr" >&2; false; }
	[[ $output == *"wrapped 'firefox': "*"runs '/usr/bin/firefox' confined"* ]]
	[[ $output == *"'firefox' starts unconfined again"* ]]
}

@test "README: a wrapped firefox-esr takes a headless screenshot, unprivileged" {
	need_commands firefox-esr
	require_unprivileged
	mkdir -p "$HOME/Downloads"
	run -0 --separate-stderr run_unprivileged bash -c '
		"$FBAC" wrap firefox-esr >/dev/null || exit 9
		export PATH=$HOME/.local/bin:$PATH
		[ "$(command -v firefox-esr)" = "$HOME/.local/bin/firefox-esr" ] || exit 8
		timeout 120 firefox-esr --headless --screenshot ~/Downloads/notes.png \
			"file://$HOME/Documents/notes.txt" || exit 7
		[ -s ~/Downloads/notes.png ] || exit 6
		grep -qx "Exec=$HOME/.local/bin/firefox-esr %u" \
			~/.local/share/applications/firefox-esr.desktop || exit 5
		"$FBAC" unwrap firefox-esr'
	[[ $stderr != *"fbac: denied"* ]]
	[[ $output == *"'firefox-esr' starts unconfined again"* ]]
}
