/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 25: block the supervisor. It performs calls on the program's
 * behalf; a call that blocks in the supervisor's only loop stalls every
 * other supervised call of every process in the sandbox (a denial of
 * service, and a wider window for races). One thread starts a call that
 * blocks, then a sibling process must still get 50 opens of the decoy
 * served within 2 seconds. Three ways to block:
 *   1. open of a FIFO (in ~/work) that has no writer;
 *   2. open for writing of a file on which the program holds a read lease
 *      (F_SETLEASE): the open waits for the lease holder, up to
 *      /proc/sys/fs/lease-break-time (45 s);
 *   3. sendto on a blocking unix datagram socket whose receiver (bound in
 *      ~/work, never reading) has a full queue.
 * Each is then unblocked (a writer, F_UNLCK, the receiver drains) and the
 * sandbox must recover. A stall is reported as a successful attack.
 */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "escape-common.h"

static char fifo[PATH_MAX], leased[PATH_MAX], sockp[PATH_MAX];
static int dgram_sender = -1;
static struct sockaddr_un sun;
static socklen_t sunlen;
static atomic_int blocked_done;

static void *block_fifo(void *p)
{
	int fd = open(fifo, O_RDONLY | O_CLOEXEC);

	(void)p;
	if (fd >= 0)
		close(fd);
	atomic_store(&blocked_done, 1);
	return NULL;
}

static void *block_lease(void *p)
{
	int fd = open(leased, O_WRONLY | O_CLOEXEC);

	(void)p;
	if (fd >= 0)
		close(fd);
	atomic_store(&blocked_done, 1);
	return NULL;
}

static void *block_dgram(void *p)
{
	char buf[2048];

	(void)p;
	memset(buf, 'x', sizeof(buf));
	/* Until it blocks (the queue is full), or fails. */
	for (int i = 0; i < 100000; i++)
		if (sendto(dgram_sender, buf, sizeof(buf), 0,
			   (struct sockaddr *)&sun, sunlen) < 0)
			break;
	atomic_store(&blocked_done, 1);
	return NULL;
}

/* A sibling process: 50 supervised opens; true if done within 2 s. */
static bool probe(const char *label)
{
	double end = esc_now() + 2.0;
	int st;
	pid_t pid = fork();

	if (pid < 0)
		esc_setup_error("fork: %m");
	if (pid == 0) {
		/* Hold none of the parent's sockets and FIFOs (close is not
		 * supervised): undoing the attack must not depend on us. */
		syscall(SYS_close_range, 3, ~0U, 0);
		for (int i = 0; i < 50; i++) {
			int fd = open(esc_decoy, O_RDONLY | O_CLOEXEC);

			if (fd < 0)
				_exit(3);
			close(fd);
		}
		_exit(0);
	}
	while (esc_now() < end) {
		if (waitpid(pid, &st, WNOHANG) == pid) {
			if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
				esc_control("%s: a sibling's 50 opens were served meanwhile",
					    label);
				return true;
			}
			esc_say("%s: the sibling's opens failed (status %d)", label, st);
			return true;
		}
		usleep(10000);
	}
	esc_escape("%s: the supervisor stalled: a sibling's opens were not served within 2 s",
		   label);
	/* Leave it: it finishes once the supervisor recovers. */
	return false;
}

static void reap_within(double seconds)
{
	double end = esc_now() + seconds;

	while (esc_now() < end) {
		if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD)
			return;
		usleep(10000);
	}
	esc_say("a sibling was still waiting after the attack was undone");
}

static void variant(const char *label, void *(*fn)(void *), void (*undo)(void))
{
	pthread_t t;
	double end;

	atomic_store(&blocked_done, 0);
	if (pthread_create(&t, NULL, fn, NULL))
		esc_setup_error("pthread_create failed");
	usleep(300000);
	if (atomic_load(&blocked_done))
		esc_say("%s: the blocking call did not block", label);
	probe(label);
	undo();
	end = esc_now() + 5;
	while (!atomic_load(&blocked_done) && esc_now() < end)
		usleep(10000);
	if (!atomic_load(&blocked_done))
		esc_escape("%s: the blocked call did not come back after it was undone",
			   label);
	else
		pthread_join(t, NULL);
	reap_within(3);
}

static void undo_fifo(void)
{
	int fd = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd >= 0)
		close(fd);
	else
		esc_say("opening the FIFO for writing: %m");
}

static int lease_fd = -1;

static void undo_lease(void)
{
	if (fcntl(lease_fd, F_SETLEASE, F_UNLCK) < 0)
		esc_say("F_UNLCK: %m");
}

static int receiver = -1;

static void undo_dgram(void)
{
	char buf[4096];

	while (recv(receiver, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
	close(receiver);
}

int main(void)
{
	esc_init("fifo-block", "stall the supervisor with a FIFO, a file lease and a full datagram queue");
	signal(SIGIO, SIG_IGN);
	ESC_FMT(fifo, "%s/fifo", esc_work);
	ESC_FMT(leased, "%s/leased", esc_work);
	ESC_FMT(sockp, "%s/full.sock", esc_work);

	unlink(fifo);
	if (mkfifo(fifo, 0600) < 0)
		esc_setup_error("mkfifo: %m");
	variant("FIFO without a writer", block_fifo, undo_fifo);

	unlink(leased);
	lease_fd = open(leased, O_RDONLY | O_CREAT | O_CLOEXEC, 0600);
	if (lease_fd < 0)
		esc_setup_error("cannot create %s: %m", leased);
	if (fcntl(lease_fd, F_SETLEASE, F_RDLCK) < 0)
		esc_say("F_SETLEASE: %m (the lease variant is not possible here)");
	else {
		esc_control("took a read lease on %s", leased);
		variant("open against a read lease", block_lease, undo_lease);
	}
	close(lease_fd);

	unlink(sockp);
	receiver = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	dgram_sender = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, sockp, strlen(sockp) < sizeof(sun.sun_path) ?
					   strlen(sockp) :
					   sizeof(sun.sun_path) - 1);
	sunlen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
			     strlen(sun.sun_path) + 1);
	if (bind(receiver, (struct sockaddr *)&sun, sunlen) < 0)
		esc_say("bind %s: %m (the datagram variant is not possible here)", sockp);
	else {
		esc_control("bound a datagram receiver at %s", sockp);
		variant("sendto a full datagram queue", block_dgram, undo_dgram);
	}
	return esc_finish();
}
