/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fbac new's guesses: which functionality a program's evidence points to
 * (a desktop entry's category, a linked library, the package's section or
 * description), and the tally of that evidence with its reasons.
 */
#ifndef FBAC_WIZARD_H
#define FBAC_WIZARD_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"

/* How much one piece of evidence weighs. */
enum fbac_wizard_weight {
	FBAC_WIZARD_KEYWORD = 3,  /* a word of the package's description */
	FBAC_WIZARD_SECTION = 4,  /* the package's section */
	FBAC_WIZARD_LIBRARY = 6,  /* a linked library */
	FBAC_WIZARD_CATEGORY = 10, /* a desktop entry's category */
};

/**
 * fbac_wizard_category() - the functionality a desktop category names
 * @category: one of a desktop entry's Categories (WebBrowser, TextEditor,
 *            Game, Viewer, ...)
 *
 * Return: a high-level functionality's name, or NULL when the category
 * says nothing about what the program may do (Utility, GTK, ...).
 */
const char *fbac_wizard_category(const char *category);

/**
 * fbac_wizard_library() - the building block a linked library asks for
 * @soname: a DT_NEEDED name or a path ending in one (libX11.so.6)
 *
 * Return: "Graphical_Application" for X11, Wayland, GTK, Qt, SDL and the
 * like, "Audio_Playback" for PulseAudio, ALSA, PipeWire, JACK,
 * "HTTP_Client" for libcurl, or NULL.
 */
const char *fbac_wizard_library(const char *soname);

/**
 * fbac_wizard_import() - the building block a function it calls asks for
 * @symbol: an imported symbol (an undefined dynamic symbol)
 *
 * Return: "Spawn_Shell" for system and popen (they run /bin/sh),
 * "Executable_Search" for the exec and spawn calls that search PATH, or
 * NULL.
 */
const char *fbac_wizard_import(const char *symbol);

/**
 * fbac_wizard_interpreter() - the building block a script's interpreter needs
 * @path: the interpreter of its "#!" line (/bin/sh, /usr/bin/python3.11)
 *
 * Return: "Shell_Scripts" for sh, dash and bash, "Python_Interpreter" for
 * python and python3[.N], "Perl_Interpreter" for perl, or NULL.
 */
const char *fbac_wizard_interpreter(const char *path);

/**
 * fbac_wizard_section() - the functionality a Debian section suggests
 * @section: the package's Section (a "contrib/" or "non-free/" area is
 *           ignored)
 *
 * Return: a high-level functionality's name, or NULL.
 */
const char *fbac_wizard_section(const char *section);

/**
 * fbac_wizard_keyword() - the functionality a description's words suggest
 * @text: the package's one-line description (any case)
 * @word: set to the phrase that matched (static), may be NULL
 *
 * Words are matched whole ("editor" in "text editor", not in "editorial").
 *
 * Return: a high-level functionality's name, or NULL.
 */
const char *fbac_wizard_keyword(const char *text, const char **word);

struct fbac_wizard_vote {
	const char *functionality;
	unsigned score;
	const char **reasons; /* in the order given */
	size_t n_reasons;
	unsigned first; /* order of the first vote, for ties */
};

struct fbac_wizard {
	struct fbac_arena *arena;
	struct fbac_wizard_vote *votes;
	size_t n_votes, cap_votes;
};

/**
 * fbac_wizard_add() - count a piece of evidence for a functionality
 * @w: the tally (arena set, the rest zero to start)
 * @functionality: what the evidence points to
 * @weight: an enum fbac_wizard_weight
 * @reason: a sentence for the user, copied
 *
 * The same reason given twice for a functionality counts once.
 *
 * Return: 0 or -ENOMEM.
 */
int fbac_wizard_add(struct fbac_wizard *w, const char *functionality,
		    unsigned weight, const char *reason);

/**
 * fbac_wizard_best() - the strongest vote among some functionalities
 * @w: the tally
 * @accept: returns whether a functionality may be chosen (NULL: any)
 * @ctx: for @accept
 *
 * Return: the vote with the highest score (the earliest on a tie), or
 * NULL when no accepted functionality has a vote.
 */
const struct fbac_wizard_vote *
fbac_wizard_best(const struct fbac_wizard *w,
		 bool (*accept)(const char *functionality, void *ctx), void *ctx);

#endif
