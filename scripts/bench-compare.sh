#!/bin/sh
# bench-compare.sh KVER...: put the bench summaries of several trees
# (build/$KVER/bench/summary.csv, written by scripts/run-bench.sh) side by
# side: build/bench/compare.csv, compare.md (median MiB/s and IQR per tree,
# and the ratio of each later tree's median to the first's) and
# compare.png. TCG timings compare only inside one run: make bench boots
# the trees one after the other on the same host, with the same guest.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/bench
mkdir -p "$out"
[ $# -ge 2 ] || { echo "bench-compare: need two trees or more (KVERS)" >&2; exit 2; }
files=""
for v in "$@"; do
	f=$top/build/$v/bench/summary.csv
	[ -f "$f" ] || { echo "bench-compare: $f missing (KVER=$v make bench)" >&2; exit 1; }
	files="$files $f"
done

# compare.csv: kind,mib,path, then median,q1,q3 for each tree, in order.
# shellcheck disable=SC2086
awk -F, -v trees="$*" '
FNR == 1 { t++; next }
{
	key = $1 "," $2 "," $3
	if (!(key in seen)) { seen[key] = 1; keys[++nk] = key }
	val[key, t] = $6 "," $7 "," $8
}
END {
	nt = split(trees, name, " ")
	head = "kind,mib,path"
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
	echo "Median bandwidth in MiB/s (interquartile range in brackets) of each"
	echo "path on each tree's bench kernel, same guest, same host, one run;"
	echo "ratio: later tree's median / first tree's (above 1: faster)."
	echo "Each tree's own table: build/<KVER>/bench/table.md."
	echo
	awk -F, -v trees="$*" '
	NR == 1 {
		nt = split(trees, name, " ")
		h = "| pages | MiB | path |"; s = "|---|---:|---|"
		for (i = 1; i <= nt; i++) { h = h " " name[i] " |"; s = s "---:|" }
		for (i = 2; i <= nt; i++) { h = h " " name[i] "/" name[1] " |"; s = s "---:|" }
		print h; print s; next
	}
	{
		line = "| " ($1 == "thp" ? "THP" : "4 KiB") " | " $2 " | " $3 " |"
		for (i = 1; i <= nt; i++) {
			c = 4 + (i - 1) * 3
			line = line ($c == "" ? " - |" : sprintf(" %.1f (%.1f-%.1f) |", $c, $(c + 1), $(c + 2)))
		}
		for (i = 2; i <= nt; i++) {
			c = 4 + (i - 1) * 3
			line = line ($c == "" || $4 + 0 == 0 ? " - |" : sprintf(" %.2f |", $c / $4))
		}
		print line
	}' "$out/compare.csv"
	echo
	echo "Chart: build/bench/compare.png"
} > "$out/compare.md"

# compare.png: for each page kind, median MiB/s per path of the largest
# size, one bar per tree.
for kind in anon thp; do
	awk -F, -v kind="$kind" -v nt=$# '
	NR > 1 && $1 == kind { if ($2 + 0 > max) max = $2 + 0; row[$2, $3] = $0; if (!($3 in p)) { p[$3] = 1; paths[++np] = $3 } }
	END {
		for (j = 1; j <= np; j++) {
			if (!((max, paths[j]) in row)) continue
			split(row[max, paths[j]], f, ",")
			line = paths[j]
			for (i = 1; i <= nt; i++) line = line " " (f[4 + (i - 1) * 3] + 0)
			print line
		}
		print max > "/dev/stderr"
	}' "$out/compare.csv" > "$out/compare-$kind.dat" 2> "$out/compare-$kind.mib"
done
gnuplot <<END
set terminal pngcairo size 1100,500 font ",10"
set output "$out/compare.png"
set multiplot layout 1,2 title "$(echo "$@" | sed 's/ / vs /g'): median MiB/s per path under TCG (compare ratios only)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "MiB/s"
set key top left
set grid ytics
set title "4 KiB pages, $(cat "$out/compare-anon.mib") MiB"
plot for [i=2:$(($# + 1))] "$out/compare-anon.dat" using i:xtic(1) title word("$*", i-1)
set title "THP, $(cat "$out/compare-thp.mib") MiB"
plot for [i=2:$(($# + 1))] "$out/compare-thp.dat" using i:xtic(1) title word("$*", i-1)
unset multiplot
END
cat "$out/compare.md"
