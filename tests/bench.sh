#!/bin/sh
# Guest side of `make bench`: time each migration path on the same amount
# of private anonymous memory, interleaved (a, b, c, a, b, c, ...), and
# print one CSV line per run: "bench,MIB,PATH,MICROSECONDS,CHECK".
# CHECK is "ok" only when every page reached node 1 with its pattern.
set -eu
cd /tests
. ./lib.sh

reps=${BENCH_REPS:-7}
sizes=${BENCH_SIZES:-16 64}
paths="syscall proc vacate1 vacate8"

# start_set MIB COUNT: COUNT workloads of MIB/COUNT each on node 0.
start_set() {
	i=0
	while [ $i -lt "$2" ]; do
		wl_start anon $(($1 / $2)) 0
		i=$((i + 1))
	done
}

# check_set DIR...: every page of every workload on node 1, patterns intact.
check_set() {
	for d in "$@"; do
		n=$(wl_pages "$d")
		[ "$(wl_cmd "$d" where)" = "N1=$n err=0" ] || return 1
		[ "$(wl_cmd "$d" verify)" = "ok $n" ] || return 1
	done
}

for rep in $(seq 1 "$reps"); do
	for mib in $sizes; do
		for path in $paths; do
			case $path in vacate8) count=8 ;; *) count=1 ;; esac
			dirs=$(start_set "$mib" $count)
			pid=$(wl_pid "$(echo "$dirs" | head -n 1)")
			case $path in
			syscall) set -- migrate-syscall "$pid" 0 1 ;;
			proc) set -- writefile "/proc/$pid/migrate" "0 1" ;;
			vacate*) set -- writefile /sys/devices/system/node/node0/vacate 1 ;;
			esac
			t=$(timeit "$@" 2>/dev/null) || true
			set -- $dirs
			check=ok
			check_set "$@" || check=bad
			echo "bench,$mib,$path,$t,$check"
			for d in "$@"; do
				wl_stop "$d"
			done
		done
	done
done
