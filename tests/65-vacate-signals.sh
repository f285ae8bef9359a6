#!/bin/sh
# Any signal stops a move, as memory offlining stops at any signal, and
# nothing else does:
# - a writer that catches SIGINT (as an interactive bash does) gets EINTR
#   within 2 s from /proc/PID/migrate and from nodeN/vacate, and the pages
#   moved so far stay moved, intact, nothing left isolated;
# - a handler installed with SA_RESTART (bash's SIGCHLD) does not make the
#   write fail: it goes on to ok and every page moves;
# - SIGKILL from user space does not reach vacate's workers: killing every
#   kvacate thread seen, again and again, still moves every page of several
#   processes, or the write does not say ok;
# - a target that dies mid-walk is not moved after its death: at most one
#   batch (2 MiB) per worker migrates once it is gone, for vacate and for
#   /proc/PID/migrate (which then says ESRCH: the process is gone).
# topo: big
set -eu
. ./lib.sh
plan 27

MIB=512
LIMIT_MS=2000
SIGINT=2
SIGCHLD=17

# A page swapped out is on no node, which reads like a page a move lost.
swaps=$(swaps_off)
# shellcheck disable=SC2086 # device names have no spaces
trap 'swaps_on $swaps' EXIT

w=$(wl_start anon $MIB 0)
p=$(wl_pid "$w")
pages=$(wl_pages "$w")
expect "$MIB MiB on node 0" "$(wl_cmd "$w" where)" "N0=$pages err=0"

# expect_interrupted DESC NODE COMMAND...: COMMAND, a writefile -s that
# moves pages off NODE, gets SIGINT mid-move: EINTR within LIMIT_MS, some
# pages moved and some not, all intact, nothing isolated.
expect_interrupted() {
	ei_desc=$1 ei_node=$2
	shift 2
	r=$(signal_mid_move "$ei_node" INT "$@")
	diag "figure: $ei_desc: ended ${r%% *} ms after SIGINT"
	expect "$ei_desc: SIGINT caught mid-move ends the write with EINTR" "${r#* }" "err EINTR sig=1"
	expect "  within $LIMIT_MS ms" \
		"$([ "${r%% *}" -lt $LIMIT_MS ] && echo "< $LIMIT_MS" || echo "${r%% *}")" "< $LIMIT_MS"
	where=$(wl_cmd "$w" where)
	diag "after the signal: $where"
	expect_match "  pages moved so far stay moved, the rest stayed" "$where" \
		"N0=[1-9]* N1=[1-9]* err=0"
	expect "  pattern intact" "$(wl_cmd "$w" verify)" "ok $pages"
	expect_no_isolated "  nothing left isolated"
}

expect_interrupted "/proc/PID/migrate" 0 writefile -s $SIGINT "/proc/$p/migrate" "0 1"
expect_interrupted "node0/vacate" 0 writefile -s $SIGINT $V0 1

# SA_RESTART: the write is restarted and ends ok; the signal did land.
r=$(signal_mid_move 0 CHLD writefile -S $SIGCHLD "/proc/$p/migrate" "0 1")
expect "/proc/PID/migrate: an SA_RESTART handler's signal mid-move, then ok" "${r#* }" "ok 3 sig=1"
expect_placement "  every page on node 1" "$w" "N1=$pages"
r=$(signal_mid_move 1 CHLD writefile -S $SIGCHLD $V1 0)
expect "node1/vacate: an SA_RESTART handler's signal mid-move, then ok" "${r#* }" "ok 1 sig=1"
expect_placement "  every page on node 0" "$w" "N0=$pages"
wl_stop "$w"

# SIGKILL to the workers: dropped, the walk goes on to the end.
NPROC=8
dirs=$(wl_start_n $NPROC anon 32 0)
# shellcheck disable=SC2086 # the directories have no spaces
set -- $dirs
out=/tmp/vacate-kill-workers.$$
writefile $V0 1 > $out &
writer=$!
kills=0
while alive $writer; do
	for c in /proc/[0-9]*/comm; do
		{ read -r name < "$c"; } 2>/dev/null || continue
		case $name in kvacate0/*) ;; *) continue ;; esac
		t=${c#/proc/}
		! kill -9 "${t%/comm}" 2>/dev/null || kills=$((kills + 1))
	done
done
wait $writer || true
diag "kill -9 sent to vacate's workers $kills times"
expect_match "  workers were sent SIGKILL while they walked" "$kills" "[1-9]*"
expect "vacate with its workers killed from user space: ok, every page moved" \
	"$(cat $out) $(where_all "$@")" "ok 1 N1=$((NPROC * 8192)) err=0"
expect "  patterns intact" "$(intact_all "$@")" ok
rm -f $out
for d in "$@"; do
	wl_stop "$d"
done

# expect_dead_not_moved DESC WANT COMMAND...: a 384 MiB target on node 1
# is killed once COMMAND (a writefile that moves it off node 1) is under
# way: after the target is gone, at most one batch per CPU (4 x 512
# pages) migrates, and COMMAND prints WANT.
expect_dead_not_moved() {
	dn_desc=$1 dn_want=$2
	shift 2
	dn_free=$(free_kib 1)
	"$@" > $out &
	dn_writer=$!
	under_way 1 "$dn_free" test -s $out
	kill -9 "$dp"
	while alive "$dp"; do
		sleep 0.01
	done
	dn_before=$(vmstat pgmigrate_success)
	wait $dn_writer || true
	dn_after=$(vmstat pgmigrate_success)
	diag "figure: $dn_desc: $((dn_after - dn_before)) pages migrated after the target died"
	expect "$dn_desc: a target killed mid-walk is not moved after its death" \
		"$([ $((dn_after - dn_before)) -le 2048 ] && echo "<= 2048" || echo $((dn_after - dn_before)))" \
		"<= 2048"
	expect "  the write says $dn_want" "$(cat $out)" "$dn_want"
	rm -f $out
}

d=$(wl_start anon 384 1)
dp=$(wl_pid "$d")
expect_dead_not_moved "/proc/PID/migrate" "err ESRCH" writefile "/proc/$dp/migrate" "1 0"
rm -rf "$d"
d=$(wl_start anon 384 1)
dp=$(wl_pid "$d")
expect_dead_not_moved "node1/vacate" "ok 1" writefile $V1 0
rm -rf "$d"
expect_no_isolated
