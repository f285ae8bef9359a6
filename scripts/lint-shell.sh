#!/bin/sh
# lint-shell.sh: shellcheck at warning level over every shell file of the
# rig (scripts/, tests/, .ci/run, the guest's /init), following what each
# file sources.
# Prints shellcheck's findings and "lint-shell: N files clean" or
# "lint-shell: N of M files with warnings"; fails when any has one.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bad=0
n=0
for f in scripts/*.sh tests/*.sh .ci/run initramfs/init; do
	n=$((n + 1))
	shellcheck -x -P SCRIPTDIR -S warning "$f" || bad=$((bad + 1))
done
if [ "$bad" -eq 0 ]; then
	echo "lint-shell: $n files clean"
else
	echo "lint-shell: $bad of $n files with warnings"
	exit 1
fi
