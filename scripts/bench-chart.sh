#!/bin/sh
# bench-chart.sh SUMMARY.csv OUT.png: median MiB/s of every path by size,
# one panel per page kind, drawn with gnuplot.
set -eu
summary=$1
png=$2
dir=$(dirname "$png")
paths="syscall proc swap vacate1 vacate8 copy"
for kind in anon thp; do
	# rows: size, then one column per path
	awk -F, -v kind="$kind" -v paths="$paths" '
	NR > 1 && $1 == kind { m[$2, $3] = $6; if (!($2 in s)) { s[$2] = 1; sizes[++n] = $2 } }
	END { np = split(paths, p, " ")
		for (i = 1; i <= n; i++) { line = sizes[i]
			for (j = 1; j <= np; j++) line = line " " (m[sizes[i], p[j]] + 0)
			print line } }' "$summary" > "$dir/chart-$kind.dat"
done
gnuplot <<END
set terminal pngcairo size 1100,500 font ",10"
set output "$png"
set multiplot layout 1,2 title "Migration bandwidth under TCG (median MiB/s; compare ratios only)"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set ylabel "MiB/s"
set xlabel "MiB moved"
set key top left
set grid ytics
set title "4 KiB pages"
plot for [i=2:7] "$dir/chart-anon.dat" using i:xtic(1) title word("$paths", i-1)
set title "THP"
plot for [i=2:7] "$dir/chart-thp.dat" using i:xtic(1) title word("$paths", i-1)
unset multiplot
END
