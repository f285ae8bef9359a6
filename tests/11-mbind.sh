#!/bin/sh
# mbind(2) MPOL_MF_MOVE, MOVE_ALL and STRICT, and shared pages.
# topo: 2node
set -eu
. ./lib.sh
plan 29

w=$(wl_start anon 8 0)
expect "mbind MOVE" "$(wl_cmd "$w" "mbind 1 move")" "ok"
expect_placement "MOVE moved faulted pages" "$w" "N1=2048"
wl_stop "$w"

w=$(wl_start anon 8 0 $USER_UID)
expect "MOVE_ALL without CAP_SYS_NICE: EPERM" "$(wl_cmd "$w" "mbind 1 move,all")" "err EPERM"
expect_placement "EPERM moved nothing" "$w" "N0=2048"
wl_stop "$w"

# Pages pinned by vmsplice cannot move: MOVE|STRICT reports them.
w=$(wl_start anon 8 0)
expect "pin 8 pages" "$(wl_cmd "$w" "pin 8")" "ok"
expect "MOVE|STRICT with pages left behind: EIO" \
	"$(wl_cmd "$w" "mbind 1 move,strict")" "err EIO"
expect_placement "all but the pinned pages moved" "$w" "N0=8 N1=2040"
wl_stop "$w"

# Parent and child both map every page of a MAP_SHARED region. In 6.1
# MOVE skips such pages without counting them, even with STRICT.
w=$(wl_start shared 8 0)
expect "MOVE|STRICT skips shared pages silently (6.1)" \
	"$(wl_cmd "$w" "mbind 1 move,strict")" "ok"
expect "mbind MOVE on shared pages succeeds" "$(wl_cmd "$w" "mbind 1 move")" "ok"
expect_placement "shared pages stay with MOVE" "$w" "N0=2048"
expect "mbind MOVE_ALL as root" "$(wl_cmd "$w" "mbind 1 move,all")" "ok"
expect_placement "shared pages move with MOVE_ALL" "$w" "N1=2048"
wl_stop "$w"

# The same through migrate_pages(2): MOVE for the owner, MOVE_ALL for root.
w=$(wl_start shared 8 0 $USER_UID)
pid=$(wl_pid "$w")
expect "owner's migrate_pages (MOVE)" \
	"$(runas $USER_UID $USER_UID migrate-syscall "$pid" 0 1)" "ok 0"
expect "shared pages stay for the owner" "$(wl_cmd "$w" where)" "N0=2048 err=0"
expect "root's migrate_pages (MOVE_ALL)" "$(migrate-syscall "$pid" 0 1)" "ok 0"
expect_placement "shared pages move for root" "$w" "N1=2048"
wl_stop "$w"
expect_no_isolated
