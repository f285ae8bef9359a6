# shellcheck shell=sh
# shellcheck disable=SC2154 # $top is the sourcing runner's
# guest-lib.sh: the one way the host runs a guest, sourced by the runners
# (run-tests.sh, run-bench.sh, run-profile.sh, run-demo.sh) after
# scripts/kver.sh.
#
# run_guest MODE TOPO LOG CMD...: boot the guest (scripts/boot-guest.sh;
# the environment carries its settings: PROFILE, NODES, TIMEOUT, ...) in
# the background, pipe its console to CMD... as it grows (the runner's
# own view of it), and wait for it. Then judge it as every runner must:
# sets guest_rc (QEMU's exit status; 124: the wall-clock limit) and
# guest_summary (scripts/tap-summary.awk's verdict: each failure, then
# "PASSED FAILED", counting a splat, a guest that did not reach its end
# and every TAP line), and guest_passed and guest_failed from its last
# line. Returns 1 when QEMU failed or anything failed.
run_guest() {
	rg_mode=$1 rg_topo=$2 rg_log=$3
	shift 3
	: > "$rg_log"
	"$top/scripts/boot-guest.sh" "$rg_mode" "$rg_topo" "$rg_log" &
	rg_boot=$!
	tail --pid=$rg_boot -n +1 -f "$rg_log" | "$@"
	guest_rc=0
	wait $rg_boot || guest_rc=$?
	guest_summary=$(awk -f "$top/scripts/tap-summary.awk" "$rg_log")
	# shellcheck disable=SC2034 # guest_passed is the runner's
	read -r guest_passed guest_failed <<-END
	$(echo "$guest_summary" | tail -n 1)
	END
	[ "$guest_rc" -eq 0 ] && [ "$guest_failed" -eq 0 ]
}

# guest_failures: the failures of the last run_guest, indented.
guest_failures() { echo "$guest_summary" | sed '$d' | sed 's/^/    /'; }
