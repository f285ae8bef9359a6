# bench-reserve.awk: the summary CSV (scripts/bench-summary.awk) in, the
# reserve stage's rows out as Markdown: one process of 2 MiB beside 0, 256
# and 4096 GiB of PROT_NONE reservation (kind anon+NG), moved node 0 <-> 1
# by each method, on the patched kernel (stage reserve) and the unpatched
# one (reserve-baseline). For each reservation, the median and
# interquartile range, and the ratio of medians to the same method with
# nothing reserved; "within 2x" when that ratio is at most 2 (issue 24's
# goal: time follows the pages, not the address space).
BEGIN { FS = "," }
NR > 1 && ($1 == "reserve" || $1 == "reserve-baseline") {
	gib = $2
	sub(/^anon\+/, "", gib)
	sub(/G$/, "", gib)
	k = $1 SUBSEP $6
	if (!(k in seen)) { seen[k] = 1; ks[++nk] = k; st[k] = $1; meth[k] = $6 }
	if (!(gib in gseen)) { gseen[gib] = 1; gs[++ng] = gib }
	bad[k, gib] = $8
	if ($7 > 0) { med[k, gib] = $9; lo[k, gib] = $10; hi[k, gib] = $11 }
}
END {
	if (!nk) { print "(no reserve stage in this run)"; exit }
	printf "| kernel | method |"
	for (j = 1; j <= ng; j++) printf " %s GiB: median s (IQR) |", gs[j]
	for (j = 2; j <= ng; j++) printf " %s GiB / 0 |", gs[j]
	print ""
	printf "|---|---|"
	for (j = 2; j < 2 * ng; j++) printf "---|"
	print "---|"
	for (i = 1; i <= nk; i++) {
		k = ks[i]
		printf "| %s | %s |", st[k] == "reserve" ? "patched" : "baseline", meth[k]
		for (j = 1; j <= ng; j++) {
			g = gs[j]
			if ((k, g) in med)
				printf " %.4f (%.4f-%.4f)%s |", med[k, g], lo[k, g], hi[k, g],
					bad[k, g] ? sprintf(", %d failed", bad[k, g]) : ""
			else
				printf " - |"
		}
		for (j = 2; j <= ng; j++) {
			g = gs[j]
			if (((k, g) in med) && ((k, gs[1]) in med) && med[k, gs[1]] > 0) {
				r = med[k, g] / med[k, gs[1]]
				printf " %.2f, %s |", r, r <= 2 ? "within 2x" : "NOT within 2x"
			} else
				printf " - |"
		}
		print ""
	}
}
