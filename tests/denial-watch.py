#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
#
# usage: denial-watch.py UNCONFINED.strace CONFINED.strace EVENTS.jsonl [CWD]
#
# The two files are `strace -f -Z` of one program run unconfined and under
# fbac-run. Every EACCES or EPERM that only the confined run saw is a
# refusal fbac caused; each must have an event in EVENTS (fbac-run --log)
# that names its object (the path, its last component, or the port; a
# relative path is taken from CWD, default the current directory; a call
# with no path or address, by the call's name, as fbac-run logs a call it
# refuses as such).
# Prints one line per such refusal ("ok" or "SILENT"); exit 1 if any is
# silent. The supervisor's own calls (its /proc reads, its opens through
# /proc/self/fd) are not the program's and are left out.
import json
import os
import re
import sys

LINE = re.compile(r'^(\d+)\s+(\w+)\((.*)\)\s+= -1 (EACCES|EPERM) ')
STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
PORT = re.compile(r'htons\((\d+)\)')
SUPERVISOR = re.compile(r'^/proc/(self|\d+)/(fd|status|cwd|root|exe|mem|comm|task)(/|$)')


def refusals(path):
    out = set()
    with open(path, errors='replace') as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            args = m.group(3)
            s = STRING.search(args)
            obj = s.group(1) if s else ''
            if 'sin_port' in args or 'sin6_port' in args:
                p = PORT.search(args)
                obj = 'port:' + (p.group(1) if p else '?')
            elif not s:
                obj = 'syscall:' + m.group(2)
            out.add((m.group(2), obj, m.group(4)))
    return out


def named(obj, objects, cwd):
    if obj.startswith('syscall:'):
        return obj[8:] in objects
    if obj.startswith('port:'):
        return any(o.endswith(':' + obj[5:]) for o in objects)
    if obj and not obj.startswith('/'):
        obj = os.path.normpath(os.path.join(cwd, obj))
    base = os.path.basename(obj.rstrip('/')) or '/'
    return any(o == obj or o == base or o.endswith('/' + base)
               for o in objects if o)


def main():
    plain, confined, log = sys.argv[1:4]
    cwd = sys.argv[4] if len(sys.argv) > 4 else os.getcwd()
    objects = []
    if os.path.exists(log):
        with open(log) as f:
            objects = [json.loads(l).get('object', '') for l in f]
    silent = 0
    for sc, obj, err in sorted(refusals(confined) - refusals(plain)):
        if SUPERVISOR.match(obj):
            continue
        ok = named(obj, objects, cwd)
        silent += not ok
        print('%-7s %s(%r) = %s' % ('ok' if ok else 'SILENT', sc, obj, err))
    return 1 if silent else 0


if __name__ == '__main__':
    sys.exit(main())
