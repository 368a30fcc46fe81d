build-clang/src/fbac-run/supervise.o: src/fbac-run/supervise.c \
  src/fbac-run/filter.h src/common/output.h lib/diag.h lib/fbac-limits.h \
  lib/macro.h lib/path.h src/fbac-run/sup.h src/fbac-run/landlock.h \
  lib/stack.h lib/policy.h lib/resolve.h lib/env.h lib/arena.h \
  lib/profile.h lib/ops.h lib/yaml-tree.h lib/suggest.h \
  src/fbac-run/target.h

src/fbac-run/filter.h:

src/common/output.h:

lib/diag.h:

lib/fbac-limits.h:

lib/macro.h:

lib/path.h:

src/fbac-run/sup.h:

src/fbac-run/landlock.h:

lib/stack.h:

lib/policy.h:

lib/resolve.h:

lib/env.h:

lib/arena.h:

lib/profile.h:

lib/ops.h:

lib/yaml-tree.h:

lib/suggest.h:

src/fbac-run/target.h:
