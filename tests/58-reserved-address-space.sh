#!/bin/sh
# A move costs what the process has resident, not what it has reserved: 2
# MiB resident beside a 256 GiB or a 4 TiB PROT_NONE reservation (as ASan's
# shadow, Go and JVM heaps reserve address space) moves within twice the
# time of 2 MiB alone (plus 20 ms for the guest's noise), by
# /proc/PID/migrate and by migrate_pages(2). The time is the median of
# RESERVE_REPS moves each way (default 5).
# topo: 2node
set -eu
. ./lib.sh
REPS=${RESERVE_REPS:-5}
plan 18

# move_us METHOD PID FROM TO: one move, by "proc" (/proc/PID/migrate) or
# "syscall" (migrate_pages(2)); prints "MICROSECONDS RESULT".
move_us() {
	case $1 in
	proc) set -- "$2" writefile "/proc/$2/migrate" "$3 $4" ;;
	syscall) set -- "$2" migrate-syscall "$2" "$3" "$4" ;;
	esac
	shift
	mu_out=$(mktemp)
	mu_us=$(timeit "$@" 2>"$mu_out") || true
	echo "$mu_us $(cat "$mu_out")"
	rm -f "$mu_out"
}

# median_us METHOD DIR: the median time of REPS round trips' moves (0 to 1,
# then back), "bad: RESULT" if a move failed.
median_us() {
	mu_method=$1
	mu_pid=$(wl_pid "$2")
	mu_all=""
	mu_bad=""
	mu_i=0
	while [ $mu_i -lt "$REPS" ]; do
		for mu_dir in "0 1" "1 0"; do
			# shellcheck disable=SC2086 # FROM TO are two words
			# shellcheck disable=SC2046 # the words of move_us's line
			set -- $(move_us "$mu_method" "$mu_pid" $mu_dir)
			mu_all="$mu_all $1"
			shift
			case "$*" in "ok "*) ;; *) mu_bad="$*" ;; esac
		done
		mu_i=$((mu_i + 1))
	done
	if [ -n "$mu_bad" ]; then
		echo "bad: $mu_bad"
		return
	fi
	echo $mu_all | tr ' ' '\n' | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# largest_gib PID: the size of the process's largest mapping, in GiB.
largest_gib() {
	lg_max=0
	while IFS='- ' read -r lg_a lg_b _; do
		lg_s=$(((0x$lg_b - 0x$lg_a) >> 30))
		[ $lg_s -le $lg_max ] || lg_max=$lg_s
	done < "/proc/$1/maps"
	echo $lg_max
}

for gib in 0 256 4096; do
	w=$(WL_OPTS="-R $gib" wl_start anon 2 0)
	if [ "$gib" -gt 0 ]; then
		expect "$gib GiB reserved beside 2 MiB" "$(largest_gib "$(wl_pid "$w")")" "$gib"
	fi
	for m in proc syscall; do
		t=$(median_us $m "$w")
		eval "t_${m}_$gib=\$t"
		diag "figure: $m, 2 MiB beside $gib GiB reserved: median $t us"
	done
	expect_placement "2 MiB beside $gib GiB, after the moves" "$w" "N0=512"
	wl_stop "$w"
done

for m in proc syscall; do
	alone=""
	eval "alone=\$t_${m}_0"
	expect_match "$m: moves of 2 MiB alone succeeded" "$alone" "[0-9]*"
	case $alone in [0-9]*) limit=$((2 * alone + 20000)) ;; *) limit=0 ;; esac
	for gib in 256 4096; do
		eval "t=\$t_${m}_$gib"
		expect "$m: 2 MiB beside $gib GiB within 2x of alone + 20 ms ($alone us)" \
			"$(case $t in [0-9]*) [ "$t" -le $limit ] && echo within || echo "$t us" ;; *) echo "$t" ;; esac)" \
			within
	done
done
expect_no_isolated
