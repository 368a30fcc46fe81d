/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "params.h"
#include "params-int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fbac-limits.h"
#include "infer.h"
#include "output.h"
#include "path.h"

/* What the paths named on the command line (and the working directory)
 * fill. A parameter not listed here gets none of them. */
enum {
	R_FILES = 1,	 /* existing files */
	R_DIRS = 2,	 /* existing directories */
	R_NEW = 4,	 /* files to create */
	R_SIBLINGS = 8,	 /* with an editor's swap, backup and test files */
	R_CWD = 16,	 /* the working directory */
	R_FOLDER = 32,	 /* a file's folder instead of the file (a player
			  * reads subtitles and covers beside it) */
	R_ARGS = R_FILES | R_DIRS | R_NEW,
};

static const struct {
	const char *func, *param; /* func NULL: any */
	unsigned role;
} roles[] = {
	{ "File_Editor", "documents", R_ARGS | R_SIBLINGS },
	{ "Terminal_Application", "files", R_ARGS | R_SIBLINGS },
	{ "Archive_Manager", "sources", R_FILES | R_DIRS },
	{ "Archive_Manager", "destinations", R_NEW | R_DIRS | R_CWD },
	{ "Software_Build", "sources", R_ARGS | R_CWD },
	{ "Version_Control_Client", "repos", R_ARGS | R_CWD },
	{ "Script_Interpreter", "projects", R_ARGS | R_CWD },
	{ "Download_Manager", "downloads", R_CWD },
	{ NULL, "documents", R_FILES | R_DIRS },
	{ NULL, "files", R_FILES | R_DIRS },
	{ NULL, "media", R_FILES | R_DIRS | R_FOLDER },
	{ NULL, "pictures", R_ARGS },
	{ NULL, "attachments", R_FILES | R_DIRS },
	{ NULL, "transfers", R_ARGS },
};

static unsigned role_of(const char *func, const char *param)
{
	for (size_t i = 0; i < sizeof(roles) / sizeof(roles[0]); i++)
		if ((!roles[i].func || streq(roles[i].func, func)) &&
		    streq(roles[i].param, param))
			return roles[i].role;
	return 0;
}

/* A growing comma-separated value. */
struct val {
	char s[FBAC_MAX_SCALAR];
	size_t len;
	bool bad;
};

static void val_add(struct val *v, const char *item)
{
	size_t n = strlen(item);

	if (v->len + n + 2 > sizeof(v->s)) {
		v->bad = true;
		return;
	}
	if (v->len)
		v->s[v->len++] = ',';
	memcpy(v->s + v->len, item, n + 1);
	v->len += n;
}

/* A YAML argument as a -D value; false when it cannot be one. */
static bool node_value(const struct fbac_ynode *n, struct val *v)
{
	if (n->kind == FBAC_Y_SCALAR) {
		if (strchr(n->value, ','))
			return false;
		val_add(v, n->value);
		return !v->bad;
	}
	if (n->kind != FBAC_Y_SEQ)
		return false;
	for (size_t i = 0; i < n->n; i++)
		if (n->items[i]->kind != FBAC_Y_SCALAR ||
		    !node_value(n->items[i], v))
			return false;
	return true;
}

/* Whether a value refers to another parameter ($name): not usable alone. */
static bool refers_to_param(const char *s)
{
	for (const char *p = strchr(s, '$'); p; p = strchr(p + 1, '$')) {
		if (p[1] == '$') {
			p++;
			continue;
		}
		if (p[1] == '{' ? p[2] >= 'a' && p[2] <= 'z' :
				  p[1] >= 'a' && p[1] <= 'z')
			return true;
	}
	return false;
}

/* The argument param of grant func in a list of includes, or NULL. */
static const struct fbac_ynode *arg_of(const struct fbac_include *inc,
				       size_t n, const char *func,
				       const char *param)
{
	for (size_t i = 0; i < n; i++) {
		if (!streq(inc[i].name, func))
			continue;
		for (size_t a = 0; a < inc[i].n_args; a++)
			if (streq(inc[i].arg_names[a], param))
				return inc[i].arg_values[a];
	}
	return NULL;
}

static const struct fbac_application *find_app(const struct fbac_library *lib,
					       const struct infer_program *ip)
{
	const char *keys[3 + FBAC_MAX_INFER_NAMES] = { ip->exe, ip->real,
						       ip->typed };
	size_t nk = 3;

	for (size_t i = 0; i < ip->n_names; i++)
		keys[nk++] = ip->names[i];
	/* The user's own policy first; never the administrator's (a ceiling). */
	for (unsigned l = lib->n_layers; l-- > 0;) {
		if (lib->layers[l].kind == FBAC_LAYER_ADMIN)
			continue;
		for (size_t k = 0; k < nk; k++) {
			const struct fbac_application *a;

			if (keys[k][0] &&
			    (a = fbac_library_find_app(lib, l, keys[k])))
				return a;
		}
	}
	return NULL;
}

const char *params_program_name(const struct fbac_library *lib,
				const struct infer_program *ip)
{
	const struct fbac_application *a = find_app(lib, ip);

	return a ? a->name : ip->names[0];
}

static const struct fbac_settings *find_settings(const struct fbac_library *lib,
						 const char *program,
						 const struct infer_program *ip)
{
	const struct fbac_settings *s = fbac_library_find_settings(lib, program);

	for (size_t i = 0; !s && i < ip->n_names; i++)
		s = fbac_library_find_settings(lib, ip->names[i]);
	return s;
}

static int add_line(struct params *p, const char *func, const char *param,
		    const char *value, const char *source)
{
	struct param_line *l;
	int r = fbac_arena_grow(p->arena, (void **)&p->lines, &p->cap_lines,
				p->n_lines + 1, sizeof(*p->lines));

	if (r < 0)
		return r;
	l = &p->lines[p->n_lines++];
	l->func = func;
	l->param = param;
	l->value = fbac_arena_strdup(p->arena, value);
	l->source = fbac_arena_strdup(p->arena, source);
	return l->value && l->source ? 0 : -ENOMEM;
}

bool params_protected(const struct params_ctx *c, const char *path)
{
	for (size_t i = 0; c->prot && i < c->prot->n_protected; i++)
		if (fbac_path_is_under(path, c->prot->protected[i].path))
			return true;
	return false;
}

/* Add an inferred path to v (escaped); false when it cannot be. */
static bool add_path(struct params_ctx *c, struct val *v, const char *path,
		     const char *func, const char *param)
{
	char esc[FBAC_MAX_PATH];

	if (params_protected(c, path)) {
		add_line(c->out, func, param, path,
			 "not used: a protected path (grant it with -D)");
		return false;
	}
	if (fbac_infer_escape(path, esc, sizeof(esc)) < 0) {
		add_line(c->out, func, param, path,
			 "not used: a ',' or control character (use -D)");
		return false;
	}
	val_add(v, esc);
	return !v->bad;
}

/*
 * The files an editor keeps beside a file named on the command line (its
 * swap, backup and journal files): every one is a value, but they are
 * announced in one line, so a first run does not print ten.
 */
static int add_siblings(struct params_ctx *c, struct val *v, const char *func,
			const char *param, char files[][4096], int n)
{
	char names[1024] = "";
	size_t len = 0;

	for (int k = 1; k < n; k++) {
		const char *base = strrchr(files[k], '/');

		if (!add_path(c, v, files[k], func, param))
			continue;
		base = base ? base + 1 : files[k];
		if (len + strlen(base) + 2 < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len,
						"%s%s", len ? "," : "", base);
	}
	if (!len)
		return 0;
	return add_line(c->out, func, param, names,
			"beside a file named on the command line: its swap, "
			"backup and journal files");
}

/* The program facts that fill a parameter by its name. */
static bool fact(struct params_ctx *c, const char *func,
		 const struct fbac_param *prm, struct val *v, char *src,
		 size_t size)
{
	const struct infer_program *ip = c->in->ip;
	const char *n = prm->name;
	const char *path = NULL;

	if (streq(n, "app_name") && prm->type == FBAC_PT_STRING) {
		const char *name = ip->user_name[0] ? ip->user_name :
						       ip->names[0];
		if (!name[0])
			return false;
		val_add(v, name);
		snprintf(src, size, ip->user_name[0] ?
				   "inferred: its per-user folder exists" :
				   "inferred: the program's name");
		return true;
	}
	if (streq(n, "install_dir") && ip->lib_dir[0])
		path = ip->lib_dir;
	else if (streq(n, "system_config") && ip->etc_dir[0])
		path = ip->etc_dir;
	if (path) {
		snprintf(src, size, "inferred: package %s ships it", ip->package);
		return add_path(c, v, path, func, n);
	}
	if (streq(n, "profile_dir") && (ip->dot_dir[0] || ip->config_dir[0])) {
		snprintf(src, size, "inferred: it exists");
		return add_path(c, v, ip->dot_dir[0] ? ip->dot_dir :
						       ip->config_dir, func, n);
	}
	if (streq(n, "cache_dir") && ip->cache_dir[0]) {
		snprintf(src, size, "inferred: it exists");
		return add_path(c, v, ip->cache_dir, func, n);
	}
	if (streq(n, "data_dirs") && (ip->games_share[0] || ip->games_lib[0])) {
		snprintf(src, size, "inferred: package %s ships it", ip->package);
		if (ip->games_share[0])
			add_path(c, v, ip->games_share, func, n);
		if (ip->games_lib[0])
			add_path(c, v, ip->games_lib, func, n);
		return v->len > 0;
	}
	if (streq(n, "downloads") && role_of(func, n) & R_CWD && ip->cwd[0] &&
	    prm->type == FBAC_PT_PATH) {
		snprintf(src, size, "inferred: the working directory");
		return add_path(c, v, ip->cwd, func, n);
	}
	return false;
}

/* The paths of the command line this parameter holds, added to v. */
static int add_args(struct params_ctx *c, const char *func,
		    const struct fbac_param *prm, struct val *v)
{
	const struct infer_program *ip = c->in->ip;
	unsigned role = role_of(func, prm->name);
	int r;

	if (ip->disabled)
		return 0;
	if (prm->type == FBAC_PT_PORTS) {
		bool ssh = streq(func, "SSH_Client");

		for (size_t i = 0; i < ip->n_url_ports + (ssh ? ip->n_flag_ports : 0); i++) {
			unsigned port = i < ip->n_url_ports ?
						ip->url_ports[i] :
						ip->flag_ports[i - ip->n_url_ports];
			char num[16];

			snprintf(num, sizeof(num), "%u", port);
			val_add(v, num);
			if ((r = add_line(c->out, func, prm->name, num,
					  i < ip->n_url_ports ?
						  "a URL on the command line names it" :
						  "-p on the command line names it")) < 0)
				return r;
		}
		return 0;
	}
	if (!role || prm->type != FBAC_PT_PATHS)
		return 0;
	for (size_t i = 0; i < ip->n_paths; i++) {
		const struct infer_path *ph = &ip->paths[i];
		char files[FBAC_INFER_FILE_VALUES][4096];
		int n = 1;

		if (!(role & (ph->kind == INFER_FILE ? R_FILES :
			      ph->kind == INFER_DIR  ? R_DIRS :
						       R_NEW)))
			continue;
		/* "/" or the home directory (or above it): all of the
		 * user's files; only -D grants that. */
		if (ph->kind == INFER_DIR &&
		    !fbac_infer_cwd_ok(ph->path, fbac_env_get(c->in->env, "HOME", 4))) {
			if ((r = add_line(c->out, func, prm->name, ph->path,
					  "not used: it would hold all of your files (use -D)")) < 0)
				return r;
			continue;
		}
		if ((role & R_FOLDER) && ph->kind == INFER_FILE) {
			char dir[PATH_MAX];
			const char *home = fbac_env_get(c->in->env, "HOME", 4);

			snprintf(dir, sizeof(dir), "%s", ph->path);
			*strrchr(dir, '/') = 0;
			if (home && dir[0] && fbac_infer_cwd_ok(dir, home) &&
			    add_path(c, v, dir, func, prm->name) &&
			    (r = add_line(c->out, func, prm->name, dir,
					  "the folder of a file named on the command line")) < 0)
				return r;
			if (home && dir[0] && fbac_infer_cwd_ok(dir, home))
				continue;
		}
		if (!add_path(c, v, ph->path, func, prm->name))
			continue;
		if ((r = add_line(c->out, func, prm->name, ph->path,
				  "named on the command line")) < 0)
			return r;
		if (!(role & R_SIBLINGS) || ph->kind == INFER_DIR)
			continue;
		n = fbac_infer_file_values(ph->path, files,
					   FBAC_INFER_FILE_VALUES);
		if ((r = add_siblings(c, v, func, prm->name, files, n)) < 0)
			return r;
	}
	if ((role & R_CWD) && ip->cwd[0] && add_path(c, v, ip->cwd, func,
						      prm->name) &&
	    (r = add_line(c->out, func, prm->name, ip->cwd,
			  "inferred: the working directory")) < 0)
		return r;
	return 0;
}

static int ask(struct params_ctx *c, const char *func,
	       const struct fbac_param *prm, struct val *v)
{
	const char *guess = prm->type == FBAC_PT_STRING ? c->in->ip->names[0] :
			    c->in->ip->cwd;
	_cleanup_free_ char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	/* On the terminal itself: standard error may be a file. */
	_cleanup_fclose_ FILE *tty = fopen("/dev/tty", "we");
	FILE *out = tty ? tty : stderr;

	fprintf(out, "fbac: %s (%s.%s)%s%s%s: ",
		prm->ask ? prm->ask : "value?", func, prm->name,
		guess[0] ? " [" : "", guess, guess[0] ? "]" : "");
	fflush(out);
	n = getline(&line, &cap, stdin);
	if (n < 0)
		return -EINVAL;
	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		line[--n] = 0;
	if (!n && !guess[0])
		return -EINVAL;
	val_add(v, n ? line : guess);
	c->out->asked = true;
	return v->bad ? -EINVAL : 0;
}

static int add_define(struct params *p, const char *func, const char *param,
		      const char *value)
{
	if (p->n_defs >= FBAC_MAX_DEFINES)
		return log_error(-E2BIG, "more than %d parameter values",
				 FBAC_MAX_DEFINES);
	p->defs[p->n_defs].func = func;
	p->defs[p->n_defs].param = param;
	p->defs[p->n_defs].value = fbac_arena_strdup(p->arena, value);
	return p->defs[p->n_defs++].value ? 0 : -ENOMEM;
}

static int fill_param(struct params_ctx *c, const struct fbac_functionality *f,
		      const struct fbac_param *prm,
		      const struct fbac_application *app,
		      const struct fbac_settings *set)
{
	const struct params_input *in = c->in;
	const struct fbac_define *user = NULL;
	const struct fbac_ynode *node;
	struct val v = { .len = 0 };
	char src[FBAC_MAX_PATH + 128] = "";
	bool from_default = false, default_ok = false;
	size_t before;
	int r;

	for (size_t i = 0; i < in->n_defs && !user; i++)
		if ((in->defs[i].func ? streq(in->defs[i].func, f->name) :
					true) &&
		    streq(in->defs[i].param, prm->name))
			user = &in->defs[i];
	if (user) {
		/* The command line's own: not printed back. */
		val_add(&v, user->value);
	} else if (set && (node = arg_of(set->values, set->n_values, f->name,
					 prm->name)) &&
		   node_value(node, &v)) {
		const struct fbac_ynode *under = app ? arg_of(app->grants,
							      app->n_grants,
							      f->name,
							      prm->name) :
						       NULL;

		snprintf(src, sizeof(src), "saved with fbac set, %s:%u",
			 node->mark.file, node->mark.line);
		/* Saved ports widen what the program's policy or the
		 * default grants: a user who needs 8000 keeps 80 and 443. */
		if (prm->type == FBAC_PT_PORTS && (under || prm->def)) {
			size_t len = v.len;

			if (!node_value(under ? under : prm->def, &v) ||
			    (v.s[v.len] = 0, refers_to_param(v.s + len)))
				v.len = len;
			else
				snprintf(src + strlen(src), sizeof(src) - strlen(src),
					 ", added to %s",
					 under ? "the program's policy" : "the default");
		}
	} else if (app && (node = arg_of(app->grants, app->n_grants, f->name,
					 prm->name)) &&
		   (v.len = 0, node_value(node, &v))) {
		snprintf(src, sizeof(src), "application policy '%s', %s:%u",
			 app->name, node->mark.file, node->mark.line);
	} else if ((v.len = 0, !in->ip->disabled &&
				   fact(c, f->name, prm, &v, src, sizeof(src)))) {
		;
	} else if (prm->def) {
		v.len = 0;
		from_default = true;
		/* A list the command line adds to starts from the default. */
		default_ok = node_value(prm->def, &v) && !v.bad &&
			     (v.s[v.len] = 0, !refers_to_param(v.s));
		if (!default_ok)
			v = (struct val){ .len = 0 };
	} else if (in->interactive) {
		v.len = 0;
		if (ask(c, f->name, prm, &v) < 0)
			goto missing;
		snprintf(src, sizeof(src), "typed at the terminal");
	} else {
		goto missing;
	}
	v.s[v.len] = 0;
	if (src[0] && (r = add_line(c->out, f->name, prm->name, v.s, src)) < 0)
		return r;
	before = v.len;
	/* A -D value is the user's own word for this run: the paths of the
	 * command line widen every other source, never it. */
	if (!user && (r = add_args(c, f->name, prm, &v)) < 0)
		return r;
	if (v.bad)
		return log_error(-E2BIG, "value of '%s.%s' longer than %d bytes",
				 f->name, prm->name, FBAC_MAX_SCALAR);
	if (user) {
		/* Copied first by params_fill: the paths go into it. */
		struct fbac_define *d = &c->out->defs[user - in->defs];

		if (v.len != before &&
		    !(d->value = fbac_arena_strdup(c->out->arena, v.s)))
			return -ENOMEM;
		return 0;
	}
	/* Nothing added to the default, or a default that names other
	 * parameters (only the resolver can expand it): left to it. */
	if (from_default && (v.len == before || !default_ok))
		return 0;
	return add_define(c->out, f->name, prm->name, v.s);
missing:
	return log_error(-EINVAL,
			 "missing argument '%s' of '%s': nothing to infer it from and no default; run with -D %s.%s=VALUE, or save one with 'fbac set %s %s.%s=VALUE'",
			 prm->name, f->name, f->name, prm->name,
			 c->out->cmd, f->name, prm->name);
}

int params_fill(const struct params_input *in, struct params *out)
{
	struct fbac_resolve_input ri = { .lib = in->lib, .env = in->env,
					 .trusted_env = in->trusted_env,
					 .root_name = "infer" };
	_cleanup_(fbac_resolved_freep) struct fbac_resolved *prot = NULL;
	struct fbac_diag d = { 0 };
	const struct fbac_application *app;
	const struct fbac_settings *set;
	struct params_ctx c = { in, out, NULL };
	int r;

	*out = (struct params){ .arena = fbac_arena_new() };
	if (!out->arena)
		return -ENOMEM;
	if (fbac_resolve(&ri, &prot, &d) == 0)
		c.prot = prot;
	app = find_app(in->lib, in->ip);
	out->program = app ? app->name : in->ip->names[0];
	out->cmd = in->ip->cmd[0] ? in->ip->cmd : out->program;
	set = find_settings(in->lib, out->program, in->ip);
	/* The command line's own values come first, as given. */
	for (size_t i = 0; i < in->n_defs; i++) {
		if (out->n_defs >= FBAC_MAX_DEFINES)
			return -E2BIG;
		out->defs[out->n_defs++] = in->defs[i];
	}
	for (size_t g = 0; g < in->n_as; g++) {
		const struct fbac_functionality *f =
			fbac_library_find(in->lib, in->as[g]);

		for (size_t p = 0; f && p < f->n_params; p++)
			if ((r = fill_param(&c, f, &f->params[p], app, set)) < 0)
				return r;
	}
	return params_lookups(&c);
}

void params_free(struct params *p)
{
	p->arena = fbac_arena_free(p->arena);
	p->n_lines = p->n_defs = 0;
}

void params_print(FILE *f, const char *prefix, const struct params *p)
{
	for (size_t i = 0; i < p->n_lines; i++)
		fprintf(f, "%s%s.%s=%s (%s)\n", prefix, p->lines[i].func,
			p->lines[i].param, p->lines[i].value,
			p->lines[i].source);
}
