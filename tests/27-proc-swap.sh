#!/bin/sh
# /proc/PID/migrate "FROM TO swap": pages are evicted to swap and come back
# where the task runs; without swap they stay and the write says EAGAIN.
# topo: 2node mglru
set -eu
. ./lib.sh
plan 20

# The workload runs on node 1's CPUs (2-3) with its memory on node 0.
export WL_CPUS=2-3
w=$(wl_start anon 16 0)
pid=$(wl_pid "$w")
expect "runs on node 1's CPUs" "$(taskset -p "$pid" | awk '{ print $NF }')" "c"
expect "placed on node 0" "$(wl_cmd "$w" where)" "N0=4096 err=0"
out=$(vmstat pswpout)
in=$(vmstat pswpin)
expect "write \"0 1 swap\"" "$(migrate_proc "$pid" 0 1 swap)" "ok 8"
expect "every page evicted (none present)" "$(wl_cmd "$w" where)" "err=4096"
expect "pswpout rose by the 4096 pages" "$(($(vmstat pswpout) - out >= 4096))" "1"
expect "pattern intact after the fault-in" "$(wl_cmd "$w" verify)" "ok 4096"
expect "pswpin rose" "$(($(vmstat pswpin) > in))" "1"
expect_placement "faulted back in on node 1, where it runs" "$w" "N1=4096"
expect "\"1 0 direct\" is the default method" "$(migrate_proc "$pid" 1 0 direct)" "ok 10"
expect "  moved by copy" "$(wl_cmd "$w" where)" "N0=4096 err=0"

for input in '0 1 copy' '0 1 swap x' '0 1 SWAP' '0 1 swap\0'; do
	expect "\"$input\": EINVAL" "$(writefile "/proc/$pid/migrate" "$input")" "err EINVAL"
done
expect "rejected writes moved nothing" "$(wl_cmd "$w" where)" "N0=4096 err=0"
wl_stop "$w"

# No swap: anonymous pages cannot be evicted.
swapoff /dev/zram0
w=$(wl_start anon 16 0)
pid=$(wl_pid "$w")
expect "no swap: EAGAIN" "$(migrate_proc "$pid" 0 1 swap)" "err EAGAIN"
expect "  every page stayed" "$(wl_cmd "$w" where)" "N0=4096 err=0"
wl_stop "$w"
swapon /dev/zram0
expect_no_isolated
