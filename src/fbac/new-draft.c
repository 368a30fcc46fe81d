/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac new: the application policy being written, as YAML, and what its
 * compiled form shows it still lacks of what the program has on the
 * system (draft_fill).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "fbac.h"
#include "macro.h"
#include "new.h"
#include "output.h"

int draft_add(struct draft *d, const char *name, const char *args,
	      const char *reason)
{
	if (d->n_items >= FBAC_MAX_DRAFT_ITEMS)
		return -E2BIG;
	d->items[d->n_items++] = (struct draft_item){ name, args, reason };
	return 0;
}

int draft_note(struct draft *d, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (d->n_notes >= FBAC_MAX_DRAFT_ITEMS)
		return -E2BIG;
	va_start(ap, fmt);
	s = fbac_arena_vprintf(d->a, fmt, ap);
	va_end(ap);
	if (!s)
		return -ENOMEM;
	d->notes[d->n_notes++] = s;
	return 0;
}

const char *yaml_quote(struct fbac_arena *a, const char *s)
{
	size_t n = strlen(s);
	char *out = fbac_arena_alloc(a, 4 * n + 3), *o = out;

	if (!out)
		return NULL;
	*o++ = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\') {
			*o++ = '\\';
			*o++ = (char)c;
		} else if (c < 0x20 || c == 0x7f) {
			o += sprintf(o, "\\x%02x", c);
		} else {
			*o++ = (char)c;
		}
	}
	*o++ = '"';
	*o = '\0';
	return out;
}

/* A comment: every line starts with "# ". */
static void comment(FILE *f, const char *indent, const char *text)
{
	fprintf(f, "%s# ", indent);
	for (; *text; text++) {
		if (*text == '\n')
			fprintf(f, "\n%s# ", indent);
		else
			fputc(*text, f);
	}
	fputc('\n', f);
}

int draft_write(const struct draft *d, FILE *f)
{
	comment(f, "", d->source);
	for (size_t i = 0; i < d->n_notes; i++)
		comment(f, "", d->notes[i]);
	fprintf(f, "fbac: 1\napplication: %s\n", yaml_quote(d->a, d->name));
	if (d->description)
		fprintf(f, "description: %s\n", yaml_quote(d->a, d->description));
	fprintf(f, "executables: [");
	for (size_t i = 0; i < d->n_exes; i++)
		fprintf(f, "%s%s", i ? ", " : "", yaml_quote(d->a, d->exes[i]));
	fprintf(f, "]\nfunctionalities:\n");
	for (size_t i = 0; i < d->n_items; i++) {
		if (d->items[i].reason)
			comment(f, "  ", d->items[i].reason);
		fprintf(f, "  - %s%s%s\n", d->items[i].name,
			d->items[i].args ? ": " : "",
			d->items[i].args ? d->items[i].args : "");
	}
	return fflush(f) == 0 && !ferror(f) ? 0 : -EIO;
}

int compile_app(const struct layers *l, const struct fbac_application *app,
		struct fbac_policy **ret)
{
	struct fbac_resolve_input ri = {
		.lib = l->lib, .env = &l->env, .trusted_env = &l->trusted_env,
		.app = app, .root_name = app->name, .layer = app->layer,
	};
	struct fbac_resolved *res = NULL;
	struct fbac_diag d = { 0 };
	int r;

	if (l->lib->layers[app->layer].kind == FBAC_LAYER_ADMIN)
		ri.env = &l->trusted_env;
	r = fbac_resolve(&ri, &res, &d);
	if (r == 0)
		r = fbac_policy_compile(&res, app->name, ret, &d);
	fbac_resolved_free(res);
	if (r < 0)
		log_diag(r, &d);
	return r;
}

static bool allows(const struct fbac_policy *pol, enum fbac_op op,
		   const char *path)
{
	struct fbac_verdict v;

	return fbac_policy_check_path(pol, op, path, &v) == 0 && v.allowed;
}

/* Whether a path is at or below a protected path (never granted here). */
static const struct fbac_resolved_protected *
protected_at(const struct fbac_policy *pol, const char *path)
{
	for (size_t i = 0; i < pol->n_protected; i++) {
		size_t n = strlen(pol->protected[i].path);

		if (!strncmp(path, pol->protected[i].path, n) &&
		    (path[n] == '/' || !path[n]))
			return &pol->protected[i];
	}
	return NULL;
}

/* A flow list of quoted items, in the arena. */
static const char *flow_list(struct fbac_arena *a, const char *key,
			     const char *const *items, size_t n)
{
	char *s = fbac_arena_printf(a, "{%s: [", key);

	for (size_t i = 0; s && i < n; i++)
		s = fbac_arena_printf(a, "%s%s%s", s, i ? ", " : "",
				      yaml_quote(a, items[i]));
	return s ? fbac_arena_printf(a, "%s]}", s) : NULL;
}

/* dir added to a set of at most 16, once. */
static void add_dir(const char **set, size_t *n, const char *dir)
{
	for (size_t i = 0; i < *n; i++)
		if (streq(set[i], dir))
			return;
	if (*n < 16)
		set[(*n)++] = dir;
}

static bool is_library(const char *path)
{
	const char *base = strrchr(path, '/') + 1;

	return strstr(base, ".so.") || (strlen(base) > 3 &&
					streq(base + strlen(base) - 3, ".so"));
}

/* The directory a package's helper program belongs to: the package's
 * own directory under /usr/lib, /usr/libexec, /usr/share or /opt (three
 * components), else the program's directory. */
static const char *helper_dir(struct fbac_arena *a, const char *path)
{
	static const char *const tops[] = { "/usr/lib/", "/usr/libexec/",
					    "/usr/share/", "/usr/lib64/", "/opt/" };

	for (size_t i = 0; i < ARRAY_SIZE(tops); i++) {
		size_t n = strlen(tops[i]);
		const char *end;

		if (strncmp(path, tops[i], n))
			continue;
		end = strchr(path + n, '/');
		if (end)
			return fbac_arena_strndup(a, path, (size_t)(end - path));
	}
	return fbac_arena_strndup(a, path, (size_t)(strrchr(path, '/') - path));
}

/* The package's programs in the directories of PATH are programs of
 * their own, not helpers of this one. */
static bool in_bin_dir(const char *path)
{
	static const char *const dirs[] = { "/usr/bin/", "/bin/", "/usr/sbin/", "/sbin/",
					    "/usr/games/", "/usr/local/bin/" };

	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		if (!strncmp(path, dirs[i], strlen(dirs[i])) &&
		    !strchr(path + strlen(dirs[i]), '/'))
			return true;
	return false;
}

static int fill_package(struct draft *d, const struct probe *p,
			const struct fbac_policy *pol)
{
	const char *run[16], *conf_dirs[16], *conf_files[16];
	size_t n_run = 0, n_dirs = 0, n_files = 0;
	int r = 0;

	for (size_t i = 0; i < p->n_files; i++) {
		const char *f = p->files[i];
		struct stat st;

		if (lstat(f, &st) < 0 || !S_ISREG(st.st_mode))
			continue;
		if ((st.st_mode & 0111) && !is_library(f) && !in_bin_dir(f) &&
		    !allows(pol, FBAC_OP_FILE_EXECUTE, f) && !streq(f, p->canon)) {
			const char *dir = helper_dir(d->a, f), *base;

			if (!dir)
				return -ENOMEM;
			/* Only the program's or the package's own directory:
			 * a package of many programs (x11-apps) has helpers
			 * of the others. */
			base = strrchr(dir, '/') + 1;
			if (streq(base, p->name) || (p->package && streq(base, p->package)))
				add_dir(run, &n_run, dir);
		}
		if (!strncmp(f, "/etc/", 5) && !allows(pol, FBAC_OP_FILE_READ, f)) {
			const char *slash = strchr(f + 5, '/');

			if (slash) {
				const char *dir = fbac_arena_strndup(
					d->a, f, (size_t)(slash - f));

				if (!dir)
					return -ENOMEM;
				add_dir(conf_dirs, &n_dirs, dir);
			} else {
				add_dir(conf_files, &n_files, f);
			}
		}
	}
	if (n_run)
		r = draft_add(d, "Run_Programs_From",
			      flow_list(d->a, "dir", run, n_run),
			      fbac_arena_printf(d->a, "the package %s ships helper programs there",
						p->package));
	if (r == 0 && n_dirs)
		r = draft_add(d, "Read_Only_Directory",
			      flow_list(d->a, "dir", conf_dirs, n_dirs),
			      fbac_arena_printf(d->a, "the package %s's configuration",
						p->package));
	if (r == 0 && n_files)
		r = draft_add(d, "Read_Only_Files",
			      flow_list(d->a, "files", conf_files, n_files),
			      fbac_arena_printf(d->a, "the package %s's configuration",
						p->package));
	return r;
}

static int fill_libs(struct draft *d, const struct probe *p,
		     const struct fbac_policy *pol)
{
	const char *dirs[16];
	size_t n = 0;

	for (size_t i = 0; i < p->n_libs; i++) {
		const char *dir;

		if (allows(pol, FBAC_OP_FILE_READ, p->libs[i]))
			continue;
		dir = fbac_arena_strndup(d->a, p->libs[i],
					 (size_t)(strrchr(p->libs[i], '/') - p->libs[i]));
		if (!dir)
			return -ENOMEM;
		add_dir(dirs, &n, *dir ? dir : "/");
	}
	if (!n)
		return 0;
	return draft_add(d, "Read_Only_Directory", flow_list(d->a, "dir", dirs, n),
			 "ldd: libraries outside the standard directories");
}

/* The per-user folders of the program that exist. */
static int fill_user(struct draft *d, const struct probe *p,
		     const struct fbac_policy *pol, const struct fbac_env *env)
{
	static const struct {
		const char *var, *functionality;
	} xdg[] = {
		{ "XDG_CONFIG_HOME", "Application_Config" },
		{ "XDG_DATA_HOME", "Application_Data" },
		{ "XDG_CACHE_HOME", "Application_Cache" },
		{ "XDG_STATE_HOME", "Application_State" },
	};
	const char *names[2] = { p->name, p->package };
	const char *home = fbac_env_get(env, "HOME", 4);
	int r;

	for (size_t k = 0; k < 2; k++) {
		const char *n = names[k];
		const char *path;
		struct stat st;

		if (!n || (k == 1 && streq(n, names[0])))
			continue;
		path = fbac_arena_printf(d->a, "%s/.%s", home, n);
		if (!path)
			return -ENOMEM;
		if (stat(path, &st) == 0 &&
		    !allows(pol, S_ISDIR(st.st_mode) ? FBAC_OP_FILE_CREATE :
						      FBAC_OP_FILE_WRITE,
			    S_ISDIR(st.st_mode) ?
				    fbac_arena_printf(d->a, "%s/x", path) : path)) {
			if (protected_at(pol, path)) {
				r = draft_note(d, "~/.%s exists but is protected: not granted", n);
			} else {
				const char *v = fbac_arena_printf(d->a, "~/.%s", n);

				r = draft_add(d, S_ISDIR(st.st_mode) ? "Read_Write_Directory" :
								       "Read_Only_Files",
					      flow_list(d->a, S_ISDIR(st.st_mode) ? "dir" : "files",
							&v, 1),
					      fbac_arena_printf(d->a, "~/.%s exists", n));
			}
			if (r < 0)
				return r;
		}
		for (size_t i = 0; i < ARRAY_SIZE(xdg); i++) {
			const char *base = fbac_env_get(env, xdg[i].var,
							strlen(xdg[i].var));

			path = fbac_arena_printf(d->a, "%s/%s", base, n);
			if (!path)
				return -ENOMEM;
			if (stat(path, &st) < 0 || !S_ISDIR(st.st_mode) ||
			    allows(pol, FBAC_OP_FILE_CREATE,
				   fbac_arena_printf(d->a, "%s/x", path)))
				continue;
			r = draft_add(d, xdg[i].functionality,
				      fbac_arena_printf(d->a, "{app_name: %s}",
							yaml_quote(d->a, n)),
				      fbac_arena_printf(d->a, "%s exists", path));
			if (r < 0)
				return r;
		}
	}
	return 0;
}

/* What the program's imports say of the network, when the draft grants
 * none: a note, since the ports and hosts are not known before it runs. */
static int note_network(struct draft *d, const struct probe *p,
			const struct fbac_policy *pol)
{
	bool out = false, in = false;

	for (size_t i = 0; i < pol->n_net; i++)
		if (pol->net[i]->ops & FBAC_OP_BIT(FBAC_OP_NETWORK_OUTGOING))
			out = true;
		else
			in = true;
	for (size_t i = 0; i < p->elf.n_imports; i++) {
		const char *s = p->elf.imports[i];

		if (!out && (streq(s, "connect") || streq(s, "getaddrinfo"))) {
			out = true;
			if (draft_note(d, "it calls %s(): if it connects to servers, add HTTP_Client, or TCP_Client or UDP_Client with their ports (not known before it runs)", s) < 0)
				return -ENOMEM;
		}
		if (!in && (streq(s, "listen") || streq(s, "recvfrom"))) {
			in = true;
			if (draft_note(d, "it calls %s(): if it serves clients, add TCP_Server or UDP_Server with their ports", s) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

int draft_fill(struct draft *d, const struct probe *p,
	       const struct fbac_policy *pol, const struct fbac_env *env)
{
	int r;

	if ((r = fill_libs(d, p, pol)) < 0 || (r = fill_package(d, p, pol)) < 0 ||
	    (r = fill_user(d, p, pol, env)) < 0 || (r = note_network(d, p, pol)) < 0)
		return r == -E2BIG ?
			       log_error(r,
					 "too many functionalities for one policy (at most %d)",
					 FBAC_MAX_DRAFT_ITEMS) :
			       log_error(r, "out of memory");
	return 0;
}
