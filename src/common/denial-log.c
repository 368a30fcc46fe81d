/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "denial-log.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fbac-limits.h"
#include "macro.h"

int denial_log_path(const struct fbac_env *env, const char *suffix, char *out,
		    size_t size)
{
	/* The variable as the policies see it: protected.yaml names it. */
	const char *state = fbac_env_get(env, "XDG_STATE_HOME", 14);

	if (!state || state[0] != '/')
		return -ENOENT;
	if (snprintf(out, size, "%s/fbac/denials.jsonl%s", state, suffix) >=
	    (int)size)
		return -ENAMETOOLONG;
	return 0;
}

/* mkdir -p of path's directory; the last one made 0700. */
static int make_dirs(char *path)
{
	char *slash = strrchr(path, '/');
	int r = 0;

	if (!slash || slash == path)
		return 0;
	*slash = 0;
	if (mkdir(path, 0700) < 0 && errno != EEXIST) {
		if (errno == ENOENT && (r = make_dirs(path)) == 0 &&
		    mkdir(path, 0700) < 0 && errno != EEXIST)
			r = -errno;
		else if (errno != ENOENT)
			r = -errno;
	}
	*slash = '/';
	return r;
}

int denial_log_open(const struct fbac_env *env, FILE **ret)
{
	char path[FBAC_MAX_PATH], old[FBAC_MAX_PATH];
	_cleanup_close_ int fd = -1;
	struct stat st;
	int r;

	if ((r = denial_log_path(env, "", path, sizeof(path))) < 0 ||
	    (r = denial_log_path(env, ".1", old, sizeof(old))) < 0)
		return r;
	if ((r = make_dirs(path)) < 0)
		return r;
	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_size >= FBAC_MAX_DENIAL_LOG && rename(path, old) < 0)
		return -errno;
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW |
				O_NOCTTY | O_NONBLOCK,
		  0600);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid())
		return -EPERM;
	*ret = fdopen(fd, "a");
	if (!*ret)
		return -errno;
	TAKE_FD(fd);
	return 0;
}
