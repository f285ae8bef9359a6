#!/bin/sh
# Host test runner: boot each topology of TOPOS (default: 2node 4node
# memless big dimm isol mglru) in test mode on the tree KVER (scripts/kver.sh), print a line
# per test file as it ends (passed, failed, seconds), turn the guest's TAP
# into one count, fail on any failed test, short plan, timeout or splat.
# Lines "# figure: ..." from the guest (counts a test wants reported: inputs
# tried, faults injected, ...) are repeated in the summary. LOGDIR puts the
# console logs elsewhere than build/log. Last line: "N passed, N failed".
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kver.sh
. "$top/scripts/kver.sh"
# shellcheck source=scripts/guest-lib.sh
. "$top/scripts/guest-lib.sh"
topos=${TOPOS:-2node 4node memless big dimm isol mglru}
mkdir -p "$logdir"
total_pass=0
total_fail=0

for topo in $topos; do
	log=$logdir/${PROFILE:-test}-$topo.log
	echo "==> [$KVER] test: booting $topo guest, kernel" \
		"$(kernel_image "${PROFILE:-test}" | sed "s|$top/||")" \
		"(console: ${log#"$top"/})"
	run_guest test "$topo" "$log" awk -f "$top/scripts/tap-progress.awk" || true
	[ "$guest_rc" -eq 0 ] || echo "    qemu exited with $guest_rc (124: wall-clock limit)"
	guest_failures
	tr -d '\r' < "$log" | sed -n 's/^# figure: /    /p'
	echo "    $topo: $guest_passed passed, $guest_failed failed"
	total_pass=$((total_pass + guest_passed))
	total_fail=$((total_fail + guest_failed))
	[ "$guest_rc" -eq 0 ] || total_fail=$((total_fail + 1))
done

echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
