#!/bin/sh
# nodeN/vacate's rules on one destination:
# - the writer needs CAP_SYS_NICE: root without it gets EPERM and nothing
#   moves (root without another capability still vacates);
# - a task whose own cpuset allows only the vacated node is moved anyway;
# - a process whose main thread exited (zombie group leader, threads still
#   running) is moved whole, by vacate and by /proc/<tgid>/migrate;
# - a vacate that says ok leaves no page of any workload (every kind, a
#   user's, a leaderless one) on the node.
# topo: 2node
set -eu
. ./lib.sh
plan 55

CAP_NET_RAW=13
CAP_SYS_NICE=23

# ---- V1: CAP_SYS_NICE ----

w=$(wl_start anon 8 0)
capeff=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
expect "capdrop $CAP_SYS_NICE: CapEff and CapBnd lose exactly CAP_SYS_NICE" \
	"$(capdrop $CAP_SYS_NICE awk '/^Cap(Eff|Bnd):/ { printf "%s ", $2 }' /proc/self/status)" \
	"$(printf '%016x %016x ' $((0x$capeff & ~(1 << CAP_SYS_NICE))) \
		$((0x$capeff & ~(1 << CAP_SYS_NICE))))"
expect "root without CAP_SYS_NICE: EPERM" "$(capdrop $CAP_SYS_NICE writefile $V0 1)" "err EPERM"
expect "  nothing moved" "$(wl_cmd "$w" where)" "N0=2048 err=0"
expect "root without CAP_NET_RAW (control): vacates" \
	"$(capdrop $CAP_NET_RAW writefile $V0 1)" "ok 1"
expect_placement "  moved" "$w" "N1=2048"
wl_stop "$w"

# ---- V3: the target's own cpuset allows only the vacated node ----

w=$(wl_start anon 8 0)
pid=$(wl_pid "$w")
cg=$(cpuset_new vacate-node0 0)
echo "$pid" > "$cg/cgroup.procs"
expect "target's cpuset is node 0" \
	"$(awk '/^Mems_allowed_list:/ { print $2 }' "/proc/$pid/status")" "0"
expect "vacate node 0, target confined to it" "$(node_vacate_settled 0 1)" "ok 1"
expect_placement "  moved anyway" "$w" "N1=2048"
cpuset_drop "$cg"
wl_stop "$w"

# ---- V4: main thread exited, other threads run ----

# Private anonymous memory, of the thp kind: a plain anon region would
# merge with the serving thread's stack below it, and numa_maps would show
# no VMA starting at the region.
w=$(WL_OPTS=-L wl_start thp 8 0)
pid=$(wl_pid "$w")
expect "group leader is a zombie, a thread serves" \
	"$(awk '{ print $3 }' "/proc/$pid/stat") $(ls "/proc/$pid/task" | wc -l)" "Z 2"
expect "vacate node 0 with a leaderless process" "$(node_vacate_settled 0 1)" "ok 1"
expect_placement "  leaderless process vacated" "$w" "N1=2048"
expect "/proc/<tgid>/migrate on it" "$(migrate_proc "$pid" 1 0)" "ok 3"
expect_placement "  moved back by /proc/<tgid>/migrate" "$w" "N0=2048"
wl_stop "$w"

# ---- V7: ok means nothing is left on the node ----

ws=""
for spec in anon:0 shared:0 shmem:0 thp:0 hugetlb:0 anon:$USER_UID; do
	ws="$ws $(wl_start "${spec%:*}" 8 0 "${spec#*:}")"
done
ws="$ws $(WL_OPTS=-L wl_start shmem 8 0) $(WL_OPTS=-L wl_start shared 8 0 "$USER_UID")"
for w in $ws; do
	expect "$(basename "$w"): on node 0" "$(wl_cmd "$w" where)" "N0=2048 err=0"
done
expect "vacate node 0 to node 1" "$(node_vacate_settled 0 1)" "ok 1"
for w in $ws; do
	expect_placement "$(basename "$w") vacated" "$w" "N1=2048"
done
for w in $ws; do
	wl_stop "$w"
done
expect_no_isolated
