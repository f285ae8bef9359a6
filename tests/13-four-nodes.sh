#!/bin/sh
# migrate_pages(2) with several nodes: {0,1} -> {2,3} maps 0->2, 1->3.
# topo: 4node
set -eu
. ./lib.sh
plan 8

# A quarter on node 0, three quarters on node 1: a swapped mapping shows.
w=$(wl_start anon 16 0,1,1,1)
pid=$(wl_pid "$w")
expect_placement "placed 1:3 on nodes 0,1" "$w" "N0=1024 N1=3072"
expect "migrate_pages {0,1} -> {2,3}" "$(migrate-syscall "$pid" 0-1 2-3)" "ok 0"
expect_placement "0 went to 2, 1 went to 3" "$w" "N2=1024 N3=3072"
wl_stop "$w"
expect_no_isolated
