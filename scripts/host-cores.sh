#!/bin/sh
# host-cores.sh [N]: how much of a second host CPU a second busy thread
# gets, for two kinds of work, each run alone and then two at once, three
# times (the median is printed):
#   cpu     N rounds of awk arithmetic (default 20000000), in caches;
#   memory  cat of a 256 MiB page-cached file to /dev/null, 16 times: a
#           copy that misses the caches, like the emulated page copies.
# One line per kind; "2.00x" means two full CPUs, less means the two
# threads share a core (SMT siblings), the caches or the memory bus, or
# are oversubscribed by the host's own host. Run it on an idle machine:
# the bench runs it before its first guest (build/KVER/bench/setup.txt).
set -eu
n=${1:-20000000}
file=$(mktemp)
trap 'rm -f "$file"' EXIT
head -c $((256 << 20)) /dev/zero > "$file"

cpu() { awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) s += i % 7; exit s < 0 }'; }
memory() { i=0; while [ $i -lt 16 ]; do cat "$file"; i=$((i + 1)); done > /dev/null; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

# once KIND: "ONE_MS TWO_MS", KIND alone, then two at once.
once() {
	t0=$(now_ms)
	"$1"
	t1=$(now_ms)
	"$1" &
	"$1" &
	wait
	echo $((t1 - t0)) $(($(now_ms) - t1))
}

# thrice KIND: three of once, and a line with the median ratio.
thrice() {
	{ once "$1"; once "$1"; once "$1"; } | awk -v kind="$1" '
		{ one[NR] = $1; two[NR] = $2; r[NR] = 2 * $1 / $2 }
		END {
			# the run whose ratio is the median
			m = 1
			for (i = 1; i <= 3; i++) {
				below = 0
				for (j = 1; j <= 3; j++) below += r[j] < r[i]
				if (below == 1) m = i
			}
			printf "host CPUs, %s: one busy thread %d ms, two at once %d ms: %.2fx the work of one (median of 3: %.2f %.2f %.2f)\n",
				kind, one[m], two[m], r[m], r[1], r[2], r[3] }'
}

cat "$file" > /dev/null
thrice cpu
thrice memory
