#!/bin/sh
# boot-guest.sh MODE TOPO LOG: boot build/$KVER/bzImage-$PROFILE with
# build/$KVER/initramfs.cpio.gz in a QEMU NUMA guest, console to LOG (and
# to the terminal for the shell mode), under a hard wall-clock limit.
#   TOPO: 2node (default: 2 nodes x 2 CPUs), 4node (4 nodes x 1 CPU,
#         node 0's distances: node 3 12, node 2 20, node 1 30),
#         memless (2 memory nodes + node 2 with CPUs and no memory),
#         big (2 nodes x 2 CPUs with 1536 MiB each: tests that need a
#         large workload, e.g. killing a long vacate),
#         dimm (big, but node 1 a DIMM onlined movable, HOTPLUG_NODE
#         below: memory hotplug against vacate),
#         isol (2node booted with isolcpus=3: node 1's second CPU is
#         isolated, where vacate's workers must never run),
#         mglru (2node with the multi-gen LRU and zswap turned on by
#         /init: the swap tests run there too).
#   NODES=N overrides the node count of 2node, NODE_CPUS its CPUs per
#   node, NODE_MEM the MiB per node (512, 1536 for big),
#   HOTPLUG_NODE=N (N > 0: the kernel boots on node 0) makes node N's
#   memory a DIMM plugged in at boot (pc-dimm, ACPI memory hotplug)
#   rather than boot memory, onlined movable
#   (memhp_default_state=online_movable), so that every one of its memory
#   blocks can be taken offline (the bench's offline stage, topology dimm),
#   ACCEL=kvm opts into KVM (TCG is the default: nested KVM hangs here),
#   QEMU_CPU the -cpu model (default max; the bench's CPU boots),
#   QEMU_MONITOR a path: QEMU's human monitor listens on that Unix
#   socket (scripts/watch-qemu.sh reads its TCG counters),
#   TIMEOUT the limit in seconds, ONLY=0,1 runs only test files whose
#   names start with one of these prefixes, INITRAMFS another initramfs.
#   Every guest gets a disk, /dev/vda: a fresh 256 MiB ext4 image made
#   here with mkfs.ext4 (beside LOG), mounted at /mnt/disk: page cache of a
#   real disk file system; and a raw 64 MiB disk, /dev/vdb, for a test to
#   mkswap: swap on a disk partition.
#   The guest learns the kernel's profile from rig.profile, the soak
#   test's duration from SOAK_SECONDS (rig.soak) and the fuzzer's seed
#   from FUZZ_SEED (rig.fuzz_seed).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kver.sh"
mode=$1
topo=$2
log=$3
profile=${PROFILE:-test}
accel=${ACCEL:-tcg}
limit=${TIMEOUT:-1200}

mem=512
case $topo in
2node) nodes=${NODES:-2}; cpn=${NODE_CPUS:-$((nodes > 2 ? 1 : 2))}; memless=0 ;;
4node) nodes=4; cpn=1; memless=0 ;;
memless) nodes=2; cpn=1; memless=1 ;;
big) nodes=2; cpn=2; memless=0; mem=1536 ;;
dimm) nodes=2; cpn=2; memless=0; mem=1536; HOTPLUG_NODE=1 ;;
isol | mglru) nodes=2; cpn=2; memless=0 ;;
*) echo "boot-guest: unknown topology $topo" >&2; exit 2 ;;
esac
mem=${NODE_MEM:-$mem}

cpus=$(((nodes + memless) * cpn))
numa=""
ram="$((nodes * mem))M"
extra=""
[ "$topo" != isol ] || extra=" isolcpus=3"
n=0
while [ $n -lt $nodes ]; do
	first=$((n * cpn))
	numa="$numa -object memory-backend-ram,id=m$n,size=${mem}M"
	numa="$numa -numa node,nodeid=$n,cpus=$first-$((first + cpn - 1))"
	if [ "$n" = "${HOTPLUG_NODE:-}" ]; then
		numa="$numa -device pc-dimm,id=dimm$n,memdev=m$n,node=$n"
		ram="$(((nodes - 1) * mem))M,slots=1,maxmem=$((nodes * mem))M"
		extra=" memhp_default_state=online_movable"
	else
		numa="$numa,memdev=m$n"
	fi
	n=$((n + 1))
done
# 4node: distances from node 0 differ, so "nearest first" can be seen.
if [ "$topo" = 4node ]; then
	for pair in 0,1,30 0,2,20 0,3,12 1,2,20 1,3,20 2,3,20; do
		IFS=, read -r a b d <<-END
		$pair
		END
		numa="$numa -numa dist,src=$a,dst=$b,val=$d"
	done
fi
if [ $memless -eq 1 ]; then
	first=$((nodes * cpn))
	numa="$numa -numa node,nodeid=$nodes,cpus=$first-$((first + cpn - 1))"
fi

# The debug kernel boots with 4-level paging: with -cpu max TCG offers
# LA57, and KASAN then reports a wild access when an interrupt arrives
# while identify_cpu() has cleared the boot CPU's feature bits (LA57
# among them), before the series runs at all.
[ "$profile" != debug ] || extra="$extra no5lvl"

monitor=none
[ -z "${QEMU_MONITOR:-}" ] || monitor=unix:$QEMU_MONITOR,server,nowait

mkdir -p "$(dirname "$log")"
disk=${log%.log}.ext4
rm -f "$disk"
truncate -s 256M "$disk"
PATH=$PATH:/usr/sbin:/sbin mkfs.ext4 -q -F -L rig-disk "$disk"
swapdisk=${log%.log}.swap
rm -f "$swapdisk"
truncate -s 64M "$swapdisk"
set -- qemu-system-x86_64 -machine q35 -accel "$accel" -cpu "${QEMU_CPU:-max}" \
	-m "$ram" -smp "$cpus,sockets=$((nodes + memless)),cores=$cpn,threads=1" \
	$numa -drive "file=$disk,format=raw,if=virtio,cache=unsafe" \
	-drive "file=$swapdisk,format=raw,if=virtio,cache=unsafe" -kernel "$(kernel_image "$profile")" -initrd "${INITRAMFS:-$default_initramfs}" \
	-append "console=ttyS0 loglevel=7 panic=-1 rig.mode=$mode rig.profile=$profile rig.kver=$KVER rig.topo=$topo rig.only=${ONLY:-} rig.reps=${BENCH_REPS:-5} rig.soak=${SOAK_SECONDS:-} rig.fuzz_seed=${FUZZ_SEED:-} rig.shape=${PROFILE_SHAPE:-}$extra" \
	-display none -monitor "$monitor" -no-reboot

if [ "$mode" = shell ]; then
	exec "$@" -serial mon:stdio
fi
timeout -k 10 "$limit" "$@" -serial "file:$log" </dev/null
