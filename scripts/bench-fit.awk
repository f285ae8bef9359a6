# bench-fit.awk: the summary CSV (scripts/bench-summary.awk) in, per
# method the least-squares lines through the curves' medians out, as
# Markdown:
#   per process   slope of the procs curve (time against the number of
#                 processes, each of the stage's MIB), ms per process
#   per MiB       slope of the size curve (time against the MiB moved in
#                 all, 8 processes x MIB), ms per MiB, per page kind
#   fixed         per process less MIB x per MiB (4 KiB pages): what a
#                 process costs beyond its pages
# and the issue's goal: vacate's fixed cost per process at most a tenth of
# the serial loop's. -v csv=FILE also writes the numbers as CSV.
BEGIN { FS = "," }
function add(c, m, x, y) {
	n[c, m]++; sx[c, m] += x; sy[c, m] += y; sxx[c, m] += x * x; sxy[c, m] += x * y
	if (!((m) in seen)) { seen[m] = 1; ms[++nm] = m }
}
# slope(c, m): ms per unit of x, or "" with fewer than two points.
function slope(c, m,    d) {
	if (n[c, m] < 2) return ""
	d = n[c, m] * sxx[c, m] - sx[c, m] * sx[c, m]
	return d ? 1000 * (n[c, m] * sxy[c, m] - sx[c, m] * sy[c, m]) / d : ""
}
function fmt(v) { return v == "" ? "-" : sprintf("%.3f", v) }
NR > 1 && $7 > 0 && $1 == "procs" { add("procs", $6, $3, $9); proc_mib = $4 }
NR > 1 && $7 > 0 && $1 == "size" { add("size " $2, $6, $3 * $4, $9) }
END {
	printf "| method | ms per process (procs curve, %s MiB each) | ms per MiB, 4 KiB | ms per MiB, THP | fixed ms per process | fixed / loop's |\n", proc_mib
	print "|---|---:|---:|---:|---:|---:|"
	if (csv != "") print "method,ms_per_process,ms_per_mib_anon,ms_per_mib_thp,fixed_ms_per_process" > csv
	for (i = 1; i <= nm; i++) {
		m = ms[i]
		p = slope("procs", m); a = slope("size anon", m); t = slope("size thp", m)
		fixed[m] = (p == "" || a == "") ? "" : p - proc_mib * a
	}
	for (i = 1; i <= nm; i++) {
		m = ms[i]
		p = slope("procs", m); a = slope("size anon", m); t = slope("size thp", m)
		rel = (fixed[m] == "" || fixed["loop"] == "" || fixed["loop"] <= 0) ? "-" : sprintf("%.3f", fixed[m] / fixed["loop"])
		printf "| %s | %s | %s | %s | %s | %s |\n", m, fmt(p), fmt(a), fmt(t), fmt(fixed[m]), rel
		if (csv != "") printf "%s,%s,%s,%s,%s\n", m, p, a, t, fixed[m] > csv
	}
	print ""
	if (fixed["vacate"] == "" || fixed["loop"] == "" || fixed["loop"] <= 0)
		print "Goal (vacate's fixed cost per process at most 1/10 of the serial loop's): not measured (a curve is missing)."
	else
		printf "Goal (vacate's fixed cost per process at most 1/10 of the serial loop's): vacate %.3f ms, loop %.3f ms, ratio %.3f: %s.\n",
			fixed["vacate"], fixed["loop"], fixed["vacate"] / fixed["loop"],
			fixed["vacate"] <= fixed["loop"] / 10 ? "met" : "not met"
}
