build-clang/lib/policy.o: lib/policy.c lib/policy.h lib/resolve.h \
  lib/env.h lib/arena.h lib/macro.h lib/profile.h lib/diag.h \
  lib/fbac-limits.h lib/ops.h lib/yaml-tree.h lib/path.h

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

lib/path.h:
