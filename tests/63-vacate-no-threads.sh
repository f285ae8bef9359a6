#!/bin/sh
# nodeN/vacate when no worker thread can be created: kernel.threads-max
# set below the number of threads makes every fork fail (kthreadd's
# included, EAGAIN), and the writer walks itself, as when it may run on
# isolated CPUs only: the write says ok and every page moves, with its
# pattern. Between the two writes of threads-max the shell runs builtins
# only (echo, with redirections), which need no fork. Then, threads-max
# back, the workers move everything back.
# topo: 2node
set -eu
. ./lib.sh
plan 9

TMAX=/proc/sys/kernel/threads-max
# The lowest threads-max the kernel takes (MIN_THREADS).
LOW=20

swaps=$(swaps_off)
dirs=$(wl_start_n 4 anon 8 0)
pages=$((4 * $(wl_pages "${dirs%% *}")))
expect "every page on node 0 first" "$(where_all $dirs)" "N0=$pages err=0"

max=$(cat $TMAX)
threads=$(ls -d /proc/[0-9]*/task/[0-9]* | wc -l)
expect "more threads ($threads) than threads-max $LOW" \
	"$([ "$threads" -gt $LOW ] && echo yes)" yes

err=/tmp/no-threads.err
# No fork from here to the restore of threads-max.
# A second write, as settled() would make, when the first fails (a page
# busy at that instant gives EAGAIN).
echo $LOW > $TMAX
if echo 1 2>$err > $V0 || echo 1 2>>$err > $V0; then r=ok; else r=failed; fi
echo "$max" > $TMAX
expect "threads-max restored" "$(cat $TMAX)" "$max"
expect "vacate with no thread to spare" "$r" ok
diag "errors of the writes: $(cat $err)"
expect "  every page on node 1" "$(where_all $dirs)" "N1=$pages err=0"
expect "  patterns intact" "$(intact_all $dirs)" ok

expect "vacate back, with workers" "$(node_vacate_settled 1 0)" "ok 1"
expect "  every page on node 0" "$(where_all $dirs)" "N0=$pages err=0"
expect "  patterns intact" "$(intact_all $dirs)" ok

for d in $dirs; do
	wl_stop "$d"
done
# shellcheck disable=SC2086 # one name per word
swaps_on $swaps
