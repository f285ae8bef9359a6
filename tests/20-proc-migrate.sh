#!/bin/sh
# /proc/PID/migrate: moves, the error matrix, and nothing moved on errors.
# topo: 2node
set -eu
. ./lib.sh
plan 42

w=$(wl_start anon 16 0)
pid=$(wl_pid "$w")
expect "mode 0200" "$(stat -c %a "/proc/$pid/migrate")" "200"
expect "tgid entries only" "$(test -e "/proc/$pid/task/$pid/migrate" && echo present || echo absent)" "absent"
expect "write \"0 1\"" "$(migrate_proc "$pid" 0 1)" "ok 3"
expect_placement "after \"0 1\"" "$w" "N1=4096"
expect "write \"1 0\\\\n\" (trailing newline)" "$(writefile "/proc/$pid/migrate" '1 0\n')" "ok 4"
expect_placement "after \"1 0\"" "$w" "N0=4096"
expect "node lists \"0,1 1\" move only node 0's pages" "$(migrate_proc "$pid" 0,1 1)" "ok 5"
expect "  to node 1" "$(wl_cmd "$w" where)" "N1=4096 err=0"
expect "write \"0-1 0\"" "$(migrate_proc "$pid" 0-1 0)" "ok 5"
expect "  to node 0" "$(wl_cmd "$w" where)" "N0=4096 err=0"

# Malformed input: EINVAL, nothing moves.
for input in '' '\n' '0' '0 ' '0 1 1' 'abc' 'x 1' '3-1 1' '0 3-1' '-1 1' \
	'0 -1' '99999999999999999999 1' '0 99999999999999999999' '0 1x' \
	'0 5' '5 1' '0 1\0' '0,,1 1 x'; do
	expect "\"$input\": EINVAL" "$(writefile "/proc/$pid/migrate" "$input")" "err EINVAL"
done
expect "a page of input: EINVAL" "$(writefile -r 2048 "/proc/$pid/migrate" '0 ')" "err EINVAL"
expect "write at offset 1: EINVAL" "$(writefile -o 1 "/proc/$pid/migrate" '0 1')" "err EINVAL"
expect "write at offset 0 by pwrite" "$(writefile -o 0 "/proc/$pid/migrate" '0 0')" "ok 3"
expect_placement "rejected writes moved nothing" "$w" "N0=4096"
wl_stop "$w"

expect "kernel thread (kthreadd): EINVAL" "$(migrate_proc 2 0 1)" "err EINVAL"
# A zombie: the child exits, its parent (exec'd sleep) never reaps it.
sh -c 'sleep 0.1 & echo $! > /tmp/zombie.pid; exec sleep 30' &
holder=$!
sleep 1
zpid=$(cat /tmp/zombie.pid)
expect "zombie is a zombie" "$(awk '{ print $3 }' "/proc/$zpid/stat")" "Z"
expect "zombie: EINVAL" "$(migrate_proc "$zpid" 0 1)" "err EINVAL"
kill "$holder"
expect_no_isolated
