#!/bin/sh
# Boot the 2-node guest (2 vCPUs and 1 GiB per node, one host thread per
# vCPU) on the bench kernel of KVER and run tests/profile.sh: where the
# time of a vacate and of a migratepages loop goes, by ftrace's function
# profiler. Writes build/$KVER/profile/{raw.csv,table.md} and prints the
# table (docs/performance.md explains it).
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kver.sh
. "$top/scripts/kver.sh"
# shellcheck source=scripts/guest-lib.sh
. "$top/scripts/guest-lib.sh"
out=$kdir/profile
log=$logdir/profile.log
mkdir -p "$out" "$logdir"
echo "==> [$KVER] profile: booting the 2-node guest on $(kernel_image bench | sed "s|$top/||")" \
	"(console: ${log#"$top"/})"
export PROFILE=bench ACCEL=tcg,thread=multi NODE_CPUS=2 NODE_MEM=1024 \
	TIMEOUT="${TIMEOUT:-900}" BENCH_REPS="${PROFILE_ROUNDS:-3}"
if ! run_guest profile 2node "$log" sed -un 's/^# profile: /    /p'; then
	guest_failures
	echo "profile: the guest did not finish cleanly (qemu: $guest_rc; see $log)" >&2
	exit 1
fi
tr -d '\r' < "$log" | grep '^profile,' > "$out/raw.csv" || true
[ -s "$out/raw.csv" ] || { echo "profile: no figures (see $log)" >&2; exit 1; }
{
	echo "# make profile, $(date -u '+%Y-%m-%d %H:%M UTC'), linux-source-$KVER"
	echo
	echo "${PROFILE_SHAPE:-8x32} (processes x MiB[:kind], default 4 KiB pages), node 0 to node 1, QEMU -cpu ${QEMU_CPU:-max}; inclusive time per"
	echo "function summed over CPUs (median of ${PROFILE_ROUNDS:-3} rounds), share of the median wall"
	echo "time (\"wall\"). With several workers the sums exceed the wall time."
	echo
	awk -f "$top/scripts/profile-table.awk" "$out/raw.csv"
} > "$out/table.md"
cat "$out/table.md"
