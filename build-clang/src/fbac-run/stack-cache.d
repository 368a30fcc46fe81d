build-clang/src/fbac-run/stack-cache.o: src/fbac-run/stack-cache.c \
  src/fbac-run/stack-cache.h lib/blob.h src/common/layers.h lib/env.h \
  lib/arena.h lib/macro.h src/common/prefetch.h lib/profile.h lib/diag.h \
  lib/fbac-limits.h lib/ops.h lib/yaml-tree.h lib/resolve.h lib/stack.h \
  lib/policy.h lib/suggest.h src/common/cache.h lib/checksum.h \
  lib/scache.h

src/fbac-run/stack-cache.h:

lib/blob.h:

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

lib/resolve.h:

lib/stack.h:

lib/policy.h:

lib/suggest.h:

src/common/cache.h:

lib/checksum.h:

lib/scache.h:
