# bench-ratios.awk: the summary CSV in, a Markdown table of ratios out. A
# ratio is of medians; where the interquartile ranges of the two paths
# overlap the verdict is "tie", since single TCG timings vary widely.
BEGIN { FS = "," }
NR > 1 { k = $1 SUBSEP $2; med[k, $3] = $6; lo[k, $3] = $7; hi[k, $3] = $8
	if (!(k in seen)) { seen[k] = 1; ks[++nk] = k; kind[k] = $1; mib[k] = $2 } }
function ratio(k, a, b,    r, verdict) {
	if (!med[k, a] || !med[k, b]) return "-"
	r = med[k, a] / med[k, b]
	verdict = (lo[k, a] > hi[k, b]) ? "faster" : (hi[k, a] < lo[k, b]) ? "slower" : "tie"
	return sprintf("%.2f (%.2f-%.2f, %s)", r, lo[k, a] / hi[k, b], hi[k, a] / lo[k, b], verdict)
}
END {
	print "| pages | MiB | procfs / syscall | direct / swap | vacate1 / syscall | vacate8 / syscall | syscall / copy |"
	print "|---|---:|---|---|---|---|---|"
	for (i = 1; i <= nk; i++) {
		k = ks[i]
		printf "| %s | %s | %s | %s | %s | %s | %s |\n", kind[k] == "thp" ? "THP" : "4 KiB", mib[k],
			ratio(k, "proc", "syscall"), ratio(k, "proc", "swap"), ratio(k, "vacate1", "syscall"),
			ratio(k, "vacate8", "syscall"), ratio(k, "syscall", "copy")
	}
}
