#!/bin/sh
# "FROM TO swap" says ok only when no page is left on FROM: reclaim can
# unmap a page and keep it (in the swap cache while it is written to a
# disk, after a write error), and the next touch maps the same page on
# FROM again. Swap on a file of the virtio disk (ext4), not zram, with
# anonymous and memfd (shmem) memory: every page must then be gone, and
# come back on node 1, where the workload runs. memfd and SysV shared
# memory with no swap at all: EAGAIN twice, every page still mapped on
# node 0 (not handed to reclaim, which would unmap them and keep them in
# their file, out of any later walk's sight). A swap device that fails
# every write (null_blk with bad blocks past the swap header): reclaim
# keeps each page, dirty, in the swap cache: EAGAIN twice (the second
# write finds them behind the swap PTEs), and every page still on node 0,
# intact; once a forked child shares those swap entries they are shared
# pages, not eligible: ok, and they stay.
# topo: 2node mglru
set -eu
. ./lib.sh
plan 41

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
	r=$(migrate_proc "$pid" 0 1 swap) || true
	want="ok 8"
	# A page may still be kept in the swap cache when the write looks at
	# it the last time, and EAGAIN then says so (seen: 1 page of 4096, on
	# the debug kernel and once on 6.1's test kernel). EAGAIN must then be
	# true, and the eviction all but complete: 1 to 40 pages (1%) come
	# back on node 0. ok must mean none did.
	[ "$r" != "err EAGAIN" ] || want="err EAGAIN"
	expect "disk swap, $kind: \"0 1 swap\"" "$r" "$want"
	expect "  no page mapped" "$(wl_cmd "$w" where)" "err=4096"
	expect "  every page touched" "$(wl_cmd "$w" touch)" "ok"
	if [ "$want" = "ok 8" ]; then
		expect_placement "  none came back on node 0" "$w" "N1=4096"
	else
		where=$(wl_cmd "$w" where)
		n0=$(echo "$where" | sed -n 's/.*N0=\([0-9]*\).*/\1/p')
		expect "  EAGAIN: 1 to 40 pages came back on node 0 ($where)" \
			"$([ "${n0:-0}" -ge 1 ] && [ "${n0:-0}" -le 40 ] && echo yes)" yes
		expect "  every page on a node" "$(sum_where "$where")" 4096
		expect "  pattern intact" "$(wl_cmd "$w" verify)" "ok 4096"
	fi
	wl_stop "$w"
done

swapoff "$swapfile"
rm -f "$swapfile"
expect "no swap at all" "$(awk 'NR > 1' /proc/swaps | wc -l)" "0"
# expect_kept KIND DESC WHERE: 16 MiB of KIND on node 0; "0 1 swap" says
# EAGAIN, and so does a second write, before any touch, the pages then
# where WHERE says (move_pages(2)): still mapped on node 0, or unmapped
# but kept in the swap cache on node 0 ("err=4096"). After a touch every
# page is still on node 0, intact. Six lines; the workload stays, in $w.
expect_kept() {
	w=$(wl_start "$1" 16 0)
	expect "$2, $1: \"0 1 swap\" says EAGAIN" \
		"$(migrate_proc "$(wl_pid "$w")" 0 1 swap)" "err EAGAIN"
	expect "  and again ($3)" \
		"$(migrate_proc "$(wl_pid "$w")" 0 1 swap) $(wl_cmd "$w" where)" "err EAGAIN $3"
	expect "  every page touched" "$(wl_cmd "$w" touch)" "ok"
	expect_placement "  every page still on node 0" "$w" "N0=4096"
}

expect_kept shmem "no swap" "N0=4096 err=0"
wl_stop "$w"
expect_kept sysv "no swap" "N0=4096 err=0"
wl_stop "$w"

# zswap (on in the mglru guest) would take the pages before the device.
zswap=/sys/module/zswap/parameters/enabled
zswap_was=$(cat $zswap)
echo N > $zswap
grep -q ' /sys/kernel/config ' /proc/mounts ||
	mount -t configfs configfs /sys/kernel/config
nb=/sys/kernel/config/nullb/swapfail
mkdir $nb
echo 64 > $nb/size
echo 1 > $nb/memory_backed
# 64 MiB: sectors 0-131071; the swap header is the first 4 KiB. One
# range of at most 512 sectors a write: 6.1's badblocks_set() keeps a
# longer one only in part (seen: writes to sector 80 went through).
s=8
while [ $s -lt 131072 ]; do
	echo "+$s-$((s + 511 < 131071 ? s + 511 : 131071))" > $nb/badblocks
	s=$((s + 512))
done
echo 1 > $nb/power
# A device made through configfs is named after its directory.
dev=/dev/swapfail
mkswap "$dev" >/dev/null
swapon "$dev"
expect "swap is a device that fails writes, alone" \
	"$(awk 'NR > 1 { printf "%s ", $1 }' /proc/swaps)" "$dev "
expect_kept anon "failing swap" "err=4096"
wl_stop "$w"
# Swap entries a forked child shares: shared pages, which eviction never
# takes and does not count, as MADV_PAGEOUT (before: EAGAIN, which no
# retry could clear).
w=$(wl_start anon 16 0)
p=$(wl_pid "$w")
expect "failing swap, anon: EAGAIN, the pages kept in the swap cache" \
	"$(migrate_proc "$p" 0 1 swap) $(wl_cmd "$w" where)" "err EAGAIN err=4096"
expect_match "  a child forked, sharing the swap entries" "$(wl_cmd "$w" fork)" "ok [1-9]*"
expect "  then they are shared pages: ok" "$(migrate_proc "$p" 0 1 swap)" "ok 8"
expect "  every page touched" "$(wl_cmd "$w" touch)" "ok"
expect_placement "  every page still on node 0 (they stayed)" "$w" "N0=4096"
wl_stop "$w"
swapoff "$dev"
echo 0 > $nb/power
rmdir $nb
echo "$zswap_was" > $zswap

swapon /dev/zram0
expect_no_isolated
