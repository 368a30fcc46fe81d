/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fbac new's evidence tables and tally. */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "macro.h"
#include "wizard.h"

struct map {
	const char *key, *functionality;
};

/* freedesktop.org menu categories (main and additional) that say what a
 * program does. The more specific ones come first. */
static const struct map categories[] = {
	{ "WebBrowser", "Web_Browser" },
	{ "TextEditor", "File_Editor" },
	{ "WordProcessor", "File_Editor" },
	{ "Email", "Email_Client" },
	{ "RevisionControl", "Version_Control_Client" },
	{ "Building", "Software_Build" },
	{ "IDE", "Software_Build" },
	{ "Archiving", "Archive_Manager" },
	{ "Compression", "Archive_Manager" },
	{ "FileTransfer", "Download_Manager" },
	{ "TerminalEmulator", "Terminal_Emulator" },
	{ "RasterGraphics", "Image_Editor" },
	{ "VectorGraphics", "Image_Editor" },
	{ "2DGraphics", "Image_Editor" },
	{ "Photography", "Image_Editor" },
	{ "Viewer", "Document_Viewer" },
	{ "Player", "Media_Player" },
	{ "AudioVideo", "Media_Player" },
	{ "Audio", "Media_Player" },
	{ "Video", "Media_Player" },
	{ "Game", "Game" },
	{ "ActionGame", "Game" },
	{ "ArcadeGame", "Game" },
	{ "BoardGame", "Game" },
	{ "CardGame", "Game" },
	{ "LogicGame", "Game" },
	{ "StrategyGame", "Game" },
	{ "Shell", "Script_Interpreter" },
	{ "TextTools", "Terminal_Application" },
	{ "ConsoleOnly", "Terminal_Application" },
};

/* Debian sections (https://packages.debian.org/stable/). */
static const struct map sections[] = {
	{ "editors", "File_Editor" },
	{ "games", "Game" },
	{ "mail", "Email_Client" },
	{ "vcs", "Version_Control_Client" },
	{ "devel", "Software_Build" },
	{ "interpreters", "Script_Interpreter" },
	{ "python", "Script_Interpreter" },
	{ "perl", "Script_Interpreter" },
	{ "sound", "Media_Player" },
	{ "video", "Media_Player" },
	{ "graphics", "Image_Editor" },
};

/* Phrases of package descriptions, the longer first. */
static const struct map keywords[] = {
	{ "web browser", "Web_Browser" },
	{ "www browser", "Web_Browser" },
	{ "www browsable", "Web_Browser" },
	{ "text editor", "File_Editor" },
	{ "image editor", "Image_Editor" },
	{ "image manipulation", "Image_Editor" },
	{ "paint program", "Image_Editor" },
	{ "image viewer", "Document_Viewer" },
	{ "document viewer", "Document_Viewer" },
	{ "pdf viewer", "Document_Viewer" },
	{ "media player", "Media_Player" },
	{ "video player", "Media_Player" },
	{ "music player", "Media_Player" },
	{ "audio player", "Media_Player" },
	{ "terminal emulator", "Terminal_Emulator" },
	{ "version control", "Version_Control_Client" },
	{ "revision control", "Version_Control_Client" },
	{ "mail client", "Email_Client" },
	{ "mail user agent", "Email_Client" },
	{ "ssh client", "SSH_Client" },
	{ "secure shell", "SSH_Client" },
	{ "browser", "Web_Browser" },
	{ "editor", "File_Editor" },
	{ "pager", "Text_Viewer" },
	{ "archiver", "Archive_Manager" },
	{ "archiving", "Archive_Manager" },
	{ "archive", "Archive_Manager" },
	{ "compression", "Archive_Manager" },
	{ "compressor", "Archive_Manager" },
	{ "downloader", "Download_Manager" },
	{ "retrieves files", "Download_Manager" },
	{ "transferring data", "Download_Manager" },
	{ "pdf", "Document_Viewer" },
	{ "viewer", "Document_Viewer" },
	{ "compiler", "Software_Build" },
	{ "interpreter", "Script_Interpreter" },
	{ "game", "Game" },
};

/* Library name prefixes (before ".so"). */
static const struct map libraries[] = {
	{ "libX11", "Graphical_Application" },
	{ "libxcb", "Graphical_Application" },
	{ "libwayland-client", "Graphical_Application" },
	{ "libgtk-", "Graphical_Application" },
	{ "libgdk-", "Graphical_Application" },
	{ "libQt", "Graphical_Application" },
	{ "libSDL", "Graphical_Application" },
	{ "libglfw", "Graphical_Application" },
	{ "libEGL", "Graphical_Application" },
	{ "libGL", "Graphical_Application" },
	{ "libvulkan", "Graphical_Application" },
	{ "libpulse", "Audio_Playback" },
	{ "libasound", "Audio_Playback" },
	{ "libpipewire-", "Audio_Playback" },
	{ "libjack", "Audio_Playback" },
	{ "libportaudio", "Audio_Playback" },
	{ "libopenal", "Audio_Playback" },
	{ "libcurl", "HTTP_Client" },
};

const char *fbac_wizard_category(const char *category)
{
	for (size_t i = 0; i < ARRAY_SIZE(categories); i++)
		if (streq(category, categories[i].key))
			return categories[i].functionality;
	return NULL;
}

const char *fbac_wizard_library(const char *soname)
{
	const char *base = strrchr(soname, '/');

	base = base ? base + 1 : soname;
	for (size_t i = 0; i < ARRAY_SIZE(libraries); i++) {
		size_t n = strlen(libraries[i].key);
		char next;

		if (strncmp(base, libraries[i].key, n) != 0)
			continue;
		/* libX11.so, libX11-xcb.so, libQt5Gui.so, libGL.so, not libGLU
		 * or libgcrypt: after the prefix comes ".", "-", a digit or
		 * (for "libQt") anything. */
		next = base[n];
		if (libraries[i].key[n - 1] == '-' || streq(libraries[i].key, "libQt") ||
		    next == '.' || next == '-' || isdigit((unsigned char)next) ||
		    (streq(libraries[i].key, "libGL") && next == 'X'))
			return libraries[i].functionality;
	}
	return NULL;
}

const char *fbac_wizard_import(const char *symbol)
{
	static const struct map imports[] = {
		{ "system", "Spawn_Shell" },
		{ "popen", "Spawn_Shell" },
		{ "execvp", "Executable_Search" },
		{ "execlp", "Executable_Search" },
		{ "execvpe", "Executable_Search" },
		{ "posix_spawnp", "Executable_Search" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(imports); i++)
		if (streq(symbol, imports[i].key))
			return imports[i].functionality;
	return NULL;
}

const char *fbac_wizard_interpreter(const char *path)
{
	const char *base = strrchr(path, '/');

	base = base ? base + 1 : path;
	if (streq(base, "sh") || streq(base, "dash") || streq(base, "bash"))
		return "Shell_Scripts";
	if (!strncmp(base, "python", 6) &&
	    strspn(base + 6, "0123456789.") == strlen(base + 6))
		return "Python_Interpreter";
	if (!strncmp(base, "perl", 4) && strspn(base + 4, "0123456789.") == strlen(base + 4))
		return "Perl_Interpreter";
	return NULL;
}

const char *fbac_wizard_section(const char *section)
{
	const char *slash = strrchr(section, '/');

	if (slash)
		section = slash + 1;
	for (size_t i = 0; i < ARRAY_SIZE(sections); i++)
		if (streq(section, sections[i].key))
			return sections[i].functionality;
	return NULL;
}

static bool word_char(char c)
{
	return isalnum((unsigned char)c);
}

/* Whether phrase occurs in text, case-insensitively, as whole words. */
static bool has_phrase(const char *text, const char *phrase)
{
	size_t n = strlen(phrase);

	for (const char *p = text; *p; p++) {
		if (strncasecmp(p, phrase, n) != 0)
			continue;
		if (p > text && word_char(p[-1]))
			continue;
		/* A plural still counts: "games", "editors". */
		if (word_char(p[n]) && !(p[n] == 's' && !word_char(p[n + 1])))
			continue;
		return true;
	}
	return false;
}

const char *fbac_wizard_keyword(const char *text, const char **word)
{
	for (size_t i = 0; i < ARRAY_SIZE(keywords); i++)
		if (has_phrase(text, keywords[i].key)) {
			if (word)
				*word = keywords[i].key;
			return keywords[i].functionality;
		}
	return NULL;
}

int fbac_wizard_add(struct fbac_wizard *w, const char *functionality,
		    unsigned weight, const char *reason)
{
	struct fbac_wizard_vote *v = NULL;
	const char **nr;

	for (size_t i = 0; i < w->n_votes; i++)
		if (streq(w->votes[i].functionality, functionality))
			v = &w->votes[i];
	if (!v) {
		if (fbac_arena_grow(w->arena, (void **)&w->votes, &w->cap_votes,
				    w->n_votes + 1, sizeof(*w->votes)) < 0)
			return -ENOMEM;
		v = &w->votes[w->n_votes];
		*v = (struct fbac_wizard_vote){ 0 };
		v->functionality = fbac_arena_strdup(w->arena, functionality);
		if (!v->functionality)
			return -ENOMEM;
		v->first = (unsigned)w->n_votes++;
	}
	for (size_t i = 0; i < v->n_reasons; i++)
		if (streq(v->reasons[i], reason))
			return 0;
	nr = fbac_arena_array(w->arena, v->n_reasons + 1, sizeof(*nr));
	if (!nr)
		return -ENOMEM;
	if (v->n_reasons)
		memcpy(nr, v->reasons, v->n_reasons * sizeof(*nr));
	if (!(nr[v->n_reasons] = fbac_arena_strdup(w->arena, reason)))
		return -ENOMEM;
	v->reasons = nr;
	v->n_reasons++;
	v->score += weight;
	return 0;
}

const struct fbac_wizard_vote *
fbac_wizard_best(const struct fbac_wizard *w,
		 bool (*accept)(const char *functionality, void *ctx), void *ctx)
{
	const struct fbac_wizard_vote *best = NULL;

	for (size_t i = 0; i < w->n_votes; i++) {
		const struct fbac_wizard_vote *v = &w->votes[i];

		if (accept && !accept(v->functionality, ctx))
			continue;
		if (!best || v->score > best->score)
			best = v;
	}
	return best;
}
