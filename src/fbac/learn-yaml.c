/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac learn: writing a proposal as the application policy a person
 * would have written, with comments saying why each item is there. */
#include <string.h>

#include "learn.h"
#include "macro.h"
#include "path.h"

void learn_yaml_path(FILE *f, const char *home, const char *s)
{
	size_t hl = home ? strlen(home) : 0;

	fputc('"', f);
	if (hl > 1 && !strncmp(s, home, hl) && (s[hl] == '/' || !s[hl])) {
		fputc('~', f);
		s += hl;
	}
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', f);
		if (*s == '$')
			fputc('$', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void write_value(FILE *f, const char *home, enum fbac_ptype t,
			const char *val)
{
	bool list = fbac_ptype_is_list(t);
	const char *p = val;

	if (t == FBAC_PT_BOOL || (t == FBAC_PT_PORTS && !strchr(val, ','))) {
		fputs(val, f);
		return;
	}
	if (list)
		fputc('[', f);
	while (p) {
		const char *comma = list ? strchr(p, ',') : NULL;
		char item[FBAC_MAX_PATH];

		snprintf(item, sizeof(item), "%.*s",
			 (int)(comma ? (size_t)(comma - p) : strlen(p)), p);
		if (t == FBAC_PT_PORTS)
			fputs(item, f);
		else
			learn_yaml_path(f, home, item);
		p = comma ? comma + 1 : NULL;
		if (p)
			fputs(", ", f);
	}
	if (list)
		fputc(']', f);
}

static void obs_text(FILE *f, const char *home, const struct fbac_obs *o)
{
	const char *path = o->q.path;
	size_t hl = home ? strlen(home) : 0;

	fprintf(f, "%s ", fbac_op_info(o->q.op)->name);
	if (path && hl > 1 && !strncmp(path, home, hl) && path[hl] == '/')
		fprintf(f, "~%s", path + hl);
	else if (path)
		fputs(path, f);
	else if (fbac_op_info(o->q.op)->kind == FBAC_KIND_NET)
		fprintf(f, "%s:%s:%u", o->q.proto == FBAC_PROTO_TCP ? "tcp" : "udp",
			o->q.host ? o->q.host : "?", o->q.port);
}

static void write_ops(FILE *f, uint32_t ops)
{
	bool first = true;

	fputc('[', f);
	for (unsigned op = 0; op < FBAC_OP_COUNT; op++)
		if (ops & FBAC_OP_BIT(op)) {
			fprintf(f, "%s%s", first ? "" : ", ", fbac_op_info(op)->name);
			first = false;
		}
	fputc(']', f);
}

static const struct fbac_param *param_of(const struct fbac_functionality *fn,
					 const char *name)
{
	for (size_t i = 0; i < fn->n_params; i++)
		if (streq(fn->params[i].name, name))
			return &fn->params[i];
	return NULL;
}

void learn_write_items(FILE *f, const struct learn_view *v, int what)
{
	const struct fbac_proposal *p = v->p;

	if (what == LEARN_DENIED) {
		for (size_t i = 0; i < p->n_funcs; i++) {
			const struct fbac_prop_func *pf = &p->funcs[i];

			if (v->keep_func && !v->keep_func[i])
				continue;
			for (size_t k = 0; k < pf->n_carve; k++) {
				if (!k || !streq(pf->carve[k].prot_path,
						 pf->carve[k - 1].prot_path)) {
					fprintf(f, "  # %s reaches the protected path ", pf->f->name);
					learn_yaml_path(f, v->home, pf->carve[k].prot_path);
					fputs(", which the run did not use\n", f);
				}
				fputs("  - access: ", f);
				write_ops(f, pf->carve[k].ops);
				fputs("\n    paths: [", f);
				learn_yaml_path(f, v->home, pf->carve[k].pattern);
				fputs("]\n", f);
			}
		}
		return;
	}
	if (what == LEARN_FUNCS) {
		for (size_t i = 0; i < p->n_funcs; i++) {
			const struct fbac_prop_func *pf = &p->funcs[i];

			if (v->keep_func && !v->keep_func[i])
				continue;
			if (pf->covers) {
				fprintf(f, "  # covers %zu access%s (%lu event%s), e.g. ",
					pf->covers, pf->covers == 1 ? "" : "es",
					pf->events, pf->events == 1 ? "" : "s");
				obs_text(f, v->home, pf->example);
				fputc('\n', f);
			} else {
				fputs("  # chosen in review\n", f);
			}
			if (pf->evidence)
				fprintf(f, "  # chosen for what the program is: %s\n",
					pf->evidence);
			for (size_t k = 0; k < pf->n_protected; k++) {
				fputs("  # it also grants the protected path ", f);
				learn_yaml_path(f, v->home, pf->protected_paths[k]);
				fputs(", which the run used\n", f);
			}
			fprintf(f, "  - %s", pf->f->name);
			for (size_t a = 0; a < pf->n_args; a++) {
				const struct fbac_param *pp =
					param_of(pf->f, pf->arg_names[a]);

				fprintf(f, "%s%s: ", a ? ", " : ": {", pf->arg_names[a]);
				write_value(f, v->home, pp ? pp->type : FBAC_PT_STRING,
					    pf->arg_values[a]);
			}
			fputs(pf->n_args ? "}\n" : "\n", f);
		}
		return;
	}
	for (size_t i = 0; i < p->n_raw; i++) {
		const struct fbac_prop_raw *r = &p->raw[i];

		if (v->keep_raw && !v->keep_raw[i])
			continue;
		if (r->pattern) {
			fprintf(f, "  # %zu access%s\n  - access: ", r->covers,
				r->covers == 1 ? "" : "es");
			write_ops(f, r->ops);
			fputs("\n    paths: [", f);
			learn_yaml_path(f, v->home, r->pattern);
			fputs("]\n", f);
		} else {
			fprintf(f, "  - %s: {protocol: %s, ports: [%u]}\n",
				fbac_op_info(r->net_op)->name,
				r->proto == FBAC_PROTO_TCP ? "tcp" : "udp", r->port);
		}
	}
	for (size_t i = 0; v->grant_prot && i < p->n_prot; i++) {
		const struct fbac_obs *o = p->prot[i].obs;

		if (!v->grant_prot[i])
			continue;
		fprintf(f, "  # PROTECTED: the run used %zu access%s to ", p->prot[i].covers,
			p->prot[i].covers == 1 ? "" : "es");
		learn_yaml_path(f, v->home, p->prot[i].prot_path);
		fputs(", e.g. ", f);
		obs_text(f, v->home, o);
		if (p->prot[i].suggestion)
			fprintf(f, " (%s would grant it)", p->prot[i].suggestion);
		fputs(";\n  # only this entry grants it: drop it to keep it denied\n  - access: ", f);
		write_ops(f, p->prot[i].ops);
		fputs("\n    paths: [", f);
		learn_yaml_path(f, v->home, p->prot[i].pattern);
		fputs("]\n", f);
	}
}

static bool any_raw(const struct learn_view *v)
{
	for (size_t i = 0; i < v->p->n_raw; i++)
		if (!v->keep_raw || v->keep_raw[i])
			return true;
	for (size_t i = 0; v->grant_prot && i < v->p->n_prot; i++)
		if (v->grant_prot[i])
			return true;
	return false;
}

static bool any_carve(const struct learn_view *v)
{
	for (size_t i = 0; i < v->p->n_funcs; i++)
		if ((!v->keep_func || v->keep_func[i]) && v->p->funcs[i].n_carve)
			return true;
	return false;
}

static bool any_func(const struct learn_view *v)
{
	for (size_t i = 0; i < v->p->n_funcs; i++)
		if (!v->keep_func || v->keep_func[i])
			return true;
	return false;
}

void learn_write_yaml(FILE *f, const struct learn_view *v)
{
	const struct fbac_proposal *p = v->p;

	if (!v->delta) {
		fprintf(f, "# Proposed by fbac learn from %zu log%s (%lu events, %zu distinct accesses)\n"
			   "# of %s: %zu accesses covered by functionalities, %zu by raw privileges.\n",
			v->n_logs, v->n_logs == 1 ? "" : "s", v->events, p->n_obs,
			v->program, p->n_covered_funcs, p->n_covered_raw);
		fprintf(f, "fbac: 1\napplication: %s\n", p->name);
		fprintf(f, "description: \"Learned from a run of %s\"\nexecutables: [",
			p->name);
		for (size_t i = 0; i < p->n_executables; i++) {
			fputs(i ? ", " : "", f);
			learn_yaml_path(f, NULL, p->executables[i]);
		}
		fputs("]\n", f);
	}
	if (any_func(v) || !v->delta) {
		fputs(any_func(v) ? "functionalities:\n" : "functionalities: []\n", f);
		learn_write_items(f, v, LEARN_FUNCS);
	}
	if (any_raw(v)) {
		fputs("privileges:\n  # What no functionality covers closely, generalised.\n", f);
		learn_write_items(f, v, LEARN_PRIVILEGES);
	}
	if (any_carve(v)) {
		fputs("denied:\n", f);
		learn_write_items(f, v, LEARN_DENIED);
	}
	for (size_t i = 0, shown = 0; i < p->n_prot; i++) {
		if (v->grant_prot && v->grant_prot[i])
			continue;
		if (!shown++)
			fputs("# Protected paths the run used, NOT granted (add the functionality\n"
			      "# named if the program really needs them):\n", f);
		fputs("#   ", f);
		write_ops(f, p->prot[i].ops);
		fputc(' ', f);
		learn_yaml_path(f, v->home, p->prot[i].pattern);
		if (p->prot[i].suggestion)
			fprintf(f, " (granted by %s)", p->prot[i].suggestion);
		fputc('\n', f);
	}
}

void learn_write_summary(FILE *f, const struct learn_view *v,
			 const struct fbac_policy *pol,
			 const struct fbac_env *env)
{
	static const struct {
		enum fbac_op op;
		const char *path; /* under $HOME when it starts with '~' */
		uint16_t port;
		const char *what;
	} probes[] = {
		{ FBAC_OP_FILE_READ, "~/.ssh/id_rsa", 0, "reading SSH keys (~/.ssh)" },
		{ FBAC_OP_FILE_READ, "~/.gnupg/secring.gpg", 0, "reading OpenPGP keys (~/.gnupg)" },
		{ FBAC_OP_FILE_WRITE, "~/.bashrc", 0, "changing shell start-up files" },
		{ FBAC_OP_FILE_READ, "~/Documents/x", 0, "reading ~/Documents" },
		{ FBAC_OP_FILE_CREATE, "~/x", 0, "creating files in the home folder" },
		{ FBAC_OP_FILE_WRITE, "/etc/passwd", 0, "writing system files" },
		{ FBAC_OP_FILE_EXECUTE, "/bin/sh", 0, "running a shell" },
		{ FBAC_OP_FILE_EXECUTE, "/usr/bin/python3", 0, "running other programs" },
		{ FBAC_OP_FILE_READ, "/proc/1/environ", 0, "reading other processes" },
		{ FBAC_OP_NETWORK_OUTGOING, NULL, 443, "HTTPS connections" },
		{ FBAC_OP_NETWORK_OUTGOING, NULL, 22, "SSH connections" },
		{ FBAC_OP_NETWORK_INCOMING, NULL, 8080, "listening for connections" },
	};
	const char *home = fbac_env_get(env, "HOME", 4);
	size_t shown = 0;

	(void)v;
	for (size_t i = 0; i < ARRAY_SIZE(probes); i++) {
		struct fbac_query q = { .op = probes[i].op, .proto = FBAC_PROTO_TCP,
					.host = "192.0.2.1", .port = probes[i].port };
		struct fbac_verdict vd = { 0 };
		char path[FBAC_MAX_PATH];

		if (probes[i].path) {
			snprintf(path, sizeof(path), "%s%s",
				 probes[i].path[0] == '~' ? home : "",
				 probes[i].path + (probes[i].path[0] == '~'));
			q.path = path;
		}
		if (fbac_policy_query(pol, &q, &vd) < 0 || vd.allowed)
			continue;
		fprintf(f, "%s%s", shown++ ? ", " : "# What it denies that the run did not need: ", probes[i].what);
	}
	fprintf(f, "%severything else not named above.\n",
		shown ? ", and " : "# What it denies that the run did not need: ");
}
