build-clang/src/fbac-run/landlock.o: src/fbac-run/landlock.c \
  src/fbac-run/landlock.h lib/stack.h lib/policy.h lib/resolve.h \
  lib/env.h lib/arena.h lib/macro.h lib/profile.h lib/diag.h \
  lib/fbac-limits.h lib/ops.h lib/yaml-tree.h lib/suggest.h \
  src/common/output.h lib/path.h

src/fbac-run/landlock.h:

lib/stack.h:

lib/policy.h:

lib/resolve.h:

lib/env.h:

lib/arena.h:

lib/macro.h:

lib/profile.h:

lib/diag.h:

lib/fbac-limits.h:

lib/ops.h:

lib/yaml-tree.h:

lib/suggest.h:

src/common/output.h:

lib/path.h:
