# cmake -DFILE=<file> -P checksum.cmake: writes <file>.sha256, the file's SHA-256 in hex (what libprof.jar
# checks its extracted library against).
file(SHA256 ${FILE} sum)
file(WRITE ${FILE}.sha256 "${sum}\n")
