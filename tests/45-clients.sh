#!/bin/sh
# Real clients, not written here, cross-check /proc/PID/migrate: numactl's
# migratepages (migrate_pages(2)) moves a workload 0 -> 1, and our helpers
# (move_pages(2), numa_maps) see every page there; /proc/PID/migrate moves
# it back, and each time numactl's numastat -p agrees with the helpers.
# Kinds: anon and THP (numastat's Private row) and hugetlb (its Huge row).
# numastat's per-node columns of that row (MiB, two decimals) must equal,
# as printed, pages * 4096 / 2^20 computed from the helpers' page counts:
# no tolerance (page counts make exact binary fractions of a MiB).
# topo: 2node
set -eu
. ./lib.sh
plan 31

# run CMD...: its output, then "exit STATUS".
run() { "$@" 2>&1 && echo "exit 0" || echo "exit $?"; }

# numastat_row PID ROW: ROW of `numastat -p PID`, the MiB per node (the
# Total column left out), e.g. "16.76 0.00".
numastat_row() {
	numastat -p "$1" | awk -v r="$2" '
	$1 == r { s = $2; for (i = 3; i < NF; i++) s = s " " $i; print s }'
}

node_count() { set -- /sys/devices/system/node/node[0-9]*; echo $#; }

# helper_row DIR ROW: what numastat must print in ROW, from the helpers:
# the workload region's pages per node by move_pages(2) ("where"), plus,
# for the Private row, the pages numa_maps shows in every other mapping
# that numastat puts in that row (not heap, stack or hugetlb). Pages *
# 4096 / 2^20 with two decimals: the sums are exact, so equal strings.
helper_row() {
	awk -v a="$(wl_addr "$1")" -v w="$(wl_cmd "$1" where)" -v row="$2" \
		-v nodes="$(node_count)" '
	function add(tok) {
		if (tok !~ /^N[0-9]+=/) return
		split(tok, x, "="); n[substr(x[1], 2) + 0] += x[2]
	}
	BEGIN { k = split(w, f, " "); for (i = 1; i <= k; i++) add(f[i]) }
	row == "Private" && $1 != a {
		for (i = 2; i <= NF; i++) if ($i ~ /^(heap|stack|huge)/) next
		for (i = 2; i <= NF; i++) add($i)
	}
	END {
		for (i = 0; i < nodes; i++)
			s = s sprintf("%s%.2f", i ? " " : "", n[i] * 4096 / 1048576)
		print s
	}' "/proc/$(wl_pid "$1")/numa_maps"
}

expect_numastat() {
	expect "$1: numastat -p $3 row = helpers" \
		"$(numastat_row "$(wl_pid "$2")" "$3")" "$(helper_row "$2" "$3")"
}

# cross_check KIND MIB ROW: ten TAP lines.
cross_check() {
	w=$(wl_start "$1" "$2" 0)
	pid=$(wl_pid "$w")
	pages=$(wl_pages "$w")
	expect "$1: migratepages PID 0 1" "$(run migratepages "$pid" 0 1)" "exit 0"
	expect_placement "$1: after migratepages" "$w" "N1=$pages"
	expect_numastat "$1: after migratepages" "$w" "$3"
	expect "$1: /proc/PID/migrate \"1 0\"" "$(migrate_proc "$pid" 1 0)" "ok 3"
	expect_placement "$1: after \"1 0\"" "$w" "N0=$pages"
	expect_numastat "$1: after \"1 0\"" "$w" "$3"
	diag "$1: numastat -p after \"1 0\":"
	numastat -p "$pid" | sed '/^$/d; s/^/#   /'
	wl_stop "$w"
}

cross_check anon 16 Private
cross_check thp 16 Private
cross_check hugetlb 8 Huge
expect_no_isolated
