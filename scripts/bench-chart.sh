#!/bin/sh
# bench-chart.sh SUMMARY.csv DIR TITLE: the bench's three scaling curves
# (scripts/bench-curve.awk), drawn with gnuplot, median seconds, one line
# per method: DIR/chart-procs.png (time against the number of processes),
# DIR/chart-size.png (time against the MiB per process, a panel for 4 KiB
# pages and one for THP) and DIR/chart-nodes.png (time against the guest's
# node count). TITLE heads each chart (the tree).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
summary=$1
dir=$2
title=$3
# The methods the summary has, in the bench's order.
methods=$(for m in vacate vacate-1w loop loop-P2 loop-PN cpuset; do
	awk -F, -v m="$m" 'NR > 1 && $6 == m { print m; exit }' "$summary"
done | tr '\n' ' ')
n=$(echo $methods | wc -w)
[ "$n" -gt 0 ] || { echo "bench-chart: no method in $summary" >&2; exit 1; }

# curve NAME STAGE KIND X: DIR/curve-NAME.dat; the x values of its
# points in $xs (a gnuplot word list), its process and MiB in $procs/$mib.
curve() {
	awk -v stage="$2" -v kind="$3" -v x="$4" -v methods="$methods" -v fmt=dat \
		-f "$top/scripts/bench-curve.awk" "$summary" > "$dir/curve-$1.dat"
}
# label STAGE: "P processes x M MiB" of the stage's points (the first).
label() { awk -F, -v s="$1" 'NR > 1 && $1 == s { print $3 " processes x " $4 " MiB"; exit }' "$summary"; }

curve procs procs anon procs
curve size-anon size anon mib
curve size-thp size thp mib
curve nodes nodes anon nodes
# plot NAME: the gnuplot command drawing DIR/curve-NAME.dat, a line per
# method.
plot() {
	echo "plot for [i=2:$((n + 1))] \"$dir/curve-$1.dat\" using 1:i title word(\"$methods\", i-1) lw 2"
}
# A chart is drawn only for the curves that have points (a short run may
# leave some out).
{
	cat <<-END
	set terminal pngcairo size 1000,620 font ",10"
	set datafile missing "?"
	set style data linespoints
	set key top left
	set grid
	set ylabel "seconds (median of the rounds)"
	END
	if [ -s "$dir/curve-procs.dat" ]; then
		cat <<-END
		set output "$dir/chart-procs.png"
		set title "$title: time against processes ($(label procs | sed 's/.* x //') each, 4 KiB pages), node 0 <-> 1"
		set xlabel "processes"
		set logscale xy
		$(plot procs)
		unset logscale
		END
	fi
	panels=0
	for k in anon thp; do
		[ ! -s "$dir/curve-size-$k.dat" ] || panels=$((panels + 1))
	done
	if [ $panels -gt 0 ]; then
		cat <<-END
		set output "$dir/chart-size.png"
		set yrange [0:*]
		set multiplot layout 1,$panels title "$title: time against size (8 processes), node 0 <-> 1"
		set xlabel "MiB per process"
		END
		[ ! -s "$dir/curve-size-anon.dat" ] || printf 'set title "4 KiB pages"\n%s\n' "$(plot size-anon)"
		[ ! -s "$dir/curve-size-thp.dat" ] || printf 'set title "THP"\n%s\n' "$(plot size-thp)"
		echo "unset multiplot"
	fi
	if [ -s "$dir/curve-nodes.dat" ]; then
		cat <<-END
		set output "$dir/chart-nodes.png"
		set yrange [0:*]
		set title "$title: node 0 vacated to all the others ($(label nodes)), one boot per node count"
		set xlabel "nodes in the guest"
		set xtics (2, 4, 8)
		set key bottom right
		$(plot nodes)
		END
	fi
} | gnuplot
