#!/bin/sh
# Boot the 2-node guest (2 GiB per node) on the bench kernel (no debug
# options) of the tree KVER, collect the guest's timings into
# build/$KVER/bench/ as raw CSV, summary CSV, Markdown and a PNG chart, and
# print the tables. `make bench` runs it for each tree, then
# scripts/bench-compare.sh.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kver.sh"
PROFILE=${PROFILE:-bench}
out=$kdir/bench
log=$logdir/bench.log
node_mem=${NODE_MEM:-2048}
# One vCPU per node: with two per node, four vCPU threads share the host's
# two cores, and a migration's TLB-flush IPIs wait for descheduled vCPUs
# (measured: a 256 MiB THP move took 0.2-1.7 s with four vCPUs, 0.15-0.25 s
# with two).
node_cpus=${NODE_CPUS:-1}
mkdir -p "$out" "$logdir"
: > "$log"
echo "==> [$KVER] bench: booting the 2-node guest, kernel" \
	"$(kernel_image "$PROFILE" | sed "s|$top/||")" \
	"(console: ${log#"$top"/}), ${BENCH_REPS:-15} repetitions"
NODE_CPUS=$node_cpus NODE_MEM=$node_mem TIMEOUT=${TIMEOUT:-1800} \
	"$top/scripts/boot-guest.sh" bench 2node "$log" &
boot=$!
tail --pid=$boot -n +1 -f "$log" | sed -un 's/^# bench: /    /p'
wait $boot
tr -d '\r' < "$log" | grep '^bench,' > "$out/raw.csv" || true
set -- $(awk -f "$top/scripts/tap-summary.awk" "$log" | tail -n 1)
[ "$2" -eq 0 ] || { echo "bench: the guest did not finish cleanly (see $log)" >&2; exit 1; }

awk -f "$top/scripts/bench-summary.awk" "$out/raw.csv" > "$out/summary.csv"
"$top/scripts/bench-chart.sh" "$out/summary.csv" "$out/chart.png"
{
	echo "# make bench, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Kernel: linux-source-$KVER, profile $PROFILE (no DEBUG_VM, no PROVE_LOCKING); 2-node QEMU"
	echo "guest under TCG, $node_cpus vCPU(s) and $node_mem MiB per node, swap on a"
	echo "RAM disk. TCG timings are only meaningful as ratios inside one run."
	echo "Runs: $(grep -c . "$out/raw.csv"),"
	echo "every one checked (every page on the destination node, THP still huge;"
	echo "every page's pattern verified after the run or, for the workloads moved"
	echo "back and forth, after their last run); failed checks are counted and"
	echo "left out."
	echo
	echo "## Bandwidth (MiB/s)"
	echo
	echo "| pages | MiB | path | runs | failed | median | IQR |"
	echo "|---|---:|---|---:|---:|---:|---|"
	awk -F, 'NR > 1 { printf "| %s | %s | %s | %s | %s | %.1f | %.1f-%.1f |\n",
		$1 == "thp" ? "THP" : "4 KiB", $2, $3, $4, $5, $6, $7, $8 }' "$out/summary.csv"
	echo
	echo "## Ratios (median; in brackets the range from the quartiles)"
	echo
	awk -f "$top/scripts/bench-ratios.awk" "$out/summary.csv"
	echo
	echo "Chart: ${out#"$top"/}/chart.png"
} > "$out/table.md"
cat "$out/table.md"
