#!/bin/sh
# Guest side of `make bench`: time our paths against their peers on the
# same pages, interleaved in one boot, one CSV line per timed run:
#   bench,STAGE,KIND,PROCS,MIB,NODES,METHOD,MICROSECONDS,CHECK
# STAGE is size (8 processes of MIB each, the size curve and the peer
# rows), procs (PROCS processes of MIB each, the process curve), nodes
# (8 processes vacated off node 0 to every other node of a NODES-node
# guest), evict (the same 8 processes evicted to swap) or offline (8
# processes moved off node 1, a DIMM onlined movable, to node 0, memory
# offlining among the methods) or reserve (one process of 2 MiB beside a
# PROT_NONE reservation, moved node 0 <-> 1: what address space with no
# page in it costs) or oneproc (one process of MIB, moved node 0 <-> 1:
# what several workers on one process buy) or damon (8 processes moved
# node 0 <-> 1 by vacate and by DAMON's migrate_cold). KIND is anon (4 KiB
# pages) or thp; for reserve anon+NG, N the GiB reserved.
# METHOD is one of tests/bench-lib.sh's move() (vacate, vacate-1w, loop,
# loop-P2, loop-PN, cpuset, offline, proc, halves, damon), or pageout
# (process_madvise(MADV_PAGEOUT) per process) or swap ("0 1 swap" to
# /proc/PID/migrate per process). CHECK is "ok" only when every page of
# every process was where the run had to leave it (THP still huge) and
# every page's pattern was intact afterwards.
#
# Each point's processes are started once, then every method moves them
# in turn, round after round (BENCH_REPS rounds), back and forth between
# node 0 and node 1; the order is reversed every round, so that each
# method moves in both directions and follows different neighbours. One
# untimed move comes first: the first move into a node's memory pays
# QEMU's page faults on the host. The settings (BENCH_*) come from
# /etc/bench.env, which scripts/run-bench.sh appends to the initramfs.
set -eu
cd /tests
. ./lib.sh
. ./bench-lib.sh
[ ! -f /etc/bench.env ] || . /etc/bench.env

reps=${BENCH_REPS:-5}
# A boot under another QEMU -cpu model than max: its rows are STAGE@MODEL
# (commas dropped: "max,-erms" gives oneproc@max-erms).
cpu_tag=""
[ "${BENCH_CPU:-max}" = max ] || cpu_tag=@$(echo "$BENCH_CPU" | tr -d ,)
# THP first: the eviction stage (4 KiB pages) leaves the swap RAM disk's
# pages (never freed) scattered over the nodes, fewer free 2 MiB blocks.
kinds=${BENCH_KINDS:-thp anon}
sizes=${BENCH_SIZES:-4 8 16 32 64 96}
procs=${BENCH_PROCS:-1 16 128 512}
# The workload maps at least 2 MiB (its chunks are whole huge pages).
proc_mib=${BENCH_PROC_MIB:-2}
evict_sizes=${BENCH_EVICT:-32 96}
offline_sizes=${BENCH_OFFLINE_SIZES:-32 96}
reserve_gib=${BENCH_RESERVE_GIB:-0 256 4096}
reserve_ms=${BENCH_RESERVE_METHODS:-loop proc vacate}
# Each of its moves takes tens of milliseconds, mostly fork and exec: more
# rounds than the other stages for the same spread.
reserve_reps=${BENCH_RESERVE_REPS:-15}
nodes_mib=${BENCH_NODES_MIB:-16}
oneproc_sizes=${BENCH_ONEPROC_SIZES:-16 64 256 1024}
oneproc_ms=${BENCH_ONEPROC_METHODS:-loop vacate-1w vacate halves}
damon_sizes=${BENCH_DAMON_SIZES:-32 96}
damon_ms=${BENCH_DAMON_METHODS:-vacate damon}
methods=${BENCH_METHODS:-vacate vacate-1w loop loop-P2 loop-PN cpuset}
nnodes=$(ls -d "$NODE_SYS"/node[0-9]* | wc -l)
ncpus=$(nproc)
# Moves between two nodes need a 2-node guest; the others only vacate.
# The process curve first: 512 processes need 1 GiB on a node, and the
# eviction stage leaves up to 768 MiB in the swap RAM disk for good.
if [ "$nnodes" -eq 2 ]; then
	stages=${BENCH_STAGES:-procs size nodes}
else
	stages=nodes
fi

# rounds METHODS STEP [BACK]: $reps rounds of the METHODS, the order
# reversed each round: STEP METHOD makes the timed move (none once the
# point broke), record() keeps its time, BACK METHOD then puts the set
# back, untimed.
rounds() {
	order=$1
	shift
	rep=0
	while [ $rep -lt "$reps" ]; do
		rep=$((rep + 1))
		for m in $order; do
			method=$m check=ok us=""
			if [ $broken = 0 ]; then
				"$1" "$m"
			fi
			record "$m"
			if [ $broken = 0 ] && [ $# -gt 1 ]; then
				"$2" "$m"
			fi
		done
		order=$(reversed $order)
	done
}

# swing_point: the set (on node $at) moved by every method, $reps rounds.
swing_point() {
	lines="" broken=0 check=ok
	to=$((1 - at))
	progress "$stage $kind ${set_n}x$mib MiB: untimed warm-up move $at -> $to"
	cg_move "$at" "$to"
	settle on "$to" "$at" "$to"
	at=$to
	rounds "$ms" swing_step
	point_end
}

# swing_step METHOD: the set moved from node $at to the other node.
swing_step() {
	to=$((1 - at))
	progress "$stage $kind ${set_n}x$mib MiB: $1 $at -> $to, round $rep of $reps"
	move "$1" "$at" "$to" "$to"
	settle on "$to" "$at" "$to"
	at=$to
}

# spill_point: the set (on node 0) moved by every method to all the other
# nodes (vacate: "all"; the others: the list of every other node), then
# back to node 0 untimed (cpuset.mems 0), $reps rounds.
spill_point() {
	lines="" broken=0 check=ok
	others=1
	[ "$nnodes" -eq 2 ] || others=1-$((nnodes - 1))
	progress "nodes $kind ${set_n}x$mib MiB: untimed warm-up move 0 -> $others"
	cg_move 0 "$others"
	settle off 0 0 "$others"
	spill_back
	rounds "$ms" spill_step spill_back
	point_end
}

# spill_step METHOD: the set moved from node 0 to all the others.
spill_step() {
	progress "nodes $kind ${set_n}x$mib MiB: $1 0 -> $others, round $rep of $reps"
	move "$1" 0 "$others" all
	settle off 0 0 "$others"
}

# spill_back: the set back on node 0, untimed.
spill_back() {
	cg_move "$others" 0
	settle on 0 "$others" 0
}

# swap_reset: swapoff and swapon, untimed: pages faulted back in by a
# read stay in the swap cache with their slots, and a second eviction
# would drop them without writing; after this every eviction writes.
swap_reset() {
	while read -r dev _; do
		[ "$dev" = Filename ] || { swapoff "$dev" && swapon "$dev"; }
	done < /proc/swaps
}

# evict_point: the set (anon) evicted from node 0 by process_madvise
# (pageout) and by "0 1 swap" (swap), in turn, $reps rounds. Only the
# eviction is timed; then no page may be left on node 0, every page is
# faulted back in (on node 0: cpuset.mems) and verified, untimed.
evict_point() {
	lines="" broken=0
	if [ "$at" != 0 ]; then
		cg_move 1 0
		settle on 0 1 0
		at=0
	fi
	rounds "pageout swap" evict_step
	point_end
}

# evict_step METHOD: the set evicted from node 0, timed; then no page
# may be left there, and every page is faulted back in on node 0 and
# verified, untimed.
evict_step() {
	progress "evict $kind ${set_n}x$mib MiB: $1, round $rep of $reps"
	swap_reset
	case $1 in
	pageout) timed sh -c "for p in $set_pids; do pageout \$p || exit 1; done" ;;
	swap) timed sh -c "for p in $set_pids; do writefile /proc/\$p/migrate '0 1 swap' || exit 1; done" ;;
	esac
	set_where gone 0 || { check=bad; progress "$1 left pages on node 0 ($why)"; }
	for d in $set_dirs; do
		ask "$d" touch
	done
	settle on 0 1 0
	set_intact || { check=bad; progress "$1: a pattern was lost"; }
}

stage_size() {
	for kind in $kinds; do
		for mib in $sizes; do
			at=0
			set_grow "$kind" "$mib" 8 0
			swing_point
			if [ "$kind" = anon ]; then
				for e in $evict_sizes; do
					[ "$e" != "$mib" ] || { stage=evict; evict_point; stage=size; }
				done
			fi
			set_stop
		done
	done
}

stage_procs() {
	kind=anon mib=$proc_mib
	at=0
	for n in $procs; do
		progress "procs: starting workloads up to $n"
		set_grow anon "$mib" "$n" "$at"
		swing_point
	done
	set_stop
}

stage_nodes() {
	kind=anon mib=$nodes_mib
	set_grow anon "$mib" 8 0
	spill_point
	set_stop
}

# stage_reserve: one process of 2 MiB (the workload's least) beside a
# PROT_NONE reservation of each size of $reserve_gib (ASan's shadow, Go
# and JVM heaps reserve terabytes), moved node 0 <-> 1 by $reserve_ms;
# runs on the unpatched kernel too (migratepages only there), whose rows
# are stage reserve-baseline.
stage_reserve() {
	mib=2 at=0
	case ${BENCH_KERNEL:-} in *-baseline) stage=reserve-baseline ;; esac
	ms_all=$ms reps_all=$reps
	ms=$(methods_of "$reserve_ms")
	reps=$reserve_reps
	for gib in $reserve_gib; do
		kind=anon+${gib}G
		WL_OPTS="-R $gib"
		set_grow anon "$mib" 1 0
		WL_OPTS=""
		swing_point
		set_stop
	done
	ms=$ms_all reps=$reps_all
}

# stage_oneproc: one process of each size of $oneproc_sizes, 4 KiB pages
# and THP, moved node 0 <-> 1 by $oneproc_ms: migratepages, vacate with one
# worker and with one per CPU of node 1 (which share the process), and
# move_pages(2) from 2 threads on its halves.
stage_oneproc() { swing_stage "$oneproc_ms" "$oneproc_sizes" 1; }

# stage_damon: 8 processes of each size of $damon_sizes moved node 0 <-> 1
# by $damon_ms: vacate against a DAMOS migrate_cold scheme (6.11 and
# later), timed until no page of the set is left behind.
stage_damon() {
	if [ -z "$(methods_of damon)" ]; then
		echo "# damon: not measured on ${BENCH_KERNEL:-this kernel}"
		return 0
	fi
	swing_stage "$damon_ms" "$damon_sizes" 8
}

# swing_stage METHODS SIZES N: for each kind and each size of SIZES, N
# processes of that size moved node 0 <-> 1 by those of METHODS this
# kernel has, $reps rounds (swing_point).
swing_stage() {
	ms_all=$ms
	ms=$(methods_of "$1")
	for kind in $kinds; do
		for mib in $2; do
			at=0
			set_grow "$kind" "$mib" "$3" 0
			swing_point
			set_stop
		done
	done
	ms=$ms_all
}

# hot_blocks: node 1's memory blocks, each of which must be online in
# ZONE_MOVABLE (a DIMM onlined movable, scripts/boot-guest.sh's
# HOTPLUG_NODE), counted in $nblocks; else 1, with the reason in $why.
hot_blocks() {
	nblocks=0
	[ -d /sys/devices/system/memory ] ||
		{ why="no /sys/devices/system/memory (no CONFIG_MEMORY_HOTPLUG)"; return 1; }
	for b in "$NODE_SYS"/node1/memory[0-9]*; do
		[ -e "$b" ] || { why="node 1 has no memory block"; return 1; }
		read -r zone _ < "$b/valid_zones"
		[ "$zone" = Movable ] || { why="${b##*/} of node 1 is in zone $zone, not Movable"; return 1; }
		nblocks=$((nblocks + 1))
	done
}

# offline_point: the set (on node 1, a DIMM) moved to node 0 by every
# method of $offline_ms, $reps rounds; after each, node 1's blocks are
# brought online again and the set is put back there, untimed.
offline_point() {
	lines="" broken=0 check=ok
	progress "offline $kind ${set_n}x$mib MiB: untimed warm-up move 1 -> 0"
	set_fix 1 0
	settle on 0 1 0
	offline_back
	rounds "$offline_ms" offline_step offline_back
	point_end
}

# offline_step METHOD: the set moved from node 1 to node 0.
offline_step() {
	progress "offline $kind ${set_n}x$mib MiB: $1 1 -> 0, round $rep of $reps"
	move "$1" 1 0 0
	settle on 0 1 0
}

# offline_back: node 1's blocks online (movable) again, the set back on
# node 1 by migrate_pages(2), untimed.
offline_back() {
	r=$(node_blocks 1 online_movable)
	[ "$r" = ok ] || { broken=1; progress "node 1 not online again: $r"; }
	set_fix 0 1
	settle on 1 0 1
}

# stage_offline: memory offlining, the kernel's own way to empty a node,
# against vacate, where node 1 can be taken offline whole; else a note
# says why not.
stage_offline() {
	hot_blocks || { echo "# offline: not measured: $why"; return 0; }
	read -r size < /sys/devices/system/memory/block_size_bytes
	echo "# offline: node 1 is $nblocks memory blocks of $((0x$size >> 20)) MiB, all in ZONE_MOVABLE"
	for kind in $kinds; do
		for mib in $offline_sizes; do
			# The group on both nodes: a movable-only node cannot
			# hold the kernel's allocations for the group's tasks
			# (pipe buffers, page tables), and a hotplug event then
			# migrates nothing (cpuset moves a group's pages when
			# its nodes go away).
			set_grow "$kind" "$mib" 8 1 0-1
			offline_point
			set_stop
		done
	done
}

ms=$(methods_of "$methods")
offline_ms=${BENCH_OFFLINE_METHODS:-vacate loop-P2 offline}
# The CPU features that choose how the kernel copies a page: rep movsb
# (erms, fsrm) or rep movsq (rep_good), which TCG runs at different speeds.
copy_flags=$(awk -F: '/^flags/ { print $2; exit }' /proc/cpuinfo | tr ' ' '\n' |
	grep -xE 'erms|fsrm|rep_good' | tr '\n' ' ')
echo "# bench: $nnodes nodes, $ncpus CPUs (loop-PN: N=$ncpus), $reps rounds;" \
	"methods: $ms (offline stage: $offline_ms); stages: $stages;" \
	"QEMU -cpu ${BENCH_CPU:-max}, copy flags: ${copy_flags:-none}"
# Before the oneproc stage's THP moves: what QEMU's direct-mapped soft TLB
# makes of a page copy whose source and destination share an index (skew
# 0, as in every THP copy) or not (skew 1), for each way a kernel copies
# (docs/performance.md, "6.12's THP moves under TCG").
case " $stages " in
*" oneproc "*)
	for c in movsb movsq loop; do
		echo "# bench: soft-TLB probe, 16 MiB page by page with $c:" \
			"$(tlbcopy -c $c -m 16 -r 2 0 1 | tr '\n' ' ')"
	done ;;
esac
cg_setup
set_dirs="" set_pids="" set_n=0
for stage in $stages; do
	"stage_$stage"
done
progress "done"
