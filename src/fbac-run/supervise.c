/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The notification loop, the supervisor's top layer: the receivers,
 * dispatch to the handlers (sup-handlers.h), the supervised signals and
 * reaping. Errors of the supervisor itself fail the call, never allow
 * it. Nothing below calls back up here (tests/lint-graph).
 */
#include <errno.h>
#include <linux/audit.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/ioctl.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "call.h"
#include "jobs.h"
#include "output.h"
#include "sup-handlers.h"
#include "target.h"

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23
#endif
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

/* ---- the loop ---- */

/* Each call to its handler, which finishes it (the rule in call.h). */
static void dispatch_call(struct call *c)
{
#ifdef __x86_64__
	/* The filter kills other architectures; refuse anything odd anyway. */
	if (c->req->data.arch != AUDIT_ARCH_X86_64 || (c->nr & 0x40000000)) {
		call_respond(c, 0, -ENOSYS);
		return;
	}
#endif
	switch (c->nr) {
	case SYS_connect:
	case SYS_bind:
	case SYS_listen:
		handle_net(c);
		return;
	case SYS_sendto:
	case SYS_sendmsg:
	case SYS_sendmmsg:
		handle_send(c);
		return;
	default:
		if (handle_open(c) || handle_meta(c) || handle_entry(c) ||
		    handle_attr(c) || handle_refused(c) ||
		    handle_ftruncate(c) || handle_signal(c) || handle_exec(c) ||
		    handle_file(c) || handle_nest(c))
			return;
		/* A notified syscall without a handler is refused. */
		call_respond(c, 0, -ENOSYS);
	}
}

static void dispatch(struct sup *s, struct seccomp_notif *req)
{
	struct call c = { .s = s, .req = req, .tid = (pid_t)req->pid,
			  .nr = req->data.nr };

	dispatch_call(&c);
	call_check_finished(&c);
}

void supervised_signals(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
	sigaddset(set, SIGUSR1);
	sigaddset(set, SIGUSR2);
	sigaddset(set, SIGCHLD);
}

static void forward_signal(pid_t child, const struct signalfd_siginfo *si)
{
	kill(child, (int)si->ssi_signo);
}

/*
 * The receive loop runs on a thread of its own that does nothing but
 * receive and dispatch: no poll, no reaping between two notifications.
 * The main thread forwards signals, reaps, and notices the hang-up.
 */
#define MAX_RECEIVERS 4

struct supervisor {
	struct sup *s;
	size_t size;
	volatile int stop;
	int err;
	int efd; /* written when the receiver gives up: wakes the main loop */
	int sfd; /* the supervised signals */
	/* The receivers, started one by one (add_receiver); they wait on
	 * ready until the listener is ours (supervise()). */
	pthread_mutex_t lock;
	pthread_cond_t ready;
	bool listening;
	pthread_t threads[MAX_RECEIVERS];
	/* Each receiver's request buffer, allocated by the thread that
	 * starts it: a first malloc on a thread of its own would make the C
	 * library map a whole arena for it (128 MiB reserved, trimmed). */
	struct receiver_slot {
		struct supervisor *rc;
		struct seccomp_notif *req;
	} slots[MAX_RECEIVERS];
	size_t n_threads, want;
};

static void wake_receiver(int sig)
{
	(void)sig; /* only interrupts the receive ioctl */
}

#define WAKE_SIGNAL SIGURG

/* Whether no process uses the filter any more (RECV then fails at once). */
static bool hung_up(int listener)
{
	struct pollfd p = { listener, 0, 0 };

	return poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR));
}

/*
 * Receivers wait side by side: while one decides, the next call is taken
 * at once, by another CPU where there is one. This also narrows the time
 * a call waits unreceived, when a signal still interrupts it. But every
 * waiting receiver is woken for each call (the kernel's wait queue is not
 * exclusive), which costs a single-threaded program 15-20% a call: so
 * there is one receiver until a call has had to wait for it.
 */
static size_t receivers_wanted(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_RECEIVERS ? MAX_RECEIVERS : (size_t)n;
}

static void *receive_loop(void *p);

/*
 * The receiver's stack made before the program's first call, while it
 * sets itself up: its handlers keep several path buffers each, and every
 * page of stack first touched during a call faulted while the program
 * waited (5-7 us a fault on this kind of VM: the program's exec, its
 * first call, took 150 us instead of 85). 64 KiB are made in ~25 us;
 * more cost more than they saved. Best effort (MADV_POPULATE_WRITE:
 * Linux 5.14).
 */
#define PREFAULT_STACK (64 * 1024)

static void prefault_stack(void)
{
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0) & ~(uintptr_t)4095;
	pthread_attr_t attr;
	void *base;
	size_t size;

	if (pthread_getattr_np(pthread_self(), &attr))
		return;
	/* The pages below this frame, within the thread's stack. */
	if (!pthread_attr_getstack(&attr, &base, &size) &&
	    sp - (uintptr_t)base > PREFAULT_STACK + 4096)
		(void)madvise((void *)(sp - PREFAULT_STACK), PREFAULT_STACK,
			      MADV_POPULATE_WRITE);
	pthread_attr_destroy(&attr);
}

/* Start one more receiver, up to the number wanted. Return: 0 or an
 * error number (pthread_create's). */
static int add_receiver(struct supervisor *rc)
{
	int r = 0;

	pthread_mutex_lock(&rc->lock);
	if (!rc->stop && rc->n_threads < rc->want) {
		struct receiver_slot *slot = &rc->slots[rc->n_threads];

		slot->rc = rc;
		slot->req = calloc(1, rc->size);
		r = slot->req ? pthread_create(&rc->threads[rc->n_threads],
					       NULL, receive_loop, slot) :
				ENOMEM;
		if (!r)
			__atomic_store_n(&rc->n_threads, rc->n_threads + 1,
					 __ATOMIC_RELEASE);
		else
			free(slot->req), slot->req = NULL;
	}
	pthread_mutex_unlock(&rc->lock);
	return r;
}

/* Whether a call is waiting that no receiver has taken yet. */
static bool call_waiting(int listener)
{
	struct pollfd p = { listener, POLLIN, 0 };

	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

static void *receive_loop(void *p)
{
	struct receiver_slot *slot = p;
	struct supervisor *rc = slot->rc;
	struct seccomp_notif *req = slot->req;
	sigset_t wake;

	sigemptyset(&wake);
	sigaddset(&wake, WAKE_SIGNAL);
	pthread_sigmask(SIG_UNBLOCK, &wake, NULL);
	target_cache_pidfds();
	prefault_stack();
	/* Started while the program sets itself up: wait for its listener. */
	pthread_mutex_lock(&rc->lock);
	while (!rc->listening && !rc->stop)
		pthread_cond_wait(&rc->ready, &rc->lock);
	pthread_mutex_unlock(&rc->lock);
	while (!rc->stop) {
		memset(req, 0, rc->size);
		if (ioctl(rc->s->listener, SECCOMP_IOCTL_NOTIF_RECV, req) == 0) {
			unsigned long n = __atomic_fetch_add(
				&rc->s->notifications, 1, __ATOMIC_RELAXED);

			/* Another call already waiting as we take this one:
			 * two callers wait at once, and another receiver pays
			 * for itself. (Not after we answer: the caller we
			 * woke calls again at once.) Asked every 16th call. */
			if (!(n & 15) &&
			    __atomic_load_n(&rc->n_threads, __ATOMIC_ACQUIRE) <
				    rc->want &&
			    call_waiting(rc->s->listener))
				(void)add_receiver(rc);
			dispatch(rc->s, req);
		}
		else if (errno == ENOENT && hung_up(rc->s->listener))
			return NULL; /* no process left: nothing will come */
		else if (errno != EINTR && errno != ENOENT) {
			rc->err = log_error(-errno,
					    "cannot receive a notification: %m");
			(void)eventfd_write(rc->efd, 1);
			return NULL;
		}
	}
	return NULL;
}

/* Reap the program, and orphans reparented to us (we are a subreaper),
 * without taking the program's status by mistake. */
static void reap(pid_t child, int *status, bool *child_done)
{
	for (;;) {
		siginfo_t si = { 0 };

		if (waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 ||
		    si.si_pid == 0)
			return;
		if (si.si_pid == child) {
			if (waitpid(child, status, 0) == child)
				*child_done = true;
			return;
		}
		waitpid(si.si_pid, NULL, 0);
	}
}

int supervise_begin(struct sup *s, struct supervisor **out)
{
	struct seccomp_notif_sizes sizes;
	struct sigaction sa = { .sa_handler = wake_receiver };
	struct supervisor *rc;
	sigset_t mask, wake;
	int r;

	*out = NULL;
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0)
		return log_error(-errno, "cannot get the notification sizes: %m");
	rc = calloc(1, sizeof(*rc));
	if (!rc)
		return log_error(-ENOMEM, "out of memory");
	*rc = (struct supervisor){ .s = s, .efd = -1, .sfd = -1,
				   .want = receivers_wanted() };
	pthread_mutex_init(&rc->lock, NULL);
	pthread_cond_init(&rc->ready, NULL);
	*out = rc;
	rc->size = sizes.seccomp_notif > sizeof(struct seccomp_notif) ?
			   sizes.seccomp_notif :
			   sizeof(struct seccomp_notif);
	supervised_signals(&mask);
	rc->sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (rc->sfd < 0)
		return log_error(-errno, "cannot create a signalfd: %m");
	rc->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (rc->efd < 0)
		return log_error(-errno, "cannot create an eventfd: %m");
	/* No SA_RESTART: the signal must end the receiver's wait. The
	 * receiver alone unblocks it (workers inherit it blocked). */
	sigemptyset(&wake);
	sigaddset(&wake, WAKE_SIGNAL);
	pthread_sigmask(SIG_BLOCK, &wake, NULL);
	if (sigaction(WAKE_SIGNAL, &sa, NULL) < 0)
		return log_error(-errno, "cannot set a signal handler: %m");
	if ((r = add_receiver(rc)) != 0 || !rc->n_threads)
		return log_error(-r, "cannot start the receiver: %s",
				 strerror(r));
	return 0;
}

int supervise(struct supervisor *rc, pid_t child, int pidfd, int *status)
{
	struct sup *s = rc->s;
	uint64_t sync = SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP;
	bool child_done = false, hangup = false, exit_seen = false;

	/* Same-CPU hand-over: a round trip costs ~8 us instead of ~60. */
	(void)ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, sync);
	pthread_mutex_lock(&rc->lock);
	rc->listening = true;
	pthread_cond_broadcast(&rc->ready);
	pthread_mutex_unlock(&rc->lock);

	/*
	 * Serve until the program has exited and no process is left that
	 * uses the filter (the listener then hangs up): what the program
	 * left running stays confined and served, not failed with ENOSYS.
	 */
	while ((!child_done || !hangup) && !rc->err) {
		struct pollfd pfd[4] = {
			/* Only its hang-up: the receiver takes what arrives.
			 * Once hung up it stays so: not asked again, or poll
			 * would spin until the program is reaped. */
			{ hangup ? -1 : s->listener, 0, 0 },
			{ rc->sfd, POLLIN, 0 },
			/* Readable for good once the program exited, which
			 * can be before it is a zombie we may reap: from
			 * then on its SIGCHLD says when (no busy loop). */
			{ exit_seen ? -1 : pidfd, POLLIN, 0 },
			{ rc->efd, POLLIN, 0 },
		};

		if (poll(pfd, 4, -1) < 0) {
			if (errno == EINTR)
				continue;
			rc->err = log_error(-errno, "poll failed: %m");
			break;
		}
		if (pfd[0].revents & (POLLHUP | POLLERR))
			hangup = true;
		if (pfd[1].revents & POLLIN) {
			struct signalfd_siginfo si;

			/* Once reaped, its pid may be someone else's. */
			while (read(rc->sfd, &si, sizeof(si)) == sizeof(si))
				if (si.ssi_signo != SIGCHLD && !child_done)
					forward_signal(child, &si);
		}
		if (pfd[2].revents)
			exit_seen = true;
		if (pfd[1].revents || pfd[2].revents)
			reap(child, status, &child_done);
		/* The program stopped: so do we, for our shell to see. */
		if (pfd[1].revents && !child_done)
			jobs_check(child, s->tstp_ignored);
		exit_seen |= child_done;
	}
	return rc->err;
}

void supervise_end(struct supervisor *rc)
{
	size_t n_threads;

	if (!rc)
		return;
	/* The signal may land just before a receiver enters its wait:
	 * knock until each has left. */
	pthread_mutex_lock(&rc->lock);
	rc->stop = 1;
	pthread_cond_broadcast(&rc->ready);
	n_threads = rc->n_threads;
	pthread_mutex_unlock(&rc->lock);
	rc->s->receivers = n_threads;
	for (size_t i = 0; i < n_threads; i++)
		for (;;) {
			struct timespec ts;

			pthread_kill(rc->threads[i], WAKE_SIGNAL);
			clock_gettime(CLOCK_REALTIME, &ts);
			ts.tv_nsec += 20 * 1000 * 1000;
			if (ts.tv_nsec >= 1000000000L) {
				ts.tv_sec++;
				ts.tv_nsec -= 1000000000L;
			}
			if (pthread_timedjoin_np(rc->threads[i], NULL, &ts) ==
			    0)
				break;
		}
	for (size_t i = 0; i < n_threads; i++)
		free(rc->slots[i].req);
	if (rc->sfd >= 0)
		close(rc->sfd);
	if (rc->efd >= 0)
		close(rc->efd);
	pthread_cond_destroy(&rc->ready);
	pthread_mutex_destroy(&rc->lock);
	free(rc);
}
