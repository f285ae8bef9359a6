# bench-summary.awk: the guest's raw lines in
#   bench,STAGE,KIND,PROCS,MIB,NODES,METHOD,MICROSECONDS,CHECK
# one CSV line per point and method out: runs, failed checks, and the
# median, first and third quartile of the time in seconds. Runs whose
# check failed (or that have no time) are counted as failed and left out.
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
$1 == "bench" && NF == 9 {
	key = $2 OFS $3 OFS $4 OFS $5 OFS $6 OFS $7
	if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
	if ($9 != "ok" || $8 <= 0) { bad[key]++; next }
	n[key]++; v[key, n[key]] = $8 / 1e6
}
END {
	print "stage,kind,procs,mib,nodes,method,runs,failed,median_s,q1_s,q3_s"
	for (k = 1; k <= nk; k++) {
		key = keys[k]; m = n[key] + 0
		for (i = 1; i <= m; i++) a[i] = v[key, i]
		sort(a, m)
		printf "%s,%d,%d,%.4f,%.4f,%.4f\n", key, m, bad[key] + 0, q(a, m, 0.5), q(a, m, 0.25), q(a, m, 0.75)
	}
}
