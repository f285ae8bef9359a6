#!/bin/sh
# nodeN/vacate under pressure: pinned pages, two writers at once, a killed
# waiter, and processes forking, exiting and unmapping while it walks.
# topo: 2node
set -eu
. ./lib.sh
plan 20

w=$(wl_start anon 16 0)
expect "pin 8 pages" "$(wl_cmd "$w" "pin 8")" "ok"
expect "pinned pages stay: EAGAIN" "$(node_vacate 0 1)" "err EAGAIN"
expect_placement "all but the pinned pages left" "$w" "N0=8 N1=4088"
wl_cmd "$w" unpin >/dev/null
expect "after unpinning the vacate completes" "$(node_vacate_settled 0 1)" "ok 1"
expect "  all on node 1" "$(wl_cmd "$w" where)" "N1=4096 err=0"
wl_stop "$w"

# Two writers at once serialise; both succeed, nothing is lost.
a=$(wl_start anon 128 0)
b=$(wl_start anon 16 1)
node_vacate_settled 0 1 > /tmp/v0.$$ &
v0=$!
node_vacate_settled 1 0 > /tmp/v1.$$ &
v1=$!
wait $v0 $v1 || true
expect "first writer" "$(cat /tmp/v0.$$)" "ok 1"
expect "second writer" "$(cat /tmp/v1.$$)" "ok 1"
expect "pattern intact (a)" "$(wl_cmd "$a" verify)" "ok 32768"
expect "pattern intact (b)" "$(wl_cmd "$b" verify)" "ok 4096"
expect_match "every page of a on one node" "$(wl_cmd "$a" where)" "N[01]=32768 err=0"

# A writer waiting for the mutex dies at once on SIGKILL.
node_vacate 0 1 > /dev/null &
long=$!
sleep 0.3
node_vacate 1 0 > /dev/null &
waiter=$!
sleep 0.3
kill -9 $waiter
sleep 0.5
expect_match "killed waiter is gone (zombie or reaped)" \
	"$(awk '{ print $3 }' "/proc/$waiter/stat" 2>/dev/null || echo gone)" "[Zg]*"
wait $long || true
wl_stop "$a"
wl_stop "$b"

# Churn: short-lived processes fork, fault, unmap and exit while vacate
# moves everything back and forth.
keep=$(wl_start shared 16 0)
end=$(($(date +%s) + ${CHURN_SECONDS:-20}))
(
	while [ "$(date +%s)" -lt "$end" ]; do
		c=$(wl_start anon 4 0)
		wl_cmd "$c" "mbind 1 move" >/dev/null
		wl_stop "$c" &
		sleep 0.05
	done
) &
churn=$!
vacates=0
bad=0
while [ "$(date +%s)" -lt "$end" ]; do
	for n in 0 1; do
		r=$(node_vacate $n $((1 - n))) || true
		vacates=$((vacates + 1))
		case $r in "ok 1" | "err EAGAIN") ;; *) bad=$((bad + 1)); diag "vacate $n: $r" ;; esac
	done
done
wait $churn || true
diag "$vacates vacates during the churn"
expect "every vacate during churn succeeded or said EAGAIN" "$bad" "0"
expect_match "vacates happened" "$vacates" "[1-9]*"
expect "the long-lived process's pattern is intact" "$(wl_cmd "$keep" verify)" "ok 4096"
expect_match "and all its pages on one node" "$(wl_cmd "$keep" where)" "N[01]=4096 err=0"
expect "a last vacate leaves nothing behind" "$(node_vacate_settled 0 1)" "ok 1"
expect "  on node 1" "$(wl_cmd "$keep" where)" "N1=4096 err=0"
wl_stop "$keep"
sleep 1
expect_no_isolated
