#!/bin/sh
# Guest side of `make bench`: time every migration path on the same amount
# of memory, interleaved (a, b, c, a, b, c, ...), one CSV line per run:
#   bench,KIND,MIB,PATH,MICROSECONDS,CHECK
# KIND is anon (4 KiB pages) or thp; PATH is syscall (migrate_pages(2)),
# proc (/proc/PID/migrate), swap (/proc/PID/migrate "0 1 swap" plus the
# re-fault of every page), vacate1 and vacate8 (nodeN/vacate with the
# memory held by 1 or 8 processes) or copy (memcpy of the same size to the
# other node: the limit). CHECK is "ok" only when every page reached the
# destination with its pattern intact (and, for THP, still huge).
#
# For each kind and size, one workload (A) and a set of 8 (B) are filled
# once and then moved back and forth between the two nodes, so a run costs
# its migration and its check, not a fresh fill. Per repetition A moves
# three times and B once, so the two always sit on different nodes when a
# vacate starts (a vacate moves everything on its node). The swap path gets
# a fresh workload each run: its pages come back as 4 KiB pages.
set -eu
cd /tests
. ./lib.sh

reps=${BENCH_REPS:-15}
kinds=${BENCH_KINDS:-anon thp}
sizes=${BENCH_SIZES:-16 64 256}

other() { echo $((1 - $1)); }
node_cpus() { cat "/sys/devices/system/node/node$1/cpulist"; }

# on_node NODE DIR...: every page of every workload on NODE and, for THP,
# still part of a huge page (except after swap: evicted THPs come back as
# 4 KiB pages).
on_node() {
	node=$1
	shift
	for d in "$@"; do
		n=$(wl_pages "$d")
		[ "$(wl_cmd "$d" where)" = "N$node=$n err=0" ] || return 1
		[ "$kind" != thp ] || [ "$path" = swap ] ||
			[ "$(huge_kib "$d")" -eq $((n * 4)) ] || return 1
	done
}

# intact DIR...: every page of every workload holds its pattern.
intact() {
	for d in "$@"; do
		[ "$(wl_cmd "$d" verify)" = "ok $(wl_pages "$d")" ] || return 1
	done
}

huge_kib() { awk '/^AnonHugePages:/ { print $2 }' "/proc/$(wl_pid "$1")/smaps_rollup"; }

# record PATH US NODE DIR...: check where the run left the pages; add
# "PATH,US,CHECK" to the block's lines (printed once the patterns are
# verified). No time (US empty) means the run failed.
record() {
	path=$1 us=$2 node=$3
	shift 3
	check=ok
	[ -n "$us" ] && on_node "$node" "$@" || check=bad
	lines="$lines $path,${us:-0},$check"
}

timed() { timeit "$@" 2>/dev/null || true; }

# swap_run: a fresh workload on node 0, running on node 1's CPUs, evicted
# and faulted back in.
swap_run() {
	c=$(WL_CPUS=$(node_cpus 1) wl_start "$kind" "$mib" 0)
	pid=$(wl_pid "$c")
	us=$(timed sh -c "writefile /proc/$pid/migrate '0 1 swap' >/dev/null &&
		echo touch > $c/cmd && cat $c/reply >/dev/null")
	intact "$c" || us=""
	record swap "$us" 1 "$c"
	wl_stop "$c"
}

# move_a PATH: move A to the other node by migrate_pages(2) or
# /proc/PID/migrate.
move_a() {
	case $1 in
	syscall) us=$(timed migrate-syscall "$apid" "$a" "$(other "$a")") ;;
	proc) us=$(timed writefile "/proc/$apid/migrate" "$a $(other "$a")") ;;
	esac
	a=$(other "$a")
	record "$1" "$us" "$a" "$a_dir"
}

# vacate_b: vacate B's node (A is elsewhere).
vacate_b() {
	us=$(timed writefile "/sys/devices/system/node/node$b/vacate" "$a")
	b=$a
	record vacate8 "$us" "$b" $b_dirs
}

# block: every repetition of every path for one kind and size.
block() {
	a_dir=$(wl_start "$kind" "$mib" 0)
	b_dirs=""
	for i in 1 2 3 4 5 6 7 8; do
		b_dirs="$b_dirs $(wl_start "$kind" $((mib / 8)) 1)"
	done
	a=0 b=1
	lines=""
	for rep in $(seq 1 "$reps"); do
		echo "# bench: $kind $mib MiB, repetition $rep of $reps"
		apid=$(wl_pid "$a_dir")
		# A and B start on different nodes: vacate A's node.
		us=$(timed writefile "/sys/devices/system/node/node$a/vacate" "$b")
		a=$b
		record vacate1 "$us" "$a" "$a_dir"
		# syscall and proc swap places every repetition, so that neither
		# always runs right after the same path (measured: proc always
		# after vacate8 came out 0.65-0.76 of syscall always after
		# vacate1, the same kernel path).
		if [ $((rep % 2)) -eq 1 ]; then
			move_a syscall
			vacate_b
			move_a proc
		else
			move_a proc
			vacate_b
			move_a syscall
		fi
		swap_run
		us=$(wl_cmd "$a_dir" "copy $(other "$a")" | sed -n 's/^ok //p')
		record copy "$us" "$a" "$a_dir"
	done
	# A and B were moved back and forth: their patterns are checked once,
	# after the last run, and a bad page fails every run of the block.
	verdict=ok
	intact "$a_dir" $b_dirs || verdict=bad
	for line in $lines; do
		[ "${line%%,*}" = swap ] || [ $verdict = ok ] || line=${line%,*},bad
		echo "bench,$kind,$mib,$line"
	done
	for d in "$a_dir" $b_dirs; do
		wl_stop "$d"
	done
}

echo "# bench: $reps repetitions; kinds: $kinds; sizes (MiB): $sizes"
for kind in $kinds; do
	for mib in $sizes; do
		block
	done
done
