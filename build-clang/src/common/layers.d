build-clang/src/common/layers.o: src/common/layers.c src/common/layers.h \
  lib/env.h lib/arena.h lib/macro.h src/common/prefetch.h lib/profile.h \
  lib/diag.h lib/fbac-limits.h lib/ops.h lib/yaml-tree.h \
  src/common/cache.h lib/checksum.h src/common/output.h

src/common/layers.h:

lib/env.h:

lib/arena.h:

lib/macro.h:

src/common/prefetch.h:

lib/profile.h:

lib/diag.h:

lib/fbac-limits.h:

lib/ops.h:

lib/yaml-tree.h:

src/common/cache.h:

lib/checksum.h:

src/common/output.h:
