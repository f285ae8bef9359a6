// SPDX-License-Identifier: GPL-2.0
/*
 * runas UID GID COMMAND...: drop every id (real, effective, saved) and all
 * supplementary groups, so no capability survives, then exec COMMAND.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	uid_t uid;
	gid_t gid;

	if (argc < 4) {
		fprintf(stderr, "usage: runas UID GID COMMAND...\n");
		return 2;
	}
	uid = atoi(argv[1]);
	gid = atoi(argv[2]);
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid)) {
		perror("runas");
		return 1;
	}
	execvp(argv[3], argv + 3);
	perror("runas: exec");
	return 127;
}
