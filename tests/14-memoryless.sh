#!/bin/sh
# A node with CPUs and no memory is no migrate_pages(2) destination.
# topo: memless
set -eu
. ./lib.sh
plan 6

expect "node 2 has CPUs" "$(cat /sys/devices/system/node/node2/cpulist)" "2"
w=$(wl_start anon 8 0)
expect "migrate_pages to a memory-less node: EINVAL" \
	"$(migrate-syscall "$(wl_pid "$w")" 0 2)" "err EINVAL"
expect_placement "nothing moved" "$w" "N0=2048"
wl_stop "$w"
expect_no_isolated
