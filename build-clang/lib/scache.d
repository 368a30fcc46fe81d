build-clang/lib/scache.o: lib/scache.c lib/scache.h lib/diag.h \
  lib/fbac-limits.h lib/macro.h lib/stack.h lib/policy.h lib/resolve.h \
  lib/env.h lib/arena.h lib/profile.h lib/ops.h lib/yaml-tree.h \
  lib/suggest.h lib/blob.h

lib/scache.h:

lib/diag.h:

lib/fbac-limits.h:

lib/macro.h:

lib/stack.h:

lib/policy.h:

lib/resolve.h:

lib/env.h:

lib/arena.h:

lib/profile.h:

lib/ops.h:

lib/yaml-tree.h:

lib/suggest.h:

lib/blob.h:
