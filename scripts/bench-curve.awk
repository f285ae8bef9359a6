# bench-curve.awk: the summary CSV in, one curve out: the medians of the
# points of -v stage=STAGE (and -v kind=KIND), against -v x=procs, mib or
# nodes, one column per method of -v methods="..." (in that order). -v
# fmt=md prints a Markdown table (a row per method, a column per x), fmt=dat
# gnuplot data (a row per x, "?" where a method has no point).
BEGIN { FS = ","; col["procs"] = 3; col["mib"] = 4; col["nodes"] = 5; nm = split(methods, m, " ") }
NR > 1 && $1 == stage && (kind == "" || $2 == kind) {
	xv = $(col[x])
	if (!(xv in seen)) { seen[xv] = 1; xs[++nx] = xv }
	if ($7 > 0) v[xv, $6] = $9
	else v[xv, $6] = "?"
}
function sortx(    i, j, t) {
	for (i = 2; i <= nx; i++)
		for (j = i; j > 1 && xs[j - 1] + 0 > xs[j] + 0; j--) { t = xs[j]; xs[j] = xs[j - 1]; xs[j - 1] = t }
}
END {
	sortx()
	if (fmt == "dat") {
		for (i = 1; i <= nx; i++) {
			line = xs[i]
			for (j = 1; j <= nm; j++) line = line " " (((xs[i], m[j]) in v) ? v[xs[i], m[j]] : "?")
			print line
		}
		exit
	}
	h = "| method |"; s = "|---|"
	for (i = 1; i <= nx; i++) { h = h " " xs[i] " |"; s = s "---:|" }
	print h; print s
	for (j = 1; j <= nm; j++) {
		line = "| " m[j] " |"; any = 0
		for (i = 1; i <= nx; i++) {
			if ((xs[i], m[j]) in v) any = 1
			line = line " " (((xs[i], m[j]) in v) && v[xs[i], m[j]] != "?" ? sprintf("%.3f", v[xs[i], m[j]]) : "-") " |"
		}
		if (any) print line
	}
}
