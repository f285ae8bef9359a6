#!/bin/sh
# pid namespaces: a workload that is pid 1 of a child pid namespace with
# its own procfs (unshare -p -f --mount-proc) is moved
# - through the initial namespace's /proc, by its outer pid;
# - through the child's own procfs, by its inner pid, by a writer that
#   entered the namespace (nsenter), and by itself through /proc/self;
# - by migrate_pages(2) from inside the namespace, the same;
# - by vacate, which walks the processes of every namespace.
# The child's procfs shows no process outside the namespace: ENOENT.
# topo: 2node
set -eu
. ./lib.sh
plan 25

# ns_adopt DIR: the workload of DIR started as pid 1 of a new namespace
# wrote its inner pid into DIR/info; find its outer pid (the process
# named workload whose command line names DIR) and write that instead, so
# that the helpers of lib.sh see it from the initial namespace. Prints it.
ns_adopt() {
	for s in /proc/[0-9]*/status; do
		p=${s%/status}
		p=${p#/proc/}
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = workload ] || continue
		tr '\0' ' ' < "/proc/$p/cmdline" | grep -q -- "-d $1 " || continue
		sed -i "s/^1 /$p /" "$1/info"
		echo "$p"
		return
	done
}

# in_ns PID CMD...: CMD in PID's pid and mount namespaces (its procfs).
in_ns() {
	p=$1
	shift
	nsenter -t "$p" -m -p "$@"
}

w=$(WL_WRAP="unshare -p -f --mount-proc" wl_start anon 8 0)
expect "the workload saw itself as pid 1" "$(cut -d' ' -f1 "$w/info")" "1"
pid=$(ns_adopt "$w")
expect "its NSpid: outer, then inner pid 1" \
	"$(awk '/^NSpid:/ { print $2, $3 }' "/proc/$pid/status")" "$pid 1"
o=$(wl_start anon 8 0)

expect "initial /proc, outer pid: \"0 1\"" "$(migrate_proc "$pid" 0 1)" "ok 3"
expect_placement "  moved" "$w" "N1=2048"
expect "child's procfs, inner pid 1: \"1 0\"" \
	"$(in_ns "$pid" writefile /proc/1/migrate "1 0")" "ok 3"
expect_placement "  moved" "$w" "N0=2048"
expect "its own /proc/self: \"0 1\"" "$(wl_cmd "$w" "migrate 0 1")" "ok 3"
expect "  moved" "$(wl_cmd "$w" where)" "N1=2048 err=0"
expect "migrate_pages(2) inside, pid 1: 0 left" \
	"$(in_ns "$pid" migrate-syscall 1 1 0)" "ok 0"
expect "  moved" "$(wl_cmd "$w" where)" "N0=2048 err=0"

expect "child's procfs has no outside process: ENOENT" \
	"$(in_ns "$pid" writefile "/proc/$(wl_pid "$o")/migrate" "0 1")" "open err ENOENT"
expect "  migrate_pages(2) inside, outside pid: ESRCH" \
	"$(in_ns "$pid" migrate-syscall "$(wl_pid "$o")" 0 1)" "err ESRCH"
expect "  nothing moved" "$(wl_cmd "$o" where)" "N0=2048 err=0"

expect "vacate node 0" "$(node_vacate_settled 0 1)" "ok 1"
expect_placement "  the namespace's process vacated" "$w" "N1=2048"
expect_placement "  the outside one too" "$o" "N1=2048"

wl_stop "$o"
wl_stop "$w"
expect_no_isolated
