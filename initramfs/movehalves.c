// SPDX-License-Identifier: GPL-2.0
/*
 * movehalves PID NODE THREADS: move every page PID maps to NODE with
 * move_pages(2), from THREADS threads at once, each on an equal share of
 * the pages: the fastest way a user can move one process by hand, the
 * bench's peer of a vacate whose workers share one process. The pages are
 * every 4 KiB page of each range of /proc/PID/maps but [vsyscall] and
 * [vvar...], split into THREADS contiguous slices, each moved in calls of
 * at most CHUNK pages (MPOL_MF_MOVE_ALL, as migratepages(8) for root).
 * Prints "ok N" (N: pages that are on NODE after the calls) or "err ERRNO"
 * and exits 1 when a call fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <threads.h>
#include <unistd.h>

#include "errname.h"

#define MPOL_MF_MOVE_ALL (1 << 2)
#define PAGE 4096UL
#define CHUNK 16384UL
#define MAX_THREADS 64

struct slice {
	int pid;
	void **pages;
	int *nodes;
	int *status;
	unsigned long n;
	int err;
};

static int fail(int err)
{
	printf("err %s\n", errname(err));
	return 1;
}

/* Every page address of PID's mapped ranges into *@pages; their count. */
static unsigned long page_list(const char *pid, void ***pages)
{
	unsigned long start, end, n = 0, cap = 0;
	char path[64], line[512], name[256];
	void **list = NULL;
	FILE *maps;

	snprintf(path, sizeof(path), "/proc/%s/maps", pid);
	maps = fopen(path, "r");
	if (!maps)
		return 0;
	while (fgets(line, sizeof(line), maps)) {
		name[0] = 0;
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %255s", &start, &end, name) < 2)
			continue;
		if (!strcmp(name, "[vsyscall]") || !strncmp(name, "[vvar", 5))
			continue;
		for (; start < end; start += PAGE) {
			if (n == cap) {
				cap = cap ? 2 * cap : 4096;
				list = realloc(list, cap * sizeof(*list));
				if (!list)
					exit(fail(ENOMEM));
			}
			list[n++] = (void *)start;
		}
	}
	fclose(maps);
	*pages = list;
	return n;
}

static int move_slice(void *arg)
{
	struct slice *s = arg;
	unsigned long i, c;

	for (i = 0; i < s->n; i += c) {
		c = s->n - i < CHUNK ? s->n - i : CHUNK;
		if (syscall(SYS_move_pages, s->pid, c, s->pages + i, s->nodes + i,
			    s->status + i, MPOL_MF_MOVE_ALL) < 0) {
			s->err = errno;
			break;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct slice slices[MAX_THREADS];
	thrd_t threads[MAX_THREADS];
	unsigned long n, i, per, moved = 0;
	int pid, node, nthreads, t, err = 0;
	int *nodes, *status;
	void **pages;

	if (argc != 4 || (nthreads = atoi(argv[3])) < 1 || nthreads > MAX_THREADS) {
		fprintf(stderr, "usage: movehalves PID NODE THREADS (1-%d)\n", MAX_THREADS);
		return 2;
	}
	pid = atoi(argv[1]);
	node = atoi(argv[2]);
	n = page_list(argv[1], &pages);
	if (!n)
		return fail(errno ? errno : ESRCH);
	nodes = malloc(n * sizeof(*nodes));
	status = malloc(n * sizeof(*status));
	if (!nodes || !status)
		return fail(ENOMEM);
	for (i = 0; i < n; i++)
		nodes[i] = node;

	per = (n + nthreads - 1) / nthreads;
	for (t = 0; t < nthreads; t++) {
		unsigned long first = t * per < n ? t * per : n;
		unsigned long last = first + per < n ? first + per : n;

		slices[t] = (struct slice){ pid, pages + first, nodes + first,
					    status + first, last - first, 0 };
		if (thrd_create(&threads[t], move_slice, &slices[t]) != thrd_success)
			return fail(EAGAIN);
	}
	for (t = 0; t < nthreads; t++) {
		thrd_join(threads[t], NULL);
		if (slices[t].err && !err)
			err = slices[t].err;
	}
	if (err)
		return fail(err);
	for (i = 0; i < n; i++)
		moved += status[i] == node;
	printf("ok %lu\n", moved);
	return 0;
}
