#!/bin/sh
# Guest side of `make bench`: time every migration path on the same amount
# of memory, interleaved (a, b, c, a, b, c, ...), one CSV line per run:
#   bench,KIND,MIB,PATH,MICROSECONDS,CHECK
# KIND is anon (4 KiB pages) or thp; PATH is syscall (migrate_pages(2)),
# proc (/proc/PID/migrate), swap (/proc/PID/migrate "0 1 swap" plus the
# re-fault of every page), vacate1 and vacate8 (nodeN/vacate with the
# memory held by 1 or 8 processes) or copy (memcpy of the same size into
# pages of the same kind on the other node: the limit). CHECK is "ok" only
# when every page reached the destination with its pattern intact (and,
# for THP, still huge).
#
# For each kind and size, one workload (A) and a set of 8 (B) are filled
# once and then moved back and forth between the two nodes, so a run costs
# its migration and its check, not a fresh fill. Per repetition A moves
# three times and B once, so the two always sit on different nodes when a
# vacate starts (a vacate moves everything on its node). The swap path gets
# a fresh workload each run: its pages come back as 4 KiB pages, and a
# workload kept between runs would be moved by the vacates.
set -eu
cd /tests
. ./lib.sh

reps=${BENCH_REPS:-15}
kinds=${BENCH_KINDS:-anon thp}
sizes=${BENCH_SIZES:-16 64 256}

node_cpus() { cat "/sys/devices/system/node/node$1/cpulist"; }

# The checks below run after every run; under TCG a fork and exec costs
# tens of milliseconds, so they use shell builtins only: ask() talks to the
# workload's FIFOs directly, without lib.sh's wl_cmd and its timeout (a
# workload that died hangs the bench until the host's time limit).

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

# on_node NODE DIR...: every page of every workload on NODE and, for THP,
# still part of a huge page (except after swap: evicted THPs come back as
# 4 KiB pages).
on_node() {
	node=$1
	shift
	for d in "$@"; do
		ask "$d" where
		[ "$reply" = "N$node=$pages err=0" ] || return 1
		[ "$kind" != thp ] || [ "$path" = swap ] || {
			huge_kib "$wpid"
			[ "$huge" -eq $((pages * 4)) ]
		} || return 1
	done
}

# intact DIR...: every page of every workload holds its pattern.
intact() {
	for d in "$@"; do
		ask "$d" verify
		[ "$reply" = "ok $pages" ] || return 1
	done
}

# record PATH US NODE DIR...: check where the run left the pages; add
# "PATH,US,CHECK" to the block's lines (printed once the patterns are
# verified). No time (US empty) means the run failed. A and B start each
# run where the previous one left them: after a failed run of theirs,
# every later one of the block counts as failed too (it may have had
# nothing to move).
record() {
	path=$1 us=$2 node=$3
	shift 3
	check=ok
	[ -n "$us" ] && on_node "$node" "$@" || check=bad
	case $path in
	swap | copy) ;;
	*) [ "$check" = ok ] || broken=1
	   [ "$broken" = 0 ] || check=bad ;;
	esac
	lines="$lines $path,${us:-0},$check"
}

timed() { timeit "$@" 2>/dev/null || true; }

# swap_run: a fresh workload on node 0, running on node 1's CPUs, evicted
# and faulted back in.
swap_run() {
	c=$(WL_CPUS=$(node_cpus 1) wl_start "$kind" "$mib" 0)
	info "$c"
	us=$(timed sh -c "writefile /proc/$wpid/migrate '0 1 swap' >/dev/null &&
		echo touch > $c/cmd && cat $c/reply >/dev/null")
	intact "$c" || us=""
	record swap "$us" 1 "$c"
	wl_stop "$c"
}

# move_a PATH: move A to the other node by migrate_pages(2) or
# /proc/PID/migrate.
move_a() {
	case $1 in
	syscall) us=$(timed migrate-syscall "$apid" "$a" $((1 - a))) ;;
	proc) us=$(timed writefile "/proc/$apid/migrate" "$a $((1 - a))") ;;
	esac
	a=$((1 - a))
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
	info "$a_dir"
	apid=$wpid
	a=0 b=1 broken=0
	lines=""
	for rep in $(seq 1 "$reps"); do
		read -r up _ < /proc/uptime
		echo "# bench: $kind $mib MiB, repetition $rep of $reps" \
			"(guest up ${up%.*} s)"
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
		ask "$a_dir" "copy $((1 - a))"
		case $reply in
		"ok "[0-9]*) us=${reply#ok } ;;
		*) us="" ;;
		esac
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
