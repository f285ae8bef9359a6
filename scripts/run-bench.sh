#!/bin/sh
# make bench: boot the 2-node guest (1 GiB per node) in bench mode, collect
# the guest's timings into build/bench/, print the table.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/bench
log=$top/build/log/bench.log
mkdir -p "$out"
echo "==> bench: booting the 2-node guest (console: build/log/bench.log)"
NODE_MEM=${NODE_MEM:-1024} "$top/scripts/boot-guest.sh" bench 2node "$log"
tr -d '\r' < "$log" | grep '^bench,' > "$out/raw.csv" || true
set -- $(awk -f "$top/scripts/tap-summary.awk" "$log" | tail -n 1)
[ "$2" -eq 0 ] || { echo "bench: the guest did not finish cleanly (see $log)" >&2; exit 1; }
{
	echo "Kernel: build/bzImage-${PROFILE:-test} (profile ${PROFILE:-test}; the test profile has"
	echo "DEBUG_VM and PROVE_LOCKING, which slow migration several times)."
	echo "Under TCG only ratios taken in the same run mean anything."
	echo
	awk -f "$top/scripts/bench-table.awk" "$out/raw.csv"
} > "$out/table.md"
cat "$out/table.md"
