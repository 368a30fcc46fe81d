build-clang/src/common/prefetch.o: src/common/prefetch.c \
  src/common/prefetch.h lib/profile.h lib/arena.h lib/macro.h lib/diag.h \
  lib/fbac-limits.h lib/ops.h lib/yaml-tree.h src/common/cache.h \
  lib/env.h lib/ycache.h

src/common/prefetch.h:

lib/profile.h:

lib/arena.h:

lib/macro.h:

lib/diag.h:

lib/fbac-limits.h:

lib/ops.h:

lib/yaml-tree.h:

src/common/cache.h:

lib/env.h:

lib/ycache.h:
