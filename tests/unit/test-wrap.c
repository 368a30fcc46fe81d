/* SPDX-License-Identifier: GPL-2.0-or-later */
/* lib/wrap.c: the wrapper script and the desktop entry copy of fbac wrap. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "wrap.h"

static void test_wrapper_round_trip(void)
{
	const char *opts[] = { "--as", "Text_Viewer", "-D", "Text_Viewer.files=/a b/it's" };
	struct fbac_wrapper w;
	char *text = NULL;

	is_int(fbac_wrapper_format("/usr/bin/fbac-run", "/usr/bin/less", opts, 4,
				   "/home/u/.local/share/applications/less.desktop",
				   &text),
	       0, "a wrapper is formatted");
	ok(text && !strncmp(text, "#!/bin/sh\n" FBAC_WRAPPER_MARKER " ", 27),
	   "it starts with the shebang and the marker");
	ok(text && strstr(text, "exec '/usr/bin/fbac-run' '--as' 'Text_Viewer' '-D' "
				"'Text_Viewer.files=/a b/it'\\''s' -- '/usr/bin/less' \"$@\"\n"),
	   "the exec line quotes every word");
	is_int(fbac_wrapper_parse(text, strlen(text), &w), 0, "it parses back");
	is_str(w.program, "/usr/bin/less", "program recorded");
	is_str(w.fbac_run, "/usr/bin/fbac-run", "fbac-run recorded");
	is_str(w.desktop, "/home/u/.local/share/applications/less.desktop",
	       "desktop entry recorded");
	ok(strstr(w.options, "'Text_Viewer'") != NULL, "options recorded");
	free(text);

	is_int(fbac_wrapper_format("/f", "/p", NULL, 0, NULL, &text), 0,
	       "no options, no desktop entry");
	is_int(fbac_wrapper_parse(text, strlen(text), &w), 0, "parses");
	is_str(w.desktop, "", "no desktop entry recorded");
	free(text);
}

static void test_wrapper_refusals(void)
{
	const char *nl[] = { "--as", "A\nB" };
	struct fbac_wrapper w;
	char *text = NULL;
	static const char foreign[] = "#!/bin/sh\nexec /usr/bin/less \"$@\"\n";
	static const char broken[] = "#!/bin/sh\n" FBAC_WRAPPER_MARKER " x\n# program: rel\n";

	is_int(fbac_wrapper_format("/f", "/p", nl, 2, NULL, &text), -EINVAL,
	       "a newline in an option is refused");
	is_int(fbac_wrapper_format("f", "/p", NULL, 0, NULL, &text), -EINVAL,
	       "a relative fbac-run is refused");
	ok(text == NULL, "nothing returned on failure");
	is_int(fbac_wrapper_parse(foreign, strlen(foreign), &w), -ENOMSG,
	       "a script without the marker is not ours");
	is_int(fbac_wrapper_parse(broken, strlen(broken), &w), -EINVAL,
	       "a marker with a broken record is invalid");
	is_int(fbac_wrapper_parse("", 0, &w), -ENOMSG, "an empty file is not ours");
}

static bool is_firefox(const char *prog, void *ctx)
{
	(void)ctx;
	return !strcmp(prog, "/usr/lib/firefox-esr/firefox-esr") ||
	       !strcmp(prog, "firefox-esr");
}

static void test_desktop(void)
{
	static const char in[] =
		"[Desktop Entry]\n"
		"Name=Firefox\n"
		"Exec=/usr/lib/firefox-esr/firefox-esr %u\n"
		"TryExec=firefox-esr\r\n"
		"DBusActivatable=true\n"
		"X-Fbac-Wrapped=true\n"
		"\n"
		"[Desktop Action new-window]\n"
		"Exec = env MOZ_X=1 \"/usr/lib/firefox-esr/firefox-esr\" --new-window %u\n"
		"[Desktop Action other]\n"
		"Exec=/usr/bin/other %u\n";
	char *out = NULL;
	size_t n = 0;

	is_int(fbac_desktop_rewrite(in, strlen(in), is_firefox, NULL,
				    "/home/u/.local/bin/firefox-esr", &out, &n),
	       0, "the entry is rewritten");
	is_int((int)n, 3, "two Exec= and one TryExec= run the wrapper");
	ok(out && strstr(out, "[Desktop Entry]\n" FBAC_DESKTOP_MARKER "\nName=Firefox\n"),
	   "the marker follows the group header");
	ok(out && strstr(out, "\nExec=/home/u/.local/bin/firefox-esr %u\n"),
	   "Exec= runs the wrapper, field codes kept");
	ok(out && strstr(out, "\nTryExec=/home/u/.local/bin/firefox-esr\n"),
	   "TryExec= names the wrapper");
	ok(out && strstr(out, "\nDBusActivatable=false\n"), "D-Bus activation is off");
	ok(out && strstr(out, "Exec = env MOZ_X=1 /home/u/.local/bin/firefox-esr --new-window %u\n"),
	   "an action's Exec= after env runs the wrapper");
	ok(out && strstr(out, "Exec=/usr/bin/other %u\n"), "another program is left alone");
	ok(out && !strstr(strstr(out, FBAC_DESKTOP_MARKER) + 1, FBAC_DESKTOP_MARKER),
	   "the marker appears once (the source's own is dropped)");
	ok(out && fbac_desktop_is_wrapped(out, strlen(out)), "the copy is recognised");
	ok(!fbac_desktop_is_wrapped("[Desktop Entry]\nName=x\n", 22), "an entry without the marker is not");
	ok(!fbac_desktop_is_wrapped("[Other]\n" FBAC_DESKTOP_MARKER "\n", 28),
	   "the marker counts only in [Desktop Entry]");
	free(out);
	out = NULL;

	is_int(fbac_desktop_rewrite(in, strlen(in), is_firefox, NULL,
				    "/home/my user/bin/firefox-esr", &out, &n),
	       0, "a wrapper path with a space");
	ok(out && strstr(out, "\nExec=\"/home/my user/bin/firefox-esr\" %u\n"),
	   "is quoted in Exec=");
	free(out);
	out = NULL;
	is_int(fbac_desktop_rewrite(in, strlen(in), is_firefox, NULL,
				    "/home/100%/bin/ff", &out, &n),
	       -EINVAL, "a wrapper path with a % is refused");
	is_int(fbac_desktop_rewrite("Name=x\n[Desktop Entry]\n", 23, is_firefox, NULL,
				    "/w", &out, &n),
	       -EINVAL, "a key before the first group is refused");
	is_int(fbac_desktop_rewrite("[Desktop Entry]\n[Desktop Entry]\n", 32, is_firefox,
				    NULL, "/w", &out, &n),
	       -EINVAL, "the main group twice is refused");
	is_int(fbac_desktop_rewrite("[X]\nExec=a\n", 11, is_firefox, NULL, "/w", &out, &n),
	       -EINVAL, "no [Desktop Entry] is refused");
	is_int(fbac_desktop_rewrite("[Desktop Entry]\nExec=\"unterminated\n", 35,
				    is_firefox, NULL, "/w", &out, &n),
	       0, "an unterminated quote is left as it was");
	is_int((int)n, 0, "and not rewritten");
	free(out);
}

int main(void)
{
	plan_no_plan();
	test_wrapper_round_trip();
	test_wrapper_refusals();
	test_desktop();
	return done_testing();
}
