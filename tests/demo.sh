#!/bin/sh
# The demo: a process's memory moved between NUMA nodes, shown as tables.
set -eu
cd /tests
. ./lib.sh

# table DIR TITLE: where the workload's pages are, node by node.
table() {
	echo
	echo "  $2"
	echo "  node   pages (move_pages)   pages (numa_maps)    MiB"
	where=$(wl_cmd "$1" where)
	maps=$(numa_maps_where "$(wl_pid "$1")" "$(wl_addr "$1")")
	for n in $(seq 0 $(($(ls -d /sys/devices/system/node/node[0-9]* | wc -l) - 1))); do
		a=$(echo "$where" | tr ' ' '\n' | awk -F= -v k="N$n" '$1 == k { print $2 }')
		b=$(echo "$maps" | tr ' ' '\n' | awk -F= -v k="N$n" '$1 == k { print $2 }')
		printf "  %4d   %18d   %17d   %4d\n" "$n" "${a:-0}" "${b:-0}" $((${a:-0} / 256))
	done
	echo "  pattern check: $(wl_cmd "$1" verify)"
}

echo "# demo: a 64 MiB process is started with all its memory on node 0"
w=$(wl_start anon 64 0)
pid=$(wl_pid "$w")
table "$w" "before: process $pid"
echo
echo "# demo: migrate_pages($pid, {0}, {1})"
echo "  -> $(migrate-syscall "$pid" 0 1)"
table "$w" "after: process $pid"
wl_stop "$w"
echo
