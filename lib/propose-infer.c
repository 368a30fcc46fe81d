/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Learning: the values worth trying for parameters, from the accesses. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fbac-limits.h"
#include "macro.h"
#include "path.h"
#include "propose-int.h"

bool sensitive_dir(const struct ctx *c, const char *dir)
{
	static const char *const fixed[] = { "/", "/tmp", "/var/tmp", "/etc",
					     "/usr", "/proc", "/sys", "/dev",
					     "/run", "/var", "/home", "/root",
					     "/opt", "/usr/local", "/usr/share",
					     "/usr/lib", "/bin", "/lib",
					     "/usr/bin", "/dev/shm", "/run/user" };
	static const char *const home_rel[] = { "", ".config", ".cache",
						".local", ".local/share",
						".local/state", ".local/bin" };
	char buf[FBAC_MAX_PATH];

	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		if (streq(dir, fixed[i]))
			return true;
	for (size_t i = 0; c->home && i < ARRAY_SIZE(home_rel); i++) {
		snprintf(buf, sizeof(buf), "%s%s%s", c->home,
			 home_rel[i][0] ? "/" : "", home_rel[i]);
		if (streq(dir, buf))
			return true;
	}
	/* Above the home directory. */
	if (c->home && fbac_path_is_under(c->home, dir))
		return true;
	for (size_t i = 0; i < c->n; i++)
		if (c->obs[i].prot && fbac_path_is_under(dir, c->obs[i].prot->path))
			return true;
	return false;
}

int values_add(struct ctx *c, struct values *v, const char *s)
{
	for (size_t i = 0; i < v->n; i++)
		if (streq(v->v[i], s))
			return 0;
	if (v->n >= FBAC_MAX_LEARN_VALUES)
		return 0; /* enough to choose from; the first found are kept */
	if (!(v->v[v->n] = fbac_arena_strdup(c->a, s)))
		return -ENOMEM;
	v->n++;
	return 0;
}

void parent_of(const char *path, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');

	snprintf(buf, size, "%.*s", (int)(slash == path ? 1 : slash - path), path);
}

/* The folders written, then those read, in the order of their first access
 * (with the program's own folder between them), and the folders written
 * together. */
static int infer_dirs_accessed(struct ctx *c)
{
	char dir[FBAC_MAX_PATH], list[FBAC_MAX_PATH] = "";
	size_t n_written = 0;
	int r;

	for (int pass = 0; pass < 2; pass++) {
		/* Between the folders written and those read: the
		 * program's own folder (/usr/lib/firefox-esr), where a
		 * functionality may expect the program's files. */
		if (pass == 1 && (c->in->canonical || c->in->program)) {
			parent_of(c->in->canonical ? c->in->canonical : c->in->program,
				  dir, sizeof(dir));
			if (!sensitive_dir(c, dir) && (r = values_add(c, &c->dirs, dir)) < 0)
				return r;
		}
		for (size_t i = 0; i < c->n; i++) {
			const struct fbac_obs *o = &c->obs[i];
			uint32_t bit = FBAC_OP_BIT(o->q.op);

			if (!o->q.path || o->q.path[0] != '/' || o->prot)
				continue;
			if (pass == 0 ? !(bit & WRITE_OPS) :
					!(bit & (FBAC_OP_BIT(FBAC_OP_FILE_READ) |
						 FBAC_OP_BIT(FBAC_OP_DIR_READ))))
				continue;
			if (!c->home || !fbac_path_is_under(o->q.path, c->home) ||
			    streq(o->q.path, c->home)) {
				/* Outside the home directory: only folders
				 * written, never system ones. */
				if (pass)
					continue;
			}
			if (o->q.op == FBAC_OP_DIR_READ || o->q.op == FBAC_OP_DIR_MKDIR)
				snprintf(dir, sizeof(dir), "%s", o->q.path);
			else
				parent_of(o->q.path, dir, sizeof(dir));
			if (sensitive_dir(c, dir) || !strncmp(dir, "/proc/", 6) ||
			    !strncmp(dir, "/sys/", 5) || !strncmp(dir, "/dev/", 5) ||
			    !strncmp(dir, "/usr/", 5) || !strncmp(dir, "/etc/", 5))
				continue;
			if ((r = values_add(c, &c->dirs, dir)) < 0)
				return r;
			if (pass == 0 && c->dirs.n > n_written) {
				n_written = c->dirs.n;
				if (strlen(list) + strlen(dir) + 2 < sizeof(list))
					snprintf(list + strlen(list),
						 sizeof(list) - strlen(list), "%s%s",
						 list[0] ? "," : "", dir);
			}
		}
	}
	if (strchr(list, ',') && (r = values_add(c, &c->dirs, list)) < 0)
		return r;
	return 0;
}

/* A protected folder the run used, then every folder read or written,
 * together. */
static int infer_dirs_protected_and_all(struct ctx *c)
{
	char list[FBAC_MAX_PATH] = "";
	int r;

	/* A protected folder the run used: where a functionality that names
	 * it (a browser's profile) may be pointed. */
	for (size_t i = 0; i < c->n; i++)
		if (c->obs[i].prot && !streq(c->obs[i].q.path, c->obs[i].prot->path) &&
		    (r = values_add(c, &c->dirs, c->obs[i].prot->path)) < 0)
			return r;
	/* Every folder read or written, together. */
	for (size_t i = 0; i < c->dirs.n; i++)
		if (!strchr(c->dirs.v[i], ',') && !sensitive_dir(c, c->dirs.v[i]) &&
		    strlen(list) + strlen(c->dirs.v[i]) + 2 < sizeof(list))
			snprintf(list + strlen(list), sizeof(list) - strlen(list),
				 "%s%s", list[0] ? "," : "", c->dirs.v[i]);
	if (strchr(list, ',') && (r = values_add(c, &c->dirs, list)) < 0)
		return r;
	return 0;
}

/* The ports and hosts connected to, and the ports listened on below the
 * ephemeral range. */
static int infer_ports_hosts(struct ctx *c)
{
	int r;

	for (size_t i = 0; i < c->n; i++) {
		const struct fbac_obs *o = &c->obs[i];
		char port[16];

		if (o->q.op != FBAC_OP_NETWORK_OUTGOING &&
		    o->q.op != FBAC_OP_NETWORK_INCOMING)
			continue;
		if (o->q.port == 0 ||
		    (o->q.op == FBAC_OP_NETWORK_INCOMING && o->q.port >= 32768))
			continue;
		snprintf(port, sizeof(port), "%u", o->q.port);
		if ((r = values_add(c, &c->ports, port)) < 0)
			return r;
		if (o->q.host && (r = values_add(c, &c->hosts, o->q.host)) < 0)
			return r;
	}
	return 0;
}

/* The program's base name, and NAME of ~/.NAME, ~/.config/NAME,
 * ~/.cache/NAME, ~/.local/share/NAME. */
static int infer_names(struct ctx *c)
{
	int r;

	if (c->in->program) {
		const char *base = strrchr(c->in->program, '/');

		if ((r = values_add(c, &c->names, base ? base + 1 : c->in->program)) < 0)
			return r;
	}
	/* ~/.NAME, ~/.config/NAME, ~/.cache/NAME, ~/.local/share/NAME. */
	for (size_t i = 0; c->home && i < c->n; i++) {
		const char *p = c->obs[i].q.path, *rest, *e;
		static const char *const bases[] = { "/.config/", "/.cache/",
						     "/.local/share/", "/." };

		if (!p || c->obs[i].prot || !fbac_path_is_under(p, c->home) ||
		    streq(p, c->home))
			continue;
		rest = p + strlen(c->home);
		for (size_t b = 0; b < ARRAY_SIZE(bases); b++) {
			size_t bl = strlen(bases[b]);
			char name[FBAC_MAX_NAME];

			if (strncmp(rest, bases[b], bl))
				continue;
			e = strchr(rest + bl, '/');
			snprintf(name, sizeof(name), "%.*s",
				 (int)(e ? (size_t)(e - rest - bl) : strlen(rest + bl)),
				 rest + bl);
			/* Not the XDG folders themselves. */
			if (b == ARRAY_SIZE(bases) - 1 &&
			    (streq(name, "config") || streq(name, "cache") ||
			     streq(name, "local")))
				break;
			if (name[0] && !strchr(name, '.') &&
			    (r = values_add(c, &c->names, name)) < 0)
				return r;
			break;
		}
	}
	return 0;
}

/* The values worth trying: folders written, then folders read, in the
 * order of their first access; ports and hosts connected to; names. */
int infer_values(struct ctx *c)
{
	int r;

	if ((r = infer_dirs_accessed(c)) < 0 ||
	    (r = infer_dirs_protected_and_all(c)) < 0 ||
	    (r = infer_ports_hosts(c)) < 0 || (r = infer_names(c)) < 0)
		return r;
	return 0;
}
