build-clang/src/fbac/list-man.o: src/fbac/list-man.c src/fbac/fbac.h \
  src/common/describe.h lib/policy.h lib/resolve.h lib/env.h lib/arena.h \
  lib/macro.h lib/profile.h lib/diag.h lib/fbac-limits.h lib/ops.h \
  lib/yaml-tree.h src/common/layers.h src/common/prefetch.h lib/stack.h \
  lib/suggest.h src/fbac/list-man.h src/fbac/roff.h

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

src/fbac/list-man.h:

src/fbac/roff.h:
