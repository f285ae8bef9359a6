#!/bin/sh
# DAMON as vacate's peer: the same 4 x 32 MiB of idle process memory on
# node 0, emptied once by a DAMOS "migrate_cold" scheme (6.11 and later:
# physical address monitoring of node 0's memory, target_nid 1, cold =
# no access seen) and once by nodeN/vacate. DAMON works in the background
# and never says when it is done or what stayed: this test polls where the
# pages are, every 0.5 s for at most 60 s, and reports the time and what
# was left as figures (# figure: lines, repeated by the host). It asserts
# what must hold of both: DAMON accepts the scheme and applies it, no page
# is lost or changed by either, and vacate's write says ok with every page
# on node 1. On 6.1, whose DAMON has no migrate_cold, the action is
# refused (EINVAL) and only vacate runs.
# topo: 2node
set -eu
. ./lib.sh

NPROC=4
MIB=32
POLL_LIMIT_MS=60000
if [ "${RIG_KVER:-}" = 6.1 ]; then
	plan 7
else
	plan 13
fi

# Swap off: a page swapped out is on no node.
swaps=$(swaps_off)

dirs=$(WL_CPUS=0-1 wl_start_n $NPROC anon $MIB 0)
pages=$((NPROC * $(wl_pages "${dirs%% *}")))

expect "the workloads on node 0" "$(where_all $dirs)" "N0=$pages err=0"

if [ "${RIG_KVER:-}" = 6.1 ]; then
	expect "6.1's DAMON has no migrate_cold" "$(damon_setup 0 1)" "err EINVAL"
	echo 0 > $DAMON_D/nr_kdamonds
else
	expect "DAMOS action migrate_cold accepted" "$(damon_setup 0 1)" "ok 12"
	expect "kdamond on" "$(writefile $DAMON_D/0/state on)" "ok 2"
	start=$(uptime_ms)
	left=$pages
	while :; do
		w=$(where_all $dirs)
		left=$(echo "$w" | tr ' ' '\n' | sed -n 's/^N0=//p')
		left=${left:-0}
		ms=$(($(uptime_ms) - start))
		[ "$left" -gt 0 ] && [ $ms -lt $POLL_LIMIT_MS ] || break
		sleep 0.5
	done
	writefile $DAMON_D/0/state update_schemes_stats >/dev/null
	applied=$(cat $DAMON_D/0/contexts/0/schemes/0/stats/sz_applied)
	expect "kdamond off" "$(writefile $DAMON_D/0/state off)" "ok 3"
	echo 0 > $DAMON_D/nr_kdamonds
	echo "# figure: DAMON migrate_cold: $left of $pages pages left on node 0 after $ms ms (polled every 0.5 s, limit $POLL_LIMIT_MS ms); $((applied >> 20)) MiB applied"
	expect "  the scheme was applied" "$((applied > 0))" 1
	expect "  every page on a node" "$(sum_where "$(where_all $dirs)")" "$pages"
	expect "  patterns intact" "$(intact_all $dirs)" ok
	for d in $dirs; do
		migrate_proc "$(wl_pid "$d")" 1 0 >/dev/null
	done
	expect "  back on node 0" "$(where_all $dirs)" "N0=$pages err=0"
fi

start=$(uptime_ms)
r=$(node_vacate 0 1) || true
ms=$(($(uptime_ms) - start))
echo "# figure: vacate: node 0 emptied of $pages pages in $ms ms, write said: $r"
expect "vacate ok" "$r" "ok 1"
expect "  every page on node 1" "$(where_all $dirs)" "N1=$pages err=0"
expect "  patterns intact" "$(intact_all $dirs)" ok
expect_no_isolated

for d in $dirs; do
	wl_stop "$d"
done
# shellcheck disable=SC2086 # device names have no spaces
swaps_on $swaps
expect "no kdamond left" "$(cat $DAMON_D/nr_kdamonds)" 0
