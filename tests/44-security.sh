#!/bin/sh
# /proc/PID/migrate security cases:
# - all capabilities (CAP_SYS_NICE included) in a user namespace of the
#   unprivileged user: its processes in the initial namespace cannot be
#   opened at all (EACCES; migrate_pages(2): EPERM); its processes inside
#   that namespace can, but only their private pages move (MOVE, never
#   MOVE_ALL: pages shared with a child stay), and a destination outside
#   the target's cpuset is refused (EPERM); root moves the shared pages;
# - a non-dumpable target refuses its unprivileged owner, root still opens;
# - an fd opened before the target execs a setuid-root binary cannot reach
#   the new image (ESRCH), whose pages stay put;
# - 16 threads writing one fd at once (pwrite at 0: no f_pos lock), also
#   while the target exits: only ok/EAGAIN/ESRCH, pattern intact, nothing
#   isolated, and the target's memory is freed once it exits. (Refcount
#   leaks of the mm or task show in the debug kernel's kmemleak scan.)
# topo: 2node
set -eu
. ./lib.sh
plan 55

U=$USER_UID

# in_userns CMD...: CMD as the unprivileged user, root of a new user namespace.
in_userns() { runas $U $U userns-run "$@"; }

# in_ns_of DIR CMD...: CMD as the unprivileged user, root of the user
# namespace of workload DIR (so with every capability in it).
in_ns_of() {
	ns_pid=$(wl_pid "$1")
	shift
	runas $U $U userns-run -t "$ns_pid" "$@"
}

# wait_for CMD...: poll CMD for up to 30 s; false when it never succeeded.
wait_for() {
	n=0
	until "$@"; do
		n=$((n + 1))
		[ $n -le 300 ] || return 1
		sleep 0.1
	done
}

# wl_start_userns KIND MIB NODES [DIR]: like wl_start, but the workload
# runs as root of a new user namespace of the unprivileged user, or of the
# namespace of workload DIR.
wl_start_userns() {
	WL_WRAP="userns-run${4:+ -t $(wl_pid "$4")}" wl_start "$1" "$2" "$3" "$U"
}

# anon_kib: AnonPages of /proc/meminfo, per-CPU counters folded.
anon_kib() {
	echo 1 > /proc/sys/vm/stat_refresh
	awk '$1 == "AnonPages:" { print $2 }' /proc/meminfo
}

# in_range DESC VALUE MIN MAX: pass when MIN <= VALUE <= MAX.
in_range() {
	expect "$1" "$([ "$2" -ge "$3" ] && [ "$2" -le "$4" ] && echo "in [$3, $4]" || echo "$2")" \
		"in [$3, $4]"
}

# ---- all capabilities in a user namespace ----

clone_sysctl=/proc/sys/kernel/unprivileged_userns_clone
if [ -f $clone_sysctl ] && [ "$(cat $clone_sysctl)" != 1 ]; then
	diag "kernel.unprivileged_userns_clone was $(cat $clone_sysctl): set to 1"
	echo 1 > $clone_sysctl
fi

# The user's own processes in the initial namespace are out of reach: the
# opener's capabilities are in another namespace than the target's
# credentials, so ptrace access is refused (commoncap), whatever the uid.
w=$(wl_start shared 8 0 $U)
expect "userns opener, owner's process in the initial namespace: EACCES" \
	"$(in_userns writefile "/proc/$(wl_pid "$w")/migrate" "0 1")" "open err EACCES"
expect "userns migrate_pages(2) on it: EPERM" \
	"$(in_userns migrate-syscall "$(wl_pid "$w")" 0 1)" "err EPERM"
expect "  nothing moved" "$(wl_cmd "$w" where)" "N0=2048 err=0"
wl_stop "$w"

# Processes inside the namespace: the opener joins it.
priv=$(wl_start_userns anon 8 0)
shared=$(wl_start_userns shared 8 0 "$priv")
capeff=$(in_ns_of "$priv" cat /proc/self/status | awk '/^CapEff:/ { print $2 }') || true
expect "opener in the targets' namespace has CAP_SYS_NICE (bit 23) there" \
	"$(((0x${capeff:-0} >> 23) & 1))" 1
ns_in=$(in_ns_of "$priv" readlink /proc/self/ns/user) || true
ns_targets="$(readlink "/proc/$(wl_pid "$priv")/ns/user") $(readlink "/proc/$(wl_pid "$shared")/ns/user")"
ns_init=$(readlink /proc/self/ns/user)
expect "  that namespace: the targets', not the initial one" \
	"$([ "$ns_in $ns_in" = "$ns_targets" ] && [ "$ns_in" != "$ns_init" ] && echo targets ||
		echo "opener $ns_in, targets $ns_targets, initial $ns_init")" targets

# ns_migrate DIR FROM TO / ns_syscall DIR FROM TO: the file / the syscall
# on workload DIR, from root of its user namespace.
ns_migrate() { in_ns_of "$1" writefile "/proc/$(wl_pid "$1")/migrate" "$2 $3"; }
ns_syscall() { in_ns_of "$1" migrate-syscall "$(wl_pid "$1")" "$2" "$3"; }

expect "userns opener, private pages" "$(ns_migrate "$priv" 0 1)" "ok 3"
expect_placement "  private pages moved" "$priv" "N1=2048"
expect "userns opener, pages shared with a child" "$(ns_migrate "$shared" 0 1)" "ok 3"
expect_placement "  shared pages stay (MOVE, not MOVE_ALL)" "$shared" "N0=2048"
expect "userns migrate_pages(2), private pages" "$(ns_syscall "$priv" 1 0)" "ok 0"
expect "  moved" "$(wl_cmd "$priv" where)" "N0=2048 err=0"
expect "userns migrate_pages(2), shared pages" "$(ns_syscall "$shared" 0 1)" "ok 0"
expect "  shared pages stay" "$(wl_cmd "$shared" where)" "N0=2048 err=0"

# The target's cpuset allows node 0 only: CAP_SYS_NICE in a user namespace
# is not the initial namespace's.
cg=/sys/fs/cgroup/sec-node0
echo +cpuset > /sys/fs/cgroup/cgroup.subtree_control
mkdir -p $cg
echo 0 > $cg/cpuset.mems
wl_pid "$priv" > $cg/cgroup.procs
expect "userns opener, destination outside the target's cpuset: EPERM" \
	"$(ns_migrate "$priv" 0 1)" "err EPERM"
expect "  nothing moved" "$(wl_cmd "$priv" where)" "N0=2048 err=0"
wl_pid "$priv" > /sys/fs/cgroup/cgroup.procs
rmdir $cg
wl_stop "$priv"

# Root in the initial namespace: the shared pages move too.
expect "root opener, shared pages" "$(migrate_proc "$(wl_pid "$shared")" 0 1)" "ok 3"
expect_placement "  shared pages moved (MOVE_ALL)" "$shared" "N1=2048"
wl_stop "$shared"

# ---- a non-dumpable target ----

w=$(wl_start anon 8 0 $U)
pid=$(wl_pid "$w")
expect "target made non-dumpable" "$(wl_cmd "$w" "dumpable 0")" "ok 0"
expect "owner opens it: EACCES" "$(writefile -u $U "/proc/$pid/migrate" "0 1")" "open err EACCES"
expect "owner's migrate_pages(2): EPERM" "$(runas $U $U migrate-syscall "$pid" 0 1)" "err EPERM"
expect "  nothing moved" "$(wl_cmd "$w" where)" "N0=2048 err=0"
expect "root opens it" "$(migrate_proc "$pid" 0 1)" "ok 3"
expect "  moved" "$(wl_cmd "$w" where)" "N1=2048 err=0"
expect "target dumpable again" "$(wl_cmd "$w" "dumpable 1")" "ok 1"
expect "  owner opens it" "$(writefile -u $U "/proc/$pid/migrate" "1 0")" "ok 3"
wl_stop "$w"

# ---- the target execs a setuid-root binary after open ----

# The owner starts a child that waits on DIR/exec, then execs the
# setuid-root workload; the owner opens the child's file before that and
# writes only after a line on DIR/go.
sd=$(mktemp -d /tmp/wl.setuid.XXXXXX)
chmod 777 "$sd"
mkfifo -m 666 "$sd/exec" "$sd/go"
runas $U $U sh -c '
	sh -c "read x < \"\$1/exec\"; exec workload-setuid -k anon -m 8 -n 0 -d \"\$1\"" \
		_ "$1" > "$1/log" 2>&1 < /dev/null &
	echo $! > "$1/child"
	exec writefile -p "$1/go" "/proc/$!/migrate" "0 1"
' _ "$sd" > "$sd/out" 2>&1 &
writer=$!
wait_for grep -q opened "$sd/out" || diag "writer did not open: $(cat "$sd/out")"
echo go > "$sd/exec"
wait_for test -f "$sd/info" || diag "setuid workload did not start: $(cat "$sd/log")"
child=$(cat "$sd/child")
expect "child exec'd the setuid-root workload (pid, real and effective uid)" \
	"$(wl_pid "$sd") $(awk '/^Uid:/ { print $2, $3 }' "/proc/$child/status")" "$child $U 0"
expect "owner's fresh open of the setuid image: EACCES" \
	"$(runas $U $U writefile "/proc/$child/migrate" "0 1")" "open err EACCES"
echo go > "$sd/go"
wait $writer || true
expect "write on the fd opened before the exec: ESRCH" "$(tail -n 1 "$sd/out")" "err ESRCH"
expect_placement "setuid image's pages stay" "$sd" "N0=2048"
wl_stop "$sd"

# ---- many threads, one fd ----

THREADS=16
# writes_check DESC RESULT TOTAL ALLOWED: RESULT is writefile -t's line;
# pass when all TOTAL writes ended in ok or in one of ALLOWED (errno
# names, |-separated).
writes_check() {
	other=$(echo "$2" | tr ' ' '\n' | grep -Ev "^(writes|ok|$4)=" | tr '\n' ' ') || true
	expect "$1" "${2%% *}: ${other:-only ok|$4}" "writes=$3: only ok|$4"
}

anon0=$(anon_kib)
free0=$(free_kib)
w=$(wl_start anon 16 0 $U)
pid=$(wl_pid "$w")
anon1=$(anon_kib)
free1=$(free_kib)
# Concurrent writers isolate each other's pages: any write may see some
# stay and say EAGAIN (even all of them, on a slow host), so what moved is
# read from pgmigrate_success, and one write alone must then be ok.
moved0=$(vmstat pgmigrate_success)
res=$(writefile -t $THREADS -i 8 -o 0 "/proc/$pid/migrate" "0 1" "1 0") || true
diag "figure: $THREADS threads x 8 writes on one fd: $res"
writes_check "$THREADS threads on one fd: every write ok or EAGAIN" "$res" $((THREADS * 8)) EAGAIN
expect "  the writes moved pages (pgmigrate_success rose)" \
	"$(($(vmstat pgmigrate_success) > moved0))" "1"
where=$(wl_cmd "$w" where)
expect "  every page mapped on some node" "$(sum_where "$where") ${where##* }" "4096 err=0"
expect_placement "  afterwards" "$w" "${where% err=*}"
expect_no_isolated "  nothing left isolated"
expect "  one write alone afterwards: ok" \
	"$(writefile "/proc/$pid/migrate" "1 0")" "ok 3"
expect_placement "  and every page is on node 0" "$w" "N0=4096"

# The same while the target exits: the fd holds the mm, not its pages.
mkfifo /tmp/sec-go.$$
writefile -t $THREADS -i 200 -o 0 -p /tmp/sec-go.$$ "/proc/$pid/migrate" "0 1" "1 0" \
	> /tmp/sec-out.$$ &
writer=$!
wait_for grep -q opened /tmp/sec-out.$$ || diag "writer did not open: $(cat /tmp/sec-out.$$)"
echo go > /tmp/sec-go.$$
wl_stop "$w"
wait $writer || true
res=$(tail -n 1 /tmp/sec-out.$$)
diag "figure: $THREADS threads x 200 writes while the target exits: $res"
writes_check "target exits during the writes: every write ok, EAGAIN or ESRCH" "$res" \
	$((THREADS * 200)) "EAGAIN|ESRCH"
expect_match "  the writes after the exit: ESRCH" "$res" "* ESRCH=[1-9]*"
rm -f /tmp/sec-go.$$ /tmp/sec-out.$$

# The fd is closed and the target gone: its 16 MiB are unmapped and free
# again.
anon2=$(anon_kib)
free2=$(free_kib)
diag "figure: KiB AnonPages $anon0 -> $anon1 -> $anon2, free $free0 -> $free1 -> $free2"
in_range "the running workload: AnonPages up by its 16 MiB (KiB)" $((anon1 - anon0)) 15360 20480
in_range "  free memory down by as much (KiB)" $((free0 - free1)) 15360 24576
in_range "after exit and close: AnonPages back within 1 MiB (KiB)" $((anon2 - anon0)) -1024 1024
in_range "  free memory back within 4 MiB (KiB)" $((free0 - free2)) -4096 4096
expect_no_isolated
