/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whether a narrow rule's path still names the object its rule was made
 * on, asked on every read-only open the supervisor lets continue
 * (landlock_narrow_allows): a path walk and a stat per call (fstatat from
 * the root), about 0.7 us. Instead, once a rule's path has been found to
 * name its object, every directory above it is watched (inotify: an entry
 * moved or deleted there) and so is the mount table (poll of
 * /proc/self/mountinfo): the answer stands until one of them says
 * otherwise. One epoll_wait() per call, with nothing to wait for, asks
 * whether anything was said; each event is read before the answer is
 * given, and what it touches is checked again by a walk. So an answer is
 * as fresh as the walk's: a rename that has returned before the call is
 * decided is seen (inotify queues its event within the rename), one that
 * races with the program's own walk may still make the kernel refuse, as
 * it may after a walk.
 *
 * A path with a symlink on the way, a directory that cannot be watched
 * (inotify's limits), or anything else that fails: the walk every time, as
 * before. The receivers share one watch, under a lock.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fbac-limits.h"
#include "landlock.h"
#include "path.h"

/* An entry of a watched directory moved or deleted, or the directory. */
#define WATCH_MASK                                                             \
	(IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE | IN_DELETE_SELF |            \
	 IN_MOVE_SELF | IN_DONT_FOLLOW | IN_ONLYDIR)

struct watched_dir {
	int wd;
	char *path;
};

/* A directory the supervisor looks names up in without walking to it:
 * its path, and (once asked about twice) its O_PATH descriptor, opened
 * after every directory above it was watched. */
#define KNOWN_DIRS FBAC_MAX_KNOWN_DIRS

struct known_dir {
	char *path;
	int fd; /* -1: seen once, not opened; -2: not held (another file
		 * system) */
};

static struct {
	pthread_mutex_t lock;
	int state; /* 0: not begun, 1: watching, -1: the walk every time */
	unsigned long asked; /* calls before watching (FBAC_WATCH_AFTER) */
	int ifd, mfd, efd;
	struct watched_dir *dirs;
	size_t n_dirs, cap_dirs;
	struct known_dir known[KNOWN_DIRS];
} w = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* The rule's path names its object now: the walk as before, followed. */
static bool walk_names(int root_fd, const struct landlock_grant *g)
{
	struct stat st;
	const char *rel = g->path[1] ? g->path + 1 : ".";

	return fstatat(root_fd, rel, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	       st.st_dev == g->dev && st.st_ino == g->ino;
}

/* The same, and no symlink on the way (what is watched is the way). */
static bool walk_names_plain(int root_fd, const struct landlock_grant *g)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | O_NOFOLLOW,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_IN_ROOT,
	};
	struct stat st;
	int fd = (int)syscall(SYS_openat2, root_fd, g->path, &how, sizeof(how));
	bool same;

	if (fd < 0)
		return false;
	same = fstat(fd, &st) == 0 && st.st_dev == g->dev && st.st_ino == g->ino;
	close(fd);
	return same;
}

static void known_drop(struct known_dir *k)
{
	if (k->fd >= 0)
		close(k->fd);
	free(k->path);
	k->path = NULL;
	k->fd = -1;
}

static void stop_watching(void)
{
	__atomic_store_n(&w.state, -1, __ATOMIC_RELEASE);
	for (size_t i = 0; i < KNOWN_DIRS; i++)
		known_drop(&w.known[i]);
	for (size_t i = 0; i < w.n_dirs; i++)
		free(w.dirs[i].path);
	free(w.dirs);
	w.dirs = NULL;
	w.n_dirs = w.cap_dirs = 0;
	if (w.efd >= 0)
		close(w.efd);
	if (w.ifd >= 0)
		close(w.ifd);
	if (w.mfd >= 0)
		close(w.mfd);
	w.efd = w.ifd = w.mfd = -1;
}

static void begin(void)
{
	struct epoll_event in = { .events = EPOLLIN },
			   mnt = { .events = EPOLLPRI };

	__atomic_store_n(&w.state, 1, __ATOMIC_RELEASE);
	for (size_t i = 0; i < KNOWN_DIRS; i++)
		w.known[i].fd = -1;
	w.ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	w.mfd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	w.efd = epoll_create1(EPOLL_CLOEXEC);
	in.data.fd = w.ifd;
	mnt.data.fd = w.mfd;
	if (w.ifd < 0 || w.mfd < 0 || w.efd < 0 ||
	    epoll_ctl(w.efd, EPOLL_CTL_ADD, w.ifd, &in) < 0 ||
	    epoll_ctl(w.efd, EPOLL_CTL_ADD, w.mfd, &mnt) < 0)
		stop_watching();
}

/* Every rule whose path is at or below path (NULL: every rule) to be
 * walked again. */
static void forget(const struct landlock_extra *extras, size_t n,
		   const char *path)
{
	for (size_t i = 0; i < KNOWN_DIRS; i++)
		if (w.known[i].path &&
		    (!path || fbac_path_is_under(w.known[i].path, path)))
			known_drop(&w.known[i]);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < extras[i].narrow.n; k++) {
			struct landlock_grant *g =
				(struct landlock_grant *)&extras[i].narrow.v[k];

			if (g->named &&
			    (!path || fbac_path_is_under(g->path, path)))
				g->named = false;
		}
}

static struct watched_dir *dir_of(int wd)
{
	for (size_t i = 0; i < w.n_dirs; i++)
		if (w.dirs[i].wd == wd)
			return &w.dirs[i];
	return NULL;
}

/* One event: what it touches is walked again. */
static void take_event(const struct landlock_extra *extras, size_t n,
		       const struct inotify_event *ev)
{
	struct watched_dir *d = ev->wd >= 0 ? dir_of(ev->wd) : NULL;
	char entry[FBAC_MAX_PATH];
	size_t l;

	if (!d || (ev->mask & IN_Q_OVERFLOW)) {
		forget(extras, n, NULL);
		return;
	}
	l = strlen(d->path);
	if (ev->len && ev->name[0] && l + 1 + strlen(ev->name) < sizeof(entry)) {
		memcpy(entry, d->path, l);
		entry[l] = '/';
		strcpy(entry + (l > 1 ? l + 1 : 1), ev->name);
		forget(extras, n, entry);
	} else {
		forget(extras, n, d->path);
	}
	/* Gone (the directory deleted, its file system unmounted): a rule
	 * below it watches it again when it is walked again. */
	if (ev->mask & IN_IGNORED) {
		free(d->path);
		*d = w.dirs[--w.n_dirs];
	}
}

/* What was said since the last call, read. false: watching stopped. */
static bool take_news(const struct landlock_extra *extras, size_t n)
{
	struct epoll_event ev[2];
	int got = epoll_wait(w.efd, ev, 2, 0);

	if (got < 0)
		return errno == EINTR ? take_news(extras, n) : false;
	for (int i = 0; i < got; i++) {
		if (ev[i].data.fd == w.mfd) {
			/* The mount table changed (epoll read it as changed):
			 * every rule is walked again. */
			forget(extras, n, NULL);
			continue;
		}
		for (;;) {
			char buf[4096] __attribute__((
				aligned(__alignof__(struct inotify_event))));
			ssize_t r = read(w.ifd, buf, sizeof(buf));

			if (r < 0 && errno == EAGAIN)
				break;
			if (r <= 0)
				return false;
			for (char *p = buf; p < buf + r;) {
				const struct inotify_event *e = (void *)p;

				take_event(extras, n, e);
				p += sizeof(*e) + e->len;
			}
		}
	}
	return true;
}

static int add_dir(const char *path, size_t len)
{
	char dir[FBAC_MAX_PATH];
	struct watched_dir *d;
	int wd;

	memcpy(dir, path, len);
	dir[len] = 0;
	wd = inotify_add_watch(w.ifd, dir, WATCH_MASK);
	if (wd < 0)
		return -errno;
	if ((d = dir_of(wd)) && !strcmp(d->path, dir))
		return 0;
	if (d) {
		/* The same directory by another name: keep the first, and
		 * watching it stops being exact. Rare: give up. */
		return -EEXIST;
	}
	if (w.n_dirs == w.cap_dirs) {
		size_t cap = w.cap_dirs ? w.cap_dirs * 2 : 16;
		struct watched_dir *v = realloc(w.dirs, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		w.dirs = v;
		w.cap_dirs = cap;
	}
	w.dirs[w.n_dirs].path = strdup(dir);
	if (!w.dirs[w.n_dirs].path)
		return -ENOMEM;
	w.dirs[w.n_dirs++].wd = wd;
	return 0;
}

/* Every directory above path[0..len) watched. */
static bool watch_above(const char *path, size_t len)
{
	/* Up to "/": each parent without its slash, but "/" itself. */
	while (len > 1) {
		while (len > 1 && path[len - 1] != '/')
			len--;
		if (len > 1)
			len--;
		if (add_dir(path, len) < 0)
			return false;
	}
	return true;
}

/* Every directory above g's path watched, then its path walked: named
 * from now until an event says otherwise. */
static bool watch_and_walk(int root_fd, struct landlock_grant *g)
{
	return watch_above(g->path, strlen(g->path)) &&
	       walk_names_plain(root_fd, g);
}

/* One more call asked before the watch begins: whether enough have
 * (also counted without the lock, by landlock_watch_may_know()). */
static bool asked_enough(void)
{
	return __atomic_add_fetch(&w.asked, 1, __ATOMIC_RELAXED) >=
	       FBAC_WATCH_AFTER;
}

/* Set while this thread keeps the watch locked, the news taken, for the
 * rest of one call (landlock_watch_stat() with hold). */
static __thread bool holding;

static void lock_watch(void)
{
	if (holding)
		return;
	pthread_mutex_lock(&w.lock);
	/* An inotify instance costs its process 4-14 ms at exit (the
	 * kernel waits out an SRCU grace period tearing it down), about
	 * what 10,000 walks cost: only a run that has asked this often
	 * makes one. */
	if (w.state == 0 && asked_enough())
		begin();
}

static void unlock_watch(void)
{
	if (!holding)
		pthread_mutex_unlock(&w.lock);
}

/* What was said since the last call taken into account (not again while
 * holding: this call took it). */
static void news(const struct landlock_extra *extras, size_t n)
{
	if (!holding && w.state > 0 && !take_news(extras, n)) {
		forget(extras, n, NULL);
		stop_watching();
	}
}

bool landlock_still_names(const struct landlock_extra *extras, size_t n,
			  int root_fd, const struct landlock_grant *hit)
{
	struct landlock_grant *g = (struct landlock_grant *)hit;
	bool named;

	lock_watch();
	news(extras, n);
	if (w.state <= 0) {
		unlock_watch();
		return walk_names(root_fd, hit);
	}
	named = g->named;
	if (!named) {
		named = watch_and_walk(root_fd, g);
		/* Not watchable: the walk each time, for this rule. */
		if (!named && walk_names(root_fd, hit))
			named = true;
		else
			g->named = named;
	}
	unlock_watch();
	return named;
}

/* FNV-1a: which slot a directory takes. */
static size_t known_slot(const char *dir, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)dir[i]) * 0x100000001b3ull;
	return (size_t)(h % KNOWN_DIRS);
}

/*
 * dir[0..len) opened, every directory above it watched first, and no
 * symlink on the way: its descriptor; else -2, not tried again until the
 * slot is dropped (names there are walked as before): also when it is on
 * another file system than the root, where a descriptor held would make
 * unmounting it fail (EBUSY) while the program runs (a USB stick).
 */
static int known_open(int root_fd, const char *dir, size_t len)
{
	struct open_how how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_IN_ROOT,
	};
	char path[FBAC_MAX_PATH];
	struct stat st, root;
	int fd;

	if (!watch_above(dir, len))
		return -2;
	memcpy(path, dir, len);
	path[len] = 0;
	fd = (int)syscall(SYS_openat2, root_fd, path, &how, sizeof(how));
	if (fd < 0)
		return -2;
	if (fstat(fd, &st) < 0 || fstat(root_fd, &root) < 0 ||
	    st.st_dev != root.st_dev) {
		close(fd);
		return -2;
	}
	return fd;
}

bool landlock_watch_may_know(void)
{
	int state = __atomic_load_n(&w.state, __ATOMIC_ACQUIRE);

	/* The first FBAC_WATCH_AFTER calls of a run only count. */
	return state > 0 || (state == 0 && asked_enough());
}

bool landlock_watch_stat(const struct landlock_extra *extras, size_t n,
			 int root_fd, const char *dir, size_t len,
			 const char *leaf, bool hold, struct stat *st)
{
	struct known_dir *k;
	bool found = false;

	if (len == 0 || len >= FBAC_MAX_PATH || holding)
		return false;
	lock_watch();
	if (w.state <= 0)
		goto out;
	k = &w.known[known_slot(dir, len)];
	if (!k->path || strncmp(k->path, dir, len) || k->path[len]) {
		/* Seen once: not worth a watch yet (a walk visits most
		 * directories once). */
		known_drop(k);
		k->path = strndup(dir, len);
		goto out;
	}
	news(extras, n); /* which may drop k */
	if (w.state < 0 || !k->path)
		goto out;
	if (k->fd == -1)
		k->fd = known_open(root_fd, dir, len);
	if (k->fd < 0)
		goto out;
	found = fstatat(k->fd, leaf, st, AT_SYMLINK_NOFOLLOW) == 0;
	if (found && hold) {
		holding = true;
		return true;
	}
out:
	pthread_mutex_unlock(&w.lock);
	return found;
}

void landlock_watch_release(void)
{
	if (holding) {
		holding = false;
		pthread_mutex_unlock(&w.lock);
	}
}
