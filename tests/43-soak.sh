#!/bin/sh
# Soak: churn workloads of every memory kind fork, exit, exec, mmap, munmap,
# mprotect and madvise(DONTNEED) in loops while three loops migrate them at
# once, through migrate_pages(2), /proc/PID/migrate (now and then by swap)
# and nodeN/vacate. Each loop may see only documented results. At the end
# every workload survived and verifies its pattern, no churn process is
# left, the huge page pools hold what they held before and nothing is
# isolated.
# Duration: SOAK_SECONDS (the host's SOAK_SECONDS, via rig.soak=); without
# it 30 s on the test kernel and 120 s on the others.
# SOAK_MOVERS=1 (53-soak-movers.sh) runs the kernel's own movers all along:
# NUMA balancing (scanning every 100 ms, each churner on the other node's
# CPUs), khugepaged scanning every 10 ms, ksmd merging two KSM
# workloads (verified at the end too) and compaction of each node written
# to nodeN/compact in a loop; their counts are reported.
# topo: 2node
set -eu
. ./lib.sh

KINDS="anon shared shmem thp hugetlb"
NODES="0 1"
MIB=4
PATHS="syscall proc vacate"
N_CHURN=$(($(echo $KINDS | wc -w) * $(echo $NODES | wc -w)))
MOVERS=${SOAK_MOVERS:-0}
plan $((N_CHURN + 2 * $(echo $PATHS | wc -w) + 6 + MOVERS * 6))

if [ -n "${SOAK_SECONDS:-}" ]; then
	dur=$SOAK_SECONDS
	diag "soak for $dur s (SOAK_SECONDS)"
elif [ "${RIG_PROFILE:-test}" = test ]; then
	dur=30
	diag "soak for $dur s (default of the test kernel)"
else
	dur=120
	diag "soak for $dur s (default)"
fi

D=$(mktemp -d /tmp/soak.XXXXXX)
STOP=$D/stop
MAINS=""
CHURNERS=""

# start_churners: two per kind, one on each node; CHURNERS holds
# "KIND.NODE:PID" words, MAINS the pids. After each round a churner sleeps
# 4 times the CPU time the round used (at least 20 ms), which leaves CPU
# time to the migrators on a slow guest. Should this script die, they stop
# by themselves long after the soak should have ended.
start_churners() {
	for kind in $KINDS; do
		for node in $NODES; do
			# With the movers, each runs on the other node's CPUs:
			# NUMA balancing then wants its memory there.
			cpus=""
			[ "$MOVERS" -eq 0 ] ||
				cpus=$(cat "/sys/devices/system/node/node$((1 - node))/cpulist")
			${cpus:+taskset -c "$cpus"} churn -k "$kind" -m $MIB -n "$node" \
				-p 20 -r 4 -t $((dur + 400)) >"$D/$kind.$node" 2>&1 </dev/null &
			CHURNERS="$CHURNERS $kind.$node:$!"
			MAINS="$MAINS $!"
		done
	done
}

# The guest's shell is slow under TCG: the loops below use builtins (read,
# case) rather than a command per line where they can.

# ready_count: READY= churners that printed their "PID ADDR LENGTH KIND"
# line (waits up to 120 s for all of them).
ready_count() {
	end=$(($(date +%s) + 120))
	while :; do
		READY=0
		for c in $CHURNERS; do
			line=""
			read -r line < "$D/${c%:*}" || true
			case $line in "${c#*:} "*) READY=$((READY + 1)) ;; esac
		done
		if [ $READY -eq "$N_CHURN" ] || [ "$(date +%s)" -ge $end ]; then
			break
		fi
		sleep 0.5
	done
}

# pages KIND: PG= the 4 KiB pages a churner of KIND verifies at the end:
# its stable region and its refill region (2 MiB for thp and hugetlb,
# 256 KiB for the others).
pages() {
	case $1 in
	thp | hugetlb) PG=$((MIB * 256 + 512)) ;;
	*) PG=$((MIB * 256 + 64)) ;;
	esac
}

is_main() {
	case " $MAINS " in *" $1 "*) return 0 ;; esac
	return 1
}

# rnd N: R= a pseudo-random number below N (an LCG; each migrator seeds
# RND with its own number).
rnd() {
	RND=$(((RND * 1103515245 + 12345) % 2147483648))
	R=$((RND / 65536 % $1))
}

# churn_pids [EXCLUDED]: every process running churn (the churners, their
# forked children and exec'd programs) but the EXCLUDED pids, from
# /proc/*/stat, which unlike cmdline (pidof) never waits for a process's
# mmap_lock.
churn_pids() {
	cat /proc/[0-9]*/stat 2>/dev/null | awk -v skip=" $* " '
		$2 == "(churn)" && index(skip, " " $1 " ") == 0 { print $1 }'
}

# TARGET=: a churner, or one time in four one of their forked children or
# exec'd programs, which come and go (a churner when there is none).
pick_target() {
	set -- $MAINS
	rnd 4
	if [ $R -eq 0 ]; then
		kids=$(churn_pids $MAINS)
		[ -z "$kids" ] || set -- $kids
	fi
	rnd $#
	shift $R
	TARGET=$1
}

# gone PID: a transient child that exited (or exec'd and then exited):
# not one of the churners, and gone (or a zombie) within 30 s.
gone() {
	is_main "$1" && return 1
	end=$(($(date +%s) + 30))
	while alive "$1"; do
		[ "$(date +%s)" -lt $end ] || return 1
		sleep 0.2
	done
}

# act_PATH N FROM TO TARGET: one migration by that path, prints its result.
act_syscall() { migrate-syscall "$4" "$2" "$3"; }

act_proc() {
	# Every eighth write moves by eviction to swap.
	if [ $(($1 % 8)) -eq 0 ]; then
		migrate_proc "$4" "$2" "$3" swap
	else
		migrate_proc "$4" "$2" "$3"
	fi
}

act_vacate() { node_vacate "$2" "$3"; }

# classify PATH RESULT TARGET: C= ok, eagain, enomem, gone or unexpected.
# migrate_pages(2) reports pages left behind in its count ("ok N"), never
# EAGAIN.
# A target that exited before the open has no file (ENOENT, or ESRCH from
# open); one that exited or exec'd after it gives ESRCH; a zombie has no
# memory, EINVAL (the syscall says ESRCH and EINVAL the same ways). Those
# are accepted only for the transient children, never for a churner
# (which neither exits nor execs), and never for vacate.
classify() {
	case $1:$2 in
	*:"ok "*) C=ok ;;
	proc:"err EAGAIN" | vacate:"err EAGAIN") C=eagain ;;
	*:"err ENOMEM") C=enomem ;;
	syscall:"err ESRCH" | syscall:"err EINVAL" | proc:"err ESRCH" | \
	proc:"err EINVAL" | proc:"open err ENOENT" | proc:"open err ESRCH")
		if gone "$3"; then C=gone; else C=unexpected; fi ;;
	*) C=unexpected ;;
	esac
}

# migrator PATH SEED: until $STOP exists, migrate back and forth by PATH; then
# write "CALLS OK EAGAIN ENOMEM GONE UNEXPECTED" to $D/PATH.count, each
# unexpected result to $D/PATH.bad and each gone one to $D/PATH.gone.
migrator() {
	n=0 ok=0 eagain=0 enomem=0 gone=0 unexpected=0 RND=$2
	: > "$D/$1.bad"
	: > "$D/$1.gone"
	while [ ! -e "$STOP" ]; do
		n=$((n + 1))
		rnd 2
		from=$R
		TARGET=""
		[ "$1" = vacate ] || pick_target
		r=$("act_$1" $n $from $((1 - from)) "$TARGET" 2>&1) || true
		classify "$1" "$r" "$TARGET"
		eval "$C=\$(($C + 1))"
		case $C in
		unexpected)
			echo "call $n, ${TARGET:+pid $TARGET, }$from to $((1 - from)): $r" \
				>> "$D/$1.bad" ;;
		gone) echo "$r" >> "$D/$1.gone" ;;
		esac
	done
	echo "$n $ok $eagain $enomem $gone $unexpected" > "$D/$1.count"
}

hugefree() { cat /sys/devices/system/node/node*/hugepages/hugepages-2048kB/free_hugepages | xargs; }

# stop_churners: SIGTERM to every churner, then one TAP line each for its
# exit status and last line ("ok PAGES rounds=N"); VERIFIED= their pages.
stop_churners() {
	for p in $MAINS; do
		kill -TERM "$p" || true
	done
	VERIFIED=0
	for c in $CHURNERS; do
		rc=0
		wait "${c#*:}" || rc=$?
		res=""
		while read -r line; do
			case $line in "bad round"*) diag "${c%:*}: $line" ;; esac
			res=$line
		done < "$D/${c%:*}"
		pages "${c%.*}"
		expect_match "${c%:*}: exit 0, every page verified" "$rc $res" \
			"0 ok $PG rounds=[1-9]*"
		case $res in "ok "*) VERIFIED=$((VERIFIED + PG)) ;; esac
		diag "${c%:*}: $res"
	done
}

K=/sys/kernel/mm/ksm
KH=/sys/kernel/mm/transparent_hugepage/khugepaged
NB=/sys/kernel/debug/sched/numa_balancing

# compactor: until $STOP exists, compact each node in turn; then write the
# number of compactions to $D/compact.count.
compactor() {
	n=0
	while [ ! -e "$STOP" ]; do
		for node in $NODES; do
			echo 1 > "/sys/devices/system/node/node$node/compact"
			n=$((n + 1))
		done
		sleep 0.5
	done
	echo $n > "$D/compact.count"
}

# start_movers: the kernel's movers on, two KSM workloads (one per node,
# the same seed) and the compaction loop; the counters they move are
# remembered.
start_movers() {
	khs0=$(cat $KH/scan_sleep_millisecs)
	kha0=$(cat $KH/alloc_sleep_millisecs)
	echo 1 > /proc/sys/kernel/numa_balancing
	# NUMA balancing starts scanning a task after 1 s and rescans at
	# most once a second: scan at once and every 100 ms.
	if [ -d $NB ]; then
		nbd0=$(cat $NB/scan_delay_ms)
		nbp0=$(cat $NB/scan_period_min_ms)
		echo 0 > $NB/scan_delay_ms
		echo 100 > $NB/scan_period_min_ms
	fi
	echo 10 > $KH/scan_sleep_millisecs
	echo 10 > $KH/alloc_sleep_millisecs
	echo 1000 > $K/pages_to_scan
	echo 20 > $K/sleep_millisecs
	echo 1 > $K/run
	KSM_A=$(WL_OPTS="-s 13" wl_start ksm $MIB 0)
	KSM_B=$(WL_OPTS="-s 13" wl_start ksm $MIB 1)
	numa0=$(vmstat numa_pages_migrated)
	collapse0=$(vmstat thp_collapse_alloc)
	scans0=$(cat $K/full_scans)
	compactor &
	COMPACTOR=$!
}

# stop_movers: the movers off (ksmd paused, its pages still merged), their
# counts reported; one TAP line each for compaction, ksmd, NUMA balancing
# and khugepaged (each did something), one for each KSM workload's pattern.
stop_movers() {
	wait $COMPACTOR || true
	echo 0 > /proc/sys/kernel/numa_balancing
	if [ -d $NB ]; then
		echo "$nbd0" > $NB/scan_delay_ms
		echo "$nbp0" > $NB/scan_period_min_ms
	fi
	echo "$khs0" > $KH/scan_sleep_millisecs
	echo "$kha0" > $KH/alloc_sleep_millisecs
	echo 0 > $K/run
	sleep 1
	compactions=$(cat "$D/compact.count")
	expect_match "movers: nodeN/compact written" "$compactions" "[1-9]*"
	expect_match "movers: ksmd merged pages" "$(cat $K/pages_sharing)" "[1-9]*"
	numa=$(($(vmstat numa_pages_migrated) - numa0))
	collapsed=$(($(vmstat thp_collapse_alloc) - collapse0))
	expect_match "movers: NUMA balancing moved pages" "$numa" "[1-9]*"
	expect_match "movers: khugepaged collapsed huge pages" "$collapsed" "[1-9]*"
	MOVERS_FIGURE="movers: $compactions compactions, $(($(cat $K/full_scans) - scans0)) ksmd full scans, $(cat $K/pages_sharing) pages sharing, $numa pages moved by NUMA balancing, $collapsed huge pages collapsed by khugepaged"
	diag "$MOVERS_FIGURE"
	for w in $KSM_A $KSM_B; do
		expect "movers: KSM workload $(basename "$w") verified" \
			"$(wl_cmd "$w" verify)" "ok $((MIB * 256))"
		wl_stop "$w"
	done
	echo 2 > $K/run
}

T_START=$(date +%s)
elapsed() { echo $(($(date +%s) - T_START)); }

huge0=$(hugefree)
[ "$MOVERS" -eq 0 ] || start_movers
start_churners
ready_count
expect "$N_CHURN churners ready" "$READY" "$N_CHURN"
diag "churners ready after $(elapsed) s"

moved0=$(vmstat pgmigrate_success)
swapped0=$(vmstat pswpout)
t0=$(date +%s)
mpids=""
seed=$t0
diag "migrator seeds from $seed"
for path in $PATHS; do
	migrator "$path" $seed &
	mpids="$mpids $!"
	seed=$((seed + 1))
done
sleep "$dur"
touch "$STOP"
wait $mpids || true
t1=$(date +%s)
diag "migrators stopped after $(elapsed) s"
[ "$MOVERS" -eq 0 ] || stop_movers
moved=$(($(vmstat pgmigrate_success) - moved0))
evicted=$(($(vmstat pswpout) - swapped0))
diag "$evicted pages evicted by the swap method"

n_alive=0
for c in $CHURNERS; do
	if alive "${c#*:}"; then
		n_alive=$((n_alive + 1))
	else
		diag "${c%:*} (pid ${c#*:}) is gone"
	fi
done
expect "every churner survived $((t1 - t0)) s of migration" "$n_alive" "$N_CHURN"

total=0
summary=""
for path in $PATHS; do
	read -r calls ok eagain enomem gone unexpected < "$D/$path.count"
	acted=$((ok + eagain + enomem))
	diag "$path: $calls calls: $ok ok, $eagain EAGAIN, $enomem ENOMEM," \
		"$gone target gone, $unexpected unexpected"
	sort "$D/$path.gone" | uniq -c | while read -r count line; do
		diag "  target gone: $count x $line"
	done
	head -n 10 "$D/$path.bad" | while read -r line; do diag "  $line"; done
	expect "$path: only documented results" "$unexpected" "0"
	expect_match "$path: migrations done" "$acted" "[1-9]*"
	total=$((total + acted))
	summary="$summary${summary:+, }$path $acted"
done
expect_match "pages moved (pgmigrate_success)" "$moved" "[1-9]*"

stop_churners
diag "churners stopped after $(elapsed) s"
sleep 0.5
expect "no churn process left" "$(churn_pids)" ""
expect "free huge pages per node as before the soak" "$(hugefree)" "$huge0"
label=soak
[ "$MOVERS" -eq 0 ] || label="soak with movers"
echo "# figure: $label: $((t1 - t0)) s, $total migrations ($summary)," \
	"$moved pages moved, $evicted pages evicted (swap), $VERIFIED pages verified"
[ "$MOVERS" -eq 0 ] || echo "# figure: $MOVERS_FIGURE"
rm -rf "$D"
expect_no_isolated
diag "done after $(elapsed) s"
