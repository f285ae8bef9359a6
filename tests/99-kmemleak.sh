#!/bin/sh
# kmemleak, after every other test of this boot: two scans with a pause
# (an object is reported only when it is older than 5 s and its contents
# did not change since the previous scan), then no suspected leak may have
# been allocated by a function of the series or by the migration engine
# it drives. Every suspected leak is listed as a diagnostic, one line each;
# leaks from elsewhere (boot-time false positives, other subsystems) are
# counted but do not fail the file.
# topo: 2node 4node memless
# profile: debug
set -eu
. ./lib.sh
plan 3

K=/sys/kernel/debug/kmemleak
# Functions the series adds or changes (patches/000*.patch)...
SERIES="migrate_open migrate_parse migrate_write mpol_parse_nodelist
	migrate_task_pages nearest_node vacate_mm vacate_node vacate_store
	vacate_register_node vacate_unregister_node evict_folios
	migrate_to_node kernel_migrate_pages do_migrate_pages"
# ...and the engine below them, on the interfaces' call paths.
ENGINE="migrate_pages migrate_pages_batch migrate_folio_unmap
	migrate_folio_move alloc_migration_target queue_pages_range
	reclaim_pages"

# leak_lines FUNCTIONS < REPORT: one line per suspected leak,
# "1|..." when a backtrace frame is one of FUNCTIONS, "0|..." otherwise,
# then the size, the allocating command and the first frames.
leak_lines() {
	awk -v list="$1" '
	BEGIN { n = split(list, f, /[ \t\n]+/); for (i = 1; i <= n; i++) if (f[i] != "") want[f[i]] = 1 }
	function flush() {
		if (obj != "") printf "%d|%s:%s\n", hit, obj, frames
		obj = ""; frames = ""; hit = 0; nf = 0
	}
	/^unreferenced object/ { flush(); obj = "size " $5; sub(/\):$/, "", obj); next }
	/^  comm / { c = $2 " pid " $4; gsub(/[",]/, "", c); obj = obj ", " c; next }
	/^    \[<[0-9a-f]+>\] / {
		fn = $2
		sub(/\+0x.*/, "", fn)
		if (fn in want) hit = 1
		if (++nf <= 8) frames = frames " " fn
		next
	}
	END { flush() }'
}

expect "first scan" "$(writefile $K scan)" "ok 4"
sleep 6
expect "second scan" "$(writefile $K scan)" "ok 4"
report=$(cat $K)
leaks=$(echo "$report" | leak_lines "$SERIES $ENGINE")
all=$(echo "$leaks" | grep -c . || true)
ours=$(echo "$leaks" | grep -c '^1|' || true)
echo "$leaks" | head -n 40 | sed -n 's/^1|/SERIES: /p; s/^0|//p' | while read -r l; do
	diag "leak: $l"
done
expect "no suspected leak allocated by the series or its engine" "$ours" "0"
echo "# figure: kmemleak: $all suspected leaks in all, $ours attributable to the series"
