build-clang/src/common/describe.o: src/common/describe.c \
  src/common/describe.h lib/policy.h lib/resolve.h lib/env.h lib/arena.h \
  lib/macro.h lib/profile.h lib/diag.h lib/fbac-limits.h lib/ops.h \
  lib/yaml-tree.h

src/common/describe.h:

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
