build-clang/src/fbac-run/main.o: src/fbac-run/main.c src/common/cache.h \
  lib/env.h lib/arena.h lib/macro.h src/common/describe.h lib/policy.h \
  lib/resolve.h lib/profile.h lib/diag.h lib/fbac-limits.h lib/ops.h \
  lib/yaml-tree.h src/fbac-run/filter.h src/fbac-run/landlock.h \
  lib/stack.h lib/suggest.h src/fbac-run/launch.h src/common/layers.h \
  src/common/prefetch.h src/fbac-run/stack-cache.h lib/blob.h \
  src/common/output.h src/fbac-run/sup.h

src/common/cache.h:

lib/env.h:

lib/arena.h:

lib/macro.h:

src/common/describe.h:

lib/policy.h:

lib/resolve.h:

lib/profile.h:

lib/diag.h:

lib/fbac-limits.h:

lib/ops.h:

lib/yaml-tree.h:

src/fbac-run/filter.h:

src/fbac-run/landlock.h:

lib/stack.h:

lib/suggest.h:

src/fbac-run/launch.h:

src/common/layers.h:

src/common/prefetch.h:

src/fbac-run/stack-cache.h:

lib/blob.h:

src/common/output.h:

src/fbac-run/sup.h:
