# shellcheck shell=sh
# The stage's globals (kind, stage, ncpus) are tests/bench.sh's, $huge is
# lib.sh's huge_kib's.
# shellcheck disable=SC2154
# tests/bench-lib.sh: the helpers of the guest side of `make bench`
# (tests/bench.sh sources it after lib.sh). Not a test: run.sh runs only
# the numbered files.
#
# The bench moves a *set* of workloads: their directories in $set_dirs,
# their PIDs in $set_pids, all of them members of the cgroup v2 cpuset
# group $BENCH_CG from their first page, so that the cpuset method moves
# exactly the set. Before a cpuset move, the group's cpuset.mems is
# brought in line with where the set's pages are (an untimed write, only
# when another method moved them since: nothing is left to move then),
# so that the timed write moves from where the pages are.
#
# Under TCG a fork and exec costs tens of milliseconds, so everything that
# runs after every timed move uses shell builtins only: ask() talks to the
# workload's FIFOs directly, without lib.sh's wl_cmd and its timeout. The
# exception is timed()'s counters line: three awk runs per move, all
# outside the timed window.

BENCH_CG=/sys/fs/cgroup/bench
NODE_SYS=/sys/devices/system/node

# info DIR: a workload's PID in $wpid and its page count in $pages.
info() {
	read -r wpid _ len _ < "$1/info"
	pages=$((len / 4096))
}

# ask DIR COMMAND: one request to a workload, its reply in $reply (and
# info's variables set).
ask() {
	info "$1"
	echo "$2" > "$1/cmd"
	read -r reply < "$1/reply"
}

# progress TEXT: a line the host prints as it comes (scripts/run-bench.sh).
progress() {
	read -r up _ < /proc/uptime
	echo "# bench: $* (guest up ${up%.*} s)"
}

# cg_setup: the cpuset group, cpuset.mems 0, every CPU (mounted by /init;
# mounted here when it is not).
cg_setup() {
	[ -f /sys/fs/cgroup/cgroup.controllers ] ||
		mount -t cgroup2 cgroup2 /sys/fs/cgroup
	cpuset_new bench 0 > /dev/null
	cat /sys/fs/cgroup/cpuset.cpus.effective > "$BENCH_CG/cpuset.cpus"
}

# set_grow KIND MIB N NODE [MEMS]: start workloads until the set holds N,
# on NODE, the group's cpuset.mems MEMS meanwhile (default NODE), 16 at a
# time (each start waits for its workload's fill). KIND is a workload
# kind, or thppte (THP mapped by PTEs, each huge page still whole: a
# batch may end inside one) or ksmtwin (merged by ksmd, which is then
# paused, into KSM pages each process maps twice): pages a move meets
# twice. They are
# started by a subshell that first joins the group, so that each is in
# the group from its first page, as with tests/cg-enter.sh, but with one
# attach in all: every attach waits for an RCU grace period, which took
# up to a second each with 300 processes under TCG.
set_grow() {
	first=$((set_n + 1))
	cg_mems "${5:-$4}"
	(
		echo 0 > "$BENCH_CG/cgroup.procs"
		i=$set_n
		while [ $i -lt "$3" ]; do
			i=$((i + 1))
			wl_start "${1%pte}" "$2" "$4" > "/tmp/bench.start.$i" &
			[ $((i % 16)) -ne 0 ] || wait
			[ $((i % 64)) -ne 0 ] || progress "$i of $3 workloads started"
		done
		wait
	)
	i=$((first - 1))
	while [ $i -lt "$3" ]; do
		i=$((i + 1))
		read -r d < "/tmp/bench.start.$i"
		[ -f "$d/info" ] || { progress "a workload did not start: $(cat "$d/log")"; return 1; }
		info "$d"
		set_dirs="$set_dirs $d"
		set_pids="$set_pids $wpid"
	done
	set_n=$3
	rm -f /tmp/bench.start.*
	case $1 in
	thppte)
		for d in $set_dirs; do
			ask "$d" ptemap
		done ;;
	ksmtwin) set_merge ;;
	esac
}

# set_merge: ksmd merges each ksmtwin workload's twin pages (the set's
# pages, halved), then pauses, so that the merged pages hold still.
set_merge() {
	want=0
	for d in $set_dirs; do
		want=$((want + $(wl_pages "$d") / 2))
	done
	ksm_fast
	echo 1 > /sys/kernel/mm/ksm/run
	progress "ksmd merging $want pairs"
	ksm_wait_merged "shared=$want sharing=$want" > /dev/null
	echo 0 > /sys/kernel/mm/ksm/run
	progress "merged: $(ksm_counts)"
}

# set_stop: end every workload of the set and wait until each is gone
# (lib.sh's wl_stop, with builtins only: 512 of them took 80 s).
set_stop() {
	for d in $set_dirs; do
		ask "$d" exit
	done
	for p in $set_pids; do
		while alive "$p"; do
			sleep 0.05
		done
	done
	# shellcheck disable=SC2086 # a list of directories
	rm -rf $set_dirs
	set_dirs="" set_pids="" set_n=0
}

# set_where WANT: the set's placement is WANT: "on N" (every page on node
# N), "off N" (every page present, none on N) or "gone N" (no page
# resident on N; evicted pages count as gone). THP must still be huge
# after a move. Returns 1 at the first workload that is not.
# What was wrong is in $why.
set_where() {
	for d in $set_dirs; do
		ask "$d" where
		why="pid $wpid, $pages pages: $reply"
		case $1 in
		on) [ "$reply" = "N$2=$pages err=0" ] || return 1 ;;
		off) case " $reply" in *" N$2="* | *" err="[1-9]*) return 1 ;; esac ;;
		gone) case " $reply" in *" N$2="*) return 1 ;; esac ;;
		esac
		[ "$kind" != thp ] || [ "$1" = gone ] || {
			huge_kib "$wpid"
			why="$why, AnonHugePages $huge kB"
			[ "$huge" -eq $((pages * 4)) ]
		} || return 1
	done
}

# set_intact: every page of every workload of the set holds its pattern.
set_intact() {
	for d in $set_dirs; do
		ask "$d" verify
		[ "$reply" = "ok $pages" ] || return 1
	done
}

# set_fix FROM TO: untimed, after a failed check: migrate_pages(2) of every
# workload from the node list FROM to TO.
set_fix() {
	for p in $set_pids; do
		migrate-syscall "$p" "$1" "$2" > /dev/null || true
	done
}

# cg_mems NODES: the group's cpuset.mems (which migrates its pages from
# the old mems), written only when it differs from $cg_at, the value last
# written: each write walks every process of the group (and costs as much
# as a cpuset move of the whole set, even when nothing is left to move).
cg_mems() {
	[ "$1" != "${cg_at:-}" ] || return 0
	cg_at=""
	writefile "$BENCH_CG/cpuset.mems" "$1" > /dev/null
	cg_at=$1
}

# cg_move FROM TO: move the set from the node list FROM to TO by the
# group's cpuset.mems, untimed (FROM first brings cpuset.mems in line).
cg_move() {
	cg_mems "$1"
	cg_mems "$2"
}

# The counters that tell how a move went, printed on the console for each
# timed run: from /proc/vmstat, pages and THPs migrated or not, THPs split
# for want of a free huge page on the destination, direct compaction; then
# context switches, TLB shootdown interrupts, and each CPU's busy time in
# jiffies (user, nice, system, irq, softirq): under TCG a context switch
# or a shootdown costs the emulator a flush of its soft TLB, and the busy
# times say which vCPUs worked.
VMSTAT_KEYS="pgmigrate_success pgmigrate_fail thp_migration_success thp_migration_fail thp_migration_split compact_stall"

# counters: those counters as NAME=VALUE words, always in the same order.
counters() {
	awk -v keys="$VMSTAT_KEYS" 'BEGIN { n = split(keys, k) }
		FILENAME ~ /vmstat/ { v[$1] = $2; next }
		$1 == "ctxt" { ctxt = $2; next }
		$1 ~ /^cpu[0-9]/ { busy[ncpu++] = $2 + $3 + $4 + $7 + $8; next }
		$1 == "TLB:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) tlb += $i }
		END {
			for (i = 1; i <= n; i++) printf "%s=%d ", k[i], v[k[i]]
			printf "ctxt=%d tlb_shootdowns=%d", ctxt, tlb
			for (i = 0; i < ncpu; i++) printf " cpu%d_busy=%d", i, busy[i]
		}' /proc/vmstat /proc/stat /proc/interrupts
}

# timed COMMAND...: run COMMAND under timeit; its microseconds in $us, or
# $us empty when COMMAND failed (its output then in /tmp/bench.err). The
# console (not the terminal) gets what it changed in the counters above.
timed() {
	c0=$(counters)
	if ! us=$(timeit "$@" 2> /tmp/bench.err); then
		progress "$method failed: $(head -n 3 /tmp/bench.err | tr '\n' ' ')"
		us=""
	fi
	echo "$c0 $(counters)" | awk -v m="$method" '{
		n = NF / 2
		printf "# vmstat %s:", m
		for (i = 1; i <= n; i++) {
			split($i, a, "=")
			split($(n + i), b, "=")
			printf " %s=%d", a[1], b[2] - a[2]
		}
		print "" }'
}

# with_workers N COMMAND...: COMMAND with vacate's max_workers at N, the
# old value restored after.
with_workers() {
	read -r old_workers < "$MW"
	echo "$1" > "$MW"
	shift
	"$@"
	echo "$old_workers" > "$MW"
}

# move METHOD FROM TO VTO: move the set's pages from node FROM to the node
# list TO (VTO: what vacate is told, "all" or the list), timed, by:
#   vacate     nodeFROM/vacate
#   vacate-1w  the same with max_workers 1
#   loop       migratepages PID FROM TO for each PID, one after another
#   proc       "FROM TO" to /proc/PID/migrate for each PID, one after
#              another
#   loop-P2    the same through xargs -P 2 (two at a time)
#   halves     move_pages(2) from 2 threads of one program, each on half of
#              a process's pages, one process after another (movehalves)
#   loop-PN    xargs -P N, N the guest's CPU count ($ncpus)
#   cpuset     one write of TO to the group's cpuset.mems
#   damon      a DAMOS migrate_cold scheme on node FROM's memory to node TO
#              (damon_move)
#   offline    "offline" written to the state of each of node FROM's
#              memory blocks, one after another (the kernel migrates
#              what they hold to the other nodes)
# Result in $us (see timed).
move() {
	method=$1
	case $1 in
	vacate) timed writefile "$NODE_SYS/node$2/vacate" "$4" ;;
	vacate-1w) with_workers 1 timed writefile "$NODE_SYS/node$2/vacate" "$4" ;;
	loop) timed sh -c "for p in $set_pids; do migratepages \$p $2 $3 || exit 1; done" ;;
	proc) timed sh -c "for p in $set_pids; do writefile /proc/\$p/migrate '$2 $3' >&2 || exit 1; done" ;;
	halves)
		# move_pages(2) moves only to nodes of the target's cpuset,
		# even for root (EACCES): the group allows both, untimed.
		cg_mems 0-1
		timed sh -c "for p in $set_pids; do movehalves \$p $3 2 >&2 || exit 1; done"
		;;
	loop-P2) timed sh -c "printf '%s\n' $set_pids | xargs -P 2 -I{} migratepages {} $2 $3" ;;
	loop-PN) timed sh -c "printf '%s\n' $set_pids | xargs -P $ncpus -I{} migratepages {} $2 $3" ;;
	cpuset)
		cg_mems "$2"
		cg_at=""
		timed writefile "$BENCH_CG/cpuset.mems" "$3"
		[ -z "$us" ] || cg_at=$3
		;;
	damon) damon_move "$2" "$3" ;;
	offline) timed sh -c "for b in $NODE_SYS/node$2/memory[0-9]*; do echo offline > \$b/state || exit 1; done" ;;
	*) progress "unknown method $1"; us="" ;;
	esac
}

# damon_here: DAMON's sysfs interface is there and knows migrate_cold.
damon_here() {
	[ -d "$DAMON_D" ] || return 1
	r=$(damon_setup 0 1)
	echo 0 > "$DAMON_D/nr_kdamonds"
	[ "$r" = "ok 12" ]
}

# damon_move FROM TO: the set moved off node FROM by DAMON, timed: a DAMOS
# migrate_cold scheme on FROM's physical memory to node TO (lib.sh's
# damon_setup) is started, and the time runs until no page of the set is
# on FROM (set_where, polled every 0.1 s), at most $DAMON_LIMIT_S s. DAMON
# works in the background and never says when it is done: past the limit
# the run has no time, and the console says what was left.
DAMON_LIMIT_S=${BENCH_DAMON_LIMIT_S:-120}
damon_move() {
	us=""
	r=$(damon_setup "$1" "$2")
	if [ "$r" = "ok 12" ]; then
		t0=$(uptime_ms)
		echo on > "$DAMON_D/0/state"
		while ! set_where off "$1"; do
			if [ $(($(uptime_ms) - t0)) -ge $((DAMON_LIMIT_S * 1000)) ]; then
				echo "# damon: after $DAMON_LIMIT_S s still on node $1: $why"
				t0=""
				break
			fi
			sleep 0.1
		done
		[ -z "$t0" ] || us=$((($(uptime_ms) - t0) * 1000))
		echo off > "$DAMON_D/0/state"
	else
		progress "damon: migrate_cold refused: $r"
	fi
	echo 0 > "$DAMON_D/nr_kdamonds"
}

# methods_here: $methods less what this kernel cannot do, each dropped
# method said once on the console.
methods_here() {
	for m in $methods; do
		why=""
		case $m in
		vacate*) [ -f "$NODE_SYS/node0/vacate" ] || why="no nodeN/vacate" ;;
		proc) [ -f /proc/self/migrate ] || why="no /proc/PID/migrate" ;;
		damon) damon_here || why="no DAMOS migrate_cold (DAMON_SYSFS, 6.11+)" ;;
		esac
		if [ -z "$why" ] && [ "$m" = vacate-1w ] && [ ! -f "$MW" ]; then
			why="no max_workers knob"
		fi
		if [ -n "$why" ]; then
			echo "# $m: $why on ${BENCH_KERNEL:-this kernel}" >&2
			continue
		fi
		echo "$m"
	done
}

# methods_of METHODS: those of METHODS this kernel has, on one line (call
# it in $(...): it sets $methods).
methods_of() {
	methods=$1
	# shellcheck disable=SC2046 # one line of words
	echo $(methods_here)
}

# reversed WORDS...: the words in reverse order.
reversed() {
	r=""
	for w in "$@"; do
		r="$w $r"
	done
	echo "$r"
}

# record METHOD: add "STAGE,KIND,PROCS,MIB,NODES,METHOD,US,CHECK" to the
# point's lines (printed once the patterns are verified); STAGE is
# STAGE@MODEL under a QEMU -cpu model other than max. A run without a
# time, with a failed check, or after the set could not be put back where
# it belongs ($broken) is "bad".
record() {
	[ -n "$us" ] && [ "$check" = ok ] && [ "$broken" = 0 ] || check=bad
	lines="$lines $stage$cpu_tag,$kind,$set_n,$mib,$nnodes,$1,${us:-0},$check"
}

# settle WANT NODE FIX_FROM FIX_TO: check the set is WANT NODE (set_where);
# if not, check=bad and the set is moved FIX_FROM -> FIX_TO by
# migrate_pages(2), untimed; if it still is not, the point is $broken.
settle() {
	set_where "$1" "$2" && return 0
	check=bad
	progress "check failed: not every page $1 node $2 ($why); putting them back"
	set_fix "$3" "$4"
	set_where "$1" "$2" || { broken=1; progress "still not: $why; the point's later runs count as failed"; }
}

# point_end: verify every page of the set once, after the point's last
# run (a bad page fails every run of the point), print the point's lines.
point_end() {
	verdict=ok
	set_intact || verdict=bad
	for line in $lines; do
		[ $verdict = ok ] || line=${line%,*},bad
		echo "bench,$line"
	done
	lines=""
}
