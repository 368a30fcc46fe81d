build-clang/lib/checksum.o: lib/checksum.c lib/checksum.h

lib/checksum.h:
