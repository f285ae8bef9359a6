// SPDX-License-Identifier: GPL-2.0
/*
 * fraghog -n NODE -m MIB: leave NODE with plenty of free 4 KiB pages but
 * no free 2 MiB block, so that a huge page cannot be placed there while
 * small pages still can.
 *
 *  1. fill MIB of 4 KiB anonymous pages bound to NODE;
 *  2. free every other page of it (MADV_DONTNEED: no VMA split), so the
 *     freed pages cannot merge with their buddies;
 *  3. mlock the rest (MLOCK_ONFAULT: the freed pages are not faulted back);
 *     with /proc/sys/vm/compact_unevictable_allowed 0 (the caller sets it)
 *     compaction cannot move them to rebuild a free block;
 *  4. the free 2 MiB blocks left (the reserve below the watermarks that
 *     step 1 could not take) go to locked transparent huge pages, one
 *     2 MiB chunk at a time, until a chunk no longer gets one (the
 *     allocator, compaction included, found no 2 MiB block);
 *  5. prints "ready HELD_KIB THP_CHUNKS", then keeps watching
 *     /proc/buddyinfo: a 2 MiB block that turns up later (pages that sat
 *     in per-CPU lists or slabs when the node was filled, freed and merged
 *     since) is taken as one more huge page within 50 ms.
 *
 * Runs until killed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef MLOCK_ONFAULT
#define MLOCK_ONFAULT 1
#endif

#define MPOL_BIND 2
#define MAX_NODES 64
#define HUGE_SZ (2UL << 20)
#define MAX_THP_CHUNKS 256

static void die(const char *what)
{
	fprintf(stderr, "fraghog: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void bind_to(void *addr, size_t len, int node)
{
	unsigned long mask[MAX_NODES / (8 * sizeof(long)) + 1] = { 0 };

	mask[node / (8 * sizeof(long))] = 1UL << (node % (8 * sizeof(long)));
	if (syscall(SYS_mbind, addr, len, MPOL_BIND, mask, MAX_NODES + 1, 0))
		die("mbind");
}

/* Free blocks of 2 MiB or more on @node, from /proc/buddyinfo. */
static long free_huge_blocks(int node)
{
	FILE *f = fopen("/proc/buddyinfo", "r");
	long n[11], sum = 0;
	char zone[32];
	int nid, i;

	if (!f)
		die("buddyinfo");
	while (fscanf(f, " Node %d, zone %31s %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld %ld",
		      &nid, zone, &n[0], &n[1], &n[2], &n[3], &n[4], &n[5], &n[6],
		      &n[7], &n[8], &n[9], &n[10]) == 13)
		if (nid == node)
			for (i = 9; i < 11; i++)
				sum += n[i];
	fclose(f);
	return sum;
}

/* AnonHugePages of this process in KiB. */
static long anon_huge_kib(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kib = -1;

	if (!f)
		die("smaps_rollup");
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "AnonHugePages: %ld", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

int main(int argc, char **argv)
{
	size_t page = sysconf(_SC_PAGESIZE), len, off;
	long mib = 0, before;
	int node = -1, opt, chunks = 0;
	char *region, *raw, *huge;

	while ((opt = getopt(argc, argv, "n:m:")) != -1) {
		switch (opt) {
		case 'n': node = atoi(optarg); break;
		case 'm': mib = atol(optarg); break;
		default: goto usage;
		}
	}
	if (node < 0 || node >= MAX_NODES || mib <= 0)
		goto usage;
	len = (size_t)mib << 20;

	/* 1. Fill with small pages on the node. */
	region = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		die("mmap");
	if (madvise(region, len, MADV_NOHUGEPAGE))
		die("madvise nohugepage");
	bind_to(region, len, node);
	if (madvise(region, len, MADV_POPULATE_WRITE))
		for (off = 0; off < len; off += page)
			region[off] = 1;

	/* 2. Free every other page. */
	for (off = page; off < len; off += 2 * page)
		if (madvise(region + off, page, MADV_DONTNEED))
			die("madvise dontneed");

	/* 3. Lock the pages left, without faulting the freed ones back. */
	if (syscall(SYS_mlock2, region, len, MLOCK_ONFAULT))
		die("mlock2");

	/* 4. Take the node's remaining 2 MiB blocks as locked huge pages. */
	raw = mmap(NULL, (MAX_THP_CHUNKS + 1) * HUGE_SZ, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (raw == MAP_FAILED)
		die("mmap huge");
	huge = (char *)(((uintptr_t)raw + HUGE_SZ - 1) & ~(HUGE_SZ - 1));
	if (madvise(huge, MAX_THP_CHUNKS * HUGE_SZ, MADV_HUGEPAGE))
		die("madvise hugepage");
	bind_to(huge, MAX_THP_CHUNKS * HUGE_SZ, node);
	if (syscall(SYS_mlock2, huge, MAX_THP_CHUNKS * HUGE_SZ, MLOCK_ONFAULT))
		die("mlock2 huge");
	while (chunks < MAX_THP_CHUNKS) {
		before = anon_huge_kib();
		huge[chunks * HUGE_SZ] = 1;
		if (anon_huge_kib() - before < (long)(HUGE_SZ >> 10))
			break;
		chunks++;
	}
	if (chunks == MAX_THP_CHUNKS) {
		fprintf(stderr, "fraghog: node %d still has free 2 MiB blocks\n", node);
		return 1;
	}
	printf("ready %zu %d\n", len / 2 >> 10, chunks);
	fflush(stdout);

	/* 5. Take any 2 MiB block that turns up later. */
	for (;;) {
		if (free_huge_blocks(node) && ++chunks < MAX_THP_CHUNKS) {
			huge[chunks * HUGE_SZ] = 1;
			printf("took one more 2 MiB block\n");
			fflush(stdout);
		}
		usleep(50000);
	}
usage:
	fprintf(stderr, "usage: fraghog -n NODE -m MIB\n");
	return 2;
}
