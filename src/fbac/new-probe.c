/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac new: the evidence about a program. Its path (PATH), its package
 * (the dpkg database's file lists and status file, read directly), its
 * desktop entry, the libraries it names (its ELF dynamic section) and the
 * ones the loader finds for it (ldd, run only for the system's loader).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fbac-limits.h"
#include "macro.h"
#include "new.h"
#include "output.h"
#include "path.h"

#define DPKG_INFO "/var/lib/dpkg/info"
#define DPKG_STATUS "/var/lib/dpkg/status"
#define APPLICATIONS "/usr/share/applications"

static inline void closedirp(DIR **d)
{
	if (*d)
		closedir(*d);
}

/* A whole file into a NUL-terminated malloc'd buffer. */
static int read_file(const char *path, char **ret, size_t *len)
{
	_cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC);
	_cleanup_free_ char *buf = NULL;
	struct stat st;
	size_t n = 0;

	if (fd < 0 || fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (st.st_size > FBAC_MAX_INFO_FILE)
		return -EFBIG;
	buf = malloc((size_t)st.st_size + 1);
	if (!buf)
		return -ENOMEM;
	while (n < (size_t)st.st_size) {
		ssize_t k = read(fd, buf + n, (size_t)st.st_size - n);

		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		n += (size_t)k;
	}
	buf[n] = '\0';
	*ret = TAKE_PTR(buf);
	*len = n;
	return 0;
}

static int find_in_path(const char *program, char *buf, size_t size)
{
	const char *path = getenv("PATH");

	if (strchr(program, '/')) {
		char cwd[PATH_MAX], joined[2 * PATH_MAX + 2];
		const char *why;

		if (access(program, X_OK) < 0)
			return -errno;
		/* ./prog: absolute, as the policy's executables must be. */
		if (program[0] != '/' && !getcwd(cwd, sizeof(cwd)))
			return -errno;
		snprintf(joined, sizeof(joined), "%s%s%s", program[0] == '/' ? "" : cwd,
			 program[0] == '/' ? "" : "/", program);
		return fbac_path_normalize(joined, buf, size, &why);
	}
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (const char *p = path; *p;) {
		size_t n = strcspn(p, ":");
		struct stat st;

		if (n > 0 && p[0] == '/' &&
		    (size_t)snprintf(buf, size, "%.*s/%s", (int)n, p, program) < size &&
		    stat(buf, &st) == 0 && S_ISREG(st.st_mode) &&
		    access(buf, X_OK) == 0)
			return 0;
		p += n + (p[n] == ':');
	}
	return -ENOENT;
}

/* The forms a path may have in the file lists (merged /usr or not). */
static size_t list_forms(const struct probe *p, char forms[4][PATH_MAX])
{
	const char *src[2] = { p->exe, p->canon };
	size_t n = 0;

	for (size_t i = 0; i < 2; i++) {
		const char *s = src[i];

		snprintf(forms[n++], PATH_MAX, "%s", s);
		if (!strncmp(s, "/usr/", 5))
			snprintf(forms[n++], PATH_MAX, "%s", s + 4);
		else if ((size_t)snprintf(forms[n], PATH_MAX, "/usr%s", s) < PATH_MAX)
			n++;
	}
	return n;
}

static bool list_has(const char *buf, const char *path)
{
	size_t n = strlen(path);

	for (const char *s = buf; (s = strstr(s, path)); s++)
		if ((s == buf || s[-1] == '\n') && (s[n] == '\n' || !s[n]))
			return true;
	return false;
}

static int load_files(struct probe *p, char *buf)
{
	size_t n = 0, k = 0;

	for (const char *s = buf; *s; s++)
		n += *s == '\n';
	p->files = fbac_arena_array(p->a, n + 1, sizeof(*p->files));
	if (!p->files)
		return -ENOMEM;
	for (char *line = buf, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (!nl)
			nl = line + strlen(line) - 1;
		else
			*nl = '\0';
		if (line[0] == '/' && line[1] &&
		    !(p->files[k++] = fbac_arena_strdup(p->a, line)))
			return -ENOMEM;
		if (!nl[1])
			break;
	}
	p->n_files = k;
	return 0;
}

/* dpkg -S: the package whose file list names the program. */
static int find_package(struct probe *p)
{
	_cleanup_(closedirp) DIR *d = opendir(DPKG_INFO);
	char forms[4][PATH_MAX];
	size_t n_forms = list_forms(p, forms);
	struct dirent *e;

	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		_cleanup_free_ char *buf = NULL;
		char path[PATH_MAX];
		size_t n;
		bool hit = false;

		if (len < 6 || strcmp(e->d_name + len - 5, ".list"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", DPKG_INFO, e->d_name);
		if (read_file(path, &buf, &n) < 0)
			continue;
		for (size_t i = 0; i < n_forms && !hit; i++)
			hit = list_has(buf, forms[i]);
		if (!hit)
			continue;
		/* "w3m.list", "libc6:amd64.list" */
		len -= 5;
		if (memchr(e->d_name, ':', len))
			len = (size_t)((char *)memchr(e->d_name, ':', len) - e->d_name);
		p->package = fbac_arena_strndup(p->a, e->d_name, len);
		if (!p->package)
			return -ENOMEM;
		return load_files(p, buf);
	}
	return -ENOENT;
}

bool probe_pkg_has(const struct probe *p, const char *path)
{
	for (size_t i = 0; i < p->n_files; i++)
		if (streq(p->files[i], path))
			return true;
	return false;
}

static int try_desktop(struct probe *p, const char *path, bool need_match)
{
	_cleanup_free_ char *buf = NULL;
	struct fbac_desktop d;
	char exe[256];
	size_t n;
	const char *base = strrchr(p->canon, '/') + 1;
	int r;

	if (read_file(path, &buf, &n) < 0)
		return 0;
	r = fbac_desktop_parse(buf, n, p->a, &d);
	if (r == -ENOMEM)
		return r;
	if (r < 0 || !d.exec || fbac_desktop_exec_name(d.exec, exe, sizeof(exe)) < 0)
		return 0;
	if (need_match && !streq(exe, p->name) && !streq(exe, base))
		return 0;
	p->desktop = d;
	p->desktop_path = fbac_arena_strdup(p->a, path);
	return p->desktop_path ? 1 : -ENOMEM;
}

/* The package's desktop entry that starts the program (or its only one),
 * else any installed entry that starts it. */
static int find_desktop(struct probe *p)
{
	const char *only = NULL;
	size_t n_entries = 0;
	int r;

	for (size_t i = 0; i < p->n_files; i++) {
		const char *f = p->files[i];
		size_t len = strlen(f);

		if (strncmp(f, APPLICATIONS "/", sizeof(APPLICATIONS)) ||
		    len < 9 || strcmp(f + len - 8, ".desktop"))
			continue;
		n_entries++;
		only = f;
		if ((r = try_desktop(p, f, true)) != 0)
			return r < 0 ? r : 0;
	}
	if (n_entries == 1 && (r = try_desktop(p, only, false)) != 0)
		return r < 0 ? r : 0;

	_cleanup_(closedirp) DIR *d = opendir(APPLICATIONS);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		char path[PATH_MAX];

		if (len < 9 || strcmp(e->d_name + len - 8, ".desktop"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", APPLICATIONS, e->d_name);
		if ((r = try_desktop(p, path, true)) != 0)
			return r < 0 ? r : 0;
	}
	return 0;
}

static int read_elf(struct probe *p)
{
	_cleanup_close_ int fd = open(p->canon, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *m;
	int r;

	if (fd < 0 || fstat(fd, &st) < 0)
		return -errno;
	if (st.st_size < 16 || st.st_size > FBAC_MAX_ELF_SIZE)
		return -ENOEXEC;
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	r = fbac_elf_parse(m, (size_t)st.st_size, p->a, &p->elf);
	munmap(m, (size_t)st.st_size);
	if (r == 0)
		p->have_elf = true;
	return r;
}

/* A script's interpreter: the first word of its "#!" line, or the word
 * after env. */
static int read_script(struct probe *p)
{
	_cleanup_close_ int fd = open(p->canon, O_RDONLY | O_CLOEXEC);
	char buf[256], *s, *w;
	ssize_t n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	if (n < 3 || buf[0] != '#' || buf[1] != '!')
		return 0;
	buf[n] = '\0';
	s = buf + 2;
	s[strcspn(s, "\n")] = '\0';
	w = strtok(s, " \t");
	if (w && !strcmp(strrchr(w, '/') ? strrchr(w, '/') + 1 : w, "env"))
		while ((w = strtok(NULL, " \t")) && (w[0] == '-' || strchr(w, '=')))
			;
	if (!w)
		return 0;
	p->script = fbac_arena_strdup(p->a, w);
	return p->script ? 0 : -ENOMEM;
}

/* Whether an interpreter is the system's dynamic loader: ldd runs it. */
static bool system_loader(const char *interp)
{
	static const char *const dirs[] = { "/lib/", "/lib64/", "/usr/lib/",
					    "/usr/lib64/", "/lib32/" };
	struct stat st;

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (!strncmp(interp, dirs[i], strlen(dirs[i])) &&
		    !strstr(interp, "/../") && strstr(interp, "/ld-") &&
		    stat(interp, &st) == 0 && st.st_uid == 0 &&
		    !(st.st_mode & (S_IWGRP | S_IWOTH)))
			return true;
	return false;
}

/* ldd PROGRAM: every library the loader finds, by path. */
static int run_ldd(struct probe *p)
{
	int fds[2];
	pid_t pid;
	_cleanup_fclose_ FILE *f = NULL;
	char *line = NULL;
	size_t cap = 0, cap_libs = 0;
	int status, r = 0;

	if (!p->have_elf || !p->elf.interp) {
		p->ldd_note = "not a dynamically linked ELF program";
		return 0;
	}
	if (!system_loader(p->elf.interp)) {
		p->ldd_note = fbac_arena_printf(p->a,
			"its loader '%s' is not the system's", p->elf.interp);
		return p->ldd_note ? 0 : -ENOMEM;
	}
	if (pipe2(fds, O_CLOEXEC) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(fds[0]);
		close(fds[1]);
		return r;
	}
	if (pid == 0) {
		char *const env[] = { "PATH=/usr/bin:/bin", "LC_ALL=C", NULL };
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);

		dup2(fds[1], 1);
		if (null >= 0)
			dup2(null, 2), dup2(null, 0);
		execle("/usr/bin/ldd", "ldd", p->canon, (char *)NULL, env);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	if (!f) {
		close(fds[0]);
		waitpid(pid, NULL, 0);
		return -ENOMEM;
	}
	while (getline(&line, &cap, f) > 0) {
		char *arrow = strstr(line, "=> "), *path, *end;

		path = arrow ? arrow + 3 : line + strspn(line, " \t");
		if (path[0] != '/')
			continue;
		end = strstr(path, " (");
		if (!end)
			end = path + strcspn(path, "\n");
		if (r == 0 && fbac_arena_grow(p->a, (void **)&p->libs, &cap_libs,
					      p->n_libs + 1, sizeof(*p->libs)) < 0)
			r = -ENOMEM;
		if (r == 0 && !(p->libs[p->n_libs++] = fbac_arena_strndup(
					p->a, path, (size_t)(end - path))))
			r = -ENOMEM;
	}
	free(line);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (r == 0 && !(WIFEXITED(status) && WEXITSTATUS(status) == 0))
		p->ldd_note = "ldd failed on it";
	return r;
}

int probe_program(const char *program, struct fbac_arena *a, struct probe *p)
{
	_cleanup_free_ char *status = NULL;
	const char *slash;
	size_t n;
	int r;

	*p = (struct probe){ .a = a };
	if ((r = find_in_path(program, p->exe, sizeof(p->exe))) < 0)
		return log_error(r, "cannot find the program '%s' in PATH", program);
	if (!realpath(p->exe, p->canon))
		return log_error(-errno, "cannot resolve '%s'", p->exe);
	slash = strrchr(p->exe, '/');
	p->name = fbac_arena_strdup(a, slash ? slash + 1 : p->exe);
	if (!p->name)
		return -ENOMEM;
	r = find_package(p);
	if (r == -ENOMEM)
		return r;
	if (r == 0 && read_file(DPKG_STATUS, &status, &n) == 0) {
		r = fbac_dpkg_find(status, n, p->package, a, &p->pkg);
		if (r == -ENOMEM)
			return r;
		p->have_pkg = r == 0;
	}
	if ((r = find_desktop(p)) < 0)
		return r;
	r = read_elf(p);
	if (r == -ENOMEM || (r == -ENOEXEC && (r = read_script(p)) < 0))
		return r;
	return run_ldd(p);
}
