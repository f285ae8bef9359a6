# bench-ratios.awk: the summary CSV (scripts/bench-summary.awk) in, the
# peer rows out as Markdown: for the size stage's points of 8 processes of
# PEERS MiB (-v peers="32 96") and the eviction stage, every method's runs,
# failed checks, median and interquartile range in seconds; then the
# ratios of medians vacate / loop, vacate / loop-P2, vacate / vacate-1w
# and swap / pageout; for the offline stage's points (node 1, a DIMM, to
# node 0) vacate / offline and vacate / loop-P2. In brackets the range
# from the quartiles; the verdict is "faster" or "slower" only where the
# two interquartile ranges do not overlap, else "tie": single TCG timings
# vary widely.
BEGIN { FS = ","; np = split(peers, peer, " ") }
function label(kind) { return kind == "thp" ? "THP" : "4 KiB" }
function ratio(k, a, b,    r, verdict) {
	if (!((k, a) in med) || !((k, b) in med) || !med[k, b]) return "-"
	r = med[k, a] / med[k, b]
	verdict = (hi[k, a] < lo[k, b]) ? "faster" : (lo[k, a] > hi[k, b]) ? "slower" : "tie"
	return sprintf("%.2f (%.2f-%.2f, %s)", r, lo[k, a] / hi[k, b], hi[k, a] / lo[k, b], verdict)
}
function wanted(    i) {
	if ($1 == "evict" || $1 == "offline") return 1
	if ($1 != "size") return 0
	for (i = 1; i <= np; i++)
		if ($4 == peer[i]) return 1
	return 0
}
NR > 1 && wanted() {
	k = $1 SUBSEP $2 SUBSEP $3 SUBSEP $4
	if (!(k in seen)) { seen[k] = 1; ks[++nk] = k; st[k] = $1; kind[k] = $2; procs[k] = $3; mib[k] = $4 }
	row = sprintf("| %s | %s | %dx%d | %s | %d | %d |", $1 == "size" ? "move" : $1,
		label($2), $3, $4, $6, $7, $8)
	if ($7 > 0) {
		med[k, $6] = $9; lo[k, $6] = $10; hi[k, $6] = $11
		row = row sprintf(" %.3f | %.3f-%.3f |", $9, $10, $11)
	} else
		row = row " - | - |"
	rows[++nr] = row
}
END {
	print "| stage | pages | processes x MiB | method | runs | failed | median s | IQR s |"
	print "|---|---|---:|---|---:|---:|---:|---|"
	for (i = 1; i <= nr; i++) print rows[i]
	print ""
	print "| pages | processes x MiB | vacate / loop | vacate / loop-P2 | vacate / vacate-1w |"
	print "|---|---:|---|---|---|"
	for (i = 1; i <= nk; i++) {
		k = ks[i]
		if (st[k] != "size") continue
		printf "| %s | %dx%d | %s | %s | %s |\n", label(kind[k]), procs[k], mib[k],
			ratio(k, "vacate", "loop"), ratio(k, "vacate", "loop-P2"), ratio(k, "vacate", "vacate-1w")
	}
	print ""
	print "| pages | processes x MiB | swap / pageout |"
	print "|---|---:|---|"
	for (i = 1; i <= nk; i++) {
		k = ks[i]
		if (st[k] == "evict")
			printf "| %s | %dx%d | %s |\n", label(kind[k]), procs[k], mib[k], ratio(k, "swap", "pageout")
	}
	for (i = 1; i <= nk; i++) {
		k = ks[i]
		if (st[k] != "offline") continue
		if (!head++) {
			print ""
			print "| pages | processes x MiB, node 1 (DIMM) to 0 | vacate / offline | vacate / loop-P2 |"
			print "|---|---:|---|---|"
		}
		printf "| %s | %dx%d | %s | %s |\n", label(kind[k]), procs[k], mib[k],
			ratio(k, "vacate", "offline"), ratio(k, "vacate", "loop-P2")
	}
}
