#!/bin/sh
# The demo: a process's memory moved between NUMA nodes from the shell,
# shown as tables of where its pages are.
set -eu
cd /tests
. ./lib.sh

# table DIR TITLE: where a workload's pages are, node by node, by two
# independent counts, and whether every page still holds its pattern.
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
	echo "  every page's contents: $(wl_cmd "$1" verify | sed 's/^ok /intact, pages checked: /')"
}

# run COMMAND HOW: show a shell command, do it with HOW (writefile, which
# reports the exact errno), show what the write returned.
run() {
	echo
	echo "  \$ $1"
	out=$(eval "$2") || true
	echo "  -> $(echo "$out" | sed -e "s/^ok \(.*\)/success (\1 bytes written)/" -e "s/^err /write failed: /")"
}

echo "# demo: a 64 MiB process is started with all its memory on node 0"
w=$(wl_start anon 64 0)
pid=$(wl_pid "$w")
table "$w" "before: process $pid"

echo
echo "# demo 1: move it to node 1 through /proc"
run "echo \"0 1\" > /proc/$pid/migrate" "writefile /proc/$pid/migrate '0 1\\n'"
table "$w" "after /proc/$pid/migrate: process $pid"

echo
echo "# demo 2: empty node 1 of every process's pages"
w2=$(wl_start shared 16 1)
table "$w2" "a second process $(wl_pid "$w2") (16 MiB shared with its child) on node 1"
run "echo 0 > /sys/devices/system/node/node1/vacate" \
	"writefile /sys/devices/system/node/node1/vacate '0\\n'"
table "$w" "after vacating node 1: process $pid"
table "$w2" "after vacating node 1: process $(wl_pid "$w2")"

echo
echo "# demo 3: bad input is refused with a clear error, and nothing moves"
run "echo \"0 7\" > /proc/$pid/migrate    (no node 7)" "writefile /proc/$pid/migrate '0 7\\n'"
run "echo 0 > /sys/devices/system/node/node0/vacate    (a node onto itself)" \
	"writefile /sys/devices/system/node/node0/vacate '0\\n'"
echo "  where process $pid's pages are: $(wl_cmd "$w" where)"

echo
echo "# demo 4: the same move with the migrate_pages(2) syscall"
echo
echo "  migrate_pages($pid, {0}, {1}) returned" \
	"$(migrate-syscall "$pid" 0 1 | sed 's/^ok //') (pages that did not move)"
table "$w" "after migrate_pages: process $pid"
wl_stop "$w"
wl_stop "$w2"
echo
