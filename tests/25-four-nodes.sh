#!/bin/sh
# Several nodes through the new files: /proc/PID/migrate maps {2,3} ->
# {0,1} by position; vacate fills the nearest node first and spills over.
# topo: 4node
set -eu
. ./lib.sh
plan 21

w=$(wl_start anon 16 2,3,3,3)
pid=$(wl_pid "$w")
expect_placement "placed 1:3 on nodes 2,3" "$w" "N2=1024 N3=3072"
expect "/proc/PID/migrate \"2-3 0,1\"" "$(migrate_proc "$pid" 2-3 0,1)" "ok 7"
expect_placement "2 went to 0, 3 went to 1" "$w" "N0=1024 N1=3072"
wl_stop "$w"

expect "node 0 to node 3 distance" "$(cut -d' ' -f4 /sys/devices/system/node/node0/distance)" "12"
expect "vacate with several destinations" "$(node_vacate_settled 0 1-3)" "ok 3"

# Node 3 (nearest to 0) has 24 MiB left: the rest spills to node 2, none to 1.
swapoff /dev/zram0
w=$(wl_start anon 64 0)
hog=$(wl_hog 3 24)
# Seen once (6.12, host loaded): every page fitted on node 3; this says
# whether the hog left more room than it should have.
diag "node 3: $(node_free_mib 3) MiB free above min after the hog ($hog)"
expect_alloc_failure
expect "vacate node 0 to 1-3 with node 3 nearly full" "$(node_vacate_settled 0 1-3)" "ok 3"
end_alloc_failure
where=$(wl_cmd "$w" where)
expect_match "nearest first, spill to the next nearest" "$where" "N2=[1-9]* N3=[1-9]* err=0"
expect "every page accounted for" "$(sum_where "$where")" "16384"
expect "pattern intact" "$(wl_cmd "$w" verify)" "ok 16384"
wl_stop "$w"

# Only a full destination (node 3 has about 24 MiB left): ENOMEM, data
# intact, nothing isolated.
w=$(wl_start anon 64 0)
diag "node 3: $(node_free_mib 3) MiB free above min"
expect_alloc_failure
expect "vacate to a full node: ENOMEM" "$(node_vacate 0 3)" "err ENOMEM"
end_alloc_failure
expect "pattern intact after ENOMEM" "$(wl_cmd "$w" verify)" "ok 16384"
expect_match "some pages moved, some stayed" "$(wl_cmd "$w" where)" "N0=[1-9]* N3=[1-9]* err=0"
wl_stop "$hog"
expect "with room again the vacate completes" "$(node_vacate_settled 0 3)" "ok 1"
expect_placement "all on node 3" "$w" "N3=16384"
wl_stop "$w"
swapon /dev/zram0
expect_no_isolated
