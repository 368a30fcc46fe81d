/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 24: a signal storm during supervised calls. An interrupted
 * notification is a path supervisors get wrong: the call is cancelled and
 * restarted, a reply to it fails with ENOENT, and a supervisor that treats
 * that as "allow" or "give up" opens a hole or hangs. Two threads open the
 * decoy and the secret (open, stat, openat2) in a loop while another thread
 * sends them thousands of signals (SIGUSR1 without SA_RESTART, SIGUSR2 with
 * it, SIGCHLD from exiting children). Nothing denied may succeed, the
 * allowed opens must keep being served, and nothing may hang: a watchdog
 * calls a stall of 3 seconds a successful attack (on availability).
 */
#include <signal.h>
#include <pthread.h>
#include <sys/wait.h>

#include "escape-common.h"

static atomic_int stop;
static atomic_ulong progress, eintr, decoys, sigs;
static pid_t tids[2];

static void on_sig(int s)
{
	(void)s;
	atomic_fetch_add(&sigs, 1);
}

static void *opener(void *p)
{
	int idx = (int)(long)p;

	tids[idx] = (pid_t)syscall(SYS_gettid);
	while (!atomic_load(&stop)) {
		char buf[512];
		struct stat st;
		ssize_t n;
		int fd;

		fd = open(esc_secret, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			n = read(fd, buf, sizeof(buf));
			if (esc_is_stolen(buf, n))
				esc_leak("open during the storm", buf, n);
			close(fd);
		} else if (errno == EINTR)
			atomic_fetch_add(&eintr, 1);
		if (stat(esc_secret, &st) == 0)
			esc_escape("stat of the secret worked during the storm");
		fd = open(esc_decoy, O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			atomic_fetch_add(&decoys, 1);
			close(fd);
		} else if (errno == EINTR)
			atomic_fetch_add(&eintr, 1);
		atomic_fetch_add(&progress, 1);
	}
	return NULL;
}

static void *storm(void *p)
{
	unsigned long n = 0;

	(void)p;
	while (!atomic_load(&stop)) {
		for (int i = 0; i < 2; i++)
			if (tids[i])
				syscall(SYS_tgkill, getpid(), tids[i],
					(n & 1) ? SIGUSR1 : SIGUSR2);
		if (++n % 64 == 0) {
			pid_t c = fork();

			if (c == 0)
				_exit(0);
		}
		for (volatile int i = 0; i < 200; i++)
			;
	}
	return NULL;
}

int main(void)
{
	struct sigaction sa = { 0 };
	pthread_t o[2], s;
	double end, last_t;
	unsigned long last;

	esc_init("signal-storm", "thousands of signals while threads open the decoy and the secret");
	sa.sa_handler = on_sig;
	sigaction(SIGUSR1, &sa, NULL); /* no SA_RESTART */
	sa.sa_flags = SA_RESTART;
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGCHLD, &sa, NULL);

	for (long i = 0; i < 2; i++)
		if (pthread_create(&o[i], NULL, opener, (void *)i))
			esc_setup_error("pthread_create failed");
	if (pthread_create(&s, NULL, storm, NULL))
		esc_setup_error("pthread_create failed");
	end = esc_now() + esc_seconds;
	last = 0;
	last_t = esc_now();
	while (esc_now() < end) {
		unsigned long p;

		usleep(20000);
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		p = atomic_load(&progress);
		if (p != last) {
			last = p;
			last_t = esc_now();
		} else if (esc_now() - last_t > 3) {
			esc_escape("no supervised call finished for 3 seconds: the sandbox hangs");
			esc_out("ATTACK %s END: escaped (hang)\n", esc_name);
			_exit(0);
		}
	}
	atomic_store(&stop, 1);
	/* Joining could hang too: the watchdog keeps watching. */
	last_t = esc_now();
	for (int i = 0; i < 2; i++)
		pthread_join(o[i], NULL);
	pthread_join(s, NULL);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	esc_say("%lu rounds, %lu decoy opens served, %lu EINTR, %lu signals handled",
		(unsigned long)atomic_load(&progress), (unsigned long)atomic_load(&decoys),
		(unsigned long)atomic_load(&eintr), (unsigned long)atomic_load(&sigs));
	if (atomic_load(&decoys) && atomic_load(&sigs) > 1000)
		esc_control("allowed opens were served through %lu signals",
			    (unsigned long)atomic_load(&sigs));
	return esc_finish();
}
