# profile-table.awk: tests/profile.sh's "profile,METHOD,ROUND,FUNCTION,HITS,US"
# lines in, a Markdown table out: per function and method the median over
# the rounds of its inclusive time in ms, its share of the method's median
# wall time, and its hits. Functions are listed in the order first seen.
function median(key, n,    i, j, t, a) {
	for (i = 1; i <= n; i++) a[i] = v[key, i]
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
BEGIN { FS = "," }
$1 == "profile" {
	m = $2; f = $4
	if (!(m in seen_m)) { seen_m[m] = 1; ms[++nm] = m }
	if (!(f in seen_f)) { seen_f[f] = 1; fs[++nf] = f }
	k = m SUBSEP f
	n[k]++; v[k, n[k]] = $6; h[k] = $5
}
END {
	printf "| function |"
	for (i = 1; i <= nm; i++) printf " %s |", ms[i]
	printf "\n|---|"
	for (i = 1; i <= nm; i++) printf "---:|"
	printf "\n"
	for (j = 1; j <= nf; j++) {
		printf "| %s |", fs[j]
		for (i = 1; i <= nm; i++) {
			k = ms[i] SUBSEP fs[j]; w = ms[i] SUBSEP "wall"
			if (!n[k]) { printf " - |"; continue }
			t = median(k, n[k]) / 1000
			printf " %.1f ms (%.0f%%, %d hits) |", t, 100 * t * 1000 / median(w, n[w]), h[k]
		}
		printf "\n"
	}
}
