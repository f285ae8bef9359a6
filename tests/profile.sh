#!/bin/sh
# Guest side of `make profile`: where the time of moving PROFILE_SHAPE
# (PROCESSESxMIB[:KIND], default 8x32, KIND anon (4 KiB pages) or thp)
# from node 0 to node 1 goes, by ftrace's
# function profiler (each function's hits and inclusive time, summed over
# CPUs), for a vacate with one worker, a vacate with its default workers,
# and the serial migratepages loop. One CSV line per function and run:
#   profile,METHOD,ROUND,FUNCTION,HITS,MICROSECONDS
# and profile,METHOD,ROUND,wall,1,MICROSECONDS for the whole move. The
# pages go back to node 0 between runs with the profiler off.
set -eu
cd /tests
. ./lib.sh

T=/sys/kernel/debug/tracing
mw0=$(cat $MW)
rounds=${BENCH_REPS:-3}
shape=${PROFILE_SHAPE:-8x32}
kind=anon
case $shape in *:*) kind=${shape#*:} shape=${shape%%:*} ;; esac
nproc=${shape%x*}
mib=${shape#*x}
# The steps of a move: the task walk and per-task setup (vacate's own
# functions, fork/exec/exit for the loop), the LRU cache drain, the
# page-table walk, then per page allocation, unmap (with its TLB flush),
# copy and remap; the copy as each tree does it (6.12 copies a folio with
# folio_mc_copy(), which copy_mc_to_kernel() does with "rep movsb" on a
# CPU with ERMS).
funcs="vacate_worker_fn vacate_next_task vacate_get_mm security_task_movememory
kthread_create_on_node kernel_clone __x64_sys_execve do_exit
__x64_sys_migrate_pages __do_migrate_pages lru_cache_disable walk_page_range
migrate_pages alloc_migration_target try_to_migrate flush_tlb_mm_range
folio_copy folio_mc_copy copy_mc_to_kernel remove_migration_ptes
putback_movable_pages"

: > $T/set_ftrace_filter
for f in $funcs; do
	echo "$f" >> $T/set_ftrace_filter 2>/dev/null ||
		echo "# profile: $f cannot be traced here (inlined or absent)"
done

dirs=$(wl_start_n "$nproc" "$kind" "$mib" 0)
pids=""
for d in $dirs; do
	pids="$pids $(wl_pid "$d")"
done

# cmd METHOD: the shell command that moves the pages from node 0 to node 1.
cmd() {
	case $1 in
	vacate-1w) echo "echo 1 > $MW && writefile $V0 1; echo $mw0 > $MW" ;;
	vacate) echo "writefile $V0 1" ;;
	loop) echo "for p in $pids; do migratepages \$p 0 1; done" ;;
	esac
}

# placed NODE: every workload's pages on NODE, patterns intact.
placed() {
	for d in $dirs; do
		[ "$(wl_cmd "$d" where)" = "N$1=$(wl_pages "$d") err=0" ] || return 1
		[ "$(wl_cmd "$d" verify)" = "ok $(wl_pages "$d")" ] || return 1
	done
}

# Warm-up: the first move into a node's memory pays QEMU's host faults.
sh -c "$(cmd vacate)" >/dev/null
writefile $V1 0 >/dev/null
placed 0 || echo "# profile: warm-up left pages off node 0"

for round in $(seq 1 "$rounds"); do
	for m in vacate-1w vacate loop; do
		echo "# profile: round $round of $rounds, $m"
		echo 0 > $T/function_profile_enabled
		echo 1 > $T/function_profile_enabled
		us=$(timeit sh -c "$(cmd $m)" 2>/dev/null) || us=""
		echo 0 > $T/function_profile_enabled
		if [ -n "$us" ] && placed 1; then
			echo "profile,$m,$round,wall,1,$us"
			cat $T/trace_stat/function* | awk -v m="$m" -v r="$round" '
				$2 ~ /^[0-9]+$/ && $4 == "us" { hits[$1] += $2; t[$1] += $3 }
				END { for (f in t) printf "profile,%s,%s,%s,%d,%.0f\n", m, r, f, hits[f], t[f] }'
		else
			echo "# profile: $m left pages off node 1 or broke a pattern: run dropped"
		fi
		writefile $V1 0 >/dev/null || true
	done
done
for d in $dirs; do
	wl_stop "$d"
done
