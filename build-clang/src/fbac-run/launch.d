build-clang/src/fbac-run/launch.o: src/fbac-run/launch.c \
  src/fbac-run/launch.h src/fbac-run/filter.h src/fbac-run/landlock.h \
  lib/stack.h lib/policy.h lib/resolve.h lib/env.h lib/arena.h \
  lib/macro.h lib/profile.h lib/diag.h lib/fbac-limits.h lib/ops.h \
  lib/yaml-tree.h lib/suggest.h src/common/output.h

src/fbac-run/launch.h:

src/fbac-run/filter.h:

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
