# tap-summary.awk: read one guest console log, print every failure and a
# last line "PASSED FAILED". Besides the guest's own TAP lines it checks
# that every file's plan was met, that the guest reached its end, and that
# the kernel printed no splat. Kernel lines between "rig: expect-alloc-failure"
# and "rig: end-alloc-failure" (written to /dev/kmsg by the tests) may carry
# the allocator's warning for a full __GFP_THISNODE node (tests that fill a
# node on purpose) and its Call Trace, and only those.
function close_file() {
	if (file != "" && plan != count) {
		printf "not ok - %s: plan 1..%d but %d results\n", file, plan, count
		failed++
	}
	file = ""; plan = -1; count = 0
}
BEGIN { file = ""; plan = -1; count = 0; passed = 0; failed = 0; done = 0; splat = 0 }
{ sub(/\r$/, "") }
/^# rig: file / { close_file(); file = $4; plan = 0; next }
/^# rig: done/ { close_file(); done = 1; next }
/rig: expect-alloc-failure/ { allowed = 1; next }
/rig: end-alloc-failure/ { allowed = 0; inalloc = 0; next }
/^ok [0-9]+/ { passed++; count++; next }
/^not ok [0-9]+/ { failed++; count++; print; next }
/^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0; next }
/^# rig: .* exited with/ { print; next }
/page allocation failure:.*__GFP_THISNODE/ { if (allowed) { inalloc = 1; next } }
/BUG:|WARNING:|Oops|possible circular locking|INFO: task .* blocked|KASAN|Call Trace:|Kernel panic|page allocation failure|general protection fault|UBSAN|kernel BUG|hung_task|soft lockup|invoked oom-killer/ {
	if (allowed && inalloc && /Call Trace:/) next
	if (!splat) print "not ok - kernel splat: " $0
	splat++
}
END {
	close_file()
	if (!done) { print "not ok - guest did not reach its end (crash or timeout)"; failed++ }
	else passed++
	if (splat) failed++
	else passed++
	print passed, failed
}
