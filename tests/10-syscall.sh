#!/bin/sh
# migrate_pages(2) on another process: moves, returns, errors.
# topo: 2node
set -eu
. ./lib.sh
plan 15

w=$(wl_start anon 16 0)
pid=$(wl_pid "$w")
expect_placement "anon placed on node 0" "$w" "N0=4096"
expect "migrate_pages 0 -> 1" "$(migrate-syscall "$pid" 0 1)" "ok 0"
expect_placement "after 0 -> 1" "$w" "N1=4096"
expect "migrate_pages 1 -> 0" "$(migrate-syscall "$pid" 1 0)" "ok 0"
expect_placement "after 1 -> 0" "$w" "N0=4096"

expect "unused pid: ESRCH" "$(migrate-syscall 99999 0 1)" "err ESRCH"
expect "unprivileged user on root's process: EPERM" \
	"$(runas $USER_UID $USER_UID migrate-syscall "$pid" 0 1)" "err EPERM"
expect "rejected calls moved nothing" "$(wl_cmd "$w" where)" "N0=4096 err=0"
wl_stop "$w"
expect_no_isolated
