// SPDX-License-Identifier: GPL-2.0
/*
 * failwrite: one write(2) to a file with this task's fault injection
 * armed for that write alone.
 *
 *   failwrite PATH DATA
 *
 * Opens PATH and /proc/self/make-it-fail, writes "1" to make-it-fail,
 * writes DATA to PATH, writes "0" to make-it-fail, then prints "ok BYTES"
 * or "err ERRNO" (the write to PATH failed), "open err ERRNO" or
 * "arm err ERRNO" / "disarm err ERRNO".
 *
 * With a fault attribute's task-filter set (for instance
 * /sys/kernel/debug/fail_page_alloc/task-filter = Y), failures are injected
 * only into tasks whose make-it-fail is 1: here, into what the kernel does
 * in this task's context during the one write, and into nothing else (not
 * the exec, the page faults of starting up, or printing the result, which
 * would fail in ways that have nothing to do with the file written). Only
 * stack variables and pages touched before arming are used while armed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "errname.h"

int main(int argc, char **argv)
{
	char on = '1', off = '0';
	int fd, knob, err = 0;
	size_t len;
	ssize_t n;

	if (argc != 3) {
		fprintf(stderr, "usage: failwrite PATH DATA\n");
		return 2;
	}
	len = strlen(argv[2]);
	fd = open(argv[1], O_WRONLY);
	knob = open("/proc/self/make-it-fail", O_WRONLY);
	if (fd < 0 || knob < 0) {
		printf("open err %s\n", errname(errno));
		return 1;
	}
	/* Both bytes are read by the kernel from this frame: already mapped. */
	if (write(knob, &on, 1) != 1) {
		printf("arm err %s\n", errname(errno));
		return 1;
	}
	n = write(fd, argv[2], len);
	if (n < 0)
		err = errno;
	if (write(knob, &off, 1) != 1) {
		printf("disarm err %s\n", errname(errno));
		return 1;
	}
	if (n < 0) {
		printf("err %s\n", errname(err));
		return 1;
	}
	printf("ok %zd\n", n);
	return 0;
}
