#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What does fbac-run cost on real workloads, next to its peers? Run by
# `make bench` (which sets FBAC_BUILD), or by hand:
#
#   FBAC_BUILD=build bash bench/bench-run.sh
#
# For each workload it measures wall-clock medians natively, under fbac-run
# (a fitting shipped functionality, library profiles/), under
# `strace -f -qq -o /dev/null` (the ptrace anchor), under bubblewrap and
# under firejail, and prints one table: the medians in ms and, in
# parentheses, the ratio to native measured in the same run. A peer that is
# not installed shows n/a; nothing here is required but bash, coreutils and
# a C compiler. Numbers, no pass/fail: the script fails only if it cannot
# run at all.
#
# The optional tools (benchmarks are not run by CI, so .ci/ does not
# install them):
#
#   apt-get install -y hyperfine bubblewrap firejail strace
#
# Without hyperfine a bash loop times the runs, the sandboxes interleaved
# run by run (bash's EPOCHREALTIME, or date +%s%N), and takes the median. Before timing, every command runs once (this also warms the
# caches); its exit status is compared with native, and under fbac-run its
# --log is read: the `notes` column says when a run failed or fbac-run denied
# something, because such a figure measures something else than the
# workload.
#
# The measured bounds of a supervisor (bench-emulate-floor, columns next
# to native, same interleaved runs): `bare` answers every notified open
# (and, where the policy mediates metadata, stat) with CONTINUE unseen;
# `exact` is a supervisor with no policy that does only what an exact
# decision needs (copy the name, name it from the root, openat2 with
# RESOLVE_NO_MAGICLINKS, fstat, answer CONTINUE or the stat written back,
# close); `inject` the same with the open made by the supervisor and its
# descriptor injected. `kernel` is the floor of fbac-run's own policy:
# the Landlock rules and the seccomp filter that fbac-run makes for that
# workload (read once from `strace` of fbac-run running it), made by
# bench-startup-floor, whose listener continues every notified call
# unseen; what fbac-run costs above it is its own work (its start-up and
# its decisions), what it costs below is what any launcher with those
# rules and that filter pays (needs strace; not for firefox and the
# start-ups, which have their own bound). A second table gives the ratios
# between them and fbac-run. Then the start-up bound: the Landlock rules and the seccomp
# filter of Version_Control_Client, read from `strace` of fbac-run and
# made by bench-startup-floor alone, timed with `true` and fbac-run
# (bench-interleave, BENCH_STARTUP_ROUNDS, default 201; needs strace),
# Version_Control_Client's and Text_Viewer's start-ups in the same rounds
# (run with BENCH_ONLY holding startup or startup-vcc).
#
# Then the user-notification floor (bench-notify-floor), and for each
# workload what the supervisor did (fbac-run -v: calls decided, continued,
# receivers, peak resident size) with the bound the floor alone sets: the
# native time plus one bare answer per decided call.
#
# Workloads (all run with the working directory in a scratch tree $WORK):
#   open/stat   tests/progs/bench-openstat: BENCH_N (20000) open+close, then
#               BENCH_N stat, of files in $WORK and /etc/passwd; also prints
#               its own microseconds per operation (second table)
#   compile     gcc -O2 -c of four files of lib/ (copied to $WORK)
#   make-j2     make -j2 of a copy of lib/
#   git-status  git status --porcelain in a repository of 5000 files
#               (Version_Control_Client: metadata visible)
#   git-status-mediated  the same with -D metadata=mediated
#   find        find /usr -xdev (Text_Viewer: metadata mediated)
#   find-visible  the same with -D metadata=visible
#   tar         tar -cf /dev/null /usr/include (Archive_Manager: visible)
#   tar-mediated  the same with -D metadata=mediated
#   python      /usr/bin/python3 -c 'import email, json, http.client'
#   firefox     firefox-esr --headless --screenshot of a page served on
#               127.0.0.1 (python3's http.server, started here), its
#               shipped application policy (Web_Browser: metadata
#               mediated) with -D ports= that port, HOME a scratch
#               directory: the time to a finished screenshot, median of
#               BENCH_FIREFOX_RUNS (5) whatever BENCH_RUNS is; left out
#               when firefox-esr is not installed. bwrap shares the
#               network for it (the server is outside its namespace)
#   startup     /bin/true (what launching costs), the cache warm (every
#               run after the first): the compiled policy from it, no
#               policy file read, the seccomp filter from it
#   startup-vcc the same as Version_Control_Client (metadata visible: the
#               smaller filter), the policy of the git-status row
#   startup-floor  the same rules as startup's Text_Viewer policy, from a
#               library of one functionality (written from fbac-run -n
#               --as Text_Viewer) and protected.yaml: what a start costs
#               whatever the library's size
#   startup-cold  the same with no usable cache (the first run, or a cache
#               directory that cannot be written): fbac-run is started by
#               env(1) with XDG_CACHE_HOME unwritable, so its column
#               includes the exec of env(1), about as dear as `true`'s
#
# Environment: FBAC_BUILD (build directory, default build/), BENCH_RUNS
# (timed runs per cell, default 5, at least 5 is sensible), BENCH_N,
# BENCH_ONLY (a space-separated subset of the workload names above),
# BENCH_FIREFOX_RUNS (the firefox row's runs, default 5),
# BENCH_WITHOUT (tools to treat as not installed, e.g. "hyperfine strace";
# without the strace column, the kernel column and the start-up bound still
# read fbac-run's rules with strace where it is installed),
# BENCH_KEEP=1 (keep the scratch tree).
# A full run takes about 4 minutes on 2 cores, mostly strace.
#
# docs/performance.md has the figures against issue 20's targets, and
# what each remaining gap costs.
#
# The machine this project is measured on is a noisy 2-vCPU VM: ratios
# within about +-15% of 1.0 mean nothing (docs: shared research notes,
# perf-baselines.md).

set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${FBAC_BUILD:-$REPO/build}
case $BUILD in
/*) ;;
*) BUILD=$REPO/$BUILD ;;
esac
FBAC_RUN=$BUILD/fbac-run
RUNS=${BENCH_RUNS:-5}
N=${BENCH_N:-20000}
ONLY=${BENCH_ONLY:-}

if [[ ! -x $FBAC_RUN ]]; then
	echo "bench-run: no $FBAC_RUN: run make" >&2
	exit 1
fi
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "bench-run: BENCH_RUNS: not a number" >&2; exit 1; }

# The shipped library; never the user's or an administrator's test layer.
export FBAC_DATADIR=$REPO/profiles
unset FBAC_ADMIN_DIR
export LC_ALL=C
# The workloads as on a plain Debian system: no toolchain variables of the
# machine (a CUDA install sends gcc to look outside what a policy grants).
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
unset LIBRARY_PATH LD_LIBRARY_PATH CPATH C_INCLUDE_PATH CUDA_HOME

WORK=$(mktemp -d "${TMPDIR:-/tmp}/fbac-bench.XXXXXX") || exit 1
WORK=$(cd "$WORK" && pwd -P)
if [[ $WORK == *[[:space:]]* ]]; then
	echo "bench-run: the scratch directory '$WORK' has blanks; set TMPDIR" >&2
	rm -rf -- "$WORK"
	exit 1
fi
trap '[[ -n ${BENCH_KEEP:-} ]] || rm -rf -- "$WORK"' EXIT
mkdir -p "$WORK/tmp" "$WORK/src" "$WORK/data" "$WORK/home/.config/fbac"
# gcc's temporary files go where every sandbox lets it write.
export TMPDIR=$WORK/tmp
# No user layer of the person running the bench.
export FBAC_USER_DIR=$WORK/home/.config/fbac
cd "$WORK" || exit 1

# have TOOL: installed, and not listed in BENCH_WITHOUT (a space-separated
# list of tools to treat as missing, to try the fallbacks).
have() {
	[[ " ${BENCH_WITHOUT:-} " != *" $1 "* ]] && command -v "$1" >/dev/null 2>&1
}

# ---------------------------------------------------------------- helpers
# The open/stat program: the built one if it is up to date, else compiled
# here.
OPENSTAT=$BUILD/tests/progs/bench-openstat
if [[ ! -x $OPENSTAT || $REPO/tests/progs/bench-openstat.c -nt $OPENSTAT ]]; then
	OPENSTAT=$WORK/bench-openstat
	if ! ${CC:-cc} -O2 -o "$OPENSTAT" "$REPO/tests/progs/bench-openstat.c"; then
		echo "bench-run: cannot compile tests/progs/bench-openstat.c" >&2
		exit 1
	fi
fi
for i in 0 1 2 3; do
	printf 'bench data %d\n' "$i" >"$WORK/data/f$i"
done
cp "$REPO"/lib/*.c "$REPO"/lib/*.h "$WORK/src/"
# make -j2: libfbac's sources as a small real project.
mkdir -p "$WORK/proj"
cp "$REPO"/lib/*.c "$REPO"/lib/*.h "$WORK/proj/"
{
	printf 'CFLAGS = -O2 -std=gnu11 -D_GNU_SOURCE\n'
	printf 'OBJS = $(patsubst %%.c,%%.o,$(wildcard *.c))\n'
	printf 'libp.a: $(OBJS)\n\tar rcs $@ $^\n'
} >"$WORK/proj/Makefile"
# git status: a repository of 5000 files in 50 directories, committed.
mkdir -p "$WORK/repo"
for d in $(seq 1 50); do
	mkdir -p "$WORK/repo/d$d"
	for f in $(seq 1 100); do
		printf 'file %d of %d\n' "$f" "$d" >"$WORK/repo/d$d/f$f.txt"
	done
done
if ! { git -C "$WORK/repo" init -q &&
	git -C "$WORK/repo" add -A &&
	git -C "$WORK/repo" -c user.name=bench -c user.email=bench@localhost \
		commit -q -m bench; } >/dev/null 2>&1; then
	echo "bench-run: cannot make the git repository" >&2
	exit 1
fi

# startup-floor's library: Text_Viewer's rules as one functionality.
mkdir -p "$WORK/floorlib"
cp "$REPO/profiles/protected.yaml" "$WORK/floorlib/"
"$FBAC_RUN" -n --full --as Text_Viewer -D "Text_Viewer.files=$WORK" /bin/true 2>/dev/null |
	awk 'BEGIN { print "fbac: 1\nfunctionality: Floor\ncategory: files"
		     print "description: Text_Viewer'"'"'s rules in one functionality\nprivileges:" }
	     /^privileges:/ { p = 1; next }
	     /^[a-z]/ { p = 0 }
	     p && $1 == "allow" && NF == 3 { n++
		printf "  - access: [%s]\n    paths: [\"%s\"]\n", $2, $3 }
	     END { exit n ? 0 : 1 }' >"$WORK/floorlib/floor.yaml" ||
	rm -rf "$WORK/floorlib"

PY=/usr/bin/python3
[[ -x $PY ]] || PY=$(command -v python3 || echo /usr/bin/python3)

# ---------------------------------------------------------------- workloads
# name | fbac-run options (one per line in FBAC_OPTS) | command
declare -a W_NAMES=() W_CMDS=()
declare -A FBAC_OPTS=() W_DATADIR=() W_HOME=() W_RUNS=() W_META=()

workload() {
	local name=$1 opts=$2
	shift 2
	if [[ -n $ONLY && " $ONLY " != *" $name "* ]]; then
		return
	fi
	W_NAMES+=("$name")
	W_CMDS+=("$(quote "$@")")
	FBAC_OPTS[$name]=$opts
}

# quote ARG...: one command line, each argument single-quoted (what
# hyperfine -N and our own runner split again).
quote() {
	local a out=
	for a; do
		out+="'${a//\'/\'\\\'\'}' "
	done
	printf '%s' "${out% }"
}

# split STRING: set CMD to the words of a line made by quote.
split() {
	eval "CMD=($1)"
}

# The fbac-run options are words: $WORK has no blanks (mktemp's name under
# TMPDIR), checked below. The policies are the shipped high-level ones a
# user would pick for each job; the home's secrets stay carved out.
workload open/stat "--as Text_Viewer -D Text_Viewer.files=$WORK" \
	"$OPENSTAT" "$N" "$WORK/data/f0" "$WORK/data/f1" "$WORK/data/f2" \
	"$WORK/data/f3" /etc/passwd
workload compile "--as Software_Build -D Software_Build.sources=$WORK" \
	gcc -O2 -std=gnu11 -D_GNU_SOURCE -iquote "$WORK/src" -c \
	"$WORK/src/path.c" "$WORK/src/policy.c" "$WORK/src/resolve.c" \
	"$WORK/src/profile.c"
workload make-j2 "--as Software_Build -D Software_Build.sources=$WORK" \
	make -s -j2 -C "$WORK/proj" -B
# Version_Control_Client, Archive_Manager, Software_Build and
# Script_Interpreter ship metadata visible; the *-mediated rows are the
# same with -D metadata=mediated (what every release before did), and
# find-visible is Text_Viewer (mediated) with -D metadata=visible.
workload git-status "--as Version_Control_Client -D Version_Control_Client.repos=$WORK" \
	git -C "$WORK/repo" status --porcelain
workload git-status-mediated "--as Version_Control_Client -D Version_Control_Client.repos=$WORK -D metadata=mediated" \
	git -C "$WORK/repo" status --porcelain
workload find "--as Text_Viewer -D Text_Viewer.files=/usr,$WORK" \
	find /usr -xdev
workload find-visible "--as Text_Viewer -D Text_Viewer.files=/usr,$WORK -D metadata=visible" \
	find /usr -xdev
# tar stat(2)s / itself: Read_Only_Files grants just that.
workload tar "--as Archive_Manager --as Read_Only_Files -D Archive_Manager.sources=/usr/include -D Archive_Manager.destinations=$WORK -D Read_Only_Files.files=/" \
	tar -cf /dev/null /usr/include
workload tar-mediated "--as Archive_Manager --as Read_Only_Files -D Archive_Manager.sources=/usr/include -D Archive_Manager.destinations=$WORK -D Read_Only_Files.files=/ -D metadata=mediated" \
	tar -cf /dev/null /usr/include
# http.client imports ssl, which reads the OpenSSL configuration.
workload python "--as Script_Interpreter --as TLS_Certificates -D Script_Interpreter.projects=$WORK" \
	"$PY" -c 'import email, json, http.client'
# firefox: the page and its server, only when the row is asked for.
firefox_row() {
	local port
	if [[ -n $ONLY && " $ONLY " != *" firefox "* ]]; then
		return
	fi
	if ! have firefox-esr || [[ ! -x $PY ]]; then
		echo "bench-run: firefox-esr or python3 is not installed: the firefox row is left out" >&2
		return
	fi
	mkdir -p "$WORK/www" "$WORK/ffhome"
	cat >"$WORK/www/index.html" <<-'EOF'
		<!doctype html><html><head><title>fbac bench page</title></head>
		<body style="background:#ff0000;margin:0">
		<div style="width:400px;height:200px;background:#00ff00"></div>
		<h1 style="color:#0000ff;font-size:64px">fbac bench page</h1>
		</body></html>
	EOF
	# A port the kernel picks, written once the server listens.
	"$PY" -c 'import functools, http.server, sys
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
h.log_message = lambda *a: None
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), h)
open(sys.argv[2] + ".tmp", "w").write(str(s.server_address[1]))
__import__("os").rename(sys.argv[2] + ".tmp", sys.argv[2])
s.serve_forever()' "$WORK/www" "$WORK/www.port" </dev/null >/dev/null 2>&1 &
	HTTP_PID=$!
	for _ in $(seq 1 100); do
		[[ -s $WORK/www.port ]] && break
		sleep 0.05
	done
	if ! port=$(cat "$WORK/www.port" 2>/dev/null) || [[ -z $port ]]; then
		echo "bench-run: the loopback server did not start: the firefox row is left out" >&2
		return
	fi
	workload firefox "-D ports=80,443,$port" \
		firefox-esr --headless --screenshot "$WORK/ffhome/shot.png" \
		"http://127.0.0.1:$port/index.html"
	W_HOME[firefox]=$WORK/ffhome
	W_RUNS[firefox]=${BENCH_FIREFOX_RUNS:-5}
}
HTTP_PID=
trap '[[ -z $HTTP_PID ]] || kill "$HTTP_PID" 2>/dev/null
	[[ -n ${BENCH_KEEP:-} ]] || rm -rf -- "$WORK"' EXIT
firefox_row
workload startup "--as Text_Viewer -D Text_Viewer.files=$WORK" /bin/true
workload startup-vcc "--as Version_Control_Client -D Version_Control_Client.repos=$WORK" /bin/true
if [[ -d $WORK/floorlib ]]; then
	workload startup-floor "--as Floor" /bin/true
	W_DATADIR[startup-floor]=$WORK/floorlib
else
	echo "bench-run: cannot write startup-floor's library: left out" >&2
fi
workload startup-cold "--as Text_Viewer -D Text_Viewer.files=$WORK" /bin/true
# Where the policy mediates metadata (the bounds' supervisor then
# notifies the stat family too).
for name in open/stat find git-status-mediated tar-mediated firefox startup; do
	W_META[$name]=mediated
done

# in_env NAME CMD...: run CMD with the library and the HOME of workload
# NAME (variables, not env(1): nothing more is timed).
in_env() {
	local name=$1
	shift
	FBAC_DATADIR=${W_DATADIR[$name]:-$FBAC_DATADIR} HOME=${W_HOME[$name]:-$HOME} "$@"
}

# ---------------------------------------------------------------- sandboxes
MODES=(native bare exact inject kernel fbac-run supervised strace bwrap firejail)
declare -A AVAIL=([native]=1 [fbac-run]=1 [supervised]=1)
# The measured bounds of a supervisor (bench-emulate-floor): bare answers,
# a minimal exact supervisor that continues opens, one that injects them.
EMULATE=$BUILD/bench/bench-emulate-floor
if [[ -x $EMULATE ]]; then
	AVAIL[bare]=1 AVAIL[exact]=1 AVAIL[inject]=1
else
	echo "bench-run: no $EMULATE (make bench): the bare, exact and inject columns are n/a" >&2
fi

# runs MODE NAME: whether workload NAME is run in MODE. The bounds are
# left out where they say nothing new: firefox (one receiver for all its
# processes would measure that receiver) and the other start-ups.
runs() {
	[[ -n ${AVAIL[$1]:-} ]] || return 1
	case $1,$2 in
	bare,firefox | exact,firefox | inject,firefox) return 1 ;;
	bare,startup-* | exact,startup-* | inject,startup-*) return 1 ;;
	kernel,*) [[ -s $(kernel_file "$2" rules) && -s $(kernel_file "$2" bpf) ]] || return 1 ;;
	esac
	return 0
}

# kernel_file NAME rules|bpf: where workload NAME's rules and filter are.
kernel_file() {
	printf '%s/kernel-%s.%s' "$WORK" "${1//\//-}" "$2"
}

# rules_of STRACE: the Landlock rules in fbac-run's `strace -f -y -v -e
# trace=landlock_add_rule,seccomp`, as bench-startup-floor reads them:
# "LAYER PATH" a rule, LAYER the rule set's rank; "@port" a port rule.
rules_of() {
	awk '/landlock_add_rule\(/ && / = 0$/ {
		match($0, /landlock_add_rule\([0-9]+/)
		fd = substr($0, RSTART + 18, RLENGTH - 18)
		if (!(fd in L)) L[fd] = n++
		if (match($0, /parent_fd=[0-9]+<.*>\}, 0\) = 0$/)) {
			p = substr($0, RSTART, RLENGTH)
			sub(/^parent_fd=[0-9]+</, "", p)
			sub(/>\}, 0\) = 0$/, "", p)
			print L[fd], p
		} else if ($0 ~ /, 0x2 /) print L[fd], "@port"
	}' "$1"
}

STARTUP_FLOOR=$BUILD/bench/bench-startup-floor
# kernel_files: each workload's rules and filter, from one strace of
# fbac-run running it (its program decides what --as infers).
kernel_files() {
	local i name st
	# strace reads the rules, as for the start-up bound below: leaving
	# out the strace column (BENCH_WITHOUT) does not leave out this one.
	if [[ ! -x $STARTUP_FLOOR ]] || ! command -v strace >/dev/null 2>&1; then
		echo "bench-run: the kernel column needs strace and $STARTUP_FLOOR: n/a" >&2
		return
	fi
	for i in "${!W_NAMES[@]}"; do
		name=${W_NAMES[$i]}
		[[ $name != firefox && $name != startup* ]] || continue
		st=$(kernel_file "$name" strace)
		split "$(cmdline fbac-run "$i")"
		in_env "$name" strace -f -y -v -s 1000000 -o "$st" \
			-e trace=landlock_add_rule,seccomp "${CMD[@]}" >/dev/null 2>&1 </dev/null
		rules_of "$st" >"$(kernel_file "$name" rules)"
		awk -f "$REPO/bench/bpf-from-strace.awk" "$st" >"$(kernel_file "$name" bpf)" ||
			rm -f "$(kernel_file "$name" bpf)"
	done
	AVAIL[kernel]=1
}
have strace && AVAIL[strace]=1
have bwrap && AVAIL[bwrap]=1
have firejail && AVAIL[firejail]=1

# prefix MODE WORKLOAD [LOG]: the command line put before the workload.
prefix() {
	local mode=$1 name=$2 log=${3:-}
	local -a p=()
	case $mode in
	native) ;;
	bare | exact | inject)
		p=("$EMULATE" -m "$mode")
		# The stat family too where fbac-run's policy mediates it.
		[[ ${W_META[$name]:-visible} != mediated ]] || p+=(-s)
		;;
	kernel) p=("$STARTUP_FLOOR" "$(kernel_file "$name" rules)" "$(kernel_file "$name" bpf)") ;;
	fbac-run | supervised)
		p=("$FBAC_RUN" -q)
		# No cache it could use or write: what a first run costs.
		[[ $name != startup-cold ]] ||
			p=(env XDG_CACHE_HOME=/proc/fbac-bench-no-cache "$FBAC_RUN" -q)
		[[ $mode == fbac-run ]] || p+=(--supervise-all)
		[[ -z $log ]] || p+=("--log=$log")
		# shellcheck disable=SC2206 # the options are words
		p+=(${FBAC_OPTS[$name]})
		;;
	strace) p=(strace -f -qq -o /dev/null) ;;
	bwrap)
		p=(bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all
			--die-with-parent --bind "$WORK" "$WORK" --chdir "$WORK")
		# The loopback server is in our network namespace.
		[[ $name != firefox ]] || p+=(--share-net)
		;;
	firejail) p=(firejail --quiet --noprofile) ;;
	esac
	[[ ${#p[@]} -eq 0 ]] || quote "${p[@]}"
}

# cmdline MODE INDEX [LOG]: the full command line of a cell.
cmdline() {
	local p
	p=$(prefix "$1" "${W_NAMES[$2]}" "${3:-}")
	printf '%s%s' "${p:+$p }" "${W_CMDS[$2]}"
}

# ---------------------------------------------------------------- checking
# One run of each cell: exit status (compared with native), fbac-run's
# denials, and bench-openstat's own figures.
declare -A STATUS=() NOTES=() OPENSTAT_OUT=()

check_cells() {
	local i mode name line log rc den
	for i in "${!W_NAMES[@]}"; do
		name=${W_NAMES[$i]}
		for mode in "${MODES[@]}"; do
			runs "$mode" "$name" || continue
			log=
			if [[ $mode == fbac-run || $mode == supervised ]]; then
				log=$WORK/check.log
				rm -f "$log"
			fi
			split "$(cmdline "$mode" "$i" "$log")"
			rc=0
			in_env "$name" "${CMD[@]}" >"$WORK/check.out" 2>"$WORK/check.err" </dev/null || rc=$?
			STATUS[$name,$mode]=$rc
			if [[ $name == open/stat ]]; then
				OPENSTAT_OUT[$mode]=$(grep -o 'open+close_us=.*' "$WORK/check.out")
			fi
			line=
			if [[ $mode != native && $rc != "${STATUS[$name,native]}" ]]; then
				line="$mode exit $rc (native ${STATUS[$name,native]})"
			fi
			if [[ -n $log ]]; then
				den=0
				[[ ! -f $log ]] || den=$(grep -c '"decision": "deny"' "$log")
				if [[ $den -gt 0 ]]; then
					line="${line:+$line, }fbac-run $den denials: $(grep -o '"operation": "[a-z_]*", "object": "[^"]*"' "$log" |
						head -n 2 | sed 's/"operation": "\([^"]*\)", "object": "\([^"]*\)"/\1 \2/' |
						paste -sd ';' -)"
				fi
			fi
			if [[ -n $line ]]; then
				NOTES[$name]="${NOTES[$name]:+${NOTES[$name]}; }$line"
				if [[ $rc != 0 ]]; then
					NOTES[$name]+=" [$(head -n 1 "$WORK/check.err" | cut -c1-80)]"
				fi
			fi
		done
	done
}

# ---------------------------------------------------------------- timing
declare -A MEDIAN=()

# median_of NUMBER...: the median (the mean of the two middle ones).
median_of() {
	printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END {
		if (NR == 0) exit 1
		if (NR % 2) print v[(NR + 1) / 2]
		else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# now_us: microseconds, from bash's clock when it has one (no fork), else
# from date +%s%N.
now_us() {
	if [[ -n ${EPOCHREALTIME:-} ]]; then
		local t=${EPOCHREALTIME/[.,]/}
		echo "$((10#$t))"
	else
		echo $(($(date +%s%N) / 1000))
	fi
}

# time_loop INDEX: time every mode of workload INDEX with a bash loop,
# the modes interleaved run by run; medians in ms.
time_loop() {
	local i=$1 name=${W_NAMES[$1]} r mode t0 t1 runs=${W_RUNS[${W_NAMES[$1]}]:-$RUNS}
	declare -A samples=()
	for ((r = 0; r < runs; r++)); do
		for mode in "${MODES[@]}"; do
			runs "$mode" "$name" || continue
			split "$(cmdline "$mode" "$i")"
			t0=$(now_us)
			in_env "$name" "${CMD[@]}" >/dev/null 2>&1 </dev/null
			t1=$(now_us)
			samples[$mode]+=" $((t1 - t0))"
		done
	done
	for mode in "${MODES[@]}"; do
		runs "$mode" "$name" || continue
		# shellcheck disable=SC2086 # a list of numbers
		MEDIAN[$name,$mode]=$(median_of ${samples[$mode]} | awk '{ printf "%.3f", $1 / 1000 }')
	done
}

# time_hyperfine INDEX: one hyperfine run over every mode of workload INDEX.
time_hyperfine() {
	local i=$1 name=${W_NAMES[$1]} mode
	local -a args=(-N --style none --warmup 0 --runs "${W_RUNS[$name]:-$RUNS}" -i
		--export-csv "$WORK/h.csv")
	for mode in "${MODES[@]}"; do
		runs "$mode" "$name" || continue
		args+=(-n "$mode" "$(cmdline "$mode" "$i")")
	done
	if ! in_env "$name" hyperfine "${args[@]}" >/dev/null 2>"$WORK/h.err"; then
		echo "bench-run: hyperfine failed on $name: $(head -n 3 "$WORK/h.err")" >&2
		time_loop "$i"
		return
	fi
	while IFS=, read -r mode _ _ median _; do
		[[ $mode == command ]] && continue
		MEDIAN[$name,$mode]=$(awk -v s="$median" 'BEGIN { printf "%.3f", s * 1000 }')
	done <"$WORK/h.csv"
}

# ---------------------------------------------------------------- report
cell() {
	local name=$1 mode=$2 m n
	if ! runs "$mode" "$name"; then
		printf 'n/a'
		return
	fi
	m=${MEDIAN[$name,$mode]:-}
	n=${MEDIAN[$name,native]:-}
	if [[ -z $m ]]; then
		printf 'n/a'
	elif [[ $mode == native ]]; then
		printf '%.1f' "$m"
	else
		awk -v m="$m" -v n="$n" 'BEGIN {
			if (n > 0) printf "%.1f (x%.2f)", m, m / n
			else printf "%.1f", m }'
	fi
}

versions() {
	local v
	echo "date:      $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "machine:   $(uname -sr), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "fbac-run:  $FBAC_RUN (uid $(id -u))"
	if have hyperfine; then
		echo "timing:    $(hyperfine --version), $RUNS runs per cell, median"
	else
		echo "timing:    bash loop, $RUNS interleaved runs per cell, median (hyperfine not installed)"
	fi
	for v in strace bwrap firejail; do
		if have "$v"; then
			echo "$(printf '%-10s' "$v:") $("$v" --version 2>&1 | head -n 1)"
		else
			echo "$(printf '%-10s' "$v:") not installed (n/a)"
		fi
	done
}

versions
echo
echo "reading fbac-run's rules and filter for the kernel column..."
kernel_files
echo "checking each cell once (exit status, fbac-run denials)..."
check_cells
for i in "${!W_NAMES[@]}"; do
	echo "timing ${W_NAMES[$i]}..."
	if have hyperfine; then
		time_hyperfine "$i"
	else
		time_loop "$i"
	fi
done

echo
echo "Wall-clock medians in ms (ratio to native, same run):"
echo
{
	printf 'workload\tnative\tbare\texact\tinject\tkernel\tfbac-run\tsupervised\tstrace\tbwrap\tfirejail\tnotes\n'
	for name in "${W_NAMES[@]}"; do
		printf '%s' "$name"
		for mode in "${MODES[@]}"; do
			printf '\t%s' "$(cell "$name" "$mode")"
		done
		printf '\t%s\n' "${NOTES[$name]:--}"
	done
} | column -t -s $'\t' -o ' | '

# The measured bounds, as ratios within the run: what fbac-run costs
# above the bare answers (issue 20's "floor bound" for open/stat), and
# above the minimal exact supervisor.
if [[ -n ${AVAIL[exact]:-} ]]; then
	echo
	echo "Measured bounds (bench-emulate-floor, same run; a ratio of medians):"
	printf '  %-20s %13s %13s %14s %15s %14s %15s\n' workload "exact/native" "exact/bare" \
		"fbac-run/bare" "fbac-run/exact" "kernel/native" "fbac-run/kernel"
	for name in "${W_NAMES[@]}"; do
		runs exact "$name" || continue
		awk -v n="${MEDIAN[$name,native]:-0}" -v b="${MEDIAN[$name,bare]:-0}" \
			-v e="${MEDIAN[$name,exact]:-0}" -v f="${MEDIAN[$name,fbac-run]:-0}" \
			-v k="${MEDIAN[$name,kernel]:-0}" -v w="$name" \
			'function r(x, y) { return y > 0 && x > 0 ? sprintf("x%.2f", x / y) : "?" }
			BEGIN { printf "  %-20s %13s %13s %14s %15s %14s %15s\n", w, r(e, n), r(e, b), r(f, b), r(f, e), r(k, n), r(f, k) }'
	done
	echo "  (bare: every notified call continued unseen; exact: copy, resolve,"
	echo "   fstat, answer, close, no policy; inject: exact, opens injected;"
	echo "   kernel: fbac-run's own rules and filter, every notified call"
	echo "   continued unseen: fbac-run/kernel is fbac-run's own work)"
fi

# The start-up bound: the Landlock rules and the seccomp filter that
# fbac-run makes for Version_Control_Client (read from strace: the same
# objects, the same filter), made by bench-startup-floor, which does
# nothing else; interleaved with `true` and fbac-run.
INTERLEAVE=$BUILD/bench/bench-interleave
if [[ -n $ONLY && " $ONLY " != *" startup "* && " $ONLY " != *" startup-vcc "* ]]; then
	:
elif [[ ! -x $STARTUP_FLOOR || ! -x $INTERLEAVE ]] || ! command -v strace >/dev/null; then
	echo "bench-run: the start-up bound needs strace, $STARTUP_FLOOR and $INTERLEAVE: left out" >&2
else
	vcc=(--as Version_Control_Client -D "Version_Control_Client.repos=$WORK")
	strace -f -y -v -s 1000000 -o "$WORK/startup.strace" \
		-e trace=landlock_add_rule,seccomp "$FBAC_RUN" -q "${vcc[@]}" /bin/true >/dev/null 2>&1
	rules_of "$WORK/startup.strace" >"$WORK/startup.rules"
	if awk -f "$REPO/bench/bpf-from-strace.awk" "$WORK/startup.strace" >"$WORK/startup.bpf" &&
		[[ -s $WORK/startup.rules && -s $WORK/startup.bpf ]]; then
		echo
		echo "start-up bound, Version_Control_Client ($(wc -l <"$WORK/startup.rules") rules," \
			"a filter of $(wc -l <"$WORK/startup.bpf") instructions; bench-interleave," \
			"${BENCH_STARTUP_ROUNDS:-201} rounds):"
		"$INTERLEAVE" "${BENCH_STARTUP_ROUNDS:-201}" /bin/true -- \
			"$EMULATE" -m bare /bin/true -- \
			"$STARTUP_FLOOR" "$WORK/startup.rules" "$WORK/startup.bpf" /bin/true -- \
			"$FBAC_RUN" -q "${vcc[@]}" /bin/true -- \
			"$FBAC_RUN" -q --as Text_Viewer -D "Text_Viewer.files=$WORK" /bin/true |
			sed 's/^/  /'
		echo "  (2: a supervisor and its filter, no rule; 3: the same rules and filter"
		echo "   as 4, and nothing else: the kernel's share of 4's start; 5: Text_Viewer)"
	else
		echo "bench-run: cannot read fbac-run's rules or filter from strace: the start-up bound is left out" >&2
	fi
fi

if [[ -n ${OPENSTAT_OUT[native]:-} ]]; then
	echo
	echo "open/stat, microseconds per operation (one run each, N=$N):"
	for mode in "${MODES[@]}"; do
		[[ -n ${AVAIL[$mode]:-} ]] || continue
		printf '  %-13s %s\n' "$mode" "${OPENSTAT_OUT[$mode]:-failed}"
	done
fi
# The round-trip floor of user notification on this machine, next to
# what fbac-run's supervisor takes per call.
FLOOR=$BUILD/bench/bench-notify-floor
ANSWER_US=
if [[ -x $FLOOR ]]; then
	echo
	echo "user-notification floor (bench-notify-floor, microseconds per call):"
	"$FLOOR" "$N" >"$WORK/floor.out"
	sed 's/^/  /' "$WORK/floor.out"
	ANSWER_US=$(sed -n 's/^answer_us=\([0-9.]*\).*/\1/p' "$WORK/floor.out")
	echo "  (answer: a stat-like reply; inject: an ADDFD reply, as an open the"
	echo "   supervisor makes; a continued open costs an answer)"
fi

# floor_bound NAME CALLS: the native time plus CALLS bare answers, and
# its ratio to native ("?" when a figure is missing).
floor_bound() {
	if [[ -z $2 || -z $ANSWER_US || -z ${MEDIAN[$1,native]:-} ]]; then
		echo "?"
		return
	fi
	awk -v n="${MEDIAN[$1,native]}" -v c="$2" -v a="$ANSWER_US" \
		'BEGIN { b = n + c * a / 1000; printf "%.1f ms (x%.2f)", b, b / n }'
}

# What the supervisor did for each workload (fbac-run -v prints it at
# exit): calls decided, of which continued in the kernel, receivers, peak
# resident size; and the bound that the floor alone sets: the native time
# plus one bare answer per call, as a ratio to native. No supervisor that
# decides these calls can beat it; only keeping them in the kernel can.
# The metadata bound counts only the stat-family calls among them: no
# kernel rule can answer those (Landlock has no right for metadata, and
# the filter sees registers, not the path), so even a filter that left
# every open to the kernel could not go below it.
echo
echo "supervisor per workload (fbac-run -v, one run each):"
printf '  %-13s %8s %9s %9s %9s %8s  %-28s %s\n' workload calls continued metadata \
	receivers "RSS kB" "floor bound (all calls)" "metadata bound"
echo "  (bounds: native + calls x ${ANSWER_US:-?} us, the floor's answer)"
for i in "${!W_NAMES[@]}"; do
	name=${W_NAMES[$i]}
	split "$(cmdline fbac-run "$i")"
	# -q stays: -v only adds the summary lines.
	in_env "$name" "${CMD[@]/#-q/-v}" 2>"$WORK/v.err" >/dev/null </dev/null || true
	read -r calls cont recv < <(sed -n 's/.*fbac: \([0-9]*\) calls decided by the supervisor, \([0-9]*\) of them continued in the kernel, by \([0-9]*\) receiver.*/\1 \2 \3/p' "$WORK/v.err" | tail -n 1)
	meta=$(sed -n 's/.*fbac: \([0-9]*\) of these calls read metadata.*/\1/p' "$WORK/v.err" | tail -n 1)
	# Visible metadata: the kernel answered them, none was decided.
	grep -q 'fbac: metadata is visible' "$WORK/v.err" && meta="0 (vis)"
	rss=$(sed -n 's/.*supervisor peak resident size \([0-9]*\) kB.*/\1/p' "$WORK/v.err" | tail -n 1)
	printf '  %-13s %8s %9s %9s %9s %8s  %-28s %s\n' "$name" "${calls:-?}" "${cont:-?}" \
		"${meta:-?}" "${recv:-?}" "${rss:-?}" "$(floor_bound "$name" "${calls:-}")" \
		"$(floor_bound "$name" "${meta:-}")"
done
echo
echo "fbac-run policies:"
for name in "${W_NAMES[@]}"; do
	printf '  %-13s %s\n' "$name" "${FBAC_OPTS[$name]}"
done
exit 0
