#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What a browser's own sandbox does inside fbac's, one step at a time
# (Chromium's sandbox/linux: credentials.cc, proc_util.cc), with python3:
#   - a user namespace made inside another one maps its ids: the
#     supervisor opens its uid_map and gid_map from the parent namespace
#     (sup-idmap.c), as the kernel requires of the opener;
#   - names relative to a descriptor of /proc reach the caller's own
#     entries: "self/fd" from /proc, "N" from /proc/self/fd (a descriptor
#     it holds), also after the process changed its root to a directory
#     without /proc (sup-path.c).
# Unconfined, each step works; each test runs it unconfined first.

# shellcheck disable=SC2154 # bats sets output, stderr, lines, stderr_lines

bats_require_minimum_version 1.5.0

load helpers

PY=/usr/bin/python3

setup() {
	[[ -x $FBAC_RUN ]] || fail "no $FBAC_RUN: run make"
	need_commands "$PY"
}

# The same user namespace nesting as Chromium's zygote: two levels, each
# maps its own ids (setgroups deny, gid_map, uid_map).
NEST='import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
for n in (1, 2):
    uid, gid = os.getuid(), os.getgid()
    if libc.unshare(0x10000000) != 0:
        print("level", n, "unshare:", os.strerror(ctypes.get_errno())); break
    try:
        for f, v in (("setgroups", "deny"), ("gid_map", f"{gid} {gid} 1"), ("uid_map", f"{uid} {uid} 1")):
            with open("/proc/self/" + f, "w") as fh:
                fh.write(v)
        print("level", n, "mapped", flush=True)
    except OSError as e:
        print("level", n, e.strerror); break'

# bats test_tags=fn:Nested_Sandbox
@test "Nested_Sandbox (uid 65534): a user namespace inside another one maps its ids; no denial" {
	require_unprivileged
	run --separate-stderr run_unprivileged "$PY" -I -S -c "$NEST"
	[[ $output == *'level 1 mapped'*'level 2 mapped'* ]] ||
		{ show_run; skip_kernel_feature "unconfined, uid 65534 cannot nest user namespaces here"; }
	run --separate-stderr run_unprivileged "$FBAC_RUN" --as Basic_Runtime --as Nested_Sandbox \
		"$PY" -I -S -c "$NEST"
	expect_status 0
	[[ $output == *'level 1 mapped'*'level 2 mapped'* ]] ||
		{ show_run; fail "expected both levels mapped"; }
	[[ $stderr != *'fbac: denied'* ]] || { show_run; fail "a denial"; }
	# Without Nested_Sandbox the maps stay closed, and say so.
	run --separate-stderr run_unprivileged "$FBAC_RUN" --as Basic_Runtime "$PY" -I -S -c "$NEST"
	[[ $output != *'level 1 mapped'* ]] || { show_run; fail "mapped without Nested_Sandbox"; }
}

# "self/fd" from a descriptor of /proc; a descriptor's number from one of
# /proc/self/fd (Chromium stats each entry so, proc_util.cc); and the
# same with the pid spelt out.
PROCREL='import os, stat
p = os.open("/proc", os.O_RDONLY | os.O_DIRECTORY)
d = os.open("/proc/self/fd", os.O_RDONLY | os.O_DIRECTORY)
print("self", stat.S_ISDIR(os.stat("self/fd", dir_fd=p).st_mode), flush=True)
print("fd", stat.S_ISDIR(os.stat(str(p), dir_fd=d).st_mode), flush=True)
print("pid", stat.S_ISDIR(os.stat(f"{os.getpid()}/fd/{p}", dir_fd=p).st_mode), flush=True)'

procrel_check() {
	run --separate-stderr "$@" "$PY" -I -S -c "$PROCREL"
	expect_status 0
	[[ $output == $'self True\nfd True\npid True' ]] || { show_run; fail "expected three directories"; }
}

@test "names relative to a descriptor of /proc reach the caller's own entries (root and uid 65534)" {
	require_unprivileged
	procrel_check env
	procrel_check "$FBAC_RUN" --as Basic_Runtime --as Read_Only_Directory -D Read_Only_Directory.dir=/proc
	[[ $stderr != *'fbac: denied'* ]] || { show_run; fail "a denial"; }
	procrel_check run_unprivileged "$FBAC_RUN" --as Basic_Runtime --as Read_Only_Directory \
		-D Read_Only_Directory.dir=/proc
	[[ $stderr != *'fbac: denied'* ]] || { show_run; fail "a denial"; }
}

# bats test_tags=fn:Nested_Sandbox
@test "Nested_Sandbox (uid 65534): \"self/fd\" from a descriptor of /proc, after chroot into a directory without /proc" {
	require_unprivileged
	mkdir -p "$HOME/jail"
	local uhome
	uhome=$(unprivileged_home)
	local jail='import ctypes, os, stat, sys
libc = ctypes.CDLL(None, use_errno=True)
p = os.open("/proc", os.O_RDONLY | os.O_DIRECTORY)
if libc.unshare(0x10000000) != 0:
    sys.exit("unshare: " + os.strerror(ctypes.get_errno()))
os.chroot(sys.argv[1]); os.chdir("/")
print("self", stat.S_ISDIR(os.stat("self/fd", dir_fd=p).st_mode), flush=True)'
	run --separate-stderr run_unprivileged "$PY" -I -S -c "$jail" "$HOME/jail"
	[[ $output == 'self True' ]] ||
		{ show_run; skip_kernel_feature "unconfined, uid 65534 cannot make a user namespace here"; }
	run --separate-stderr run_unprivileged "$FBAC_RUN" --as Basic_Runtime --as Nested_Sandbox \
		--as Read_Only_Directory -D "Read_Only_Directory.dir=/proc,$uhome/jail" \
		"$PY" -I -S -c "$jail" "$HOME/jail"
	expect_status 0
	[[ $output == 'self True' ]] || { show_run; fail "expected: self True"; }
	[[ $stderr != *'fbac: denied'* ]] || { show_run; fail "a denial"; }
}
