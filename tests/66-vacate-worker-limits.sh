#!/bin/sh
# vacate's workers stay within (the writer's CPUs less isolated ones)
# whatever happens to the cpuset or to CPUs while they run, and take the
# writer's nice. The guest boots with isolcpus=3 (node 1's second CPU).
# - The writer, at nice 10, in a cpuset of CPU 2 alone: its worker runs at
#   nice 10. Mid-vacate the cpuset grows to 2-3: the cpuset rebinds its
#   tasks to 2-3, the worker too, and the worker must be back on CPU 2
#   alone within a second, and CPU 3 stay idle.
# - The writer in a cpuset of 2-3: its worker runs on CPU 2. Mid-vacate
#   CPU 2 goes offline, which leaves the cpuset CPU 3 alone: the worker
#   must never be seen allowed on CPU 3 a second later (it leaves, and the
#   writer, whose own cpuset it is, finishes the walk).
# Each round must end ok with every page on node 1, intact.
# topo: isol
set -eu
. ./lib.sh
plan 15

NPROC=4
CPU2=/sys/devices/system/cpu/cpu2/online

expect "CPU 3 is isolated" "$(cat /sys/devices/system/cpu/isolated)" 3

# Swap off: a page swapped out is on no node.
swaps=$(swaps_off)
MIB=$(wl_mib 0 $NPROC 64)
dirs=$(WL_CPUS=0-1 wl_start_n $NPROC anon "$MIB" 0)
# shellcheck disable=SC2086 # the directories have no spaces
pages=$((NPROC * $(wl_pages "${dirs%% *}")))
cg=$(cpuset_new vacate-limits 0-1)
echo +cpu > /sys/fs/cgroup/cgroup.subtree_control
trap 'echo 1 > $CPU2; cpuset_drop $cg; swaps_on $swaps' EXIT

# workers_after PID: once 8 MiB have left node 0, run the command in
# $event, wait a second, then until PID ends print every kvacate0/ thread
# seen as "NAME CPUS NICE", one line each, the last seen of each; then
# "ran" if PID still ran after that second.
workers_after() {
	wa_pid=$1
	wa_free=$(free_kib 0)
	under_way 0 "$wa_free" not_alive "$wa_pid"
	eval "$event"
	sleep 1
	! alive "$wa_pid" || echo ran
	while alive "$wa_pid"; do
		for c in /proc/[0-9]*/comm; do
			{ read -r name < "$c"; } 2>/dev/null || continue
			case $name in kvacate0/*) ;; *) continue ;; esac
			cpus=""
			while read -r k v; do
				[ "$k" != Cpus_allowed_list: ] || cpus=$v
			done < "${c%comm}status" 2>/dev/null || continue
			{ read -r stat < "${c%comm}stat"; } 2>/dev/null || continue
			# shellcheck disable=SC2086 # fields after the comm
			set -- ${stat##*) }
			echo "$name $cpus ${17}"
		done
	done | awk '{ last[$1] = $0 } END { for (n in last) print last[n] }'
}

# round DESC CPUS EVENT: the writer at nice 10 in the cpuset of CPUS
# vacates node 0 to node 1; EVENT runs mid-vacate. Leaves what
# workers_after saw in $seen (one line), the write's result in $res and
# CPU 3's busy ticks in $ticks.
round() {
	echo "$2" > "$cg/cpuset.cpus"
	event=$3
	out=/tmp/vacate-limits.$$
	busy3=$(cpu_busy 3)
	sh cg-enter.sh "$cg" writefile -n 10 $V0 1 > $out &
	writer=$!
	seen=$(workers_after $writer | sort | tr '\n' ';')
	wait $writer || true
	res=$(cat $out)
	ticks=$(($(cpu_busy 3) - busy3))
	rm -f $out
	diag "$1: $res, CPU 3 busy $ticks ticks, seen: $seen"
}

# back: every page back to node 0, the cpuset to CPU 2.
back() {
	expect "  every page on node 1" "$(where_all $dirs)" "N1=$pages err=0"
	expect "  patterns intact" "$(intact_all $dirs)" ok
	expect "  back to node 0" "$(node_vacate_settled 1 0)" "ok 1"
}

# shellcheck disable=SC2016 # $cg is expanded when the event runs
round "cpuset 2, grown to 2-3" 2 'echo 2-3 > $cg/cpuset.cpus'
expect "cpuset grown to an isolated CPU mid-vacate: ok" "$res" "ok 1"
expect_match "  the vacate still ran a second after" "$seen" "*ran;*"
expect "  its worker back on CPU 2 alone, at the writer's nice" \
	"$(echo "$seen" | sed 's/ran;//')" "kvacate0/0 2 10;"
expect "  CPU 3 idle ($ticks ticks)" "$([ "$ticks" -le 10 ] && echo idle || echo "$ticks")" idle
back

# shellcheck disable=SC2016 # $CPU2 is expanded when the event runs
round "cpuset 2-3, CPU 2 offline" 2-3 'echo 0 > $CPU2'
echo 1 > $CPU2
expect "CPU 2 offline mid-vacate: ok" "$res" "ok 1"
expect_match "  the vacate still ran a second after" "$seen" "*ran;*"
expect "  no worker allowed on isolated CPU 3 then" \
	"$(echo "$seen" | tr ';' '\n' | awk '$2 ~ /(^|[,-])3($|,)/' | tr '\n' ';')" ""
back

echo 2 > "$cg/cpuset.cpus"
for d in $dirs; do
	wl_stop "$d"
done
expect_no_isolated
