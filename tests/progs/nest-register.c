/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A nested fbac-run's registration (src/fbac-run/nest-abi.h), made wrong
 * on purpose: the ioctl on a memfd that is not sealed, one beyond the
 * size limit, one that holds no stack, and DONE without a registration;
 * and the request on a device (/dev/null), which is the kernel's to answer.
 * Prints one line per case, "CASE ERRNO-NAME" ("0" when it succeeded).
 * Natively (no fbac supervisor above) each answers ENOTTY: the memfd's
 * own answer, on which a nested fbac-run falls back.
 * usage: nest-register unsealed|big|garbage|done|empty|device...
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

/* As in src/fbac-run/nest-abi.h and lib/fbac-limits.h. */
#define FBAC_IOC_NEST_REGISTER _IO(0xfb, 0x01)
#define FBAC_IOC_NEST_DONE _IO(0xfb, 0x02)
#define MAX_STACK (16 * 1024 * 1024)
#define SEALS (F_SEAL_WRITE | F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)

static const char *name(int e)
{
	switch (e) {
	case 0:
		return "0";
	case ENOTTY:
		return "ENOTTY";
	case EPERM:
		return "EPERM";
	case EFBIG:
		return "EFBIG";
	case EBADMSG:
		return "EBADMSG";
	case ENOENT:
		return "ENOENT";
	default:
		return strerror(e);
	}
}

static int memfd(const char *text, off_t size, unsigned seals)
{
	int fd = memfd_create("nest-register", MFD_CLOEXEC | MFD_ALLOW_SEALING);

	if (fd < 0) {
		perror("memfd_create");
		exit(2);
	}
	if ((text && write(fd, text, strlen(text)) != (ssize_t)strlen(text)) ||
	    (size && ftruncate(fd, size) < 0) ||
	    (seals && fcntl(fd, F_ADD_SEALS, seals) < 0)) {
		perror("memfd");
		exit(2);
	}
	return fd;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		const char *c = argv[i];
		int fd, e;

		if (!strcmp(c, "unsealed"))
			fd = memfd("not sealed", 0, 0);
		else if (!strcmp(c, "big"))
			fd = memfd(NULL, MAX_STACK + 1, SEALS);
		else if (!strcmp(c, "garbage"))
			fd = memfd("FBAC this is no stack at all", 0, SEALS);
		else if (!strcmp(c, "empty") || !strcmp(c, "done"))
			fd = memfd(NULL, 0, SEALS);
		else if (!strcmp(c, "device"))
			fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
		else {
			fprintf(stderr, "unknown case '%s'\n", c);
			return 2;
		}
		if (fd < 0) {
			perror(c);
			return 2;
		}
		e = ioctl(fd,
			  strcmp(c, "done") ? FBAC_IOC_NEST_REGISTER :
					      FBAC_IOC_NEST_DONE,
			  0) < 0 ?
			    errno :
			    0;
		printf("%s %s\n", c, name(e));
		close(fd);
	}
	return 0;
}
