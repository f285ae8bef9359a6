#!/bin/sh
# "FROM TO swap" says ok only when no page is left on FROM: reclaim can
# unmap a page and keep it (in the swap cache while it is written to a
# disk, in the page cache when shmem has no swap), and the next touch maps
# the same page on FROM again. Swap on a file of the virtio disk (ext4),
# not zram, with anonymous and memfd (shmem) memory: every page must then
# be gone, and come back on node 1, where the workload runs. shmem with no
# swap at all: EAGAIN, and every page still on node 0.
# topo: 2node
set -eu
. ./lib.sh
plan 20

export WL_CPUS=2-3
swapfile=/mnt/disk/swapfile

swapoff /dev/zram0
dd if=/dev/zero of="$swapfile" bs=1M count=64 2>/dev/null
chmod 600 "$swapfile"
mkswap "$swapfile" >/dev/null
swapon "$swapfile"
expect "swap is the disk file alone" \
	"$(awk 'NR > 1 { printf "%s ", $1 }' /proc/swaps)" "$swapfile "

for kind in anon shmem; do
	w=$(wl_start "$kind" 16 0)
	pid=$(wl_pid "$w")
	expect "disk swap, $kind: \"0 1 swap\"" "$(migrate_proc "$pid" 0 1 swap)" "ok 8"
	expect "  no page mapped" "$(wl_cmd "$w" where)" "err=4096"
	expect "  every page touched" "$(wl_cmd "$w" touch)" "ok"
	expect_placement "  none came back on node 0" "$w" "N1=4096"
	wl_stop "$w"
done

swapoff "$swapfile"
rm -f "$swapfile"
expect "no swap at all" "$(awk 'NR > 1' /proc/swaps | wc -l)" "0"
w=$(wl_start shmem 16 0)
pid=$(wl_pid "$w")
expect "no swap, shmem: \"0 1 swap\" says EAGAIN" "$(migrate_proc "$pid" 0 1 swap)" "err EAGAIN"
expect "  every page touched" "$(wl_cmd "$w" touch)" "ok"
expect_placement "  every page still on node 0" "$w" "N0=4096"
wl_stop "$w"
swapon /dev/zram0
expect_no_isolated
