#!/bin/sh
# cgroups v2: a job in a group with the memory and cpuset controllers,
# cpuset.mems 0-1, charged from its first page, moved by every path.
# - /proc/PID/migrate to node 2, outside the job's cpuset: EPERM for a
#   writer without CAP_SYS_NICE, ok for root, as migrate_pages(2) answers;
# - vacate moves the job whatever its cpuset (docs/interfaces.md);
# - the charge moves with the pages: memory.numa_stat's anon follows them
#   node by node, and memory.current (plus memory.swap.current, after an
#   eviction) stays what it was: nothing lost, nothing counted twice.
# Each path prints memory.current and memory.numa_stat before and after.
# topo: 4node
set -eu
. ./lib.sh
plan 36

CAP_SYS_NICE=23
# memory.current counts what each CPU's charge stock holds in advance for
# the group (up to MEMCG_CHARGE_BATCH, 64 pages, per CPU: seen as +256 KiB
# after a vacate on 6.12), plus the job's page tables and the process's own
# pages (EXTRA, below). The charge must stay within that: moved with the
# pages, not lost (-16 MiB) nor counted twice (+16 MiB).
SLACK=$(((64 * $(nproc) + 64) * 4096))

echo +memory > /sys/fs/cgroup/cgroup.subtree_control
cg=$(cpuset_new job 0-1)
echo 0-1 > "$cg/cpuset.cpus"

# The group's anonymous memory is the region's 4096 pages plus the
# process's own (stack, libc data): at most EXTRA pages, which move with it.
EXTRA=64

# numa_anon [NODE]: the group's anonymous pages (memory.numa_stat) on NODE,
# or on every node.
numa_anon() {
	awk -v node="${1:+N$1}" '$1 == "anon" {
		for (i = 2; i <= NF; i++) {
			split($i, x, "=")
			if (node == "" || x[1] == node)
				n += x[2] / 4096
		}
	} END { print n + 0 }' "$cg/memory.numa_stat"
}

# anon_at NODE: 1 when the region's pages are charged on NODE (NODE empty:
# anywhere) and nothing more than EXTRA elsewhere; NODE "none": the region's
# pages are charged nowhere (evicted).
anon_at() {
	all=$(numa_anon)
	case $1 in
	none) echo $((all <= EXTRA)) ;;
	"") echo $((all >= 4096 && all <= 4096 + EXTRA)) ;;
	*) here=$(numa_anon "$1")
		echo $((here >= 4096 && all <= 4096 + EXTRA)) ;;
	esac
}

# charge: memory.current plus memory.swap.current, in bytes.
charge() { echo $(($(cat "$cg/memory.current") + $(cat "$cg/memory.swap.current"))); }

show() {
	diag "$1: memory.current $(cat "$cg/memory.current")" \
		"memory.swap.current $(cat "$cg/memory.swap.current")" \
		"numa_stat $(grep '^anon ' "$cg/memory.numa_stat")"
}

# expect_charge DESC NODE: memory.numa_stat charges the region's pages to
# NODE (see anon_at; the statistics are flushed every 2 s: wait up to 4 s),
# and the charge is within SLACK of what it was at the start.
expect_charge() {
	i=0
	while [ "$(anon_at "$2")" != 1 ] && [ $i -lt 40 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	show "$1"
	case $2 in
	none) where="evicted" ;;
	"") where="back" ;;
	*) where="on N$2" ;;
	esac
	expect "$1: memory.numa_stat anon $where" "$(anon_at "$2")" "1"
	d=$(($(charge) - charge0))
	expect "$1: charge kept (within $SLACK bytes; moved by $d)" \
		"$((d <= SLACK && d >= -SLACK))" "1"
}

w=$(WL_WRAP="/tests/cg-enter.sh $cg" wl_start anon 16 0)
pid=$(wl_pid "$w")
expect "the job is in the group" "$(cat "$cg/cgroup.procs")" "$pid"
expect "its cpuset is 0-1" "$(awk '/^Mems_allowed_list:/ { print $2 }' "/proc/$pid/status")" "0-1"
charge0=$(charge)
expect "its 16 MiB are charged to the group" "$((charge0 >= 16777216))" "1"
expect_charge "start" 0

expect "/proc: \"0 1\"" "$(migrate_proc "$pid" 0 1)" "ok 3"
expect_placement "  moved" "$w" "N1=4096"
expect_charge "/proc 0 1" 1

# ---- the job's cpuset: node 2 lies outside it ----

expect "without CAP_SYS_NICE, \"1 2\": EPERM" \
	"$(capdrop $CAP_SYS_NICE writefile "/proc/$pid/migrate" "1 2")" "err EPERM"
expect "  migrate_pages(2) without CAP_SYS_NICE: EPERM" \
	"$(capdrop $CAP_SYS_NICE migrate-syscall "$pid" 1 2)" "err EPERM"
expect "  nothing moved" "$(wl_cmd "$w" where)" "N1=4096 err=0"
expect "root, \"1 2\": ok" "$(migrate_proc "$pid" 1 2)" "ok 3"
expect_placement "  moved outside the cpuset" "$w" "N2=4096"
expect_charge "/proc 1 2" 2

# ---- vacate ----

expect "vacate node 2 to node 0" "$(node_vacate_settled 2 0)" "ok 1"
expect_placement "  vacated" "$w" "N0=4096"
expect_charge "vacate node 2" 0

# ---- swap: the charge moves to memory.swap.current and back ----

swap0=$(cat "$cg/memory.swap.current")
expect "/proc: \"0 1 swap\"" "$(migrate_proc "$pid" 0 1 swap)" "ok 8"
expect "  every page evicted" "$(wl_cmd "$w" where)" "err=4096"
expect "  memory.swap.current rose by the 16 MiB" \
	"$(($(cat "$cg/memory.swap.current") - swap0 >= 16777216))" "1"
expect_charge "swap" none
expect "  pattern intact after the fault-in" "$(wl_cmd "$w" verify)" "ok 4096"
expect "  every page back" "$(sum_where "$(wl_cmd "$w" where)")" "4096"
expect_charge "fault-in" ""

wl_stop "$w"
cpuset_drop "$cg"
expect_no_isolated
