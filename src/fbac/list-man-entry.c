/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The entries of fbac-functionalities(7). Privileges, arguments and
 * defaults are printed from the YAML nodes, as written, never resolved:
 * the page documents the library, not one user's paths. Every piece of
 * profile text goes through roff.c.
 */
#include "list-man.h"

#include <string.h>

#include "macro.h"
#include "roff.h"

/* The file of a definition as found below its layer's directory. */
static const char *layer_file(const struct fbac_library *lib, unsigned layer,
			      const struct fbac_mark *m)
{
	const char *dir = lib->layers[layer].dir, *file = m->file, *slash;
	size_t n = dir ? strlen(dir) : 0;

	if (!file)
		return "?";
	if (n && !strncmp(file, dir, n) && file[n] == '/') {
		file += n;
		while (*file == '/')
			file++;
		return file;
	}
	/* A layer that is a single file (FBAC_DATADIR=lib.yaml). */
	slash = strrchr(file, '/');
	return slash ? slash + 1 : file;
}

/* " name , name" for .Ic: operation names are fixed words. */
static void put_ops(FILE *f, uint32_t ops)
{
	bool first = true;

	for (unsigned i = 0; i < FBAC_OP_COUNT; i++)
		if (ops & FBAC_OP_BIT(i)) {
			fprintf(f, "%s %s", first ? "" : " ,",
				fbac_op_info((enum fbac_op)i)->name);
			first = false;
		}
}

/*
 * A value with a scalar longer than this goes into a display instead of
 * the text: two such words could not share a line in the deepest list of
 * an 80-column page (61 columns, quotes and commas included), and a line
 * of a single word is one that groff cannot adjust, and warns about.
 */
#define INLINE_MAX 26

/*
 * A display of "name: value" lines, a sequence as "name:" and "  - item"
 * lines, or (names NULL) one value a line.
 */
static void put_block(FILE *f, const char *const *names,
		      const struct fbac_ynode *const *vals, size_t n)
{
	fputs(".Bd -literal -offset indent -compact\n", f);
	for (size_t i = 0; i < n; i++) {
		fputs("\\&", f);
		if (names) {
			roff_code(f, names[i]);
			fputs(vals[i]->kind == FBAC_Y_SEQ ? ":" : ": ", f);
		}
		if (!names || vals[i]->kind != FBAC_Y_SEQ) {
			roff_yaml(f, vals[i]);
			fputc('\n', f);
			continue;
		}
		fputc('\n', f);
		for (size_t k = 0; k < vals[i]->n; k++) {
			fputs("\\&  \\- ", f);
			roff_yaml(f, vals[i]->items[k]);
			fputc('\n', f);
		}
	}
	fputs(".Ed\n", f);
}

static bool too_long(const struct fbac_ynode *const *vals, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (vals[i] && roff_yaml_widest(vals[i]) > INLINE_MAX)
			return true;
	return false;
}

static void put_priv(FILE *f, const struct fbac_priv *p)
{
	static const char *const net_names[] = { "protocol", "ports",
						 "hosts" };
	const struct fbac_ynode *net[] = { p->protocol, p->ports, p->hosts };
	size_t n_net = p->hosts ? 3 : 2;

	fprintf(f, ".It\n%s\n.Ic", p->deny ? "denies" : "grants");
	put_ops(f, p->ops);
	fputs(" :\n", f);
	switch (p->kind) {
	case FBAC_PRIV_PATH:
		if (too_long(p->values, p->n_values)) {
			put_block(f, NULL, p->values, p->n_values);
			return;
		}
		for (size_t i = 0; i < p->n_values; i++) {
			fputs(".Ql", f);
			roff_yaml_arg(f, p->values[i]);
			fputs(i + 1 < p->n_values ? " ,\n" : "\n", f);
		}
		return;
	case FBAC_PRIV_NET:
		if (too_long(net, n_net)) {
			put_block(f, net_names, net, n_net);
			return;
		}
		for (size_t i = 0; i < n_net; i++) {
			fprintf(f, "%s\n.Ql", net_names[i]);
			roff_yaml_arg(f, net[i]);
			fputs(i + 1 < n_net ? " ,\n" : "\n", f);
		}
		return;
	case FBAC_PRIV_SIGNAL:
		/* The parser accepts only 'any'. */
		fputs(".Ql any\n", f);
		return;
	}
}

/* "Name (arg: 'value', ...)" after the verb, or Name and a display. */
static void put_include(FILE *f, const char *verb,
			const struct fbac_include *inc)
{
	fprintf(f, ".It\n%s\n.Ic", verb);
	roff_arg(f, inc->name, true);
	if (too_long(inc->arg_values, inc->n_args)) {
		fputs(" :\n", f);
		put_block(f, inc->arg_names, inc->arg_values, inc->n_args);
		return;
	}
	fputc('\n', f);
	if (!inc->n_args)
		return;
	/* A line each: .Ql quotes everything up to the end of its line. */
	fputs(".Po\n", f);
	for (size_t a = 0; a < inc->n_args; a++) {
		fputs(".Ar", f);
		roff_arg(f, inc->arg_names[a], true);
		fputs(" : Ql", f);
		roff_yaml_arg(f, inc->arg_values[a]);
		fputs(a + 1 < inc->n_args ? " ,\n" : "\n", f);
	}
	fputs(".Pc\n", f);
}

static void put_param(FILE *f, const struct fbac_param *p)
{
	static const char *const def_name[] = { "default" };
	bool block = p->def && too_long(&p->def, 1);

	fputs(".It\nparameter\n.Ar", f);
	roff_arg(f, p->name, true);
	fprintf(f, "\n.Pq Vt %s", fbac_ptype_name(p->type));
	if (!p->def) {
		fputs(" , No required", f);
	} else if (!block) {
		fputs(" , No default Ql", f);
		roff_yaml_arg(f, p->def);
	}
	fputs(p->ask || p->description ? " :\n" : "\n", f);
	if (p->ask) {
		fputs(".Dq", f);
		roff_arg(f, p->ask, false);
		fputc('\n', f);
	}
	roff_line(f, p->description, true);
	if (block)
		put_block(f, def_name, &p->def, 1);
}

/* The header of an entry: "description (file)." */
static void put_header(FILE *f, const char *description, const char *file)
{
	roff_line(f, description, false);
	fputs(".Pq Pa", f);
	roff_arg(f, file, true);
	fputs(" .\n", f);
}

/* "metadata visible" when the document says it (fbac-profile(5)). */
static void put_metadata(FILE *f, enum fbac_metadata m)
{
	if (m != FBAC_META_UNSET)
		fprintf(f, ".It\nmetadata\n.Ql %s\n", fbac_metadata_name(m));
}

void man_functionality(FILE *f, const struct fbac_library *lib,
		       const struct fbac_functionality *fn)
{
	fputs(".It Ic", f);
	roff_arg(f, fn->name, true);
	fputc('\n', f);
	put_header(f, fn->description, layer_file(lib, fn->layer, &fn->mark));
	if (!fn->n_params && !fn->n_includes && !fn->n_privs &&
	    fn->metadata == FBAC_META_UNSET) {
		fputs("It grants nothing.\n", f);
		return;
	}
	fputs(".Bl -dash -compact\n", f);
	put_metadata(f, fn->metadata);
	for (size_t i = 0; i < fn->n_params; i++)
		put_param(f, &fn->params[i]);
	for (size_t i = 0; i < fn->n_includes; i++)
		put_include(f, "includes", &fn->includes[i]);
	for (size_t i = 0; i < fn->n_privs; i++)
		put_priv(f, &fn->privs[i]);
	fputs(".El\n", f);
}

void man_application(FILE *f, const struct fbac_library *lib,
		     const struct fbac_application *a)
{
	bool block = false;

	for (size_t i = 0; i < a->n_executables; i++)
		if (strlen(a->executables[i]) > INLINE_MAX)
			block = true;
	fputs(".It Ic", f);
	roff_arg(f, a->name, true);
	fputc('\n', f);
	put_header(f, a->description, layer_file(lib, a->layer, &a->mark));
	fputs(".Bl -dash -compact\n.It\napplies to\n", f);
	if (block)
		fputs(".Bd -literal -offset indent -compact\n", f);
	for (size_t i = 0; i < a->n_executables; i++) {
		if (block) {
			fputs("\\&", f);
			roff_code(f, a->executables[i]);
			fputc('\n', f);
			continue;
		}
		fputs(".Pa", f);
		roff_arg(f, a->executables[i], true);
		fputs(i + 1 < a->n_executables ? " ,\n" : "\n", f);
	}
	if (block)
		fputs(".Ed\n", f);
	put_metadata(f, a->metadata);
	for (size_t i = 0; i < a->n_grants; i++)
		put_include(f, "grants", &a->grants[i]);
	for (size_t i = 0; i < a->n_privs; i++)
		put_priv(f, &a->privs[i]);
	fputs(".El\n", f);
}

void man_protected(FILE *f, const struct fbac_protected *p)
{
	fputs(".It Pa", f);
	roff_yaml_arg(f, p->path);
	fputc('\n', f);
	roff_line(f, p->reason, true);
	if (p->allow) {
		fputs("Broad rules may still grant\n.Ic", f);
		put_ops(f, p->allow);
		fputs(" .\n", f);
	}
}

