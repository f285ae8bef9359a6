#!/bin/sh
# Boot the default 2-node guest in demo mode and show what the demo printed.
# Fails when the demo did not finish or the kernel splatted.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/kver.sh
. "$top/scripts/kver.sh"
# shellcheck source=scripts/guest-lib.sh
. "$top/scripts/guest-lib.sh"
log=$logdir/demo.log
echo "==> [$KVER] demo: booting the 2-node guest (console: ${log#"$top"/})"
ok=1
run_guest demo 2node "$log" cat > /dev/null || ok=0
# Console lines of the demo itself, without kernel messages.
sed -n '/^# rig: mode/,/^# rig: done/p' "$log" | tr -d '\r' | grep -v '^\[ *[0-9]'
if [ $ok -eq 0 ]; then
	guest_failures
	echo "demo: the guest did not finish cleanly (qemu: $guest_rc; see $log)" >&2
	exit 1
fi
