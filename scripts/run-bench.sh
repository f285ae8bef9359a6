#!/bin/sh
# run-bench.sh: the bench of the tree KVER (`make bench` runs it for each
# tree of KVERS). Boots build/$KVER/bzImage-$PROFILE (PROFILE bench: no
# debug options) with the bench's own initramfs, INITRAMFS (default
# build/$KVER/initramfs-bench.cpio.gz, built here whenever a source is
# newer; never the tests' initramfs), once per guest of BENCH_BOOTS, a
# list of NODES:VCPUS_PER_NODE:MIB_PER_NODE:TCG_THREADS:STAGES[:KERNEL[:CPU]],
# KERNEL a profile (default $PROFILE; bench-baseline: the unpatched tree,
# scripts/build-kernel.sh), CPU QEMU's -cpu model (default max; another
# model's rows are stage STAGE@MODEL, its commas dropped), default
#   2:2:2048:multi:procs,size   the process and size curves, the peers
#   2:2:2048:multi:oneproc      one process, several workers; and with
#   ...:oneproc::max,-erms       -cpu max,-erms (no ERMS: string copies
#                                are not rep movsb, which TCG runs slowly)
#   2:2:2048:multi:damon        vacate against DAMON's migrate_cold
#   2:2:2048:multi:reserve      2 MiB beside 0, 256 GiB and 4 TiB of
#   ...:reserve:bench-baseline   reserved address space, patched and not
#   2:2:2048:multi:offline      memory offlining against vacate: node 1
#                                is a DIMM onlined movable (any boot with
#                                the offline stage gets HOTPLUG_NODE=1,
#                                scripts/boot-guest.sh)
#   2:1:512:single:nodes         the node-count curve, one boot per count,
#   4:1:512:single:nodes         all alike (docs/performance.md says why
#   8:1:512:single:nodes         these run single-threaded TCG)
# TCG_THREADS is QEMU's -accel tcg,thread=: multi (a host thread per
# vCPU) or single; STAGES are tests/bench.sh's. The BENCH_* variables of
# the environment reach the guest in /etc/bench.env, a second archive
# appended to a copy of the initramfs (with the boot's BENCH_STAGES).
# Console: build/$KVER/log/bench-NODESnode-STAGES.log; results:
# build/$KVER/bench/ (scripts/bench-report.sh). BENCH_QEMU_WATCH=1 also
# reads QEMU's TCG counters while each guest runs (scripts/watch-qemu.sh,
# beside the console as .qemu) and writes them per timed run to
# build/$KVER/bench/qemu.txt (scripts/qemu-counters.awk).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kver.sh
. "$top/scripts/kver.sh"
# shellcheck source=scripts/guest-lib.sh
. "$top/scripts/guest-lib.sh"
export PROFILE=${PROFILE:-bench}
# Each boot exports its own PROFILE: the default is kept here.
default_profile=$PROFILE
out=$kdir/bench
base=${INITRAMFS:-$kdir/initramfs-bench.cpio.gz}
boots=${BENCH_BOOTS:-2:2:2048:multi:procs,size 2:2:2048:multi:oneproc 2:2:2048:multi:oneproc::max,-erms 2:2:2048:multi:damon 2:2:2048:multi:reserve 2:2:2048:multi:reserve:bench-baseline 2:2:2048:multi:offline 2:1:512:single:nodes 4:1:512:single:nodes 8:1:512:single:nodes}
mkdir -p "$out" "$logdir"

stale=$(find "$top/initramfs" "$top/tests" "$top/scripts/build-initramfs.sh" \
	"$top/scripts/build-clients.sh" -type f -newer "$base" 2>/dev/null | head -n 1)
if [ ! -f "$base" ] || [ -n "$stale" ]; then
	echo "==> [$KVER] bench: building ${base#"$top"/} (log: ${logdir#"$top"/}/bench-initramfs.log)"
	INITRAMFS=$base "$top/scripts/build-initramfs.sh" > "$logdir/bench-initramfs.log" 2>&1 ||
		{ tail -n 20 "$logdir/bench-initramfs.log"; exit 1; }
fi

# initrd STAGES KERNEL: a copy of the initramfs with /etc/bench.env
# (BENCH_* of the environment, BENCH_STAGES=STAGES and BENCH_KERNEL=KERNEL,
# the profile booted) appended as a second cpio
# archive (the kernel unpacks concatenated archives one after the other);
# prints its path.
initrd() {
	rm -rf "$out/env"
	mkdir -p "$out/env/etc"
	{
		env | grep '^BENCH_' | grep -v '^BENCH_\(STAGES\|KERNEL\|CPU\)=' |
			sed -n "s/^\(BENCH_[A-Z_]*\)=\(.*\)/\1='\2'/p"
		echo "BENCH_STAGES='$1'"
		echo "BENCH_KERNEL='$2'"
		echo "BENCH_CPU='$3'"
	} > "$out/env/etc/bench.env"
	{ cat "$base"; (cd "$out/env" && echo etc/bench.env | cpio -o -H newc --quiet | gzip -1); } \
		> "$out/initramfs-run.cpio.gz"
	echo "$out/initramfs-run.cpio.gz"
}

# heartbeat LOG TAG: a line whenever the guest has printed no progress
# line for a minute (a 512-process loop can take longer than that).
heartbeat() {
	last=0 quiet=0
	while sleep 20; do
		n=$(grep -c '^# bench: ' "$1" || true)
		if [ "$n" != "$last" ]; then
			last=$n quiet=0
			continue
		fi
		quiet=$((quiet + 20))
		[ $((quiet % 60)) -ne 0 ] ||
			echo "    $2 no guest line for $quiet s, host load $(cut -d' ' -f1 /proc/loadavg) (console: ${1#"$top"/})"
	done
}

# The console lines that say what a method could not do, as a pattern for
# sed -E and grep -E.
notes='# (vacate|vacate-1w|proc|offline|damon): '

rm -f "$out"/*.csv "$out"/*.dat "$out"/*.png "$out"/*.md "$out"/*.txt
: > "$out/raw.csv"
: > "$out/notes.txt"
: > "$out/setup.txt"
# What two busy host threads get against one: the cap on any parallel
# method in a guest (docs/performance.md).
"$top/scripts/host-cores.sh" | while read -r line; do
	echo "==> [$KVER] bench: $line"
	echo "- $line, before the first guest" >> "$out/setup.txt"
done
for b in $boots; do
	IFS=: read -r nodes cpn mem threads stages profile cpu <<-END
	$b
	END
	profile=${profile:-$default_profile}
	cpu=${cpu:-max}
	stages=$(echo "$stages" | tr , ' ')
	log=$logdir/bench-${nodes}node-$(echo $stages | tr ' ' -)${profile#"$default_profile"}$(echo "${cpu#max}" | tr -d ,).log
	accel=tcg,thread=$threads
	hotplug=""
	case " $stages " in *" offline "*) hotplug=1 ;; esac
	echo "==> [$KVER] bench: $stages: $nodes-node guest, $cpn vCPU(s) and $mem MiB per node," \
		"-accel $accel, -cpu $cpu, kernel $(kernel_image "$profile" | sed "s|$top/||")" \
		"(console: ${log#"$top"/}), ${BENCH_REPS:-5} rounds"
	kernel=$(kernel_image "$profile")
	echo "- $stages: $nodes-node guest, $cpn vCPU(s) and $mem MiB per node${hotplug:+ (node 1 a DIMM onlined movable)}, QEMU -accel $accel -cpu $cpu," \
		"kernel ${kernel#"$top"/} of $(date -u -r "$kernel" '+%Y-%m-%d %H:%M UTC')" \
		"(sha256 $(sha256sum "$kernel" | cut -c1-12); console: ${log#"$top"/})" >> "$out/setup.txt"
	sock=""
	if [ "${BENCH_QEMU_WATCH:-0}" = 1 ]; then
		sock=${log%.log}.sock
		rm -f "$sock"
	fi
	initramfs=$(initrd "$stages" "$profile" "$cpu")
	export PROFILE="$profile" NODES="$nodes" NODE_CPUS="$cpn" NODE_MEM="$mem" \
		HOTPLUG_NODE="$hotplug" ACCEL="$accel" QEMU_CPU="$cpu" INITRAMFS="$initramfs" \
		QEMU_MONITOR="$sock" BENCH_REPS="${BENCH_REPS:-5}" TIMEOUT="${TIMEOUT:-3600}"
	: > "$log"
	watcher=""
	if [ -n "$sock" ]; then
		"$top/scripts/watch-qemu.sh" "$sock" "$log" > "${log%.log}.qemu" &
		watcher=$!
	fi
	load0=$(cut -d' ' -f1-3 /proc/loadavg)
	heartbeat "$log" "[$KVER ${nodes}node]" &
	beat=$!
	ok=1
	run_guest bench 2node "$log" \
		sed -Eun -e 's/\r$//' -e "s/^# bench: /    [$KVER ${nodes}node] /p" \
			-e "s/^($notes.*)/    [$KVER ${nodes}node] \1/p" || ok=0
	kill $beat 2>/dev/null || true
	echo "  (host load average, 1/5/15 min: $load0 at the start, $(cut -d' ' -f1-3 /proc/loadavg) at the end)" \
		>> "$out/setup.txt"
	tr -d '\r' < "$log" | grep '^bench,' >> "$out/raw.csv" || true
	if [ -n "$watcher" ]; then
		wait "$watcher" || true
		awk -f "$top/scripts/qemu-counters.awk" "${log%.log}.qemu" "$log" >> "$out/qemu.txt"
	fi
	tr -d '\r' < "$log" | grep -E "^$notes" >> "$out/notes.txt" || true
	if [ $ok -eq 0 ]; then
		guest_failures
		echo "bench: the $nodes-node guest did not finish cleanly (qemu: $guest_rc; see $log)" >&2
		exit 1
	fi
done

export PROFILE="$default_profile"
"$top/scripts/bench-report.sh" "$out"
