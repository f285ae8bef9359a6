#!/bin/sh
# A page that a move meets twice has not stayed: met again while the move
# holds it isolated from its first mapping (in the same batch, or in the
# batch that another worker of one vacate queued), it would be counted as
# a page left behind although it moves. Counted only is what a second
# walk, after every batch, still finds on the source node.
# - 16 MiB whose odd pages repeat the even ones, merged by ksmd into 2048
#   KSM pages that the process maps twice each, at neighbouring addresses:
#   root's "0 1" says ok (before: EAGAIN, with every page moved), so do
#   migrate_pages(2) (0 left) and a vacate of the one process by two
#   workers; every page on its node, still merged, intact.
# - 64 MiB of THP mapped by PTEs, each huge page still whole (a huge page
#   that a batch ends in is met by the next batch): the same answers.
#   khugepaged is stopped meanwhile: it collapses such pages into new huge
#   pages on the node most of their pages were on when it looked, which
#   can be behind the walk (a page faulted in anew: not the move's to
#   count), and then the placement checks fail (seen once on 6.1: 512
#   pages back on node 0 after an ok).
# topo: 2node
set -eu
. ./lib.sh
plan 30

K=/sys/kernel/mm/ksm
T=/sys/kernel/mm/transparent_hugepage
thp_was=$(sed 's/.*\[\(.*\)\].*/\1/' $T/enabled)
# Swap off: a page swapped out is on no node.
swaps=$(swaps_off)
# shellcheck disable=SC2086 # device names have no spaces
trap 'swaps_on $swaps; echo 2 > $K/run; echo "$thp_was" > $T/enabled' EXIT

ksm_fast
w=$(wl_start ksmtwin 16 0)
pid=$(wl_pid "$w")
echo 1 > $K/run
merged="shared=2048 sharing=2048"
expect "ksmd merged each page with its twin" "$(ksm_wait_merged "$merged")" "$merged"
echo 0 > $K/run
expect_placement "twins merged, on node 0" "$w" "N0=4096"

expect "root: \"0 1\": ok, no twin counted" "$(migrate_proc "$pid" 0 1)" "ok 3"
expect_placement "  moved" "$w" "N1=4096"
expect "  still merged" "$(ksm_counts)" "$merged"
expect "migrate_pages(2) 1 -> 0: none left" "$(migrate-syscall "$pid" 1 0)" "ok 0"
expect_placement "  moved" "$w" "N0=4096"
expect "vacate node 0 (two workers on one process): ok" "$(node_vacate 0 1)" "ok 1"
expect_placement "  moved" "$w" "N1=4096"
expect "  still merged" "$(ksm_counts)" "$merged"
wl_stop "$w"

w=$(wl_start thp 64 0)
pid=$(wl_pid "$w")
a=$(wl_addr "$w")
expect "thp: mapped by PTEs" "$(wl_cmd "$w" ptemap)" "ok 32"
huge_kib "$pid"
# shellcheck disable=SC2154 # huge_kib (lib.sh) sets it
expect "  no PMD mapping left (AnonHugePages)" "$huge" 0
expect "  each still a huge page (kpageflags THP)" "$(page_thp "$pid" "$a")" 1
# THP off stops khugepaged (huge pages mapped stay; a migration still
# allocates huge pages for them).
echo never > $T/enabled
expect "root: \"0 1\"" "$(migrate_proc "$pid" 0 1)" "ok 3"
expect_placement "  moved" "$w" "N1=16384"
expect "vacate node 1 (two workers on one process): ok" "$(node_vacate 1 0)" "ok 1"
expect_placement "  moved" "$w" "N0=16384"
wl_stop "$w"
echo "$thp_was" > $T/enabled
expect_no_isolated
