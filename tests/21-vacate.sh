#!/bin/sh
# nodeN/vacate: every process's pages of every kind leave the node.
# topo: 2node
set -eu
. ./lib.sh
plan 49

expect "mode 0200" "$(stat -c %a $V0)" "200"
expect "beside compact" "$(test -e /sys/devices/system/node/node0/compact && echo present)" "present"

# Root's and a user's processes, every memory kind, all on node 0.
ws=""
for spec in anon:0 shared:0 shmem:0 thp:0 hugetlb:0 anon:$USER_UID shared:$USER_UID; do
	ws="$ws $(wl_start "${spec%:*}" 8 0 "${spec#*:}")"
done

# Rejected input moves nothing.
for input in '\n' 'x' '0' '0-1' '5' '1 x' '-1' 'al'; do
	expect "\"$input\": EINVAL" "$(writefile $V0 "$input")" "err EINVAL"
done
expect "unprivileged user: EACCES" "$(runas $USER_UID $USER_UID writefile $V0 1)" "open err EACCES"
for w in $ws; do
	expect "$(basename "$w"): still on node 0" "$(wl_cmd "$w" where)" "N0=2048 err=0"
done

expect "vacate node 0 to node 1" "$(node_vacate_settled 0 1)" "ok 1"
for w in $ws; do
	expect_placement "$(basename "$w") vacated" "$w" "N1=2048"
done
expect "\"all\" back to node 0" "$(node_vacate_settled 1 all)" "ok 3"
for w in $ws; do
	expect "$(basename "$w") back on node 0" "$(wl_cmd "$w" where)" "N0=2048 err=0"
done
for w in $ws; do
	wl_stop "$w"
done
expect_no_isolated
