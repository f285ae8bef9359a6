#!/bin/sh
# Guest test runner: run every tests/NN-*.sh whose "# topo:" line names this
# topology, one after the other, each with output to a file (children that
# outlive a test must not hold the console), leftovers killed after each.
# A "# profile:" line restricts a file to guests whose kernel is of one of
# the profiles it names (RIG_PROFILE, from rig.profile=): tests that need
# the debug kernel's fault injection or kmemleak. RIG_ONLY (comma-separated
# name prefixes) narrows the selection.
set -u
topo=$1
cd /tests || exit 1
for t in [0-9]*.sh; do
	grep -q "^# topo:.* $topo\( \|$\)" "$t" || continue
	if grep -q "^# profile:" "$t"; then
		grep -q "^# profile:.* ${RIG_PROFILE:-test}\( \|$\)" "$t" || continue
	fi
	if [ -n "${RIG_ONLY:-}" ]; then
		match=0
		for prefix in $(echo "$RIG_ONLY" | tr ',' ' '); do
			case $t in "$prefix"*) match=1 ;; esac
		done
		[ $match -eq 1 ] || continue
	fi
	echo "# rig: file $t"
	out=/tmp/out.${t%.sh}
	start=$(date +%s)
	timeout 600 sh "$t" >"$out" 2>&1
	rc=$?
	cat "$out"
	[ $rc -eq 0 ] || echo "# rig: $t exited with $rc"
	echo "# rig: end $t $(($(date +%s) - start))"
	killall -9 workload >/dev/null 2>&1
	sleep 0.2
done
