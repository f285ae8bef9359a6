# qemu-counters.awk WATCH CONSOLE: each timed run of a bench console with
# what QEMU did meanwhile, from scripts/watch-qemu.sh's lines WATCH.
# tests/bench.sh prints a "# vmstat METHOD:" line (the guest's counters)
# as each timed run ends, and the runs' "bench,..." rows, in the same
# order, when the point ends: the k-th row is the k-th counters line. A
# run's window reaches from the last poll before it started (its end less
# its time) to the first poll that saw its counters line; rates are the
# counters' differences over that window's length. One line per run:
#   STAGE KIND MIB METHOD SECONDS TLB_FULL/s TLB_PARTIAL/s TB_INVAL/s
#   QEMU_CPUS QEMU_CSW/s GUEST_COUNTERS...
# QEMU_CPUS is the host CPUs QEMU's threads kept busy on average (clock
# ticks at 100 per second); GUEST_COUNTERS the run's counters line.
FNR == NR {
	n++
	t[n] = $1; lines[n] = $2; inv[n] = $4; full[n] = $5; part[n] = $6
	ticks[n] = $8; csw[n] = $9
	next
}
{ sub(/\r$/, "") }
/^# vmstat / {
	nv++
	vline[nv] = FNR
	guest[nv] = $0
	sub(/^# vmstat [^:]*: /, "", guest[nv])
	next
}
/^bench,/ {
	k++
	split($0, f, ",")
	secs = f[8] / 1e6
	for (j = 1; j <= n && lines[j] < vline[k]; j++)
		;
	if (j > n || j < 2)
		next
	for (i = j - 1; i > 1 && t[i] > t[j] - secs - 0.3; i--)
		;
	dt = t[j] - t[i]
	printf "%s %s %s %s %.3f %.0f %.0f %.0f %.2f %.0f %s\n", f[2], f[3], f[5], f[7], secs,
		(full[j] - full[i]) / dt, (part[j] - part[i]) / dt, (inv[j] - inv[i]) / dt,
		(ticks[j] - ticks[i]) / dt / 100, (csw[j] - csw[i]) / dt, guest[k]
}
