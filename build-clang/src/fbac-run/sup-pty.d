build-clang/src/fbac-run/sup-pty.o: src/fbac-run/sup-pty.c \
  lib/fbac-limits.h src/fbac-run/sup.h src/fbac-run/landlock.h \
  lib/stack.h lib/policy.h lib/resolve.h lib/env.h lib/arena.h \
  lib/macro.h lib/profile.h lib/diag.h lib/ops.h lib/yaml-tree.h \
  lib/suggest.h

lib/fbac-limits.h:

src/fbac-run/sup.h:

src/fbac-run/landlock.h:

lib/stack.h:

lib/policy.h:

lib/resolve.h:

lib/env.h:

lib/arena.h:

lib/macro.h:

lib/profile.h:

lib/diag.h:

lib/ops.h:

lib/yaml-tree.h:

lib/suggest.h:
