/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 14: go for the supervisor itself. fbac-run is the program's
 * parent (getppid()) and holds the seccomp listener: whoever stops, kills,
 * traces or reads it, or takes its descriptors, owns the sandbox. Tried, in
 * order (the destructive ones last):
 *   kill (signal 0, SIGWINCH, SIGURG, SIGCONT), tgkill, rt_sigqueueinfo,
 *   pidfd_open + pidfd_send_signal, pidfd_getfd of its descriptors 0..15
 *   (the listener is among them), ptrace ATTACH/SEIZE, process_vm_readv,
 *   process_vm_writev, kcmp, /proc/PPID/mem and environ, F_SETOWN so that
 *   SIGIO (which kills by default) goes to it, and kill(SIGKILL).
 * After each destructive step the program checks that it is still alive
 * and that a supervised open is still served.
 */
#include <linux/kcmp.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

#include "escape-common.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

static pid_t sup;

static void sig_result(const char *what, long r)
{
	if (r == 0)
		esc_escape("%s on the supervisor (pid %d) succeeded", what,
			   (int)sup);
	else
		esc_say("%s: %m (held)", what);
}

static void still_served(const char *after)
{
	int fd = open(esc_decoy, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		esc_say("after %s: a supervised open failed: %m", after);
	else {
		esc_control("after %s the supervisor still serves opens", after);
		close(fd);
	}
}

int main(void)
{
	static const int harmless[] = { 0, SIGWINCH, SIGURG, SIGCONT };
	char buf[64], p[64];
	siginfo_t si;
	long r;
	int pidfd;

	esc_init("supervisor", "signal, trace, read or rob the supervisor (fbac-run, our parent)");
	sup = getppid();
	esc_say("the supervisor is pid %d", (int)sup);

	for (size_t i = 0; i < sizeof(harmless) / sizeof(harmless[0]); i++) {
		char what[64];

		ESC_FMT(what, "kill(signal %d)", harmless[i]);
		sig_result(what, kill(sup, harmless[i]));
	}
	sig_result("tgkill(SIGWINCH)", syscall(SYS_tgkill, sup, sup, SIGWINCH));
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGWINCH;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	sig_result("rt_sigqueueinfo(SIGWINCH)",
		   syscall(SYS_rt_sigqueueinfo, sup, SIGWINCH, &si));

	pidfd = (int)syscall(SYS_pidfd_open, sup, 0);
	if (pidfd < 0)
		esc_say("pidfd_open: %m");
	else {
		esc_say("pidfd_open gave fd %d", pidfd);
		sig_result("pidfd_send_signal(SIGWINCH)",
			   syscall(SYS_pidfd_send_signal, pidfd, SIGWINCH, NULL, 0));
		for (int fd = 0; fd < 16; fd++) {
			int got = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
			ssize_t n;

			if (got < 0) {
				if (fd == 0 || errno != EBADF)
					esc_say("pidfd_getfd(%d): %m (held)", fd);
				continue;
			}
			ESC_FMT(p, "/proc/self/fd/%d", got);
			n = readlink(p, buf, sizeof(buf) - 1);
			buf[n > 0 ? n : 0] = 0;
			esc_escape("took the supervisor's descriptor %d (%s)", fd,
				   buf);
			close(got);
		}
	}

	sig_result("ptrace(PTRACE_ATTACH)", ptrace(PTRACE_ATTACH, sup, NULL, NULL));
	sig_result("ptrace(PTRACE_SEIZE)", ptrace(PTRACE_SEIZE, sup, NULL, NULL));
	{
		char local[64];
		struct iovec l = { local, sizeof(local) }, rv = { (void *)&sup, sizeof(local) };

		r = process_vm_readv(sup, &l, 1, &rv, 1, 0);
		if (r >= 0 || errno == EFAULT)
			esc_escape("process_vm_readv of the supervisor passed the permission check (%s)",
				   r >= 0 ? "read" : "EFAULT: only the address was wrong");
		else
			esc_say("process_vm_readv: %m (held)");
		r = process_vm_writev(sup, &l, 1, &rv, 1, 0);
		if (r >= 0 || errno == EFAULT)
			esc_escape("process_vm_writev of the supervisor passed the permission check");
		else
			esc_say("process_vm_writev: %m (held)");
	}
	r = syscall(SYS_kcmp, getpid(), sup, KCMP_FILE, 0, 0);
	if (r >= 0)
		esc_escape("kcmp with the supervisor worked (a ptrace-read right over it)");
	else
		esc_say("kcmp: %m (held)");
	ESC_FMT(p, "/proc/%d/mem", (int)sup);
	esc_try_open("supervisor mem", AT_FDCWD, p, O_RDONLY, false);
	ESC_FMT(p, "/proc/%d/environ", (int)sup);
	esc_try_open("supervisor environ", AT_FDCWD, p, O_RDONLY, false);
	still_served("the harmless attempts");

	/* Destructive: SIGIO by F_SETOWN (terminates by default), SIGKILL. */
	{
		int pfd[2];

		if (pipe(pfd) == 0) {
			if (fcntl(pfd[0], F_SETOWN, sup) == 0 &&
			    fcntl(pfd[0], F_SETFL, O_ASYNC | O_NONBLOCK) == 0) {
				esc_say("F_SETOWN: SIGIO of a pipe goes to the supervisor now; writing");
				(void)!write(pfd[1], "x", 1);
				usleep(200000);
				still_served("SIGIO to the supervisor");
			} else
				esc_say("F_SETOWN: %m");
			close(pfd[0]);
			close(pfd[1]);
		}
	}
	esc_say("kill(SIGKILL) of the supervisor: if the output ends here, it worked");
	sig_result("kill(SIGKILL)", kill(sup, SIGKILL));
	usleep(200000);
	still_served("SIGKILL to the supervisor");
	return esc_finish();
}
