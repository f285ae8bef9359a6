#!/bin/sh
# bench-compare.sh KVER...: put the bench summaries of several trees
# (build/$KVER/bench/summary.csv and fits.csv, written by
# scripts/run-bench.sh) side by side: build/bench/compare.csv, compare.md
# (median seconds and IQR of every point and method per tree, the ratio
# of each later tree's median to the first's, and the fitted costs) and
# compare.png (the medians of the largest size point, per page kind). TCG
# timings compare only inside one run: make bench boots the trees one
# after the other on the same host, with the same guests.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/bench
mkdir -p "$out"
[ $# -ge 2 ] || { echo "bench-compare: need two trees or more (KVERS)" >&2; exit 2; }
files=""
fits=""
for v in "$@"; do
	f=$top/build/$v/bench/summary.csv
	[ -f "$f" ] || { echo "bench-compare: $f missing (KVER=$v make bench)" >&2; exit 1; }
	files="$files $f"
	fits="$fits $top/build/$v/bench/fits.csv"
done

# compare.csv: the point and method, then median,q1,q3 for each tree, in
# order (empty where a tree has no such point or no good run).
# shellcheck disable=SC2086
awk -F, -v trees="$*" '
FNR == 1 { t++; next }
{
	key = $1 "," $2 "," $3 "," $4 "," $5 "," $6
	if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
	if ($7 > 0) val[key, t] = $9 "," $10 "," $11
}
END {
	nt = split(trees, name, " ")
	head = "stage,kind,procs,mib,nodes,method"
	for (i = 1; i <= nt; i++)
		head = head "," name[i] "_median," name[i] "_q1," name[i] "_q3"
	print head
	for (k = 1; k <= nk; k++) {
		line = keys[k]
		for (i = 1; i <= nt; i++)
			line = line "," ((keys[k], i) in val ? val[keys[k], i] : ",,")
		print line
	}
}' $files > "$out/compare.csv"

{
	echo "# make bench: $(echo "$@" | sed 's/ / vs /g'), $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo
	echo "Median seconds (interquartile range in brackets) of each point and"
	echo "method on each tree's bench kernel, same guests, same host, one"
	echo "command; ratio: later tree's median / first tree's (below 1: faster)."
	echo "Each tree's own tables: build/<KVER>/bench/table.md."
	echo
	echo "## Fitted costs (ms)"
	echo
	# shellcheck disable=SC2086
	awk -F, -v trees="$*" '
	FNR == 1 { t++; next }
	{ if (!($1 in seen)) { seen[$1] = 1; ms[++nm] = $1 }; for (c = 2; c <= 5; c++) v[$1, c, t] = $c }
	function f(x) { return x == "" ? "-" : sprintf("%.3f", x) }
	END {
		nt = split(trees, name, " ")
		split("per process,per MiB 4 KiB,per MiB THP,fixed per process", what, ",")
		h = "| method |"; s = "|---|"
		for (c = 2; c <= 5; c++) for (i = 1; i <= nt; i++) { h = h " " what[c - 1] ", " name[i] " |"; s = s "---:|" }
		print h; print s
		for (j = 1; j <= nm; j++) {
			line = "| " ms[j] " |"
			for (c = 2; c <= 5; c++) for (i = 1; i <= nt; i++) line = line " " f(v[ms[j], c, i]) " |"
			print line
		}
	}' $fits
	echo
	echo "## Every point"
	echo
	awk -F, -v trees="$*" '
	NR == 1 {
		nt = split(trees, name, " ")
		h = "| stage | pages | processes x MiB | nodes | method |"; s = "|---|---|---:|---:|---|"
		for (i = 1; i <= nt; i++) { h = h " " name[i] " |"; s = s "---:|" }
		for (i = 2; i <= nt; i++) { h = h " " name[i] "/" name[1] " |"; s = s "---:|" }
		print h; print s; next
	}
	{
		line = "| " $1 " | " ($2 == "thp" ? "THP" : "4 KiB") " | " $3 "x" $4 " | " $5 " | " $6 " |"
		for (i = 1; i <= nt; i++) {
			c = 7 + (i - 1) * 3
			line = line ($c == "" ? " - |" : sprintf(" %.3f (%.3f-%.3f) |", $c, $(c + 1), $(c + 2)))
		}
		for (i = 2; i <= nt; i++) {
			c = 7 + (i - 1) * 3
			line = line ($c == "" || $7 + 0 == 0 ? " - |" : sprintf(" %.2f |", $c / $7))
		}
		print line
	}' "$out/compare.csv"
	echo
	echo "Chart: build/bench/compare.png"
} > "$out/compare.md"

# compare.png: for each page kind, the median seconds of every method at
# the size stage's largest point, one bar per tree.
for kind in anon thp; do
	awk -F, -v kind="$kind" -v nt=$# '
	NR > 1 && $1 == "size" && $2 == kind {
		if ($4 + 0 > max) max = $4 + 0
		row[$4, $6] = $0; if (!($6 in p)) { p[$6] = 1; ms[++nm] = $6 }
	}
	END {
		for (j = 1; j <= nm; j++) {
			if (!((max, ms[j]) in row)) continue
			split(row[max, ms[j]], f, ",")
			line = ms[j]
			for (i = 1; i <= nt; i++) line = line " " (f[7 + (i - 1) * 3] == "" ? "?" : f[7 + (i - 1) * 3])
			print line
		}
		print max > "/dev/stderr"
	}' "$out/compare.csv" > "$out/compare-$kind.dat" 2> "$out/compare-$kind.mib"
done
gnuplot <<END
set terminal pngcairo size 1100,500 font ",10"
set output "$out/compare.png"
set datafile missing "?"
set multiplot layout 1,2 title "$(echo "$@" | sed 's/ / vs /g'): median seconds per method under TCG (compare ratios only)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "seconds"
set yrange [0:*]
set key top left
set grid ytics
set title "4 KiB pages, 8 x $(cat "$out/compare-anon.mib") MiB"
plot for [i=2:$(($# + 1))] "$out/compare-anon.dat" using i:xtic(1) title word("$*", i-1)
set title "THP, 8 x $(cat "$out/compare-thp.mib") MiB"
plot for [i=2:$(($# + 1))] "$out/compare-thp.dat" using i:xtic(1) title word("$*", i-1)
unset multiplot
END
cat "$out/compare.md"
