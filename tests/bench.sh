#!/bin/sh
# Guest side of `make bench`: time every migration path on the same amount
# of memory, interleaved (a, b, c, a, b, c, ...), one CSV line per run:
#   bench,KIND,MIB,PATH,MICROSECONDS,CHECK
# KIND is anon (4 KiB pages) or thp; PATH is syscall (migrate_pages(2)),
# proc (/proc/PID/migrate), swap (/proc/PID/migrate "0 1 swap" plus the
# re-fault of every page), vacate1 and vacate8 (node0/vacate with the
# memory held by 1 or 8 processes) or copy (memcpy of the same size from
# node 0 to node 1: the limit). CHECK is "ok" only when every page reached
# node 1 and every page's pattern is intact.
set -eu
cd /tests
. ./lib.sh

reps=${BENCH_REPS:-15}
kinds=${BENCH_KINDS:-anon thp}
sizes=${BENCH_SIZES:-16 64 256}
paths="syscall proc swap vacate1 vacate8 copy"

# check_set DIR...: every page of every workload on node 1, patterns intact.
check_set() {
	for d in "$@"; do
		n=$(wl_pages "$d")
		[ "$(wl_cmd "$d" where)" = "N1=$n err=0" ] || return 1
		[ "$(wl_cmd "$d" verify)" = "ok $n" ] || return 1
	done
}

# run_path KIND MIB PATH: set up, time, check, tear down; print the CSV line.
run_path() {
	count=1
	[ "$3" = vacate8 ] && count=8
	# The swap path's pages come back where the task runs: node 1's CPUs.
	cpus=""
	[ "$3" = swap ] && cpus=2-3
	dirs=""
	i=0
	while [ $i -lt $count ]; do
		dirs="$dirs $(WL_CPUS=$cpus wl_start "$1" $(($2 / count)) 0)"
		i=$((i + 1))
	done
	set -- "$1" "$2" "$3" $dirs
	first=$4
	pid=$(wl_pid "$first")
	check=ok
	case $3 in
	syscall) t=$(timeit migrate-syscall "$pid" 0 1 2>/dev/null) || check=bad ;;
	proc) t=$(timeit writefile "/proc/$pid/migrate" "0 1" 2>/dev/null) || check=bad ;;
	swap) t=$(timeit sh -c "writefile /proc/$pid/migrate '0 1 swap' >/dev/null &&
		echo touch > $first/cmd && cat $first/reply >/dev/null" 2>/dev/null) || check=bad ;;
	vacate*) t=$(timeit writefile /sys/devices/system/node/node0/vacate 1 2>/dev/null) || check=bad ;;
	copy) t=$(wl_cmd "$first" "copy 1" | sed -n 's/^ok //p') ;;
	esac
	kind=$1 mib=$2 path=$3
	shift 3
	if [ "$path" = copy ]; then
		[ "$(wl_cmd "$first" verify)" = "ok $(wl_pages "$first")" ] || check=bad
	else
		check_set "$@" || check=bad
	fi
	echo "bench,$kind,$mib,$path,${t:-0},$check"
	for d in "$@"; do
		wl_stop "$d"
	done
}

echo "# bench: $reps repetitions; kinds: $kinds; sizes (MiB): $sizes"
for rep in $(seq 1 "$reps"); do
	echo "# bench: repetition $rep"
	for kind in $kinds; do
		for mib in $sizes; do
			for path in $paths; do
				run_path "$kind" "$mib" "$path"
			done
		done
	done
done
