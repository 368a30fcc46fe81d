/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * lib/jsonl.c: one member of a flat JSON object on a line, as fbac-run
 * writes its events (src/fbac-run/events.c) and 'fbac log' reads them.
 */
#include <errno.h>
#include <string.h>

#include "jsonl.h"
#include "tap.h"

static int get(const char *line, const char *key, char *out, size_t size)
{
	return fbac_jsonl_get(line, strlen(line), key, out, size);
}

int main(void)
{
	static const char ev[] =
		"{\"time\": 1796522793.769, \"pid\": 29136, \"exe\": \"/usr/bin/da\\\"sh\", "
		"\"object\": \"/a\\\\b\\n\\t\\u0001\\u00e9\", \"decision\": \"deny\"}";
	char v[64];

	plan_no_plan();
	is_int(get(ev, "time", v, sizeof(v)), 0, "a number");
	is_str(v, "1796522793.769", "as written");
	is_int(get(ev, "pid", v, sizeof(v)), 0, "an integer");
	is_str(v, "29136", "pid");
	is_int(get(ev, "exe", v, sizeof(v)), 0, "a string");
	is_str(v, "/usr/bin/da\"sh", "with a quote");
	is_int(get(ev, "object", v, sizeof(v)), 0, "escapes");
	is_str(v, "/a\\b\n\t\001?", "decoded; \\u beyond ASCII as '?'");
	is_int(get(ev, "decision", v, sizeof(v)), 0, "the last member");
	is_str(v, "deny", "decision");
	is_int(get(ev, "layer", v, sizeof(v)), -ENOENT, "a member not there");
	is_int(get(ev, "exe", v, 5), -ENAMETOOLONG, "a value too long");
	is_int(get("{}", "x", v, sizeof(v)), -ENOENT, "an empty object");
	is_int(get("  {\"a\" : \"b\" }  ", "a", v, sizeof(v)), 0, "spaces");
	is_str(v, "b", "a");
	is_int(get("{\"a\": \"b\"} x", "a", v, sizeof(v)), -EINVAL,
	       "text after the object");
	is_int(get("{\"a\": \"b\"", "a", v, sizeof(v)), -EINVAL, "cut short");
	is_int(get("{\"a\": {\"b\": 1}}", "a", v, sizeof(v)), -EINVAL,
	       "nesting is not ours");
	is_int(get("{\"a\": \"\\x\"}", "a", v, sizeof(v)), -EINVAL,
	       "an unknown escape");
	is_int(get("{\"a\": \"\\u12\"}", "a", v, sizeof(v)), -EINVAL,
	       "a short \\u");
	is_int(get("[1]", "a", v, sizeof(v)), -EINVAL, "not an object");
	is_int(get("{\"a\": \"b\", \"a\": \"c\"}", "a", v, sizeof(v)), 0,
	       "a repeated member");
	is_str(v, "b", "the first one");
	is_int(fbac_jsonl_get("{\"a\": 1}", 4, "a", v, sizeof(v)), -EINVAL,
	       "only len bytes are read");
	return done_testing();
}
