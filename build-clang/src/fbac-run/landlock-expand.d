build-clang/src/fbac-run/landlock-expand.o: \
  src/fbac-run/landlock-expand.c lib/fbac-limits.h \
  src/fbac-run/landlock.h lib/stack.h lib/policy.h lib/resolve.h \
  lib/env.h lib/arena.h lib/macro.h lib/profile.h lib/diag.h lib/ops.h \
  lib/yaml-tree.h lib/suggest.h lib/path.h

lib/fbac-limits.h:

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

lib/path.h:
