/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac wrap: where wrappers go, the real program, reading and writing. */
#include "wrap-cmd.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "macro.h"
#include "output.h"

static const char *home_dir(void)
{
	const char *h = getenv("HOME");
	struct passwd *pw;

	if (h && h[0] == '/')
		return h;
	pw = getpwuid(getuid());
	return pw && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
}

int wrap_dirs_get(bool system, struct wrap_dirs *d)
{
	const char *home, *data = getenv("XDG_DATA_HOME");

	*d = (struct wrap_dirs){ .system = system };
	if (system) {
		if (geteuid() != 0)
			return log_error(-EPERM, "cannot use --system as uid %u: it writes /usr/local/bin and /usr/local/share/applications for every user (run it as root)",
					 (unsigned)geteuid());
		snprintf(d->bin, sizeof(d->bin), "/usr/local/bin");
		snprintf(d->apps, sizeof(d->apps), "/usr/local/share/applications");
		return 0;
	}
	home = home_dir();
	if (!home)
		return log_error(-ENOENT, "cannot find the home directory: HOME is not an absolute path");
	if (snprintf(d->bin, sizeof(d->bin), "%s/.local/bin", home) >=
		    (int)sizeof(d->bin) ||
	    (data && data[0] == '/' ?
		     snprintf(d->apps, sizeof(d->apps), "%s/applications", data) :
		     snprintf(d->apps, sizeof(d->apps),
			      "%s/.local/share/applications", home)) >=
		    (int)sizeof(d->apps))
		return log_error(-ENAMETOOLONG, "the home directory's path is too long");
	return 0;
}

const char *wrap_dir_display(const struct wrap_dirs *d, char *buf, size_t size)
{
	const char *home = home_dir();
	size_t n = home ? strlen(home) : 0;

	if (!d->system && home && !strncmp(d->bin, home, n) && d->bin[n] == '/')
		snprintf(buf, size, "$HOME%s", d->bin + n);
	else
		snprintf(buf, size, "%s", d->bin);
	return buf;
}

int wrap_fbac_run(char *out, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (n < 0)
		return log_error(-errno, "cannot find the fbac executable: %m");
	self[n] = 0;
	slash = strrchr(self, '/');
	if (!slash || snprintf(out, size, "%.*s/fbac-run", (int)(slash - self),
			       self) >= (int)size)
		return log_error(-ENAMETOOLONG, "cannot find fbac-run: path too long");
	if (access(out, X_OK) < 0)
		return log_error(-errno, "cannot find fbac-run next to fbac ('%s'): %m",
				 out);
	return 0;
}

static bool same_dir(const char *a, size_t alen, const char *real_b)
{
	char p[PATH_MAX], real[PATH_MAX];

	if (alen >= sizeof(p))
		return false;
	memcpy(p, a, alen);
	p[alen] = 0;
	return realpath(p, real) && streq(real, real_b);
}

/* The PATH entries, in order, through fn until it returns >= 0. */
static int each_path_dir(int (*fn)(const char *dir, size_t len, int i, void *ctx),
			 void *ctx)
{
	const char *path = getenv("PATH");
	int i = 0, r;

	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin:/usr/local/games:/usr/games";
	for (const char *p = path;; i++) {
		const char *c = strchr(p, ':');
		size_t len = c ? (size_t)(c - p) : strlen(p);

		if (len && (r = fn(p, len, i, ctx)) >= 0)
			return r;
		if (!c)
			return -ENOENT;
		p = c + 1;
	}
}

struct in_path {
	char real[PATH_MAX];
};

static int is_wrap_dir(const char *dir, size_t len, int i, void *ctx)
{
	struct in_path *ip = ctx;

	return same_dir(dir, len, ip->real) ? i : -1;
}

int wrap_dir_in_path(const struct wrap_dirs *d)
{
	struct in_path ip;
	int r;

	if (!realpath(d->bin, ip.real))
		snprintf(ip.real, sizeof(ip.real), "%s", d->bin);
	r = each_path_dir(is_wrap_dir, &ip);
	return r < 0 ? -1 : r;
}

struct find {
	const char *name;
	char wrap_real[PATH_MAX];
	char *out;
	size_t size;
};

static int find_in(const char *dir, size_t len, int i, void *ctx)
{
	struct find *f = ctx;
	struct stat st;

	if (same_dir(dir, len, f->wrap_real) || dir[0] != '/')
		return -1;
	if (snprintf(f->out, f->size, "%.*s/%s", (int)len, dir, f->name) >=
	    (int)f->size)
		return -1;
	if (stat(f->out, &st) < 0 || !S_ISREG(st.st_mode) ||
	    access(f->out, X_OK) < 0)
		return -1;
	/* Another wrapper (fbac wrap --system under a user's, whoever
	 * wrote it): not the program. */
	{
		_cleanup_free_ char *text = NULL;
		size_t n;
		struct fbac_wrapper w;

		if (wrap_read(f->out, FBAC_MAX_WRAPPER_SIZE, &text, &n, NULL) == 0 &&
		    fbac_wrapper_parse(text, n, &w) != -ENOMSG)
			return -1;
	}
	return i;
}

int wrap_find_program(const struct wrap_dirs *d, const char *name, char *out,
		      size_t size, int *dir_index)
{
	struct find f = { .name = name, .out = out, .size = size };
	int r;

	*dir_index = -1;
	if (strchr(name, '/')) {
		struct stat st;

		if (name[0] != '/')
			return -EINVAL;
		if (snprintf(out, size, "%s", name) >= (int)size)
			return -ENAMETOOLONG;
		if (stat(out, &st) < 0)
			return -errno;
		return S_ISREG(st.st_mode) && access(out, X_OK) == 0 ? 0 : -EACCES;
	}
	if (!realpath(d->bin, f.wrap_real))
		snprintf(f.wrap_real, sizeof(f.wrap_real), "%s", d->bin);
	r = each_path_dir(find_in, &f);
	if (r < 0)
		return r;
	*dir_index = r;
	return 0;
}

int wrap_read(const char *path, size_t max, char **out, size_t *len,
	      unsigned *owner)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if ((size_t)st.st_size > max)
		return -E2BIG;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	n = read(fd, buf, (size_t)st.st_size + 1);
	if (n < 0)
		return -errno;
	if ((size_t)n > (size_t)st.st_size)
		return -E2BIG; /* grew meanwhile */
	buf[n] = 0;
	*len = (size_t)n;
	if (owner)
		*owner = st.st_uid;
	*out = TAKE_PTR(buf);
	return 0;
}

int wrap_ours(const char *path, bool desktop, struct fbac_wrapper *w)
{
	_cleanup_free_ char *text = NULL;
	struct fbac_wrapper tmp;
	size_t len;
	unsigned owner;
	struct stat st;
	int r;

	if (lstat(path, &st) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISREG(st.st_mode))
		return -EEXIST;
	r = wrap_read(path, desktop ? FBAC_MAX_DESKTOP_SIZE : FBAC_MAX_WRAPPER_SIZE,
		      &text, &len, &owner);
	if (r == -E2BIG || r == -ELOOP || r == -EINVAL)
		return -EEXIST;
	if (r < 0)
		return r;
	if (owner != geteuid())
		return -EEXIST;
	if (desktop)
		return fbac_desktop_is_wrapped(text, len) ? 1 : -EEXIST;
	r = fbac_wrapper_parse(text, len, w ? w : &tmp);
	return r == 0 ? 1 : -EEXIST;
}

int wrap_write(const char *path, const char *text, unsigned mode)
{
	char tmp[PATH_MAX];
	size_t len = strlen(text);
	int fd;

	if (snprintf(tmp, sizeof(tmp), "%s.fbac-XXXXXX", path) >= (int)sizeof(tmp))
		return log_error(-ENAMETOOLONG, "cannot write '%s': path too long", path);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return log_error(-errno, "cannot write '%s': %m", path);
	if (fchmod(fd, mode) < 0 || write(fd, text, len) != (ssize_t)len ||
	    fsync(fd) < 0) {
		int e = errno ? errno : EIO;

		close(fd);
		unlink(tmp);
		errno = e;
		return log_error(-e, "cannot write '%s': %m", tmp);
	}
	close(fd);
	if (rename(tmp, path) < 0) {
		int e = errno;

		unlink(tmp);
		errno = e;
		return log_error(-e, "cannot write '%s': %m", path);
	}
	return 0;
}
