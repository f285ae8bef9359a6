# bench-oneproc.awk: the summary CSV (scripts/bench-summary.awk) in, the
# peer rows of -v stage=oneproc (or oneproc@MODEL) out as Markdown: one
# process of -v mib=MIB, each kind, moved node 0 <-> 1 by each method.
# For each method, the median and interquartile range, the speed-up of
# vacate over it (its median / vacate's) and whether the two are
# quartiles apart (one's third quartile below the other's first).
# Issue 25's goal: vacate at least 1.6x migratepages (loop) and its
# one-worker run (vacate-1w), quartiles apart, and not slower than
# move_pages(2) from 2 threads (halves).
BEGIN { FS = "," }
NR > 1 && $1 == stage && $4 == mib && $7 > 0 {
	if (!($2 in kseen)) { kseen[$2] = 1; kinds[++nk] = $2 }
	if (!($6 in mseen)) { mseen[$6] = 1; ms[++nm] = $6 }
	med[$2, $6] = $9; lo[$2, $6] = $10; hi[$2, $6] = $11; bad[$2, $6] = $8
}
function verdict(k, m,    r) {
	if (m == "vacate" || !((k, "vacate") in med)) return "-"
	r = med[k, m] / med[k, "vacate"]
	if (m == "halves")
		return sprintf("%.2f, %s", r, hi[k, m] < lo[k, "vacate"] ? "vacate slower, quartiles apart" : "vacate not slower")
	return sprintf("%.2f, %s", r, r >= 1.6 && hi[k, "vacate"] < lo[k, m] ? "goal met (>= 1.6x, quartiles apart)" : "goal NOT met")
}
END {
	if (!nk) { print "(no " stage " stage at " mib " MiB in this run)"; exit }
	print "| kind | method | median s (IQR) | method / vacate |"
	print "|---|---|---|---|"
	for (i = 1; i <= nk; i++)
		for (j = 1; j <= nm; j++) {
			k = kinds[i]; m = ms[j]
			if (!((k, m) in med)) continue
			printf "| %s | %s | %.3f (%.3f-%.3f)%s | %s |\n", k, m, med[k, m], lo[k, m], hi[k, m],
				bad[k, m] ? sprintf(", %d failed", bad[k, m]) : "", verdict(k, m)
		}
}
