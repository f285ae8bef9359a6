#!/bin/sh
# check-config.sh CONFIG FRAGMENT...: fail when an option requested by a
# fragment ("CONFIG_X=..." or "# CONFIG_X is not set") did not end up that
# way in the final CONFIG (merge_config.sh and olddefconfig only warn when
# a dependency drops an option).
set -eu
config=$1
shift
bad=0
for line in $(grep -h '^CONFIG_' "$@"); do
	if ! grep -qx "$line" "$config"; then
		got=$(grep "^${line%%=*}=" "$config" || echo "${line%%=*} is not set")
		echo "config: requested $line, got: $got" >&2
		bad=1
	fi
done
for opt in $(sed -n 's/^# \(CONFIG_[A-Z0-9_]*\) is not set$/\1/p' "$@"); do
	if grep -q "^$opt=" "$config"; then
		echo "config: requested $opt off, got: $(grep "^$opt=" "$config")" >&2
		bad=1
	fi
done
[ "$bad" -eq 0 ] || { echo "config: requested options missing (dependencies?)" >&2; exit 1; }
