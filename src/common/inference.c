/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "inference.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "checksum.h"
#include "fbac-limits.h"
#include "macro.h"
#include "path.h"
#include "infer.h"

#define DPKG_INFO "/var/lib/dpkg/info"

/* A dpkg file list, read (malloc'd); NULL when absent or unreadable.
 * Read, not mapped: a mapping and its unmapping cost more than copying
 * a list of a few kB (scan_one reads likewise). */
static char *read_list(int dirfd, const char *name, size_t *len)
{
	_cleanup_close_ int fd = openat(dirfd, name, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *p;
	size_t got = 0;

	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size <= 0 || st.st_size > 64 * 1024 * 1024)
		return NULL;
	if (!(p = malloc((size_t)st.st_size)))
		return NULL;
	/* The size fstat saw, as a mapping of it had: less only when the
	 * file shrank meanwhile (then what is left). */
	while (got < (size_t)st.st_size) {
		ssize_t n = read(fd, p + got, (size_t)st.st_size - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (!got) {
		free(p);
		return NULL;
	}
	*len = got;
	return p;
}

/* Merged /usr: dpkg may list /bin/cat for /usr/bin/cat. */
static bool list_has_merged(const char *buf, size_t len, const char *path)
{
	static const char *const merged[] = { "/usr/bin/", "/usr/sbin/",
					      "/usr/lib/" };

	if (fbac_infer_list_has(buf, len, path))
		return true;
	for (size_t i = 0; i < ARRAY_SIZE(merged); i++)
		if (!strncmp(path, merged[i], strlen(merged[i])))
			return fbac_infer_list_has(buf, len, path + 4);
	return false;
}

static bool list_names(const char *buf, size_t len, const char *exe,
		       const char *real)
{
	return list_has_merged(buf, len, exe) ||
	       (real[0] && list_has_merged(buf, len, real));
}

static void take_dirs(struct infer_program *ip, const char *pkg,
		      const char *buf, size_t len)
{
	static const struct {
		const char *dir;
		size_t off;
	} dirs[] = {
		{ "/usr/lib", offsetof(struct infer_program, lib_dir) },
		{ "/etc", offsetof(struct infer_program, etc_dir) },
		{ "/usr/share/games", offsetof(struct infer_program, games_share) },
		{ "/usr/lib/games", offsetof(struct infer_program, games_lib) },
	};
	const char *names[FBAC_MAX_INFER_NAMES + 1];
	char name[NAME_MAX + 1];
	size_t n = 0;

	for (size_t i = 0; i < ip->n_names; i++)
		names[n++] = ip->names[i];
	names[n++] = pkg;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (fbac_infer_list_child(buf, len, dirs[i].dir, names, n, name,
					  sizeof(name)) == 0)
			snprintf((char *)ip + dirs[i].off, PATH_MAX, "%s/%s",
				 dirs[i].dir, name);
}

static const char *const archs[] = { "", ":amd64", ":arm64", ":i386",
				     ":all" };

/* Whether package pkg's list names the program (then its folders are
 * taken); with any_exe, take the folders without checking. */
static bool try_list(struct infer_program *ip, int dfd, const char *pkg,
		     bool any_exe)
{
	for (size_t a = 0; a < ARRAY_SIZE(archs); a++) {
		char name[NAME_MAX + 16];
		size_t len;
		char *map;

		snprintf(name, sizeof(name), "%s%s.list", pkg, archs[a]);
		if (!(map = read_list(dfd, name, &len)))
			continue;
		if (any_exe || list_names(map, len, ip->exe, ip->real)) {
			snprintf(ip->package, sizeof(ip->package), "%s", pkg);
			take_dirs(ip, pkg, map, len);
			free(map);
			return true;
		}
		free(map);
	}
	return false;
}

/* The lists named after the program (most programs). */
static void scan_named(struct infer_program *ip)
{
	_cleanup_close_ int dfd = open(DPKG_INFO, O_RDONLY | O_DIRECTORY |
							 O_CLOEXEC);

	for (size_t i = 0; dfd >= 0 && i < ip->n_names; i++)
		if (try_list(ip, dfd, ip->names[i], false))
			return;
}

static void take_named(struct infer_program *ip)
{
	_cleanup_close_ int dfd = open(DPKG_INFO, O_RDONLY | O_DIRECTORY |
							 O_CLOEXEC);
	char pkg[NAME_MAX + 1];

	snprintf(pkg, sizeof(pkg), "%s", ip->package);
	if (dfd >= 0)
		try_list(ip, dfd, pkg, true);
}

/* Whether list file name holds one of the program's names (python3.11-
 * minimal for python3, openssh-client for ssh) or the name of its folder
 * when that is not bin or sbin: read those first. */
static bool likely(const struct infer_program *ip, const char *name,
		   const char *folder)
{
	for (size_t i = 0; i < ip->n_names; i++)
		if (strlen(ip->names[i]) >= 3 && strstr(name, ip->names[i]))
			return true;
	/* /usr/games/quiz: bsdgames. */
	return folder[0] && strstr(name, folder);
}

/* Read one list; true when it names the program (then taken). */
static bool scan_one(struct infer_program *ip, int dfd, const char *name,
		     char **buf, size_t *cap)
{
	_cleanup_close_ int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC);
	struct stat st;
	ssize_t got;
	char *colon;

	if (fd < 0 || fstat(fd, &st) < 0 || st.st_size <= 0 ||
	    st.st_size > 64 * 1024 * 1024)
		return false;
	if ((size_t)st.st_size > *cap) {
		char *nb = realloc(*buf, (size_t)st.st_size);

		if (!nb)
			return false;
		*buf = nb;
		*cap = (size_t)st.st_size;
	}
	got = read(fd, *buf, (size_t)st.st_size);
	if (got <= 0 || !list_names(*buf, (size_t)got, ip->exe, ip->real))
		return false;
	snprintf(ip->package, sizeof(ip->package), "%.*s",
		 (int)(strlen(name) - 5), name);
	if ((colon = strchr(ip->package, ':')))
		*colon = 0;
	take_dirs(ip, ip->package, *buf, (size_t)got);
	return true;
}

static int list_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return n > 5 && !strcmp(e->d_name + n - 5, ".list");
}

/* Every list (firefox is firefox-esr's, cat coreutils'): what dpkg -S
 * does, without starting it; the likely ones first. One buffer for all:
 * read(2) costs less than a mapping a list. */
static void scan_packages(struct infer_program *ip)
{
	_cleanup_close_ int dfd = open(DPKG_INFO, O_RDONLY | O_DIRECTORY |
							 O_CLOEXEC);
	_cleanup_free_ char *buf = NULL;
	struct dirent **list = NULL;
	size_t cap = 0;
	int n;

	char folder[NAME_MAX + 1] = "";
	const char *slash = strrchr(ip->exe, '/');

	if (slash && slash > ip->exe) {
		const char *start = slash - 1;

		while (start > ip->exe && *start != '/')
			start--;
		snprintf(folder, sizeof(folder), "%.*s",
			 (int)(slash - start - 1), start + 1);
		if (!strcmp(folder, "bin") || !strcmp(folder, "sbin") ||
		    strlen(folder) < 3)
			folder[0] = 0;
	}
	if (dfd < 0 || (n = scandir(DPKG_INFO, &list, list_file, NULL)) < 0)
		return;
	for (int pass = 0; pass < 2 && !ip->package[0]; pass++)
		for (int i = 0; i < n && !ip->package[0]; i++)
			if (likely(ip, list[i]->d_name, folder) == (pass == 0))
				scan_one(ip, dfd, list[i]->d_name, &buf, &cap);
	for (int i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

static void add_name(struct infer_program *ip, const char *name)
{
	if (!name[0] || ip->n_names >= FBAC_MAX_INFER_NAMES)
		return;
	for (size_t i = 0; i < ip->n_names; i++)
		if (streq(ip->names[i], name))
			return;
	snprintf(ip->names[ip->n_names++], NAME_MAX + 1, "%s", name);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static void find_user_dirs(struct infer_program *ip,
			   const struct fbac_env *env)
{
	const char *home = fbac_env_get(env, "HOME", 4);
	const char *cfg = fbac_env_get(env, "XDG_CONFIG_HOME", 15);
	const char *data = fbac_env_get(env, "XDG_DATA_HOME", 13);
	const char *cache = fbac_env_get(env, "XDG_CACHE_HOME", 14);

	for (size_t i = 0; i < ip->n_names && !ip->user_name[0]; i++) {
		const char *n = ip->names[i];
		char p[4][PATH_MAX];

		snprintf(p[0], PATH_MAX, "%s/.%s", home ? home : "/nonexistent", n);
		snprintf(p[1], PATH_MAX, "%s/%s", cfg ? cfg : "/nonexistent", n);
		snprintf(p[2], PATH_MAX, "%s/%s", data ? data : "/nonexistent", n);
		snprintf(p[3], PATH_MAX, "%s/%s", cache ? cache : "/nonexistent", n);
		if (is_dir(p[0]))
			memcpy(ip->dot_dir, p[0], PATH_MAX);
		if (is_dir(p[1]))
			memcpy(ip->config_dir, p[1], PATH_MAX);
		if (is_dir(p[2]))
			memcpy(ip->data_dir, p[2], PATH_MAX);
		if (is_dir(p[3]))
			memcpy(ip->cache_dir, p[3], PATH_MAX);
		if (ip->dot_dir[0] || ip->config_dir[0] || ip->data_dir[0] ||
		    ip->cache_dir[0])
			snprintf(ip->user_name, sizeof(ip->user_name), "%s", n);
	}
}

static void add_path(struct infer_program *ip, const char *cwd,
		     const char *arg)
{
	char abs[PATH_MAX], norm[PATH_MAX];
	struct stat st;
	struct infer_path *p;
	char *slash;

	if (snprintf(abs, sizeof(abs), "%s%s%s", arg[0] == '/' ? "" : cwd,
		     arg[0] == '/' ? "" : "/", arg) >= (int)sizeof(abs))
		return;
	/* The path the kernel will see: symbolic links and ".." resolved;
	 * for a file to create, its folder's. */
	if (!realpath(abs, norm)) {
		char dir[PATH_MAX];

		if (errno != ENOENT || !fbac_infer_looks_like_file(arg) ||
		    !(slash = strrchr(abs, '/')) || !slash[1] ||
		    streq(slash, "/.") || streq(slash, "/.."))
			return;
		*slash = 0;
		if (!realpath(abs[0] ? abs : "/", dir) || !is_dir(dir) ||
		    snprintf(norm, sizeof(norm), "%s/%s",
			     streq(dir, "/") ? "" : dir, slash + 1) >=
			    (int)sizeof(norm))
			return;
	}
	for (size_t i = 0; i < ip->n_paths; i++)
		if (streq(ip->paths[i].path, norm))
			return;
	if (ip->n_paths >= FBAC_MAX_INFER_PATHS) {
		ip->paths_cut = true;
		return;
	}
	p = &ip->paths[ip->n_paths++];
	memcpy(p->path, norm, sizeof(norm));
	p->kind = stat(norm, &st) < 0 ? INFER_NEW :
		  S_ISDIR(st.st_mode) ? INFER_DIR :
					INFER_FILE;
}

/* The package of a program found by scanning every list, remembered in
 * the cache under the list directory's change time (any install or
 * removal changes it): a scan costs about 10 ms. */
struct pkg_memo {
	char path[4096];
	char line[PATH_MAX * 2 + 64];
};

static void *alloc_plain(void *ctx, size_t size)
{
	(void)ctx;
	return malloc(size);
}

static int encode_memo(void *ctx, void **buf, size_t *len)
{
	struct pkg_memo *m = ctx;

	*buf = strdup(m->line);
	*len = strlen(m->line);
	return *buf ? 0 : -ENOMEM;
}

static void find_package(struct infer_program *ip, const struct fbac_env *env)
{
	struct pkg_memo m;
	struct stat st;
	char name[64];
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int n;

	scan_named(ip);
	if (ip->package[0] || stat(DPKG_INFO, &st) < 0)
		return;
	snprintf(name, sizeof(name), "package-%016llx",
		 (unsigned long long)fbac_checksum(ip->exe, strlen(ip->exe)));
	n = snprintf(m.line, sizeof(m.line), "%llu %s %s ",
		     (unsigned long long)cache_ns(&st.st_ctim), ip->exe,
		     ip->real);
	if (cache_path(env, name, m.path, sizeof(m.path)) == 0 &&
	    cache_read(m.path, sizeof(m.line), alloc_plain, NULL,
		       (void **)&buf, &len) == 0 &&
	    len > (size_t)n && !memcmp(buf, m.line, (size_t)n) &&
	    len - (size_t)n < sizeof(ip->package) && buf[len - 1] == '\n') {
		snprintf(ip->package, sizeof(ip->package), "%.*s",
			 (int)(len - (size_t)n - 1), buf + n);
		if (streq(ip->package, "-"))
			ip->package[0] = 0;
		else
			take_named(ip);
		return;
	}
	scan_packages(ip);
	snprintf(m.line + n, sizeof(m.line) - (size_t)n, "%s\n",
		 ip->package[0] ? ip->package : "-");
	if (m.path[0])
		(void)cache_write(m.path, encode_memo, &m);
}

/* The interpreter of a "#!" script. */
static void find_interpreter(struct infer_program *ip)
{
	_cleanup_close_ int fd = open(ip->real[0] ? ip->real : ip->exe,
				      O_RDONLY | O_CLOEXEC | O_NOCTTY |
					      O_NONBLOCK);
	char line[256];
	ssize_t n;
	size_t len;

	if (fd < 0 || (n = read(fd, line, sizeof(line) - 1)) < 3 ||
	    line[0] != '#' || line[1] != '!')
		return;
	line[n] = 0;
	line[strcspn(line, "\n")] = 0;
	{
		char *p = line + 2 + strspn(line + 2, " \t");

		len = strcspn(p, " \t");
		if (p[0] != '/' || len >= sizeof(ip->interp))
			return;
		memcpy(ip->interp, p, len);
		ip->interp[len] = 0;
	}
	if (!realpath(ip->interp, ip->interp_real) ||
	    streq(ip->interp_real, ip->interp))
		ip->interp_real[0] = 0;
}

static void add_port(unsigned *v, size_t *n, unsigned port)
{
	for (size_t i = 0; i < *n; i++)
		if (v[i] == port)
			return;
	if (*n < FBAC_MAX_INFER_PORTS)
		v[(*n)++] = port;
}

void infer_program(const char *typed, const char *exe, char *const *argv,
		   const struct fbac_env *env, bool full,
		   struct infer_program *ip)
{
	const char *home = fbac_env_get(env, "HOME", 4);
	const char *base;
	char name[NAME_MAX + 1], cwd[PATH_MAX];
	struct timespec t0, t1;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	base = strrchr(typed, '/') ? strrchr(typed, '/') + 1 : typed;
	snprintf(ip->typed, sizeof(ip->typed), "%s", base);
	snprintf(ip->exe, sizeof(ip->exe), "%s", exe);
	snprintf(ip->cmd, sizeof(ip->cmd), "%s", strchr(typed, '/') ? exe : typed);
	ip->resolved = realpath(exe, ip->real) != NULL;
	if (!ip->resolved || streq(ip->real, exe))
		ip->real[0] = 0;
	find_interpreter(ip);
	base = ip->real[0] ? strrchr(ip->real, '/') + 1 : ip->typed;
	if (fbac_infer_short_name(base, name, sizeof(name)) == 0)
		add_name(ip, name);
	add_name(ip, ip->typed);
	add_name(ip, base);
	if (!full) {
		ip->disabled = true;
		return;
	}
	find_package(ip, env);
	add_name(ip, ip->package);
	find_user_dirs(ip, env);
	for (size_t i = 1; argv && argv[i]; i++) {
		int port = fbac_infer_url_port(argv[i]);
		const char *f = NULL;

		if (port > 0)
			add_port(ip->url_ports, &ip->n_url_ports, (unsigned)port);
		if ((!strcmp(argv[i], "-p") || !strcmp(argv[i], "-P")) && argv[i + 1])
			f = argv[i + 1];
		else if (!strncmp(argv[i], "-p", 2) && argv[i][2])
			f = argv[i] + 2;
		if (f && strspn(f, "0123456789") == strlen(f) && strlen(f) <= 5 &&
		    atoi(f) > 0 && atoi(f) < 65536)
			add_port(ip->flag_ports, &ip->n_flag_ports, (unsigned)atoi(f));
	}
	if (getcwd(cwd, sizeof(cwd))) {
		for (size_t i = 1; argv && argv[i]; i++) {
			const char *a = fbac_infer_arg_path(argv[i]);

			if (a)
				add_path(ip, cwd, a);
		}
		if (home && fbac_infer_cwd_ok(cwd, home))
			memcpy(ip->cwd, cwd, sizeof(cwd));
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ip->ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 +
		 (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
}

static void put(struct fbac_blob_out *o, const char *s)
{
	fbac_blob_put_str(o, s, strlen(s));
}

void infer_key(const struct infer_program *ip, struct fbac_blob_out *o)
{
	put(o, "infer 1");
	fbac_blob_put_u8(o, ip->disabled);
	put(o, ip->typed);
	put(o, ip->package);
	put(o, ip->interp);
	put(o, ip->interp_real);
	fbac_blob_put_u32(o, (uint32_t)ip->n_names);
	for (size_t i = 0; i < ip->n_names; i++)
		put(o, ip->names[i]);
	put(o, ip->lib_dir);
	put(o, ip->etc_dir);
	put(o, ip->games_share);
	put(o, ip->games_lib);
	put(o, ip->user_name);
	put(o, ip->dot_dir);
	put(o, ip->config_dir);
	put(o, ip->data_dir);
	put(o, ip->cache_dir);
	fbac_blob_put_u32(o, (uint32_t)ip->n_paths);
	for (size_t i = 0; i < ip->n_paths; i++) {
		put(o, ip->paths[i].path);
		fbac_blob_put_u8(o, (uint8_t)ip->paths[i].kind);
	}
	fbac_blob_put_u8(o, ip->paths_cut);
	put(o, ip->cwd);
	fbac_blob_put_u32(o, (uint32_t)ip->n_url_ports);
	for (size_t i = 0; i < ip->n_url_ports; i++)
		fbac_blob_put_u32(o, ip->url_ports[i]);
	fbac_blob_put_u32(o, (uint32_t)ip->n_flag_ports);
	for (size_t i = 0; i < ip->n_flag_ports; i++)
		fbac_blob_put_u32(o, ip->flag_ports[i]);
}

int infer_find_program(const char *name, char *out, size_t size)
{
	const char *path = getenv("PATH");
	char cwd[PATH_MAX];

	if (strchr(name, '/')) {
		if (name[0] != '/' && !getcwd(cwd, sizeof(cwd)))
			return -errno;
		if (snprintf(out, size, "%s%s%s", name[0] == '/' ? "" : cwd,
			     name[0] == '/' ? "" : "/", name) >= (int)size)
			return -ENAMETOOLONG;
		return access(out, X_OK) == 0 ? 0 : -errno;
	}
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
		size_t len = strcspn(p, ":");
		struct stat st;

		if (!len || snprintf(out, size, "%.*s/%s", (int)len, p, name) >=
				    (int)size)
			continue;
		if (stat(out, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(out, X_OK) == 0)
			return 0;
	}
	return -ENOENT;
}
