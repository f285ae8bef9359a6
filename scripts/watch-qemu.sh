#!/bin/sh
# watch-qemu.sh SOCKET CONSOLE [SECONDS]: while a guest booted with
# QEMU_MONITOR=SOCKET runs, every SECONDS (default 0.25), one line:
#   EPOCH LINES TB_FLUSH TB_INVAL TLB_FULL TLB_PARTIAL TLB_ELIDED TICKS CSW
# the host's time; how many lines the guest's console file CONSOLE has
# (which timed runs it has printed); QEMU's TCG counters from the
# monitor's `info jit`: translation-block cache flushes and invalidations
# (guest writes to pages holding translated code), the soft TLB's full,
# partial and elided flushes (summed over vCPUs); and from the host's
# /proc, read only, the CPU time of all of QEMU's threads (clock ticks)
# and their context switches (a vCPU that waits for the others, as for
# an atomic operation run exclusively, switches). Ends when QEMU does.
set -eu
sock=$1 log=$2 every=${3:-0.25}

i=0
while [ ! -S "$sock" ]; do
	i=$((i + 1))
	[ $i -lt 600 ] || { echo "watch-qemu: no monitor at $sock" >&2; exit 1; }
	sleep 0.1
done
# QEMU itself, not the timeout(1) that started it (same arguments).
pid=$(pgrep -f "^qemu-system.*file:$log" | head -n 1)

# qemu_threads: the CPU ticks and the context switches of QEMU's threads.
# A thread's name ("CPU 0/TCG") may hold spaces: its stat fields are
# counted after the closing parenthesis.
qemu_threads() {
	cat /proc/"$pid"/task/*/stat /proc/"$pid"/task/*/status 2>/dev/null | awk '
		/^[0-9]+ \(/ { sub(/^.*\) /, ""); ticks += $12 + $13; next }
		/ctxt_switches:/ { csw += $2 }
		END { print ticks + 0, csw + 0 }'
}

while c=$(echo "info jit" | socat -t 2 - "UNIX-CONNECT:$sock" 2>/dev/null); do
	echo "$c" | tr -d '\r' | awk -v t="$(date +%s.%N)" -v lines="$(wc -l < "$log")" \
		-v threads="$(qemu_threads)" '
		/^TB flush count/ { f = $NF }
		/^TB invalidate count/ { inv = $NF }
		/^TLB full flushes/ { full = $NF }
		/^TLB partial flushes/ { part = $NF }
		/^TLB elided flushes/ { eli = $NF }
		END { if (f != "") print t, lines, f, inv, full, part, eli, threads }'
	sleep "$every"
done
