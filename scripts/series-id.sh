#!/bin/sh
# Print a checksum of patches/$KVER/series and every patch it names.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kver.sh"
cd "$patches"
{
	cat series
	for p in $(grep -v '^[[:space:]]*#' series | grep -v '^[[:space:]]*$'); do
		cat "$p"
	done
} | sha256sum | cut -d' ' -f1
