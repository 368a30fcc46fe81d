build-clang/src/fbac/cmd-check.o: src/fbac/cmd-check.c src/fbac/fbac.h \
  src/common/describe.h lib/policy.h lib/resolve.h lib/env.h lib/arena.h \
  lib/macro.h lib/profile.h lib/diag.h lib/fbac-limits.h lib/ops.h \
  lib/yaml-tree.h src/common/layers.h src/common/prefetch.h lib/stack.h \
  lib/suggest.h src/common/output.h

src/fbac/fbac.h:

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

src/common/layers.h:

src/common/prefetch.h:

lib/stack.h:

lib/suggest.h:

src/common/output.h:
