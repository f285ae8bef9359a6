# shellcheck shell=sh
# tests/lib.sh: TAP output and workload helpers shared by the guest tests.
# Source it, call plan N, then one assertion per TAP line.

T_N=0
# shellcheck disable=SC2034 # used by the files that source this one
ROOT_UID=0
# shellcheck disable=SC2034
USER_UID=1000
# The vacate files of nodes 0 and 1, which most vacate tests write, and
# the bound on vacate's worker threads: named here only.
# shellcheck disable=SC2034 # used by the files that source this one
V0=/sys/devices/system/node/node0/vacate
# shellcheck disable=SC2034
V1=/sys/devices/system/node/node1/vacate
# shellcheck disable=SC2034
MW=/sys/module/vacate/parameters/max_workers

plan() { echo "1..$1"; }
ok() { T_N=$((T_N + 1)); echo "ok $T_N - $*"; }
not_ok() { T_N=$((T_N + 1)); echo "not ok $T_N - $*"; }
diag() { echo "# $*"; }

# expect DESC GOT WANT: one TAP line, pass when GOT equals WANT.
expect() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "  got:  '$2'"
		diag "  want: '$3'"
	fi
}

# expect_match DESC GOT PATTERN (shell case pattern)
expect_match() {
	# shellcheck disable=SC2254 # PATTERN is a pattern
	case $2 in
	$3) ok "$1" ;;
	*) not_ok "$1"; diag "  got: '$2' does not match '$3'" ;;
	esac
}

# wl_start KIND MIB NODES [UID]: start a workload, print its directory.
# WL_CPUS=LIST runs it on those CPUs only; WL_WRAP="COMMAND ARGS" runs it
# through COMMAND (as UID; the words are split on spaces); WL_OPTS="OPTIONS"
# passes more workload options (e.g. "-L", "-f PATH -s SEED"; split on
# spaces); WL_PROG=PATH runs another copy of the workload binary.
# (Called in $(...): nothing it sets survives, so the directory
# is unique.) A workload that does not start within 60 s is said on
# stderr, which the console keeps (stdout is the caller's).
wl_start() {
	d=$(mktemp -d "/tmp/wl.$1.XXXXXX")
	chmod 777 "$d"
	uid=${4:-0}
	# shellcheck disable=SC2086 # WL_WRAP is a command and its arguments
	${WL_CPUS:+taskset -c "$WL_CPUS"} runas "$uid" "$uid" ${WL_WRAP:-} \
		${WL_PROG:-workload} -k "$1" -m "$2" -n "$3" -d "$d" ${WL_OPTS:-} >"$d/log" 2>&1 </dev/null &
	i=0
	while [ ! -f "$d/info" ]; do
		i=$((i + 1))
		if [ $i -gt 600 ] || ! kill -0 $! 2>/dev/null; then
			diag "workload $1 did not start: $(cat "$d/log")" >&2
			break
		fi
		sleep 0.1
	done
	echo "$d"
}

# wl_start_n N KIND MIB NODE: N workloads as wl_start, their directories
# on one line; fails, with wl_start's diagnostic on stderr, when one did
# not start.
wl_start_n() {
	n_dirs=""
	n_i=0
	while [ $n_i -lt "$1" ]; do
		n_d=$(wl_start "$2" "$3" "$4")
		[ -f "$n_d/info" ] || { echo "$n_d" >&2; return 1; }
		n_dirs="$n_dirs $n_d"
		n_i=$((n_i + 1))
	done
	echo $n_dirs
}

wl_pid() { cut -d' ' -f1 "$1/info"; }
wl_addr() { cut -d' ' -f2 "$1/info"; }
wl_child() { cut -d' ' -f5 "$1/info"; }
wl_pages() { echo $(($(cut -d' ' -f3 "$1/info") / 4096)); }

# wl_cmd DIR COMMAND: one request to the workload, prints its reply.
wl_cmd() {
	timeout 300 sh -c 'echo "$1" > "$2/cmd" && cat "$2/reply"' _ "$2" "$1" ||
		echo "no reply"
}

# alive PID: PID exists and one of its threads is no zombie (for processes
# whose comm field has no space, as the workloads and churners here; a
# workload -L lives on with a zombie group leader).
alive() {
	for tdir in /proc/"$1"/task/*; do
		state=""
		{ read -r _ _ state _ < "$tdir/stat"; } 2>/dev/null || continue
		[ "$state" = Z ] || return 0
	done
	return 1
}

# huge_kib PID: the process's AnonHugePages in KiB, in $huge (shell
# builtins only: the bench calls it after every run).
huge_kib() {
	huge=0
	while read -r key value _; do
		# shellcheck disable=SC2034 # read by the caller
		[ "$key" != AnonHugePages: ] || huge=$value
	done < "/proc/$1/smaps_rollup"
}

# wl_stop DIR: end a workload and wait until its memory is freed (its mm
# goes before it turns zombie).
wl_stop() {
	if [ -f "$1/info" ]; then
		p=$(wl_pid "$1")
		wl_cmd "$1" exit >/dev/null
		while alive "$p"; do
			sleep 0.05
		done
	fi
	rm -rf "$1"
}

# numa_maps_where PID ADDR: node counts of the VMA at ADDR in 4 KiB pages,
# summed from /proc/PID/numa_maps (an opinion independent of move_pages).
numa_maps_where() { numa_maps_sum "$1" "$2" ""; }

# numa_maps_file PID FILE: the same over the VMAs of FILE that hold no
# private copies (no anon=): a program's text and read-only data.
numa_maps_file() { numa_maps_sum "$1" "" "$2"; }

# numa_maps_sum PID ADDR FILE: numa_maps' node counts in 4 KiB pages (huge
# pages converted), over the VMA at ADDR, or (ADDR empty) those of FILE.
numa_maps_sum() {
	awk -v a="$2" -v f="file=$3" '
	(a != "" && $1 == a) || (a == "" && index($0, f) && !/anon=/) {
		kps = 4
		for (i = 2; i <= NF; i++)
			if ($i ~ /^kernelpagesize_kB=/) { split($i, x, "="); kps = x[2] }
		for (i = 2; i <= NF; i++)
			if ($i ~ /^N[0-9]+=/) { split($i, x, "="); n[substr(x[1], 2)] += x[2] * kps / 4 }
	}
	END {
		s = ""
		for (i = 0; i < 1024; i++)
			if (i in n) s = s sprintf("N%d=%d ", i, n[i])
		sub(/ $/, "", s)
		print s
	}' "/proc/$1/numa_maps"
}

# vma_swap_kib PID ADDR: the Swap: of the VMA at ADDR (hex, as in
# numa_maps) in /proc/PID/smaps, in KiB.
vma_swap_kib() {
	awk -v a="$2" '$1 ~ /^[0-9a-f]+-/ { split($1, r, "-"); in_vma = r[1] == a }
		in_vma && $1 == "Swap:" { print $2 }' "/proc/$1/smaps"
}

# page_thp PID ADDR: 1 when the page at ADDR (hex) is part of a transparent
# huge page (KPF_THP in /proc/kpageflags, found through /proc/PID/pagemap),
# else 0.
page_thp() {
	# Two 32-bit words each (ash's arithmetic is signed 64-bit).
	# shellcheck disable=SC2046 # two 32-bit words each, split
	set -- $(dd if="/proc/$1/pagemap" bs=8 skip=$((0x$2 / 4096)) count=1 2>/dev/null | od -An -tu4)
	# shellcheck disable=SC2046
	set -- $(dd if=/proc/kpageflags bs=8 skip=$(($1 + (($2 & 0x7fffff) << 32))) count=1 2>/dev/null | od -An -tu4)
	echo $((($1 >> 22) & 1))
}

# maps_of DIR: the /proc directory whose numa_maps shows the workload's
# memory: the process's, or a live thread's when the leader has exited
# (workload -L: the leader's numa_maps is then empty).
maps_of() {
	p=$(wl_pid "$1")
	for t in /proc/"$p"/task/*; do
		[ "${t##*/}" = "$p" ] || { echo "$p/task/${t##*/}"; return; }
	done
	echo "$p"
}

# expect_placement DESC DIR WANT: WANT like "N1=4096"; checks move_pages(2),
# numa_maps and the pattern of every page: three TAP lines.
expect_placement() {
	expect "$1: move_pages" "$(wl_cmd "$2" where)" "$3 err=0"
	expect "$1: numa_maps" "$(numa_maps_where "$(maps_of "$2")" "$(wl_addr "$2")")" "$3"
	expect "$1: pattern intact" "$(wl_cmd "$2" verify)" "ok $(wl_pages "$2")"
}

# where_all DIR...: the workloads' pages per node, summed, then err=: those
# on no node (move_pages(2) status < 0: swapped out, or under migration),
# e.g. "N0=8192 err=0".
where_all() {
	for d in "$@"; do
		wl_cmd "$d" where
	done | tr ' ' '\n' | awk -F= '
		/^N/ { n[$1] += $2 } $1 == "err" { e += $2 }
		END { for (k in n) print k "=" n[k]; print "err=" e + 0 }' |
		LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'
}

# intact_all DIR...: "ok" when every workload's pattern is intact, else
# the first that is not and its verify reply.
intact_all() {
	for d in "$@"; do
		r=$(wl_cmd "$d" verify)
		[ "$r" = "ok $(wl_pages "$d")" ] || { echo "$d: $r"; return; }
	done
	echo ok
}

# swaps_off: turn every swap area off and print their names, for
# swaps_on. A page swapped out is on no node, which reads like a page a
# move lost.
swaps_off() {
	for s in $(awk 'NR > 1 { print $1 }' /proc/swaps); do
		swapoff "$s"
		echo "$s"
	done
}

# swaps_on NAME...: turn those swap areas on again.
swaps_on() {
	for s in "$@"; do
		swapon "$s"
	done
}

# watch_workers PID NODE: until PID ends, look at each kvacateNODE/ thread
# and print the last seen of each as "NAME CPUS CGROUP" (its
# Cpus_allowed_list and its cgroup v2 line): a thread is visible before
# vacate attaches it to the writer's cgroup and binds it, but runs only
# after. Builtins in the loop: a fork per look would miss short-lived
# threads under TCG.
watch_workers() {
	while alive "$1"; do
		for c in /proc/[0-9]*/comm; do
			{ read -r name < "$c"; } 2>/dev/null || continue
			case $name in "kvacate$2/"*) ;; *) continue ;; esac
			cpus=""
			while read -r k v; do
				[ "$k" != Cpus_allowed_list: ] || cpus=$v
			done < "${c%comm}status" 2>/dev/null || continue
			{ read -r cg < "${c%comm}cgroup"; } 2>/dev/null || continue
			echo "$name $cpus $cg"
		done
	done | awk '{ last[$1] = $0 } END { for (n in last) print last[n] }'
}

# cpu_busy CPU: the CPU's busy time since boot in ticks (USER_HZ), from
# /proc/stat: user, nice, system, irq, softirq and steal.
cpu_busy() {
	awk -v c="cpu$1" '$1 == c { print $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
}

# uptime_ms: time since boot in ms (/proc/uptime: 10 ms steps; busybox
# date has no %N).
uptime_ms() {
	read -r up _ < /proc/uptime
	cs=${up#*.}
	echo $((${up%.*} * 1000 + (1$cs - 100) * 10))
}

# expect_killed PID OUT LIMIT_MS WHAT [BUSY...]: SIGKILL to the writer PID
# (which writes its result to file OUT), then wait while PID lives or the
# command BUSY succeeds. Two TAP lines: the writer died of the signal
# before it printed, and WHAT was gone within LIMIT_MS.
expect_killed() {
	k_pid=$1 k_out=$2 k_limit=$3 k_what=$4
	shift 4
	k_start=$(uptime_ms)
	# A writer already reaped cannot be killed: the checks below say so.
	kill -9 "$k_pid" 2>/dev/null || true
	while alive "$k_pid" || { [ $# -gt 0 ] && "$@"; }; do
		sleep 0.01
	done
	k_ms=$(($(uptime_ms) - k_start))
	k_rc=0
	wait "$k_pid" || k_rc=$?
	diag "figure: $k_what gone $k_ms ms after SIGKILL"
	expect "writer ended by SIGKILL, mid-write" "$k_rc $(cat "$k_out")" "137 "
	expect "  $k_what gone within $k_limit ms" \
		"$([ $k_ms -lt "$k_limit" ] && echo "< $k_limit" || echo "$k_ms")" "< $k_limit"
	rm -f "$k_out"
}

# under_way NODE FREE_KIB DONE...: wait until 8 MiB have left NODE since
# its free memory was FREE_KIB (a move off it is under way), or until the
# command DONE... succeeds (the move ended first).
under_way() {
	uw_node=$1 uw_free=$2
	shift 2
	until [ $(($(free_kib "$uw_node") - uw_free)) -ge 8192 ] || "$@"; do
		sleep 0.01
	done
}

# not_alive PID: alive's negation, for under_way.
not_alive() { ! alive "$1"; }

# expect_vacate_killed NODE TO LIMIT_MS: a vacate of NODE to TO whose
# writer gets SIGKILL once 8 MiB have left NODE (its free memory, per-CPU
# lists included, grew by that much: the walk is under way), then
# expect_killed's checks, the kvacateNODE/ threads among what must be
# gone. Waiting for the threads to show in /proc, then 0.1 s, was too
# late on 6.12's KASAN guest: a vacate of 48 MiB ended first ("can't kill
# pid"), and one of 60 MiB had moved every page when the kill landed.
expect_vacate_killed() {
	kv_out=/tmp/vacate-kill.$$
	kv_free=$(free_kib "$1")
	writefile "/sys/devices/system/node/node$1/vacate" "$2" > "$kv_out" &
	kv_writer=$!
	under_way "$1" "$kv_free" test -s "$kv_out"
	expect_killed $kv_writer "$kv_out" "$3" "writer and threads" vacate_threads_alive "$1"
}

vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }

# Fold the per-CPU counters, then nr_isolated_* must both be 0.
expect_no_isolated() {
	echo 1 > /proc/sys/vm/stat_refresh 2>/dev/null || sleep 2
	expect "${1:-nothing left isolated}" \
		"$(vmstat nr_isolated_anon) $(vmstat nr_isolated_file)" "0 0"
}

# migrate_proc PID WORDS...: one write to /proc/PID/migrate, as writefile prints it.
migrate_proc() {
	p=$1
	shift
	writefile "/proc/$p/migrate" "$*"
}

# node_blocks NODE STATE: STATE ("offline", "online_movable", ...)
# written to each of NODE's memory blocks not in it yet, one after
# another; prints "ok", or the first block that refused and why.
node_blocks() {
	nb_want=$2
	[ "$nb_want" = offline ] || nb_want=online
	for nb in /sys/devices/system/node/node"$1"/memory[0-9]*; do
		read -r nb_state < "$nb/state"
		[ "$nb_state" != "$nb_want" ] || continue
		nb_r=$(writefile "$nb/state" "$2") || true
		case $nb_r in ok*) ;; *) echo "${nb##*/}: $nb_r"; return 0 ;; esac
	done
	echo ok
}

node_vacate() { writefile "/sys/devices/system/node/node$1/vacate" "$2"; }

# settled CMD ARGS...: the output of CMD (a writefile of nodeN/vacate or
# /proc/PID/migrate), run once more after EAGAIN (noted on stderr, which
# the log keeps). A page that compaction or khugepaged is migrating at that
# instant counts as left behind (6.12 counts every migration entry it
# meets), and a vacate walks every process in the guest: for a test that
# wants "ok", only a second EAGAIN is a failure.
settled() {
	# writefile exits 1 on an error: under set -e that must not end a
	# background caller before it prints (a $(...) caller is spared).
	r=$("$@") || true
	if [ "$r" = "err EAGAIN" ]; then
		diag "$*: EAGAIN, retried once" >&2
		r=$("$@") || true
	fi
	echo "$r"
}

# node_vacate_settled NODE TO: node_vacate, once more after EAGAIN.
node_vacate_settled() { settled node_vacate "$1" "$2"; }

# zoneinfo_kib NODE HOW: free memory in KiB from /proc/zoneinfo, of NODE
# or (NODE empty) of every node: the zones' free pages, plus the pages in
# the allocator's per-CPU lists (HOW pcp), or less the min watermarks
# (HOW above-min).
zoneinfo_kib() {
	awk -v node="${1:+Node $1,}" -v how="$2" '
	/^Node/ { in_node = node == "" || ($1 " " $2) == node }
	!in_node { next }
	$1 == "pages" && $2 == "free" { n += $3 }
	$1 == "count:" && how == "pcp" { n += $2 }
	$1 == "min" && how == "above-min" { n -= $2 }
	END { print n * 4 }' /proc/zoneinfo
}

# node_free_mib NODE: MiB a bound allocation can still take on NODE, the
# free pages above the min watermark. With THP enabled, khugepaged raises
# min_free_kbytes to about 22 MiB per zone here: a hog that counted
# MemFree and left 24 MiB dipped below it and was OOM-killed.
node_free_mib() { echo $(($(zoneinfo_kib "$1" above-min) / 1024)); }

# free_kib [NODE]: free memory in KiB, of NODE or of every node: the zones'
# free pages plus the pages waiting in the allocator's per-CPU lists, which
# MemFree counts as used (10-15 MiB per CPU here, enough to hide or fake
# the loss of a whole workload). Fold the per-CPU counters first.
free_kib() { zoneinfo_kib "${1:-}" pcp; }

# wl_mib NODE N MAX: the MiB each of N workloads may map on NODE, at most
# MAX, in whole 2 MiB chunks (the workload's unit), 48 MiB left above the
# min watermark for the kernel's own allocations meanwhile (the KASAN
# guest has little room: seen ENOMEM with 6 x 16 MiB on 6.12's), and at
# least 4.
wl_mib() {
	wm=$((($(node_free_mib "$1") - 48) / $2 / 2 * 2))
	[ $wm -le "$3" ] || wm=$3
	[ $wm -ge 4 ] || wm=4
	echo $wm
}

# vacate_threads_alive NODE: some kvacateNODE/ thread exists.
vacate_threads_alive() { grep -qs "^kvacate$1/" /proc/[0-9]*/comm; }

# wl_hog NODE LEAVE_MIB: a workload that fills NODE until LEAVE_MIB are left
# above its min watermark.
wl_hog() { wl_start anon $((($(node_free_mib "$1") - $2) / 2 * 2)) "$1"; }

# The allocator warns when a __GFP_THISNODE destination is full; tests that
# fill a node on purpose bracket that with these markers. They go to the
# kernel log, so they land on the console in order with its messages.
expect_alloc_failure() { echo "rig: expect-alloc-failure" > /dev/kmsg; }
end_alloc_failure() { echo "rig: end-alloc-failure" > /dev/kmsg; }

# sum_where "N0=1 N1=2 err=0": total pages on nodes.
sum_where() { echo "$1" | tr ' ' '\n' | awk -F= '/^N/ { s += $2 } END { print s + 0 }'; }

# ksm_counts: KSM's merged pages and the mappings that share them.
ksm_counts() {
	echo "shared=$(cat /sys/kernel/mm/ksm/pages_shared)" \
		"sharing=$(cat /sys/kernel/mm/ksm/pages_sharing)"
}

# ksm_wait_merged WANT: wait (up to 60 s) until ksm_counts reads WANT;
# print what it read last.
ksm_wait_merged() {
	i=0
	while [ "$(ksm_counts)" != "$1" ] && [ $i -lt 600 ]; do
		i=$((i + 1))
		sleep 0.1
	done
	ksm_counts
}

# ksm_fast: unmerge everything (run=2), then let ksmd, once started with
# run=1, merge 2 x 8 MiB within a second under TCG.
ksm_fast() {
	echo 2 > /sys/kernel/mm/ksm/run
	echo 4000 > /sys/kernel/mm/ksm/pages_to_scan
	echo 10 > /sys/kernel/mm/ksm/sleep_millisecs
}

# cpuset_new NAME MEMS: the cgroup v2 group /sys/fs/cgroup/NAME with the
# cpuset controller and cpuset.mems MEMS (created, or reused); prints its
# path. A task joins with: echo PID > PATH/cgroup.procs.
cpuset_new() {
	echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control
	mkdir -p "/sys/fs/cgroup/$1"
	echo "$2" > "/sys/fs/cgroup/$1/cpuset.mems"
	echo "/sys/fs/cgroup/$1"
}

# cpuset_drop PATH: move the group's tasks back to the root group, remove it.
cpuset_drop() {
	for p in $(cat "$1/cgroup.procs"); do
		echo "$p" > /sys/fs/cgroup/cgroup.procs 2>/dev/null || true
	done
	rmdir "$1"
}

# ksft_result OUT FIXTURE.CASE: "ok" or "not ok" from a kselftest harness's
# TAP line for that case in the file OUT; a skipped case ("ok N # SKIP
# ...") or none: "no result".
ksft_result() {
	awk -v c="$2" '
	$0 == "ok " $2 " " c { r = "ok" }
	$0 == "not ok " $3 " " c { r = "not ok" }
	END { print r ? r : "no result" }' "$1"
}

# ksft_totals OUT: the harness's "# Totals:" line ("pass:N fail:N ...").
ksft_totals() { sed -n 's/^# Totals: //p' "$1"; }

# DAMON's sysfs interface (CONFIG_DAMON_SYSFS).
DAMON_D=/sys/kernel/mm/damon/admin/kdamonds

# node_range NODE: the node's physical address range, "START END", from
# its memory blocks.
node_range() {
	bs=$((0x$(cat /sys/devices/system/memory/block_size_bytes)))
	first=""
	last=""
	for m in /sys/devices/system/node/node"$1"/memory[0-9]*; do
		i=${m##*memory}
		[ -n "$first" ] && [ "$i" -ge "$first" ] || first=$i
		[ -n "$last" ] && [ "$i" -le "$last" ] || last=$i
	done
	echo "$((first * bs)) $((last * bs + bs))"
}

# damon_setup FROM TO: one kdamond, not started, monitoring the physical
# addresses of node FROM, with one DAMOS scheme "migrate_cold" to node TO
# for any region that saw no access (6.11 and later). Prints the action
# write's result, as writefile does.
damon_setup() {
	echo 1 > $DAMON_D/nr_kdamonds
	c=$DAMON_D/0/contexts
	echo 1 > $c/nr_contexts
	echo paddr > $c/0/operations
	echo 1 > $c/0/targets/nr_targets
	echo 1 > $c/0/targets/0/regions/nr_regions
	# shellcheck disable=SC2046 # the range's two numbers, split
	set -- $(node_range "$1") "$2"
	echo "$2" > $c/0/targets/0/regions/0/end
	echo "$1" > $c/0/targets/0/regions/0/start
	s=$c/0/schemes
	echo 1 > $s/nr_schemes
	r=$(writefile $s/0/action migrate_cold) || true
	echo "$3" > $s/0/target_nid
	echo 0 > $s/0/access_pattern/sz/min
	echo 18446744073709551615 > $s/0/access_pattern/sz/max
	echo 0 > $s/0/access_pattern/nr_accesses/min
	echo 0 > $s/0/access_pattern/nr_accesses/max
	echo 0 > $s/0/access_pattern/age/min
	echo 4294967295 > $s/0/access_pattern/age/max
	echo "$r"
}

# signal_mid_move NODE SIG COMMAND...: run COMMAND (a writefile that moves
# pages off NODE) in the background, send it SIG once 8 MiB have left NODE
# (the walk is under way), wait for it, and print "MS OUTPUT": the ms it
# took to end after the signal, and what it printed.
signal_mid_move() {
	sm_node=$1 sm_sig=$2
	shift 2
	sm_out=/tmp/signal-mid-move.$$
	sm_free=$(free_kib "$sm_node")
	"$@" > "$sm_out" &
	sm_pid=$!
	under_way "$sm_node" "$sm_free" test -s "$sm_out"
	sm_start=$(uptime_ms)
	kill -"$sm_sig" $sm_pid 2>/dev/null || true
	wait $sm_pid || true
	echo "$(($(uptime_ms) - sm_start)) $(cat "$sm_out")"
	rm -f "$sm_out"
}
