#!/bin/sh
# "0 1 swap" of huge pages to a disk. Reclaim splits a huge page it cannot
# swap out whole (a disk without swap clusters; on 6.1 a swap file always;
# shmem when it finds no room for it whole), and each page then goes its
# own way, many kept in the swap cache on node 0 while they are written.
# ok must mean that no page is left on node 0: after a touch from node 1's
# CPUs every page must be on node 1. EAGAIN must be true and the eviction
# all but complete: 1 to 40 pages (1%) back on node 0. Kinds: anonymous
# THP, shmem THP (a file on tmpfs mounted huge=always) and, where the
# kernel has them (6.12), anonymous mTHP of 64 KiB; swap: the partition
# /dev/vdb, and a swap file on ext4. Each case first checks that its
# memory really is in huge pages.
# topo: 2node
set -eu
. ./lib.sh

MIB=16
MTHP=/sys/kernel/mm/transparent_hugepage/hugepages-64kB
kinds="thp shmthp"
[ ! -d $MTHP ] || kinds="$kinds mthp"
# shellcheck disable=SC2086 # the kinds are words
set -- $kinds
plan $((1 + 2 * $# * 5))

export WL_CPUS=2-3
swaps=$(swaps_off)
# Huge pages for tmpfs too, compacting for them if need be (6.1's shmem
# does not compact without it, and found no free 2 MiB block on node 0).
DEFRAG=/sys/kernel/mm/transparent_hugepage/defrag
defrag=$(sed 's/.*\[\(.*\)\].*/\1/' $DEFRAG)
echo always > $DEFRAG
mkdir -p /mnt/huge
mount -t tmpfs -o huge=always,size=64m none /mnt/huge
swapfile=/mnt/disk/swapfile-huge
trap 'swapoff /dev/vdb 2>/dev/null || true; swapoff $swapfile 2>/dev/null || true
	umount /mnt/huge; rm -f $swapfile; echo $defrag > $DEFRAG; swaps_on $swaps' EXIT
expect "a raw disk for swap" "$([ -b /dev/vdb ] && echo yes)" yes
dd if=/dev/zero of=$swapfile bs=1M count=64 2>/dev/null
chmod 600 $swapfile
mkswap $swapfile >/dev/null
mkswap /dev/vdb >/dev/null

vmstat_sum() { awk '$1 ~ /^thp_swpout/ { printf "%s=%s ", $1, $2 }' /proc/vmstat; }

# huge_now KIND PID: the memory of PID in huge pages, in KiB, as the kernel
# counts it for KIND (AnonHugePages, ShmemPmdMapped, or the mTHP faults).
huge_now() {
	case $1 in
	thp) awk '$1 == "AnonHugePages:" { print $2 }' "/proc/$2/smaps_rollup" ;;
	shmthp) awk '$1 == "ShmemHugePages:" { print $2 }' /proc/meminfo ;;
	mthp) echo $(($(cat $MTHP/stats/anon_fault_alloc) * 64)) ;;
	esac
}

# evict_case SWAPDESC KIND: 16 MiB of KIND on node 0, evicted; five lines.
evict_case() {
	opts=""
	if [ "$2" = shmthp ]; then
		opts="-f /mnt/huge/f.$$"
		: > "/mnt/huge/f.$$"
	fi
	[ "$2" != mthp ] || echo always > $MTHP/enabled
	kind=$2
	case $2 in shmthp) kind="file" ;; mthp) kind="anon" ;; esac
	mthp0=0
	[ "$2" != mthp ] || mthp0=$(huge_now mthp)
	w=$(WL_OPTS=$opts wl_start $kind $MIB 0)
	[ "$2" != mthp ] || echo never > $MTHP/enabled
	p=$(wl_pid "$w")
	huge=$(($(huge_now "$2" "$p") - mthp0))
	expect "$1, $2: at least half in huge pages" \
		"$([ $huge -ge $((MIB * 512)) ] && echo yes || echo "$huge KiB")" yes
	before=$(vmstat_sum)
	r=$(migrate_proc "$p" 0 1 swap) || true
	diag "$1, $2: $r; $before-> $(vmstat_sum)"
	expect "  \"0 1 swap\": ok or EAGAIN" \
		"$(case $r in "ok 8" | "err EAGAIN") echo yes ;; *) echo "$r" ;; esac)" yes
	expect "  every page touched" "$(wl_cmd "$w" touch)" "ok"
	where=$(wl_cmd "$w" where)
	n0=$(echo "$where" | sed -n 's/.*N0=\([0-9]*\).*/\1/p')
	if [ "$r" = "ok 8" ]; then
		expect "  ok: no page came back on node 0 ($where)" "${n0:-0}" 0
	else
		expect "  EAGAIN: 1 to 40 pages came back on node 0 ($where)" \
			"$([ "${n0:-0}" -ge 1 ] && [ "${n0:-0}" -le 40 ] && echo yes)" yes
	fi
	expect "  pattern intact" "$(wl_cmd "$w" verify)" "ok $((MIB * 256))"
	wl_stop "$w"
	rm -f "/mnt/huge/f.$$"
}

diag "/dev/vdb rotational: $(cat /sys/block/vdb/queue/rotational)"
for swap in /dev/vdb $swapfile; do
	swapon $swap
	for kind in $kinds; do
		evict_case "$swap" "$kind"
	done
	swapoff $swap
done
