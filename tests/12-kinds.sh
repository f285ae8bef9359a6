#!/bin/sh
# migrate_pages(2) on THP (moved whole), hugetlb and shmem memory.
# topo: 2node
set -eu
. ./lib.sh
plan 16

w=$(wl_start thp 16 0)
pid=$(wl_pid "$w")
huge_kib "$pid"
expect "THP backed before" "$huge" "16384"
before=$(vmstat thp_migration_success)
expect "THP 0 -> 1" "$(migrate-syscall "$pid" 0 1)" "ok 0"
expect_placement "THP after 0 -> 1" "$w" "N1=4096"
expect "thp_migration_success rose by 8" "$(($(vmstat thp_migration_success) - before))" "8"
huge_kib "$pid"
expect "THP still whole after" "$huge" "16384"
wl_stop "$w"

w=$(wl_start hugetlb 8 0)
expect "hugetlb 0 -> 1" "$(migrate-syscall "$(wl_pid "$w")" 0 1)" "ok 0"
expect_placement "hugetlb after 0 -> 1" "$w" "N1=2048"
wl_stop "$w"

w=$(wl_start shmem 8 1)
expect "shmem 1 -> 0" "$(migrate-syscall "$(wl_pid "$w")" 1 0)" "ok 0"
expect_placement "shmem after 1 -> 0" "$w" "N0=2048"
wl_stop "$w"
expect_no_isolated
