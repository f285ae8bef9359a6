// SPDX-License-Identifier: GPL-2.0
/*
 * userns-run [-t PID] COMMAND...: run COMMAND as root of a user namespace.
 *
 * Without -t: unshare(CLONE_NEWUSER), deny setgroups, map uid and gid 0 of
 * the new namespace to the caller's ids, then exec COMMAND. With -t PID:
 * setns() into the user namespace of PID instead (allowed to the user that
 * created it), so that COMMAND shares it with PID. COMMAND runs as uid 0
 * of the namespace with every capability (CAP_SYS_NICE, CAP_SYS_PTRACE,
 * ...) in that namespace and none in the initial one: to the rest of the
 * system it is still the caller's unprivileged user.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int write_proc(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, text, strlen(text));
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/* Join the user namespace of @pid. */
static int join(const char *pid)
{
	char path[64];
	int fd, ret;

	snprintf(path, sizeof(path), "/proc/%d/ns/user", atoi(pid));
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		fprintf(stderr, "userns-run: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ret = setns(fd, CLONE_NEWUSER);
	if (ret)
		fprintf(stderr, "userns-run: setns: %s\n", strerror(errno));
	close(fd);
	return ret;
}

/* A new user namespace whose root is the caller. */
static int create(void)
{
	char map[64];
	unsigned int uid = getuid(), gid = getgid();

	if (unshare(CLONE_NEWUSER)) {
		fprintf(stderr, "userns-run: unshare: %s\n", strerror(errno));
		return -1;
	}
	if (write_proc("/proc/self/setgroups", "deny")) {
		fprintf(stderr, "userns-run: setgroups: %s\n", strerror(errno));
		return -1;
	}
	snprintf(map, sizeof(map), "0 %u 1\n", uid);
	if (write_proc("/proc/self/uid_map", map)) {
		fprintf(stderr, "userns-run: uid_map: %s\n", strerror(errno));
		return -1;
	}
	snprintf(map, sizeof(map), "0 %u 1\n", gid);
	if (write_proc("/proc/self/gid_map", map)) {
		fprintf(stderr, "userns-run: gid_map: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *target = NULL;
	int opt;

	while ((opt = getopt(argc, argv, "+t:")) != -1) {
		switch (opt) {
		case 't': target = optarg; break;
		default: goto usage;
		}
	}
	if (optind >= argc)
		goto usage;
	if (target ? join(target) : create())
		return 1;
	execvp(argv[optind], argv + optind);
	fprintf(stderr, "userns-run: exec %s: %s\n", argv[optind], strerror(errno));
	return 127;
usage:
	fprintf(stderr, "usage: userns-run [-t PID] COMMAND...\n");
	return 2;
}
