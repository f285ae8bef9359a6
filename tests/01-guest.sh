#!/bin/sh
# The guest is what the tests assume: tmpfs root, NUMA nodes, swap, CPUs.
# topo: 2node 4node memless
set -eu
. ./lib.sh
plan 5

expect "root filesystem is tmpfs" "$(stat -f -c %T /)" "tmpfs"
case $RIG_TOPO in
2node) want=0-1 ;;
4node) want=0-3 ;;
memless) want=0-1 ;;
esac
expect "nodes with memory" "$(cat /sys/devices/system/node/has_memory)" "$want"
expect_match "at least 3 CPUs" "$(nproc)" "[3-9]"
expect "zram swap active" "$(awk 'NR > 1 { print $1 }' /proc/swaps)" "/dev/zram0"
expect "NUMA balancing off" "$(cat /proc/sys/kernel/numa_balancing)" "0"
