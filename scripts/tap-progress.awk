# tap-progress.awk: follow a guest console log as it grows and print one
# line per test file when it ends: name, passed, failed, seconds (from the
# guest's "# rig: end FILE SECONDS"), and each failed line under it.
{ sub(/\r$/, "") }
/^# rig: file / { pass = 0; fail = 0; failed_lines = ""; next }
/^ok [0-9]+/ { pass++; next }
/^not ok [0-9]+/ { fail++; failed_lines = failed_lines "\n      " $0; next }
/^# rig: end / {
	printf "    %-24s %3d passed, %d failed, %4d s%s\n", $4, pass, fail, $5, failed_lines
	fflush()
}
