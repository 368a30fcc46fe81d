/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac new: the evidence tallied (desktop categories, libraries, imports,
 * a script's interpreter, the package's section and description), and the
 * high-level item's arguments as YAML.
 */
#include <string.h>

#include "fbac.h"
#include "new.h"
#include "wizard.h"

/* Whether f includes name, directly or not. */
bool reaches(const struct fbac_functionality *f, const char *name,
		    unsigned depth)
{
	if (!f || depth > FBAC_MAX_INCLUDE_DEPTH)
		return false;
	if (streq(f->name, name))
		return true;
	for (size_t i = 0; i < f->n_includes; i++)
		if (reaches(f->includes[i].target, name, depth + 1))
			return true;
	return false;
}

int tally(const struct probe *p, struct fbac_wizard *hl,
		 struct fbac_wizard *blocks)
{
	struct fbac_arena *a = p->a;
	const char *word;
	int r = 0;

	for (size_t i = 0; r == 0 && i < p->desktop.n_categories; i++) {
		const char *f = fbac_wizard_category(p->desktop.categories[i]);

		if (f)
			r = fbac_wizard_add(hl, f, FBAC_WIZARD_CATEGORY,
					    fbac_arena_printf(a, "its desktop entry %s has the category %s",
							      p->desktop_path, p->desktop.categories[i]));
	}
	for (size_t i = 0; r == 0 && i < p->elf.n_needed + p->n_libs; i++) {
		bool direct = i < p->elf.n_needed;
		const char *lib = direct ? p->elf.needed[i] : p->libs[i - p->elf.n_needed];
		const char *f = fbac_wizard_library(lib);
		const char *base = strrchr(lib, '/');
		bool seen = false;

		/* A library the program links is named once, not again as
		 * ldd found it. */
		for (size_t k = 0; !direct && base && k < p->elf.n_needed; k++)
			seen |= streq(p->elf.needed[k], base + 1);
		if (f && !seen)
			r = fbac_wizard_add(blocks, f, FBAC_WIZARD_LIBRARY,
					    fbac_arena_printf(a, direct ? "it links %s" : "it loads %s (ldd)",
							      lib));
	}
	for (size_t i = 0; r == 0 && i < p->elf.n_imports; i++) {
		const char *f = fbac_wizard_import(p->elf.imports[i]);

		if (f)
			r = fbac_wizard_add(blocks, f, FBAC_WIZARD_LIBRARY,
					    fbac_arena_printf(a, "it calls %s()",
							      p->elf.imports[i]));
	}
	if (r == 0 && p->script && fbac_wizard_interpreter(p->script))
		r = fbac_wizard_add(blocks, fbac_wizard_interpreter(p->script),
				    FBAC_WIZARD_LIBRARY,
				    fbac_arena_printf(a, "it is a script for %s", p->script));
	if (r == 0 && p->have_pkg && p->pkg.section) {
		const char *f = fbac_wizard_section(p->pkg.section);

		if (f)
			r = fbac_wizard_add(hl, f, FBAC_WIZARD_SECTION,
					    fbac_arena_printf(a, "its package %s is in the section '%s'",
							      p->package, p->pkg.section));
	}
	if (r == 0 && p->have_pkg && p->pkg.summary) {
		const char *f = fbac_wizard_keyword(p->pkg.summary, &word);

		if (f)
			r = fbac_wizard_add(hl, f, FBAC_WIZARD_KEYWORD,
					    fbac_arena_printf(a, "the package's description says '%s': %s",
							      word, p->pkg.summary));
	}
	if (r == 0 && p->desktop.comment) {
		const char *f = fbac_wizard_keyword(p->desktop.comment, &word);

		if (f)
			r = fbac_wizard_add(hl, f, FBAC_WIZARD_KEYWORD,
					    fbac_arena_printf(a, "its desktop entry says '%s': %s",
							      word, p->desktop.comment));
	}
	return r;
}

bool graphical(const struct fbac_wizard *blocks)
{
	for (size_t i = 0; i < blocks->n_votes; i++)
		if (streq(blocks->votes[i].functionality, "Graphical_Application"))
			return true;
	return false;
}

const char *join_reasons(struct fbac_arena *a, const struct fbac_wizard_vote *v)
{
	char *s = fbac_arena_strdup(a, "");

	for (size_t i = 0; s && i < v->n_reasons; i++)
		s = fbac_arena_printf(a, "%s%s%s", s, i ? "; " : "", v->reasons[i]);
	return s;
}

/* The high-level item's arguments: those filled, given or differing from
 * the default ("{app_name: "w3m", files: ["~/src"]}"), or NULL. */
const char *hl_args(struct fbac_arena *a, const struct fbac_functionality *f,
			   const struct param_answer *ans)
{
	char *s = NULL;

	for (size_t i = 0; i < f->n_params; i++) {
		const struct fbac_param *pa = &f->params[i];
		const struct param_answer *an = &ans[i];
		char *v;

		if (an->from_default && !an->given)
			continue;
		if (pa->type == FBAC_PT_BOOL || pa->type == FBAC_PT_PORTS) {
			v = fbac_arena_strdup(a, an->n ? an->items[0] : "");
			for (size_t k = 1; v && k < an->n; k++)
				v = fbac_arena_printf(a, "%s, %s", v, an->items[k]);
			if (v && fbac_ptype_is_list(pa->type))
				v = fbac_arena_printf(a, "[%s]", v);
		} else if (fbac_ptype_is_list(pa->type)) {
			v = fbac_arena_strdup(a, "[");
			for (size_t k = 0; v && k < an->n; k++)
				v = fbac_arena_printf(a, "%s%s%s", v, k ? ", " : "",
						      yaml_quote(a, an->items[k]));
			v = v ? fbac_arena_printf(a, "%s]", v) : NULL;
		} else {
			v = (char *)yaml_quote(a, an->n ? an->items[0] : "");
		}
		if (!v)
			return NULL;
		s = fbac_arena_printf(a, "%s%s%s: %s", s ? s : "{", s ? ", " : "",
				      pa->name, v);
		if (!s)
			return NULL;
	}
	return s ? fbac_arena_printf(a, "%s}", s) : NULL;
}
