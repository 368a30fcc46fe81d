/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 17: fileless exec. The program copies a binary it may read but
 * not run (~/work/noexec-prog, the marker) into a memfd and runs that:
 * execveat(memfd, "", AT_EMPTY_PATH), fexecve(3), execve("/proc/self/fd/N")
 * and execve("/dev/fd/N"), with and without MFD_EXEC. Last, a descriptor
 * race: a thread keeps swapping descriptor 100 between ~/bin/prog-A (may
 * run) and the memfd (dup2) while the child calls
 * execveat(100, "", AT_EMPTY_PATH): a supervisor that checks which file
 * descriptor 100 is and then lets the kernel look again runs the memfd.
 * Any run of the memfd's copy is an escape (the marker exits 44).
 */
#include <pthread.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "escape-common.h"

#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

static char *image;
static size_t image_len;
static char *argv_[] = { "memfd-prog", NULL };
static char *envp_[] = { "MARKER_QUIET=1", NULL };

static int make_memfd(unsigned flags)
{
	int fd = (int)syscall(SYS_memfd_create, "escape", flags);

	if (fd < 0)
		return -1;
	if (write(fd, image, image_len) != (ssize_t)image_len) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Run fn in a child; its exit status tells what ran. */
static int run_child(const char *label, int how, int fd)
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		esc_setup_error("fork: %m");
	if (pid == 0) {
		char p[64];

		switch (how) {
		case 0:
			syscall(SYS_execveat, fd, "", argv_, envp_, AT_EMPTY_PATH);
			break;
		case 1:
			fexecve(fd, argv_, envp_);
			break;
		case 2:
			ESC_FMT(p, "/proc/self/fd/%d", fd);
			execve(p, argv_, envp_);
			break;
		default:
			ESC_FMT(p, "/dev/fd/%d", fd);
			execve(p, argv_, envp_);
			break;
		}
		esc_out("[memfd-exec] %s: %s (held)\n", label,
			strerror(errno));
		_exit(77);
	}
	if (waitpid(pid, &st, 0) != pid)
		esc_setup_error("waitpid: %m");
	if (WIFEXITED(st) && (WEXITSTATUS(st) == MARKER_OTHER ||
			      WEXITSTATUS(st) == MARKER_DENIED)) {
		esc_escape("%s: the memfd copy of a non-executable program ran", label);
		return 1;
	}
	return 0;
}

struct swap {
	int a, b;
	atomic_int stop;
};

static void *swapper(void *p)
{
	struct swap *s = p;

	while (!atomic_load(&s->stop)) {
		dup2(s->a, 100);
		for (volatile int i = 0; i < 100; i++)
			;
		dup2(s->b, 100);
		for (volatile int i = 0; i < 100; i++)
			;
	}
	return NULL;
}

int main(void)
{
	static const char *const how[] = { "execveat(memfd, AT_EMPTY_PATH)",
					   "fexecve(memfd)",
					   "execve(/proc/self/fd/N)",
					   "execve(/dev/fd/N)" };
	static const unsigned mflags[] = { 0, MFD_EXEC };
	char src[PATH_MAX], proga[PATH_MAX];
	struct stat st;
	int fd;
	unsigned long tries = 0, allowed = 0, codes[256] = { 0 };
	double end;

	esc_init("memfd-exec", "copy a non-executable program into a memfd and run it");
	ESC_FMT(src, "%s/noexec-prog", esc_work);
	ESC_FMT(proga, "%s/prog-A", esc_bin);
	fd = open(src, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0)
		esc_setup_error("cannot read %s: %m", src);
	image_len = (size_t)st.st_size;
	image = malloc(image_len);
	if (!image || read(fd, image, image_len) != (ssize_t)image_len)
		esc_setup_error("cannot read %s", src);
	close(fd);
	esc_control("read the program to copy (%zu bytes)", image_len);

	for (size_t m = 0; m < 2; m++)
		for (int h = 0; h < 4; h++) {
			char label[128];

			fd = make_memfd(mflags[m]);
			if (fd < 0) {
				esc_say("memfd_create(flags %#x): %m", mflags[m]);
				continue;
			}
			ESC_FMT(label, "%s%s", how[h], mflags[m] ? " with MFD_EXEC" : "");
			run_child(label, h, fd);
			close(fd);
		}

	/* The descriptor race. */
	{
		struct swap s = { 0 };

		s.a = open(proga, O_RDONLY);
		s.b = make_memfd(0);
		if (s.a < 0 || s.b < 0 || dup2(s.a, 100) < 0)
			esc_setup_error("cannot open prog-A or make a memfd: %m");
		end = esc_now() + esc_seconds;
		while (esc_now() < end && !esc_escaped) {
			int wst;
			pid_t pid = fork();

			if (pid < 0)
				esc_setup_error("fork: %m");
			if (pid == 0) {
				pthread_t t;

				if (pthread_create(&t, NULL, swapper, &s))
					_exit(78);
				for (volatile int i = 0; i < 5000; i++)
					;
				syscall(SYS_execveat, 100, "", argv_, envp_, AT_EMPTY_PATH);
				_exit(77);
			}
			tries++;
			waitpid(pid, &wst, 0);
			codes[WIFEXITED(wst) ? WEXITSTATUS(wst) : 255]++;
			if (WIFEXITED(wst) && WEXITSTATUS(wst) == MARKER_ALLOWED)
				allowed++;
			else if (WIFEXITED(wst) && (WEXITSTATUS(wst) == MARKER_OTHER ||
						    WEXITSTATUS(wst) == MARKER_DENIED))
				esc_escape("descriptor race: execveat(100) ran the memfd (attempt %lu)",
					   tries);
		}
		esc_say("descriptor race: %lu attempts, prog-A ran %lu times, refused %lu, other %lu",
			tries, allowed, codes[77], tries - allowed - codes[77]);
		if (allowed)
			esc_control("execveat of a descriptor of prog-A works");
	}
	return esc_finish();
}
