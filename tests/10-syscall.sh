#!/bin/sh
# migrate_pages(2) on another process: moves, returns, errors, and the
# order of its checks (this file runs on the unpatched kernel too: make
# test-baseline).
# topo: 2node
set -eu
. ./lib.sh
plan 18

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

# Its owner's call on a zombie in a cpuset of node 0: the destination is
# checked against the target's cpuset (EPERM) before the mm is looked for
# (EINVAL: a zombie has none), and a destination inside it finds no mm.
cs=$(cpuset_new syscall-zombie 0)
zf=$(mktemp)
chmod 666 "$zf"
sh cg-enter.sh "$cs" runas $USER_UID $USER_UID \
	sh -c 'sleep 0 & echo $! > "$1"; exec sleep 600' _ "$zf" &
parent=$!
i=0
while { [ ! -s "$zf" ] || alive "$(cat "$zf")"; } && [ $i -lt 100 ]; do
	i=$((i + 1))
	sleep 0.1
done
z=$(cat "$zf")
expect "the child is a zombie in the cpuset" \
	"$(awk '/^State:/ { print $2 }' "/proc/$z/status")" Z
expect "owner, its zombie, 0 -> 1 (outside its cpuset): EPERM" \
	"$(runas $USER_UID $USER_UID migrate-syscall "$z" 0 1)" "err EPERM"
expect "owner, its zombie, 1 -> 0 (inside): EINVAL (no mm)" \
	"$(runas $USER_UID $USER_UID migrate-syscall "$z" 1 0)" "err EINVAL"
kill "$parent"
wait "$parent" || true
rm -f "$zf"
cpuset_drop "$cs"
expect_no_isolated
