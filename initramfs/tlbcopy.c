// SPDX-License-Identifier: GPL-2.0
/*
 * tlbcopy: time page copies between two buffers whose virtual addresses
 * are SKEW pages apart modulo 16 MiB. QEMU's TCG looks a guest address up
 * in a soft TLB that is direct-mapped by virtual page number (its size a
 * power of two, at most 4096 entries here): with SKEW 0 each source page
 * and its destination share an index and evict each other on every
 * access; with SKEW 1 they never do. A THP copy in the kernel is SKEW 0:
 * source and destination are both 2 MiB aligned (docs/performance.md).
 *
 * tlbcopy [-m MIB] [-r ROUNDS] [-c movsb|movsq|loop] SKEW...
 * copies MIB (default 64) page by page with rep movsb (6.12's copy under
 * ERMS), rep movsq (6.1's copy_page) or a loop of 8-byte moves (memcpy
 * without ERMS), and prints "skew SKEW: N ms" for each SKEW, the best of
 * ROUNDS (default 3).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>

#define PAGE 4096UL
#define ALIGN (16UL << 20)

static void copy_movsb(void *dst, const void *src)
{
	size_t n = PAGE;

	__asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static void copy_movsq(void *dst, const void *src)
{
	size_t n = PAGE / 8;

	__asm__ volatile("rep movsq" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static void copy_loop(void *dst, const void *src)
{
	volatile uint64_t *d = dst;
	const volatile uint64_t *s = src;

	for (size_t i = 0; i < PAGE / 8; i += 4) {
		uint64_t a = s[i], b = s[i + 1], c = s[i + 2], e = s[i + 3];

		d[i] = a;
		d[i + 1] = b;
		d[i + 2] = c;
		d[i + 3] = e;
	}
}

/* A buffer of len bytes starting skew pages past a 16 MiB boundary. */
static char *aligned_buffer(size_t len, size_t skew)
{
	size_t map = len + ALIGN + skew * PAGE;
	char *p = mmap(NULL, map, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (p == MAP_FAILED) {
		perror("mmap");
		exit(1);
	}
	p = (char *)(((uintptr_t)p + ALIGN - 1) & ~(ALIGN - 1));
	return p + skew * PAGE;
}

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	void (*copy)(void *, const void *) = copy_movsb;
	size_t mib = 64, rounds = 3;
	int opt;

	while ((opt = getopt(argc, argv, "m:r:c:")) != -1) {
		switch (opt) {
		case 'm':
			mib = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			rounds = strtoul(optarg, NULL, 0);
			break;
		case 'c':
			if (!strcmp(optarg, "movsq"))
				copy = copy_movsq;
			else if (!strcmp(optarg, "loop"))
				copy = copy_loop;
			else if (strcmp(optarg, "movsb"))
				goto usage;
			break;
		default:
			goto usage;
		}
	}
	if (optind == argc || !mib || !rounds)
		goto usage;

	size_t len = mib << 20;
	char *src = aligned_buffer(len, 0);

	memset(src, 0x5a, len);
	for (int a = optind; a < argc; a++) {
		size_t skew = strtoul(argv[a], NULL, 0);
		char *dst = aligned_buffer(len, skew);
		double best = 0;

		for (size_t r = 0; r < rounds; r++) {
			double t = now_ms();

			for (size_t off = 0; off < len; off += PAGE)
				copy(dst + off, src + off);
			t = now_ms() - t;
			if (!r || t < best)
				best = t;
		}
		if (memcmp(dst, src, len)) {
			fprintf(stderr, "tlbcopy: copy differs\n");
			return 1;
		}
		printf("skew %zu: %.0f ms\n", skew, best);
	}
	return 0;
usage:
	fprintf(stderr, "usage: tlbcopy [-m MIB] [-r ROUNDS] [-c movsb|movsq|loop] SKEW...\n");
	return 2;
}
