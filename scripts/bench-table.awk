# bench-table.awk: from "bench,MIB,PATH,US,CHECK" lines, print a Markdown
# table per size and path: runs, median MiB/s, interquartile range, and the
# ratio of medians to the syscall. Runs whose check failed are not counted.
function sort(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
function q(a, n, f,    pos, lo) {
	pos = 1 + (n - 1) * f; lo = int(pos)
	return lo >= n ? a[n] : a[lo] + (a[lo + 1] - a[lo]) * (pos - lo)
}
BEGIN { FS = "," }
$1 == "bench" {
	key = $2 SUBSEP $3
	if ($5 != "ok") { bad[key]++; next }
	n[key]++; v[key, n[key]] = $2 / ($4 / 1e6)
	if (!($2 in seen)) { seen[$2] = 1; sizes[++ns] = $2 }
	if (!($3 in pseen)) { pseen[$3] = 1; paths[++np] = $3 }
}
END {
	print "| MiB | path | runs | median MiB/s | IQR MiB/s | vs syscall (median) |"
	print "|---:|---|---:|---:|---:|---:|"
	for (s = 1; s <= ns; s++) {
		for (p = 1; p <= np; p++) {
			key = sizes[s] SUBSEP paths[p]
			k = n[key]
			for (i = 1; i <= k; i++) a[i] = v[key, i]
			sort(a, k)
			med[key] = k ? q(a, k, 0.5) : 0
			line[p] = sprintf("| %s | %s | %d%s | %.1f | %.1f-%.1f |", sizes[s], paths[p], k,
				bad[key] ? " (" bad[key] " bad)" : "", med[key], k ? q(a, k, 0.25) : 0, k ? q(a, k, 0.75) : 0)
		}
		base = med[sizes[s] SUBSEP "syscall"]
		for (p = 1; p <= np; p++)
			printf "%s %s |\n", line[p], base ? sprintf("%.2f", med[sizes[s] SUBSEP paths[p]] / base) : "-"
	}
}
