// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * xattr set PATH NAME VALUE | get PATH NAME | list PATH | remove PATH NAME:
 * extended attributes through the path-based calls (setxattr, getxattr,
 * listxattr, removexattr), without needing the attr package.
 * get prints the value, list one name per line. Errors:
 * "xattr: OP PATH: ENAME (text)", exit 1.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/xattr.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	char buf[65536];
	ssize_t n = 0;
	int r = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: xattr set|get|list|remove PATH [NAME [VALUE]]\n");
		return 64;
	}
	if (!strcmp(argv[1], "set") && argc == 5)
		r = setxattr(argv[2], argv[3], argv[4], strlen(argv[4]), 0);
	else if (!strcmp(argv[1], "get") && argc == 4)
		r = (int)(n = getxattr(argv[2], argv[3], buf, sizeof(buf) - 1));
	else if (!strcmp(argv[1], "list") && argc == 3)
		r = (int)(n = listxattr(argv[2], buf, sizeof(buf)));
	else if (!strcmp(argv[1], "remove") && argc == 4)
		r = removexattr(argv[2], argv[3]);
	else
		return 64;
	if (r < 0) {
		int e = errno;
		const char *en = strerrorname_np(e);

		fprintf(stderr, "xattr: %s %s: %s (%s)\n", argv[1], argv[2],
			en ? en : "E?", strerror(e));
		return 1;
	}
	if (!strcmp(argv[1], "get")) {
		buf[n] = 0;
		printf("%s\n", buf);
	} else if (!strcmp(argv[1], "list")) {
		for (ssize_t i = 0; i < n; i += (ssize_t)strlen(buf + i) + 1)
			printf("%s\n", buf + i);
	}
	return 0;
}
