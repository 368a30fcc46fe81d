build-clang/src/fbac-run/sup-attr.o: src/fbac-run/sup-attr.c \
  src/fbac-run/sup.h lib/fbac-limits.h src/fbac-run/landlock.h \
  lib/stack.h lib/policy.h lib/resolve.h lib/env.h lib/arena.h \
  lib/macro.h lib/profile.h lib/diag.h lib/ops.h lib/yaml-tree.h \
  lib/suggest.h src/fbac-run/target.h

src/fbac-run/sup.h:

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

src/fbac-run/target.h:
