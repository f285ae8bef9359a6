// SPDX-License-Identifier: GPL-2.0
/*
 * capdrop CAP COMMAND...: drop capability number CAP from the bounding,
 * ambient, effective, permitted and inheritable sets, then exec COMMAND
 * (still as root, with every other capability): "root without CAP".
 * capdrop -only CAP COMMAND...: drop every capability but CAP instead:
 * "root with CAP alone".
 * No libcap: prctl(PR_CAPBSET_DROP) and the raw capget/capset syscalls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	unsigned int word, bit, i;
	int only = argc > 1 && !strcmp(argv[1], "-only");
	char *end;
	long cap, c;

	argv += only;
	argc -= only;
	if (argc < 3) {
		fprintf(stderr, "usage: capdrop [-only] CAP COMMAND...\n");
		return 2;
	}
	cap = strtol(argv[1], &end, 10);
	if (*end || cap < 0 || cap > CAP_LAST_CAP) {
		fprintf(stderr, "capdrop: bad capability %s\n", argv[1]);
		return 2;
	}
	word = cap / 32;
	bit = 1U << (cap % 32);

	/*
	 * The bounding set first: it needs CAP_SETPCAP, which stays in the
	 * effective set until capset() below.
	 */
	for (c = 0; c <= CAP_LAST_CAP; c++) {
		if ((c == cap) == only)
			continue;
		if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0)) {
			fprintf(stderr, "capdrop: prctl: %s\n", strerror(errno));
			return 1;
		}
	}
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)) {
		fprintf(stderr, "capdrop: prctl: %s\n", strerror(errno));
		return 1;
	}
	if (syscall(SYS_capget, &hdr, data)) {
		fprintf(stderr, "capdrop: capget: %s\n", strerror(errno));
		return 1;
	}
	for (i = 0; i < _LINUX_CAPABILITY_U32S_3; i++) {
		__u32 keep = only ? (i == word ? bit : 0) : ~(i == word ? bit : 0);

		data[i].effective &= keep;
		data[i].permitted &= keep;
		data[i].inheritable &= keep;
	}
	if (syscall(SYS_capset, &hdr, data)) {
		fprintf(stderr, "capdrop: capset: %s\n", strerror(errno));
		return 1;
	}
	execvp(argv[2], argv + 2);
	fprintf(stderr, "capdrop: exec %s: %s\n", argv[2], strerror(errno));
	return 127;
}
