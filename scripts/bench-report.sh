#!/bin/sh
# bench-report.sh DIR: turn DIR/raw.csv (the guests' "bench,..." lines,
# scripts/run-bench.sh) and DIR/notes.txt (their "# vacate-1w:" and
# "# offline:" lines) into DIR/summary.csv (scripts/bench-summary.awk),
# DIR/fits.csv and DIR/table.md (peer rows and ratios, fitted costs, the
# curves' medians) and the charts (scripts/bench-chart.sh); print the
# table. KVER names the tree; DIR/setup.txt, when present, says what the
# guests were and is copied into the table.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
dir=$1
peers=${BENCH_PEER_SIZES:-32 96}
oneproc=${BENCH_ONEPROC_PEER:-256}
methods="vacate vacate-1w loop loop-P2 loop-PN cpuset"

awk -f "$top/scripts/bench-summary.awk" "$dir/raw.csv" > "$dir/summary.csv"
"$top/scripts/bench-chart.sh" "$dir/summary.csv" "$dir" "linux-source-${KVER:-?}" 2>/dev/null
curve() {
	awk -v stage="$1" -v kind="$2" -v x="$3" -v methods="${4:-$methods}" -v fmt=md \
		-f "$top/scripts/bench-curve.awk" "$dir/summary.csv"
}
# first STAGE FIELD: a field of the stage's first point (3 processes, 4 MiB).
first() { awk -F, -v s="$1" -v f="$2" 'NR > 1 && $1 == s { print $f; exit }' "$dir/summary.csv"; }
{
	echo "# make bench, linux-source-${KVER:-?}, $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	[ ! -f "$dir/setup.txt" ] || { cat "$dir/setup.txt"; echo; }
	echo "Timed runs: $(grep -c . "$dir/raw.csv"), failed checks: $(grep -c ',bad$' "$dir/raw.csv" || true)" \
		"(counted, left out of every figure). Times in seconds: median of the"
	echo "rounds and interquartile range. TCG timings compare only inside one run."
	if [ -s "$dir/notes.txt" ]; then
		echo
		sort -u "$dir/notes.txt" | sed 's/^/    /'
	fi
	echo
	echo "## Peers: the same 8 processes moved node 0 <-> 1, evicted to swap, and moved off a DIMM node (offline)"
	echo
	awk -v peers="$peers" -f "$top/scripts/bench-ratios.awk" "$dir/summary.csv"
	echo
	echo "## Reserved address space: 2 MiB resident beside a PROT_NONE reservation, node 0 <-> 1"
	echo
	awk -f "$top/scripts/bench-reserve.awk" "$dir/summary.csv"
	echo
	echo "## One process, several workers: one process of $oneproc MiB moved node 0 <-> 1"
	echo
	for st in $(awk -F, 'NR > 1 && $1 ~ /^oneproc/ && !s[$1]++ { print $1 }' "$dir/summary.csv"); do
		case $st in
		*@*) echo "Stage $st: QEMU -cpu ${st#*@} (its commas dropped):" ;;
		*) echo "Stage $st: QEMU -cpu max:" ;;
		esac
		echo
		awk -v stage="$st" -v mib="$oneproc" -f "$top/scripts/bench-oneproc.awk" "$dir/summary.csv"
		echo
	done
	echo "## DAMON's migrate_cold against vacate: 8 processes moved node 0 <-> 1, until none is left (median s)"
	echo
	for k in anon thp; do
		echo "$k:"
		echo
		curve damon $k mib "vacate damon"
		echo
	done
	echo "## Fitted costs (least squares through the medians)"
	echo
	awk -v csv="$dir/fits.csv" -f "$top/scripts/bench-fit.awk" "$dir/summary.csv"
	echo
	echo "## Curves (median seconds)"
	echo
	echo "Time against processes ($(first procs 4) MiB each, 4 KiB pages; chart-procs.png):"
	echo
	curve procs anon procs
	echo
	echo "Time against MiB per process (8 processes), 4 KiB pages (chart-size.png):"
	echo
	curve size anon mib
	echo
	echo "The same, THP:"
	echo
	curve size thp mib
	echo
	for k in anon thp; do
		echo "Time against the size of one process, $k (stage oneproc):"
		echo
		curve oneproc $k mib "loop vacate-1w vacate halves"
		echo
	done
	echo "Time against the guest's nodes, node 0 vacated to all the others" \
		"($(first nodes 3) x $(first nodes 4) MiB, 4 KiB pages; chart-nodes.png):"
	echo
	curve nodes anon nodes
	echo
	echo "Charts: $(cd "$dir" && ls chart-*.png 2>/dev/null | tr '\n' ' ')in ${dir#"$top"/}/"
} > "$dir/table.md"
cat "$dir/table.md"
