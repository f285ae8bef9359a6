#!/bin/sh
# Print a checksum of patches/series and every patch it names.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top/patches"
{
	cat series
	for p in $(grep -v '^[[:space:]]*#' series | grep -v '^[[:space:]]*$'); do
		cat "$p"
	done
} | sha256sum | cut -d' ' -f1
