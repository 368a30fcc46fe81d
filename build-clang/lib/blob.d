build-clang/lib/blob.o: lib/blob.c lib/blob.h lib/checksum.h \
  lib/fbac-limits.h

lib/blob.h:

lib/checksum.h:

lib/fbac-limits.h:
