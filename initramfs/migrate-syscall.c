// SPDX-License-Identifier: GPL-2.0
/*
 * migrate-syscall PID FROM TO: call migrate_pages(2) with node lists such
 * as "0", "0,1" or "2-3". Prints "ok RESULT" or "err ERRNO".
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "errname.h"

#define MAX_NODES 1024
#define LONG_BITS (8 * sizeof(unsigned long))

static int parse_nodes(const char *s, unsigned long *mask)
{
	char *end;

	while (*s) {
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (a < 0 || b < a || b >= MAX_NODES)
			return -1;
		for (; a <= b; a++)
			mask[a / LONG_BITS] |= 1UL << (a % LONG_BITS);
		if (*end == ',')
			end++;
		else if (*end)
			return -1;
		s = end;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned long from[MAX_NODES / LONG_BITS], to[MAX_NODES / LONG_BITS];
	long ret;

	if (argc != 4 || parse_nodes(argv[2], from) || parse_nodes(argv[3], to)) {
		fprintf(stderr, "usage: migrate-syscall PID FROM TO\n");
		return 2;
	}
	ret = syscall(SYS_migrate_pages, atoi(argv[1]), MAX_NODES, from, to);
	if (ret < 0) {
		printf("err %s\n", errname(errno));
		return 1;
	}
	printf("ok %ld\n", ret);
	return 0;
}
