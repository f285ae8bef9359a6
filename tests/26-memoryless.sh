#!/bin/sh
# A node with CPUs and no memory, through the new files: no destination,
# and vacating it is a no-op.
# topo: memless
set -eu
. ./lib.sh
plan 15

w=$(wl_start anon 8 0)
pid=$(wl_pid "$w")
expect "/proc/PID/migrate \"0 2\": EINVAL" "$(migrate_proc "$pid" 0 2)" "err EINVAL"
expect "/proc/PID/migrate \"0 1,2\": EINVAL" "$(migrate_proc "$pid" 0 1,2)" "err EINVAL"
expect "/proc/PID/migrate \"2 1\" (no pages there)" "$(migrate_proc "$pid" 2 1)" "ok 3"
expect "vacate node 0 to node 2: EINVAL" "$(node_vacate 0 2)" "err EINVAL"
expect "vacate node 0 to \"1-2\": EINVAL" "$(node_vacate 0 1-2)" "err EINVAL"
expect_placement "nothing moved" "$w" "N0=2048"
expect "vacating the memory-less node is a no-op" "$(node_vacate_settled 2 0)" "ok 1"
expect "  also with \"all\"" "$(node_vacate_settled 2 all)" "ok 3"
expect "vacate node 0 \"all\" skips the memory-less node" "$(node_vacate_settled 0 all)" "ok 3"
expect_placement "all on node 1" "$w" "N1=2048"
wl_stop "$w"
expect_no_isolated
