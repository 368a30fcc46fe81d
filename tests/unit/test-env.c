/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/env.c: the built-in variables of the profile language
 * (docs/profile-language.md, "Substitution").
 */
#include <errno.h>
#include <string.h>

#include "env.h"
#include "tap.h"

static const char *get(const struct fbac_env *env, const char *name)
{
	return fbac_env_get(env, name, strlen(name));
}

static void test_defaults(void)
{
	/* Every built-in the specification lists. */
	static const char *const builtins[] = {
		"HOME",		    "UID",
		"USER",		    "RUNTIME_DIR",
		"XDG_CONFIG_HOME",  "XDG_DATA_HOME",
		"XDG_CACHE_HOME",   "XDG_STATE_HOME",
		"XDG_RUNTIME_DIR",  "XDG_DESKTOP_DIR",
		"XDG_DOWNLOAD_DIR", "XDG_DOCUMENTS_DIR",
		"XDG_MUSIC_DIR",    "XDG_PICTURES_DIR",
		"XDG_VIDEOS_DIR",   "XDG_TEMPLATES_DIR",
		"XDG_PUBLICSHARE_DIR",
	};
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_env env;
	const struct fbac_env_input in = { .home = "/home/u",
					   .user = "u",
					   .uid = 1000 };

	is_int(fbac_env_init(&env, a, &in), 0, "defaults");
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		ok(get(&env, builtins[i]) != NULL, "$%s is defined",
		   builtins[i]);
	is_str(get(&env, "HOME"), "/home/u", "HOME");
	is_str(get(&env, "UID"), "1000", "UID");
	is_str(get(&env, "USER"), "u", "USER");
	is_str(get(&env, "XDG_CONFIG_HOME"), "/home/u/.config",
	       "XDG_CONFIG_HOME default");
	is_str(get(&env, "XDG_DATA_HOME"), "/home/u/.local/share",
	       "XDG_DATA_HOME default");
	is_str(get(&env, "XDG_CACHE_HOME"), "/home/u/.cache",
	       "XDG_CACHE_HOME default");
	is_str(get(&env, "XDG_STATE_HOME"), "/home/u/.local/state",
	       "XDG_STATE_HOME default");
	is_str(get(&env, "XDG_RUNTIME_DIR"), "/run/user/1000",
	       "XDG_RUNTIME_DIR default");
	is_str(get(&env, "RUNTIME_DIR"), "/run/user/1000",
	       "RUNTIME_DIR is the runtime directory");
	is_str(get(&env, "XDG_DESKTOP_DIR"), "/home/u/Desktop", "Desktop");
	is_str(get(&env, "XDG_DOWNLOAD_DIR"), "/home/u/Downloads", "Downloads");
	is_str(get(&env, "XDG_DOCUMENTS_DIR"), "/home/u/Documents",
	       "Documents");
	is_str(get(&env, "XDG_MUSIC_DIR"), "/home/u/Music", "Music");
	is_str(get(&env, "XDG_PICTURES_DIR"), "/home/u/Pictures", "Pictures");
	is_str(get(&env, "XDG_VIDEOS_DIR"), "/home/u/Videos", "Videos");
	is_str(get(&env, "XDG_TEMPLATES_DIR"), "/home/u/Templates",
	       "Templates");
	is_str(get(&env, "XDG_PUBLICSHARE_DIR"), "/home/u/Public", "Public");

	ok(get(&env, "PATH") == NULL, "no other variables");
	ok(get(&env, "XDG_FOO_DIR") == NULL, "no unknown XDG variable");
	is_str(fbac_env_get(&env, "HOMEX", 4), "/home/u",
	       "get uses exactly len bytes");
	ok(fbac_env_get(&env, "HOM", 3) == NULL, "a prefix is not a name");
	ok(fbac_env_get(&env, "HOME", 0) == NULL, "the empty name");
	fbac_arena_free(a);
}

static void test_home(void)
{
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_env env;
	struct fbac_env_input in = { .home = "/home/u/", .user = "u",
				     .uid = 0 };

	is_int(fbac_env_init(&env, a, &in), 0, "home with a trailing '/'");
	is_str(get(&env, "HOME"), "/home/u", "HOME is normalised");
	is_str(get(&env, "XDG_CONFIG_HOME"), "/home/u/.config",
	       "and so are the values derived from it");
	is_str(get(&env, "UID"), "0", "UID 0");
	is_str(get(&env, "XDG_RUNTIME_DIR"), "/run/user/0", "runtime of root");

	in.home = "/";
	is_int(fbac_env_init(&env, a, &in), 0, "home '/'");
	is_str(get(&env, "HOME"), "/", "HOME '/'");
	is_str(get(&env, "XDG_CACHE_HOME"), "/.cache", "cache under '/'");

	in.home = "home/u";
	is_int(fbac_env_init(&env, a, &in), -EINVAL, "relative home refused");
	in.home = "";
	is_int(fbac_env_init(&env, a, &in), -EINVAL, "empty home refused");
	in.home = NULL;
	is_int(fbac_env_init(&env, a, &in), -EINVAL, "no home refused");
	fbac_arena_free(a);
}

static void test_xdg_overrides(void)
{
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_env env;
	struct fbac_env_input in = {
		.home = "/home/u",
		.user = "u",
		.uid = 1000,
		.xdg_config_home = "/cfg",
		.xdg_data_home = "/srv/data/",
		.xdg_cache_home = "/var//cache/u",
		.xdg_state_home = "/state",
		.xdg_runtime_dir = "/tmp/rt",
	};

	is_int(fbac_env_init(&env, a, &in), 0, "absolute XDG overrides");
	is_str(get(&env, "XDG_CONFIG_HOME"), "/cfg", "XDG_CONFIG_HOME honoured");
	is_str(get(&env, "XDG_DATA_HOME"), "/srv/data",
	       "XDG_DATA_HOME honoured (normalised)");
	is_str(get(&env, "XDG_CACHE_HOME"), "/var/cache/u",
	       "XDG_CACHE_HOME honoured (normalised)");
	is_str(get(&env, "XDG_STATE_HOME"), "/state", "XDG_STATE_HOME honoured");
	is_str(get(&env, "XDG_RUNTIME_DIR"), "/tmp/rt",
	       "XDG_RUNTIME_DIR honoured");
	is_str(get(&env, "RUNTIME_DIR"), "/tmp/rt", "RUNTIME_DIR follows it");
	is_str(get(&env, "HOME"), "/home/u", "HOME unchanged");
	is_str(get(&env, "XDG_DOWNLOAD_DIR"), "/home/u/Downloads",
	       "user dirs stay under HOME");

	in.xdg_config_home = "/a/../b";
	is_int(fbac_env_init(&env, a, &in), 0, "XDG value with '..'");
	is_str(get(&env, "XDG_CONFIG_HOME"), "/home/u/.config",
	       "an unusable XDG value is ignored like a relative one");

	in.xdg_config_home = "cfg";
	in.xdg_data_home = "./data";
	in.xdg_cache_home = "~/.cache";
	in.xdg_state_home = "";
	in.xdg_runtime_dir = "run/user/1000";
	is_int(fbac_env_init(&env, a, &in), 0, "relative XDG values");
	is_str(get(&env, "XDG_CONFIG_HOME"), "/home/u/.config",
	       "relative XDG_CONFIG_HOME ignored");
	is_str(get(&env, "XDG_DATA_HOME"), "/home/u/.local/share",
	       "relative XDG_DATA_HOME ignored");
	is_str(get(&env, "XDG_CACHE_HOME"), "/home/u/.cache",
	       "'~/...' XDG_CACHE_HOME ignored");
	is_str(get(&env, "XDG_STATE_HOME"), "/home/u/.local/state",
	       "empty XDG_STATE_HOME ignored");
	is_str(get(&env, "XDG_RUNTIME_DIR"), "/run/user/1000",
	       "relative XDG_RUNTIME_DIR ignored");
	is_str(get(&env, "RUNTIME_DIR"), "/run/user/1000",
	       "RUNTIME_DIR too");
	fbac_arena_free(a);
}

static void test_user_dirs(void)
{
	struct fbac_arena *a = fbac_arena_new();
	struct fbac_env env;
	struct fbac_env_input in = {
		.home = "/home/u",
		.user = "u",
		.uid = 1000,
		.user_dirs =
			"# This file is written by xdg-user-dirs-update\n"
			"XDG_DESKTOP_DIR=\"$HOME/Bureau\"\n"
			"XDG_DOWNLOAD_DIR=\"/srv/downloads\"\n"
			"XDG_MUSIC_DIR=\"relative/music\"\n"
			"this line is garbage\n"
			"XDG_PICTURES_DIR=$HOME/Pics\n"
			"XDG_VIDEOS_DIR=\"$HOME/../etc\"\n"
			"XDG_TEMPLATES_DIR=\"$HOMEX/t\"\n"
			"XDG_DOCUMENTS_DIR=\"$HOME/Docs/\"\n"
			"XDG_PUBLICSHARE_DIR=\"$HOME/$USER\"\n"
			"XDG_UNKNOWN_DIR=\"/x\"\n"
			"=\"\n"
			"XDG_DESKTOP_DIRX=\"/nope\"\n",
	};

	is_int(fbac_env_init(&env, a, &in), 0, "user-dirs.dirs parsed");
	is_str(get(&env, "XDG_DESKTOP_DIR"), "/home/u/Bureau",
	       "$HOME/... is under home");
	is_str(get(&env, "XDG_DOWNLOAD_DIR"), "/srv/downloads",
	       "an absolute path is taken");
	is_str(get(&env, "XDG_MUSIC_DIR"), "/home/u/Music",
	       "a relative path is ignored");
	is_str(get(&env, "XDG_PICTURES_DIR"), "/home/u/Pictures",
	       "a value without quotes is ignored");
	is_str(get(&env, "XDG_VIDEOS_DIR"), "/home/u/Videos",
	       "a value with '..' is ignored");
	is_str(get(&env, "XDG_TEMPLATES_DIR"), "/home/u/Templates",
	       "$HOMEX is not $HOME");
	is_str(get(&env, "XDG_DOCUMENTS_DIR"), "/home/u/Docs",
	       "trailing '/' normalised");
	is_str(get(&env, "XDG_PUBLICSHARE_DIR"), "/home/u/Public",
	       "a value with another variable is ignored");
	ok(get(&env, "XDG_UNKNOWN_DIR") == NULL, "unknown names are not added");
	is_str(get(&env, "HOME"), "/home/u", "HOME untouched");

	/* xdg-user-dirs writes "$HOME/" for a disabled directory: it must
	 * not make $XDG_MUSIC_DIR the whole home (nor anything above it). */
	in.user_dirs = "XDG_MUSIC_DIR=\"$HOME\"\nXDG_DESKTOP_DIR=\"$HOME/\"\n"
		       "XDG_PICTURES_DIR=\"/\"\nXDG_VIDEOS_DIR=\"$HOME/V\"";
	is_int(fbac_env_init(&env, a, &in), 0, "last line without newline");
	ok(get(&env, "XDG_MUSIC_DIR") &&
		   strcmp(get(&env, "XDG_MUSIC_DIR"), "/home/u") != 0,
	   "\"$HOME\" (disabled) is not the home (%s)",
	   get(&env, "XDG_MUSIC_DIR"));
	ok(get(&env, "XDG_DESKTOP_DIR") &&
		   strcmp(get(&env, "XDG_DESKTOP_DIR"), "/home/u") != 0,
	   "\"$HOME/\" (disabled) is not the home (%s)",
	   get(&env, "XDG_DESKTOP_DIR"));
	ok(get(&env, "XDG_PICTURES_DIR") &&
		   strcmp(get(&env, "XDG_PICTURES_DIR"), "/") != 0,
	   "\"/\" is not taken (%s)", get(&env, "XDG_PICTURES_DIR"));
	is_str(get(&env, "XDG_VIDEOS_DIR"), "/home/u/V",
	       "the last line counts without a newline");

	in.user_dirs = "";
	is_int(fbac_env_init(&env, a, &in), 0, "an empty user-dirs.dirs");
	is_str(get(&env, "XDG_MUSIC_DIR"), "/home/u/Music", "defaults kept");

	in.user_dirs = "XDG_DOWNLOAD_DIR=\"$HOME/dl\"\n";
	in.xdg_config_home = "/elsewhere";
	is_int(fbac_env_init(&env, a, &in), 0, "user dirs and XDG together");
	is_str(get(&env, "XDG_DOWNLOAD_DIR"), "/home/u/dl",
	       "$HOME in user-dirs is the home, not XDG_CONFIG_HOME");
	fbac_arena_free(a);
}

int main(void)
{
	plan_no_plan();
	test_defaults();
	test_home();
	test_xdg_overrides();
	test_user_dirs();
	return done_testing();
}
