#!/bin/sh
# /proc/PID/migrate permissions: decided by the opener, acting on the mm
# pinned at open; MOVE vs MOVE_ALL; cpusets.
# topo: 2node
set -eu
. ./lib.sh
plan 26

U=$USER_UID

# An unprivileged user cannot open root's process's file.
w=$(wl_start anon 8 0)
pid=$(wl_pid "$w")
expect "unprivileged open of root's process: EACCES" \
	"$(runas $U $U writefile "/proc/$pid/migrate" "0 1")" "open err EACCES"
expect "nothing moved" "$(wl_cmd "$w" where)" "N0=2048 err=0"
wl_stop "$w"

# An unprivileged user migrates its own process, /proc/self included.
w=$(wl_start anon 8 0 $U)
pid=$(wl_pid "$w")
expect "owner writes its process's file" "$(runas $U $U writefile "/proc/$pid/migrate" "0 1")" "ok 3"
expect_placement "owner's write moved the pages" "$w" "N1=2048"
expect "/proc/self/migrate works" "$(runas $U $U writefile /proc/self/migrate "0 1")" "ok 3"
wl_stop "$w"

# Shared pages (parent and child map them): MOVE for an opener without
# CAP_SYS_NICE even when root writes the fd, MOVE_ALL for a root opener.
w=$(wl_start shared 8 0 $U)
pid=$(wl_pid "$w")
expect "opened by the owner, written by root" \
	"$(writefile -u $U "/proc/$pid/migrate" "0 1")" "ok 3"
expect_placement "shared pages stay (the opener's MOVE)" "$w" "N0=2048"
expect "opened and written by root" "$(migrate_proc "$pid" 0 1)" "ok 3"
expect_placement "shared pages move (root's MOVE_ALL)" "$w" "N1=2048"
wl_stop "$w"

# A target confined to node 0 by its cpuset.
echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p /sys/fs/cgroup/node0
echo 0 > /sys/fs/cgroup/node0/cpuset.mems
w=$(wl_start anon 8 0 $U)
pid=$(wl_pid "$w")
echo "$pid" > /sys/fs/cgroup/node0/cgroup.procs
expect "target's cpuset is node 0" "$(cat "/proc/$pid/status" | awk '/^Mems_allowed_list/ { print $2 }')" "0"
expect "owner, destination outside the target's cpuset: EPERM" \
	"$(runas $U $U writefile "/proc/$pid/migrate" "0 1")" "err EPERM"
expect "opened by the owner, written by root: still EPERM" \
	"$(writefile -u $U "/proc/$pid/migrate" "0 1")" "err EPERM"
expect "nothing moved" "$(wl_cmd "$w" where)" "N0=2048 err=0"
expect "root (CAP_SYS_NICE) may move outside the cpuset" "$(migrate_proc "$pid" 0 1)" "ok 3"
expect "  moved" "$(wl_cmd "$w" where)" "N1=2048 err=0"
echo "$pid" > /sys/fs/cgroup/cgroup.procs
wl_stop "$w"
rmdir /sys/fs/cgroup/node0

# The target exits after open: the fd cannot reach anything.
mkfifo /tmp/go.$$
w=$(wl_start anon 8 0)
pid=$(wl_pid "$w")
writefile -p /tmp/go.$$ "/proc/$pid/migrate" "0 1" > /tmp/out.$$ &
writer=$!
until grep -q opened /tmp/out.$$ 2>/dev/null; do sleep 0.1; done
wl_stop "$w"
echo go > /tmp/go.$$
wait $writer || true
expect "target exited after open: ESRCH" "$(tail -n 1 /tmp/out.$$)" "err ESRCH"

# The target execs after open: the new image is out of reach.
mkfifo /tmp/go.$$.exec
sh -c "read x < /tmp/go.$$.exec; exec sleep 600" &
target=$!
writefile -p /tmp/go.$$ "/proc/$target/migrate" "0 1" > /tmp/out.$$ &
writer=$!
until grep -q opened /tmp/out.$$ 2>/dev/null; do sleep 0.1; done
echo go > /tmp/go.$$.exec
until [ "$(cat "/proc/$target/comm")" = sleep ]; do sleep 0.1; done
expect "target exec'd" "$(cat "/proc/$target/comm")" "sleep"
echo go > /tmp/go.$$
wait $writer || true
expect "target exec'd after open: ESRCH" "$(tail -n 1 /tmp/out.$$)" "err ESRCH"
expect "a fresh open reaches the new image" "$(settled migrate_proc "$target" 0 1)" "ok 3"
kill "$target"
rm -f /tmp/go.$$ /tmp/go.$$.exec /tmp/out.$$
expect_no_isolated
