#!/bin/sh
# KSM: pages that ksmd merged, moved by /proc/PID/migrate and by vacate.
# Two workloads of the same seed hold identical pages; ksmd merges them
# into one KSM page per pair, mapped by both processes. Then, with ksmd
# paused so that the counts hold still:
# - the owner without CAP_SYS_NICE (MPOL_MF_MOVE) gets ok and the merged
#   pages stay: a KSM page mapped by two processes is shared, and shared
#   pages are not the owner's to move (migrate_pages(2) answers the same);
# - "swap" leaves merged pages alone, whoever writes (shared pages stay);
# - root (MPOL_MF_MOVE_ALL) moves the merged pages, and with them the
#   other process, which maps the same pages: both follow, still merged;
# - vacate moves them off the node, still merged;
# - a KSM page mapped once (the other process exited) is the owner's to
#   move, and the one left is unmerged cleanly (run=2): own copies, data
#   intact, nothing shared.
# topo: 2node
set -eu
. ./lib.sh
plan 42

U=$USER_UID
K=/sys/kernel/mm/ksm
ksm_fast
expect "nothing merged before the test" "$(ksm_counts)" "shared=0 sharing=0"

a=$(WL_OPTS="-s 7" wl_start ksm 8 0 $U)
b=$(WL_OPTS="-s 7" wl_start ksm 8 0 $U)
pa=$(wl_pid "$a")
pb=$(wl_pid "$b")
echo 1 > $K/run
expect "ksmd merged the 2048 pairs" "$(ksm_wait_merged "shared=2048 sharing=2048")" \
	"shared=2048 sharing=2048"
echo 0 > $K/run
merged="shared=2048 sharing=2048"
expect_placement "a merged, on node 0" "$a" "N0=2048"
expect_placement "b merged, on node 0" "$b" "N0=2048"

# ---- MPOL_MF_MOVE: merged pages are shared, they stay ----

expect "owner writes \"0 1\" to a's file" \
	"$(runas $U $U writefile "/proc/$pa/migrate" "0 1")" "ok 3"
expect "  a's merged pages stayed" "$(wl_cmd "$a" where)" "N0=2048 err=0"
expect "owner's migrate_pages(2) on a: the same, 0 left" \
	"$(runas $U $U migrate-syscall "$pa" 0 1)" "ok 0"
expect "  a's merged pages stayed" "$(wl_cmd "$a" where)" "N0=2048 err=0"

# ---- swap: shared pages stay ----

expect "a writes \"0 1 swap\" to its own file" "$(wl_cmd "$a" "migrate 0 1 swap")" "ok 8"
expect "root writes \"0 1 swap\" to b's file" "$(migrate_proc "$pb" 0 1 swap)" "ok 8"
expect "  nothing evicted" "$(wl_cmd "$a" where) $(wl_cmd "$b" where)" \
	"N0=2048 err=0 N0=2048 err=0"
expect "  still merged" "$(ksm_counts)" "$merged"

# ---- MPOL_MF_MOVE_ALL: root moves the merged pages, b follows ----

expect "root writes \"0 1\" to a's file" "$(migrate_proc "$pa" 0 1)" "ok 3"
expect_placement "  a moved" "$a" "N1=2048"
expect_placement "  b moved with it (the same pages)" "$b" "N1=2048"
expect "  still merged" "$(ksm_counts)" "$merged"

# ---- vacate ----

expect "vacate node 1 to node 0" "$(node_vacate_settled 1 0)" "ok 1"
expect_placement "  a vacated" "$a" "N0=2048"
expect_placement "  b vacated" "$b" "N0=2048"
expect "  still merged" "$(ksm_counts)" "$merged"

# ---- mapped once: the owner's to move; then unmerged ----

wl_stop "$b"
# ksmd drops the rmap items of an exited process when it next scans.
echo 1 > $K/run
expect "b gone: each KSM page is mapped once" \
	"$(ksm_wait_merged "shared=2048 sharing=0")" "shared=2048 sharing=0"
echo 0 > $K/run
expect "owner writes \"0 1\" to a's file" \
	"$(runas $U $U writefile "/proc/$pa/migrate" "0 1")" "ok 3"
expect_placement "  a's KSM pages moved" "$a" "N1=2048"
expect "  still KSM pages" "$(ksm_counts)" "shared=2048 sharing=0"
echo 2 > $K/run
expect "unmerged (run=2)" "$(ksm_counts)" "shared=0 sharing=0"
# The copies are allocated by the task that writes run (local node).
expect "  a's own copies: every page present" "$(sum_where "$(wl_cmd "$a" where)")" "2048"
expect "  pattern intact" "$(wl_cmd "$a" verify)" "ok 2048"
wl_stop "$a"
expect_no_isolated
