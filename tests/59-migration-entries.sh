#!/bin/sh
# A page that another migration holds at that moment (its PTE or PMD is a
# migration entry) is counted as left behind, not passed over: a pinned
# page that migrate_pages(2) keeps trying to move, in a loop beside, stays
# on node 0, so every write of /proc/PID/migrate must fail with EAGAIN;
# one "ok" is a page passed over while it was a migration entry.
# migrate_pages(2) then counts the pages that stayed. Then, unpinned, it
# moves.
# topo: 2node
set -eu
. ./lib.sh
WRITES=${ENTRY_WRITES:-300}
plan 18

stop=/tmp/59.stop
for kind in anon thp; do
	w=$(wl_start "$kind" 2 0)
	pid=$(wl_pid "$w")
	expect "$kind: first page pinned" "$(wl_cmd "$w" "pin 1")" "ok"
	rm -f "$stop"
	# shellcheck disable=SC2016 # expanded by the inner shell
	sh -c 'while [ ! -f "$1" ]; do migrate-syscall "$2" 0 1 >/dev/null || true; done' \
		_ "$stop" "$pid" &
	racer=$!
	oks=0
	other=""
	n=0
	while [ $n -lt "$WRITES" ]; do
		r=$(writefile "/proc/$pid/migrate" "0 1") || true
		case $r in
		"ok "*) oks=$((oks + 1)) ;;
		"err EAGAIN") ;;
		*) other="$r" ;;
		esac
		n=$((n + 1))
	done
	touch "$stop"
	wait "$racer" || true
	diag "figure: $kind: $oks of $WRITES writes said ok with the pinned page on node 0"
	expect "$kind: $WRITES writes racing migrate_pages(2) on a pinned page: each EAGAIN" \
		"$oks${other:+ $other}" "0"
	pinned=$(wl_cmd "$w" where)
	case $kind in
	anon) want="N0=1 N1=511 err=0" ;;
	thp) want="N0=512 err=0" ;;
	esac
	expect "$kind: the pinned page stayed on node 0, the rest moved" "$pinned" "$want"
	# migrate_pages(2) returns the pages that stayed: the pinned 4 KiB
	# page, or every page of the pinned THP; 6.12 counts folios.
	case $kind:${RIG_KVER:-6.1} in
	thp:6.1) stayed=512 ;;
	*) stayed=1 ;;
	esac
	expect "$kind: migrate_pages(2) says how many stayed" \
		"$(migrate-syscall "$pid" 0 1)" "ok $stayed"
	expect "$kind: unpinned" "$(wl_cmd "$w" unpin)" "ok"
	expect "$kind: then it moves" "$(settled migrate_proc "$pid" 0 1)" "ok 3"
	expect_placement "$kind" "$w" "N1=512"
	wl_stop "$w"
done
rm -f "$stop"
