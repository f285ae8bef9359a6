#!/bin/sh
# The soak of 43-soak.sh with the kernel's own movers running all along
# (NUMA balancing, khugepaged, ksmd, compaction): see SOAK_MOVERS there.
# topo: 2node
set -eu
SOAK_MOVERS=1 exec sh ./43-soak.sh
