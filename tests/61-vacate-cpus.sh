#!/bin/sh
# nodeN/vacate's workers stay within the writer's limits: never on an
# isolated CPU (the guest boots with isolcpus=3, node 1's second CPU),
# only on CPUs the writer may run on (its affinity and cpuset), in the
# writer's cgroup, which is charged for their CPU time and whose cpu.max
# throttles them. A writer that may run on isolated CPUs only walks
# itself. Each round moves 4 x 32 MiB off node 0 and back, and checks the
# threads seen while it ran (their CPUs and cgroup), the busy time of
# CPU 3 from /proc/stat, and where every page is, with its pattern.
# topo: isol
set -eu
. ./lib.sh
plan 38

NPROC=4
MIB=32
# CPU 3's busy ticks (10 ms) allowed during a round: timer, RCU and the
# debug kernel's work (KASAN, kmemleak: 7 ticks in a 4.5 s round, 11 in
# 19 s), 5 or a tenth of the round, whichever is more. A writer running
# there alone keeps it busy: 94 ticks a second. The threads' CPU masks are
# the exact check; this one shows no work landed there all the same.
IDLE_TICKS=5

expect "CPU 3 is isolated" "$(cat /sys/devices/system/cpu/isolated)" 3

# Swap off: a page swapped out is on no node.
swaps=$(swaps_off)

dirs=$(WL_CPUS=0-1 wl_start_n $NPROC anon $MIB 0)
pages=$((NPROC * $(wl_pages "${dirs%% *}")))

# round DESC WANT_THREADS CPU3 WRITER...: vacate node 0 to node 1 with
# the command WRITER... (its last words: the file and "1"), watching the
# threads; then check the threads seen, that CPU 3 stayed idle (CPU3
# "idle") or did the work (CPU3 "busy": the writer runs there), the
# placement and the patterns, and bring the workloads back to node 0.
# Seven lines; the write's duration in ms is left in $round_ms.
round() {
	desc=$1
	want=$2
	cpu3=$3
	shift 3
	out=/tmp/vacate-cpus.$$
	busy3=$(cpu_busy 3)
	start=$(uptime_ms)
	"$@" > $out &
	writer=$!
	seen=$(watch_workers $writer 0 | sort | tr '\n' ';')
	wait $writer || true
	round_ms=$(($(uptime_ms) - start))
	ticks=$(($(cpu_busy 3) - busy3))
	diag "$desc: $round_ms ms, CPU 3 busy $ticks ticks, threads: $seen"
	expect "$desc: vacate ok" "$(cat $out)" "ok 1"
	expect "  threads seen" "$seen" "$want"
	idle_max=$((round_ms / 100 > IDLE_TICKS ? round_ms / 100 : IDLE_TICKS))
	expect "  CPU 3 $cpu3 ($ticks ticks, idle up to $idle_max)" \
		"$([ "$ticks" -le $idle_max ] && echo idle || echo busy)" "$cpu3"
	expect "  every page on node 1" "$(where_all $dirs)" "N1=$pages err=0"
	expect "  patterns intact" "$(intact_all $dirs)" ok
	for d in $dirs; do
		migrate_proc "$(wl_pid "$d")" 1 0 >/dev/null
	done
	expect "  back on node 0" "$(where_all $dirs)" "N0=$pages err=0"
	expect_no_isolated
}

# Workers on node 1's CPUs that the writer may use and that are not
# isolated: CPU 2 alone. The default affinity leaves out CPU 3 already
# (init runs on the housekeeping CPUs); a writer allowed on CPU 3 too
# must not get a worker there either.
round "default affinity" "kvacate0/0 2 0::/;" idle writefile $V0 1
round "writer allowed on CPUs 0-3" "kvacate0/0 2 0::/;" idle \
	taskset -c 0-3 writefile $V0 1
round "writer on CPUs 0-1 (no destination CPU)" \
	"kvacate0/0 0-1 0::/;kvacate0/1 0-1 0::/;" idle taskset -c 0-1 writefile $V0 1
# Only the isolated CPU: no thread, the writer walks, on CPU 3.
round "writer on isolated CPU 3 alone" "" busy taskset -c 3 writefile $V0 1

# A writer in a cgroup with cpuset.cpus 1 and cpu.max 20%: one worker, on
# CPU 1, in that cgroup, which is charged and throttled.
echo "+cpu +cpuset" > /sys/fs/cgroup/cgroup.subtree_control
cg=/sys/fs/cgroup/vacate-writer
mkdir -p $cg
echo 1 > $cg/cpuset.cpus
echo "20000 100000" > $cg/cpu.max
stat_of() { awk -v k="$1" '$1 == k { print $2 }' $cg/cpu.stat; }
usage=$(stat_of usage_usec)
throttled=$(stat_of nr_throttled)
round "writer in cgroup vacate-writer (cpuset 1, cpu.max 20%)" \
	"kvacate0/0 1 0::/vacate-writer;" idle /tests/cg-enter.sh $cg writefile $V0 1
used=$((($(stat_of usage_usec) - usage) / 1000))
diag "cgroup: $used ms of CPU in $round_ms ms; throttled $(($(stat_of nr_throttled) - throttled)) times"
# The worker's time is there: at least a tenth of the write's (the quota
# is a fifth), where the writer alone sleeps through it.
expect "  the cgroup was charged for the worker ($used ms of $round_ms)" \
	"$((used * 10 >= round_ms))" 1
expect "  and throttled by its cpu.max" "$(($(stat_of nr_throttled) > throttled))" 1
rmdir $cg

for d in $dirs; do
	wl_stop "$d"
done
# shellcheck disable=SC2086 # device names have no spaces
swaps_on $swaps
