build-clang/src/fbac-run/events.o: src/fbac-run/events.c \
  src/fbac-run/filter.h src/common/output.h lib/diag.h lib/fbac-limits.h \
  lib/macro.h lib/suggest.h lib/policy.h lib/resolve.h lib/env.h \
  lib/arena.h lib/profile.h lib/ops.h lib/yaml-tree.h src/fbac-run/sup.h \
  src/fbac-run/landlock.h lib/stack.h

src/fbac-run/filter.h:

src/common/output.h:

lib/diag.h:

lib/fbac-limits.h:

lib/macro.h:

lib/suggest.h:

lib/policy.h:

lib/resolve.h:

lib/env.h:

lib/arena.h:

lib/profile.h:

lib/ops.h:

lib/yaml-tree.h:

src/fbac-run/sup.h:

src/fbac-run/landlock.h:

lib/stack.h:
