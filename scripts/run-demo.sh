#!/bin/sh
# Boot the default 2-node guest in demo mode and show what the demo printed.
# Fails when the demo did not finish or the kernel splatted.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kver.sh"
log=$logdir/demo.log
echo "==> [$KVER] demo: booting the 2-node guest (console: ${log#"$top"/})"
"$top/scripts/boot-guest.sh" demo 2node "$log"
# Console lines of the demo itself, without kernel messages.
sed -n '/^# rig: mode/,/^# rig: done/p' "$log" | tr -d '\r' | grep -v '^\[ *[0-9]'
# shellcheck disable=SC2046 # the summary line, split into words
set -- $(awk -f "$top/scripts/tap-summary.awk" "$log" | tail -n 1)
[ "$2" -eq 0 ] || { echo "demo: the guest did not finish cleanly (see $log)" >&2; exit 1; }
