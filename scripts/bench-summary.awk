# bench-summary.awk: raw "bench,KIND,MIB,PATH,US,CHECK" lines in, one CSV
# line per KIND,MIB,PATH out: runs, failed checks, and the median, first
# and third quartile of the bandwidth in MiB/s. Failed runs do not count.
function sort(a, n,    i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
}
function q(a, n, f,    pos, lo) {
	if (!n) return 0
	pos = 1 + (n - 1) * f; lo = int(pos)
	return lo >= n ? a[n] : a[lo] + (a[lo + 1] - a[lo]) * (pos - lo)
}
BEGIN { FS = ","; OFS = "," }
$1 == "bench" {
	key = $2 OFS $3 OFS $4
	if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
	if ($6 != "ok" || $5 <= 0) { bad[key]++; next }
	n[key]++; v[key, n[key]] = $3 / ($5 / 1e6)
}
END {
	print "kind,mib,path,runs,failed,median_mibs,q1_mibs,q3_mibs"
	for (k = 1; k <= nk; k++) {
		key = keys[k]; m = n[key] + 0
		for (i = 1; i <= m; i++) a[i] = v[key, i]
		sort(a, m)
		printf "%s,%d,%d,%.1f,%.1f,%.1f\n", key, m, bad[key] + 0, q(a, m, 0.5), q(a, m, 0.25), q(a, m, 0.75)
	}
}
