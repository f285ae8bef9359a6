#!/bin/sh
# /proc/PID/migrate results: EAGAIN when pages stay behind, ENOMEM when
# the destination is full; data intact, nothing left isolated either way.
# topo: 2node
set -eu
. ./lib.sh
plan 17

w=$(wl_start anon 16 0)
pid=$(wl_pid "$w")
expect "pin 16 pages" "$(wl_cmd "$w" "pin 16")" "ok"
expect "pinned pages stay: EAGAIN" "$(migrate_proc "$pid" 0 1)" "err EAGAIN"
expect_placement "all but the pinned pages moved" "$w" "N0=16 N1=4080"
expect_no_isolated "nothing isolated after EAGAIN"
wl_cmd "$w" unpin >/dev/null
expect "after unpinning the move completes" "$(migrate_proc "$pid" 0 1)" "ok 3"
expect "  all on node 1" "$(wl_cmd "$w" where)" "N1=4096 err=0"
wl_stop "$w"

# Without swap, anonymous memory cannot be reclaimed to make room.
swapoff /dev/zram0
w=$(wl_start anon 64 0)
pid=$(wl_pid "$w")
hog=$(wl_hog 1 24)
expect_alloc_failure
expect "destination full: ENOMEM" "$(migrate_proc "$pid" 0 1)" "err ENOMEM"
end_alloc_failure
where=$(wl_cmd "$w" where)
expect "every page accounted for" "$(sum_where "$where")" "16384"
expect_match "some pages moved, some stayed" "$where" "N0=[1-9]* N1=[1-9]* err=0"
expect "pattern intact" "$(wl_cmd "$w" verify)" "ok 16384"
expect_no_isolated "nothing isolated after ENOMEM"
wl_stop "$hog"
expect "with room again the move completes" "$(migrate_proc "$pid" 0 1)" "ok 3"
expect_placement "all on node 1" "$w" "N1=16384"
wl_stop "$w"
swapon /dev/zram0
