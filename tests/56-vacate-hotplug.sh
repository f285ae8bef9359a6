#!/bin/sh
# nodeN/vacate against memory hotplug, in the dimm guest (node 1 a DIMM
# onlined movable). docs/interfaces.md promises: a running vacate does not
# hold off taking the same node's memory offline; a destination that loses
# its memory during the walk is dropped; a vacated node that loses its
# memory ends the walk; a node without memory vacates to nothing, and is
# no destination. Checked here: the offlining succeeds while a vacate of
# node 1, then one to node 1, runs (each race checked to overlap: the
# vacate still runs when the offlining starts), the vacate's result is one
# the documentation allows, every page ends on node 0 with its pattern and
# nothing is left isolated. How long the offlining waits is reported as a
# figure, not checked: both move the same pages on the same CPUs.
# Every rig kernel has MEMORY_HOTPLUG (config/kernel.config); one without
# it bails out.
# topo: dimm
set -eu
. ./lib.sh

[ -d /sys/devices/system/memory ] || {
	echo "Bail out! no /sys/devices/system/memory: this kernel has no MEMORY_HOTPLUG"
	exit 1
}
plan 38

NWL=4
MIB=192

# race VACATED TO: vacate VACATED to TO in the background, take node 1's
# memory offline meanwhile; three TAP lines (the race overlapped, the
# offlining succeeded, the vacate's result), then every page on node 0.
race() {
	out=/tmp/56.out
	tv=$(uptime_ms)
	# The result, then when it came.
	{ node_vacate "$1" "$2" || true; uptime_ms; } > $out &
	vpid=$!
	sleep 0.2
	expect "vacate $1 -> $2 still running when node 1 starts going offline" \
		"$(alive $vpid && echo running || echo "ended: $(head -n 1 $out)")" running
	t0=$(uptime_ms)
	expect "  every block of node 1 offline, during the vacate" "$(node_blocks 1 offline)" ok
	diag "figure: offlining node 1 took $(($(uptime_ms) - t0)) ms"
	wait $vpid || true
	{ read -r res; read -r tend; } < $out
	diag "figure: the vacate $1 -> $2 ran $((tend - tv)) ms: $res"
	case $res in ok* | "err EAGAIN" | "err ENOMEM") res="ok, EAGAIN or ENOMEM" ;; esac
	expect "  the vacate ended with ok, EAGAIN or ENOMEM" "$res" "ok, EAGAIN or ENOMEM"
	i=0
	for d in $dirs; do
		i=$((i + 1))
		expect_placement "  workload $i on node 0" "$d" "N0=$(wl_pages "$d")"
	done
	expect_no_isolated
}

dirs=$(wl_start_n $NWL anon $MIB 1) || { echo "Bail out! workloads did not start"; exit 1; }

# The node being vacated goes offline mid-walk.
race 1 0
expect "node 1 has no memory left" "$(cat /sys/devices/system/node/has_memory)" 0

# A node without memory: vacating it does nothing, and it is no destination.
expect "vacate of node 1 without memory: nothing to do" "$(node_vacate 1 0)" "ok 1"
expect "vacate of node 0 to node 1 without memory refused" "$(node_vacate 0 1)" "err EINVAL"
expect "vacate of node 0 to all, no other node with memory, refused" "$(node_vacate 0 all)" "err EINVAL"

expect "node 1 online again (movable)" "$(node_blocks 1 online_movable)" ok
expect "  node 1 has memory again" "$(cat /sys/devices/system/node/has_memory)" 0-1

# The destination goes offline mid-walk: it is dropped, what reached it is
# migrated back to node 0 by the offlining.
race 0 1

node_blocks 1 online_movable > /dev/null
for d in $dirs; do
	wl_stop "$d"
done
