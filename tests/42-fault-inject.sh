#!/bin/sh
# Fault injection: fail_page_alloc fails a share of the page allocations
# made while /proc/PID/migrate or nodeN/vacate is written (the migration
# runs in the writer's context, or in vacate's threads, which take the
# writer's make-it-fail; task-filter and failwrite's make-it-fail confine
# the failures to that one write). Every write succeeds or fails
# with ENOMEM (docs/interfaces.md: "a destination node ran out of memory;
# what fitted moved"), every page's pattern is intact wherever it ended up,
# none is lost or left isolated, the nodes' free memory comes back once the
# workload is gone, and with injection off a retry completes the move.
# Controls: an unmarked writer is never failed, and with every allocation
# failing both files give ENOMEM and move nothing.
# topo: 2node
# profile: debug
set -eu
. ./lib.sh
FS=/sys/kernel/debug/failslab
# The walk's state case needs failslab's stack filter, which 6.1 has not
# on x86_64 (config/kernel-debug-6.12.config): 5 lines fewer there.
stack_filter=0
[ ! -f $FS/require-start ] || stack_filter=1
plan $((83 + 5 * stack_filter))

FA=/sys/kernel/debug/fail_page_alloc
# The most faults one arming may inject; injected = TIMES - what is left.
TIMES=100000
# Free memory per node that may be missing after a case, in KiB, once
# settled (see settle and free_kib): the test's shells, page tables
# and slab come and go meanwhile. Node 0 holds only the workload: 12
# measurements differed by 132 KiB at most, and a lost THP (2 MiB) or 128
# lost pages exceed 512. Node 1 also runs the test itself: with the
# batched series, 18 cases in three runs lost 88-544 KiB there, without
# growing from case to case, with slab flat and kernel stacks, page
# tables and anon pages of the test's own processes making up the
# difference (node1/meminfo); 1024 still catches a lost THP.
FREE_TOL_KIB=512
FREE_TOL1_KIB=1024
faults=0
verified=0

fa() { echo "$2" > "$FA/$1"; }

# inject_on PERCENT: fail that share of the page allocations, of any order,
# sleeping and highmem ones included (migration destinations are
# GFP_HIGHUSER_MOVABLE | __GFP_THISNODE), of tasks with make-it-fail set
# only, without messages (an injected failure is not a splat; it bypasses
# the allocator's own warning).
inject_on() {
	fa task-filter Y
	fa ignore-gfp-wait N
	fa ignore-gfp-highmem N
	fa min-order 0
	fa interval 1
	fa space 0
	fa verbose 0
	fa times $TIMES
	fa probability "$1"
}

inject_off() { fa probability 0; }

# Back to the kernel's defaults, whatever happened.
inject_reset() {
	fa probability 0
	fa times 1
	fa task-filter N
	fa ignore-gfp-wait Y
	fa ignore-gfp-highmem Y
	fa min-order 1
}
trap inject_reset EXIT

injected() { echo $((TIMES - $(cat $FA/times))); }

# settle: give back what the slab caches hold free (KASAN's quarantine of
# freed objects included) and fold the per-CPU counters.
settle() {
	for c in /sys/kernel/slab/*/shrink; do
		echo 1 > "$c"
	done
	echo 1 > /proc/sys/vm/stat_refresh
}

# expect_free_back DESC BEFORE0 BEFORE1: each node's free memory is back
# within its tolerance of what it was, and the two nodes' sum within
# FREE_TOL1_KIB. What one node gained counts towards the other's loss:
# the test's own memory moves between the nodes (6.12 debug guest: node 0
# +712 KiB, node 1 -1052, the sum -340 as in every other case).
expect_free_back() {
	settle
	a0=$(free_kib 0)
	a1=$(free_kib 1)
	gain0=$((a0 > $2 ? a0 - $2 : 0))
	gain1=$((a1 > $3 ? a1 - $3 : 0))
	expect "$1: free memory back on both nodes" \
		"$((a0 + FREE_TOL_KIB + gain1 >= $2)) $((a1 + FREE_TOL1_KIB + gain0 >= $3))" "1 1"
	expect "$1: free memory back on the two together" \
		"$((a0 + a1 + FREE_TOL1_KIB >= $2 + $3))" "1"
	diag "  free KiB node 0: $2 -> $a0 ($((a0 - $2))), node 1: $3 -> $a1 ($((a1 - $3)))"
}

# The file and data of each path's move from node 0 to node 1 (PID: the
# workload), and what a complete write prints.
path_file() {
	case $1 in
	direct) echo "/proc/$2/migrate" ;;
	vacate) echo $V0 ;;
	esac
}

path_data() {
	case $1 in
	direct) echo "0 1" ;;
	vacate) echo 1 ;;
	esac
}

# unexpected RESULTS [ERR]: the results ("ok N;err E;...") that are
# neither a completed write nor ENOMEM (nor "err ERR"), ";"-separated;
# empty when all are.
unexpected() {
	echo "$1" | tr ';' '\n' | awk -v also="err ${2:-ENOMEM}" '
	$0 != "" && !/^ok [0-9]+$/ && $0 != "err ENOMEM" && $0 != also {
		printf "%s;", $0 }'
}

# On 6.12 a THP that gets no huge page at the destination is split and its
# pieces migrated by a second migrate_pages_batch() whose failures
# migrate_pages() does not return (it counts the THP as one failed folio):
# a write then sees pages left behind (EAGAIN) where 6.1 says ENOMEM.
thp_also=ENOMEM
[ "${RIG_KVER:-6.1}" = 6.1 ] || thp_also=EAGAIN

# fault_case PATH KIND MIB PERCENT WRITES: KIND's pages on node 0, WRITES
# armed writes moving them to node 1 with PERCENT of the allocations
# failing, then the checks, then a retry without injection.
# 11 TAP lines, 12 for thp.
fault_case() {
	d="$1 $2 at $4%"
	# Node 0 is to hold the workload's region and nothing else, so that
	# the faults land in it (both files move the pages in address order,
	# and vacate stops at the first process that got ENOMEM): every
	# process's pages leave it, the workload starts on node 1, its own
	# text, stack and heap leave node 0 too, then mbind moves the region.
	node_vacate 0 1 >/dev/null
	settle
	f0=$(free_kib 0)
	f1=$(free_kib 1)
	w=$(wl_start "$2" "$3" 1)
	pid=$(wl_pid "$w")
	pages=$(wl_pages "$w")
	file=$(path_file "$1" "$pid")
	data=$(path_data "$1")
	node_vacate 0 1 >/dev/null
	expect "$d: the region alone on node 0" \
		"$(wl_cmd "$w" "mbind 0 move") $(wl_cmd "$w" where)" "ok N0=$pages err=0"

	splits=$(vmstat thp_migration_split)
	inject_on "$4"
	results=""
	i=0
	while [ $i -lt "$5" ]; do
		results="$results$(failwrite "$file" "$data" || true);"
		i=$((i + 1))
	done
	inject_off
	n=$(injected)
	faults=$((faults + n))
	splits=$(($(vmstat thp_migration_split) - splits))

	also=ENOMEM
	[ "$2" != thp ] || also=$thp_also
	or=""
	[ "$also" = ENOMEM ] || or=" or $also"
	expect "$d: every write ok or ENOMEM$or" "$(unexpected "$results" "$also")" ""
	expect_match "$d: faults were injected" "$n" "[1-9]*"
	if [ "$2" = thp ]; then
		expect_match "$d: a THP was split for want of a destination" "$splits" "[1-9]*"
	fi
	where=$(wl_cmd "$w" where)
	diag "  writes: $results injected: $n, THPs split: $splits, then: $where"
	expect "$d: no page lost" "$(sum_where "$where")" "$pages"
	expect "$d: pattern intact" "$(wl_cmd "$w" verify)" "ok $pages"
	verified=$((verified + pages))
	expect_no_isolated "$d: nothing left isolated"
	expect "$d: retry without injection" "$(writefile "$file" "$data")" "ok ${#data}"
	expect_placement "$d: all on node 1" "$w" "N1=$pages"
	wl_stop "$w"
	expect_free_back "$d" "$f0" "$f1"
}

# Everything the test starts runs on node 1's CPUs, so that nothing but
# the workloads allocates on node 0.
taskset -p -c 2-3 $$ >/dev/null

# sym_range NAME...: "START END" of the first NAME in /proc/kallsyms (from
# its address to the next symbol's), in hex.
sym_range() {
	LC_ALL=C sort /proc/kallsyms | awk -v names="$*" '
		BEGIN { split(names, n, " "); for (i in n) want[n[i]] = i }
		found { print "0x" start, "0x" $1; exit }
		$3 in want && ($2 == "t" || $2 == "T") { found = 1; start = $1 }'
}
# The walk's own state: a process vacate cannot allocate its state for
# keeps its pages, the walk goes on to the others, and the write says
# ENOMEM, as the docs promise for memory the kernel lacked. failslab fails
# one slab allocation of the writer's (and so its one worker's), the first
# made with vacate_task() on the stack (or vacate_walk(), which it may be
# inlined into): the state of the first process walked, pid 1.
if [ $stack_filter -eq 1 ]; then
	range=$(sym_range vacate_task vacate_walk)
	diag "failslab confined to $range"
	w=$(wl_start anon 4 0)
	echo 1 > $MW
	echo "${range% *}" > $FS/require-start
	echo "${range#* }" > $FS/require-end
	for a in "task-filter Y" "ignore-gfp-wait N" "interval 1" "verbose 0" \
		"times 1" "probability 100"; do
		echo "${a#* }" > "$FS/${a% *}"
	done
	expect "vacate, one process's state not allocated: ENOMEM" \
		"$(failwrite $V0 1)" "err ENOMEM"
	expect "  one fault injected" "$(cat $FS/times)" "0"
	echo 0 > $FS/probability
	echo 16 > $MW
	expect_placement "  the walk went on: the workload moved" "$w" "N1=1024"
	wl_stop "$w"
else
	diag "no failslab stack filter (6.1 on x86_64): the walk's state case is 6.12's"
fi

# Controls: with every allocation failing, a writer without make-it-fail
# is untouched, and a marked one fails at its first allocation.
w=$(wl_start anon 4 0)
pid=$(wl_pid "$w")
inject_on 100
expect "unmarked writer at 100%: moves" "$(migrate_proc "$pid" 0 1)" "ok 3"
expect "  no fault injected into it" "$(injected)" "0"
expect "marked /proc writer at 100%: ENOMEM" "$(failwrite "/proc/$pid/migrate" "1 0")" "err ENOMEM"
n=$(injected)
expect_match "  faults were injected" "$n" "[1-9]*"
expect "marked vacate writer at 100%: ENOMEM" "$(failwrite $V1 0)" "err ENOMEM"
n2=$(injected)
expect_match "  faults were injected" "$((n2 - n))" "[1-9]*"
inject_off
faults=$((faults + n2))
expect "  nothing moved" "$(wl_cmd "$w" where)" "N1=1024 err=0"
expect "  pattern intact" "$(wl_cmd "$w" verify)" "ok 1024"
verified=$((verified + 1024))
expect_no_isolated "  nothing left isolated"
wl_stop "$w"

# A 4 KiB page's failure ends the call (migrate_pages gives up at the
# first -ENOMEM), so a few percent lets each write move some dozens of
# pages and fail in the middle. A THP whose destination cannot be had is
# split and its pages are moved one by one right away (each batch of
# migrate_pages holds one THP), so the THP cases fail a larger share: a
# few THPs move whole, one is split, a few of its pages move, then ENOMEM.
for path in direct vacate; do
	fault_case $path anon 16 3 3
	fault_case $path thp 32 40 3
	fault_case $path shmem 16 3 3
done

echo "# figure: fault injection: $faults faults injected, $verified pages verified"
