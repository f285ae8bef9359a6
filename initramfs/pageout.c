// SPDX-License-Identifier: GPL-2.0
/*
 * pageout PID: evict PID's pages with process_madvise(MADV_PAGEOUT), the
 * kernel's own way to push another process's memory to swap (the bench's
 * peer of "FROM TO swap" in /proc/PID/migrate). One call per mapped range
 * of /proc/PID/maps, except [vsyscall] and [vvar...], which are no VMA or
 * a PFN mapping that MADV_PAGEOUT refuses. Prints "ok BYTES" (the bytes
 * advised) or "err ERRNO" and exits 1 on the first failure.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "errname.h"

#ifndef MADV_PAGEOUT
#define MADV_PAGEOUT 21
#endif

static int fail(int err)
{
	printf("err %s\n", errname(err));
	return 1;
}

int main(int argc, char **argv)
{
	unsigned long start, end;
	long long total = 0;
	char path[64], line[512], name[256];
	FILE *maps;
	int pidfd;

	if (argc != 2) {
		fprintf(stderr, "usage: pageout PID\n");
		return 2;
	}
	pidfd = syscall(SYS_pidfd_open, atoi(argv[1]), 0);
	if (pidfd < 0)
		return fail(errno);
	snprintf(path, sizeof(path), "/proc/%s/maps", argv[1]);
	maps = fopen(path, "r");
	if (!maps)
		return fail(errno);
	while (fgets(line, sizeof(line), maps)) {
		struct iovec iov;
		ssize_t n;

		name[0] = 0;
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %255s", &start, &end, name) < 2)
			continue;
		if (!strcmp(name, "[vsyscall]") || !strncmp(name, "[vvar", 5))
			continue;
		iov.iov_base = (void *)start;
		iov.iov_len = end - start;
		n = syscall(SYS_process_madvise, pidfd, &iov, 1, MADV_PAGEOUT, 0);
		if (n < 0)
			return fail(errno);
		total += n;
	}
	fclose(maps);
	printf("ok %lld\n", total);
	return 0;
}
