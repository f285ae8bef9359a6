#!/bin/sh
# host-cores.sh [N]: how much of a second host CPU a second busy thread
# gets: the same CPU-bound loop (N rounds of awk arithmetic, default
# 20000000) run alone, then two at once. Prints one line; "2.00x" means two
# full CPUs, less means the host's CPUs share a core (SMT siblings) or are
# oversubscribed by its own host. Run it on an idle machine: the bench
# runs it before its first guest (build/KVER/bench/setup.txt).
set -eu
n=${1:-20000000}

spin() { awk -v n="$n" 'BEGIN { for (i = 0; i < n; i++) s += i % 7; exit s < 0 }'; }
now_ms() { echo $(($(date +%s%N) / 1000000)); }

t0=$(now_ms)
spin
t1=$(now_ms)
spin &
spin &
wait
t2=$(now_ms)
awk -v one=$((t1 - t0)) -v two=$((t2 - t1)) 'BEGIN {
	printf "host CPUs: one busy thread %d ms, two at once %d ms: %.2fx the work of one\n",
		one, two, 2 * one / two }'
