#!/bin/sh
# SIGKILL stops a long vacate: 1 s into vacating 640 MiB of 4 KiB pages the
# writer is killed and must be gone within 2 s, with pages still on the
# node (the walk really stopped), the pattern intact and nothing left
# isolated; a second vacate then completes.
# topo: big
set -eu
. ./lib.sh
plan 11

MIB=640
LIMIT_MS=2000

w=$(wl_start anon $MIB 0)
pages=$(wl_pages "$w")
expect "$MIB MiB on node 0" "$(wl_cmd "$w" where)" "N0=$pages err=0"

out=/tmp/vacate-kill.$$
writefile $V0 1 > $out &
writer=$!
sleep 1
diag "killing the writer 1 s into a vacate of $MIB MiB"
expect_killed $writer $out $LIMIT_MS writer
where=$(wl_cmd "$w" where)
diag "after the kill: $where"
expect_match "  the walk stopped: pages moved and pages left on node 0" "$where" \
	"N0=[1-9]* N1=[1-9]* err=0"
expect "  every page still mapped" "$(sum_where "$where")" "$pages"
expect "  pattern intact" "$(wl_cmd "$w" verify)" "ok $pages"
expect_no_isolated "  nothing left isolated"

expect "a second vacate completes" "$(node_vacate_settled 0 1)" "ok 1"
expect_placement "  all on node 1" "$w" "N1=$pages"
wl_stop "$w"
