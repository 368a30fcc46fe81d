/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 8: non-canonical spellings of the secret's path. A policy matched
 * on strings is beaten by //, /./, trailing slashes, ".." climbs out of an
 * allowed directory, relative paths from an allowed cwd, a directory
 * descriptor of ~/.ssh opened with a trailing slash, paths just under and
 * over PATH_MAX, and a name that runs into an unmapped page (no NUL). Each
 * is tried with open (read, and write-append), stat and access.
 */
#include <sys/mman.h>

#include "escape-common.h"

static char spell[32][PATH_MAX + 64];
static int nspell;

static void add(const char *a, const char *b, const char *c)
{
	if (nspell < 32)
		ESC_FMT(spell[nspell++], "%s%s%s", a, b, c);
}

int main(void)
{
	struct stat st;
	char *longp;
	int fd;

	esc_init("noncanonical", "odd spellings of ~/.ssh/id_rsa: //, /./, trailing /, .. climbs, relative, long and unterminated names");
	if (chdir(esc_work) < 0)
		esc_setup_error("chdir %s: %m", esc_work);
	esc_control("chdir into the work directory");

	add("/", esc_home, "///.ssh/./id_rsa");
	add("//", esc_home, "//.ssh//id_rsa");
	add(esc_home, "/.ssh/./id_rsa", "");
	add(esc_home, "/./.ssh/id_rsa", "");
	add(esc_home, "/.ssh/id_rsa/", "");
	add(esc_home, "/.ssh/id_rsa/.", "");
	add(esc_home, "/work/../.ssh/id_rsa", "");
	add(esc_home, "/work/.a/.ssh/../../../.ssh/id_rsa", "");
	add(esc_home, "/work/.a/../.a/.ssh/../../.././.ssh//id_rsa", "");
	add("/./", esc_home, "/.ssh/id_rsa");
	add("/../../..", esc_home, "/.ssh/id_rsa");
	add("../.ssh/id_rsa", "", "");
	add("./../.ssh/./id_rsa", "", "");
	add("../work/../.ssh/id_rsa", "", "");
	add(".a/.ssh/../../../.ssh/id_rsa", "", "");
	add("..//.ssh//id_rsa", "", "");
	add("../.ssh/../.ssh/id_rsa", "", "");

	for (int i = 0; i < nspell; i++) {
		esc_try_open("spelling", AT_FDCWD, spell[i], O_RDONLY, false);
		fd = open(spell[i], O_WRONLY | O_APPEND | O_CLOEXEC);
		if (fd >= 0) {
			esc_escape("opened '%s' for writing", spell[i]);
			close(fd);
		}
		if (stat(spell[i], &st) == 0)
			esc_escape("stat '%s' worked (inode %lu): the secret's metadata",
				   spell[i], (unsigned long)st.st_ino);
		if (access(spell[i], R_OK) == 0)
			esc_escape("access '%s' said readable", spell[i]);
	}

	/* The directory itself, with a trailing slash, then relative opens. */
	{
		static const char *const dirs[] = { "../.ssh/", "../.ssh/.", "../.ssh//" };
		static const int flags[] = { O_RDONLY | O_DIRECTORY, O_PATH | O_DIRECTORY,
					     O_PATH };

		for (size_t i = 0; i < 3; i++) {
			fd = open(dirs[i], flags[i] | O_CLOEXEC);
			if (fd < 0) {
				esc_say("open '%s' as a directory: %m (held)", dirs[i]);
				continue;
			}
			esc_escape("opened the protected directory '%s' (fd %d)", dirs[i], fd);
			esc_try_open("relative to a ~/.ssh descriptor", fd, "id_rsa",
				     O_RDONLY, false);
			close(fd);
		}
	}

	/* Long names: just under PATH_MAX, and over it. */
	longp = malloc(PATH_MAX * 2);
	if (!longp)
		esc_setup_error("out of memory");
	for (size_t len = PATH_MAX - 16; len < PATH_MAX + 64; len += 40) {
		size_t o = 0;

		while (o + 2 + 15 < len) {
			memcpy(longp + o, "./", 2);
			o += 2;
		}
		memcpy(longp + o, "../.ssh/id_rsa", 15);
		fd = open(longp, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			char buf[256];
			ssize_t n = read(fd, buf, sizeof(buf));

			close(fd);
			if (esc_is_stolen(buf, n))
				esc_leak("long name", buf, n);
		} else
			esc_say("a %zu-byte name: %m (held)", strlen(longp));
	}
	free(longp);

	/* A name without NUL that runs into an unmapped page. */
	{
		long pg = sysconf(_SC_PAGESIZE);
		char *m = mmap(NULL, (size_t)pg * 2, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		const char *rel = "../.ssh/id_rsa";
		size_t rl = strlen(rel);

		if (m == MAP_FAILED || munmap(m + pg, (size_t)pg) < 0)
			esc_setup_error("mmap: %m");
		memcpy(m + pg - rl, rel, rl); /* no NUL: the next page is gone */
		fd = open(m + pg - rl, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			esc_escape("an unterminated name was opened");
			esc_try_open("unterminated", AT_FDCWD, "/proc/self/fd/0",
				     O_RDONLY, true);
			close(fd);
		} else
			esc_say("an unterminated name: %m (held)");
	}
	return esc_finish();
}
