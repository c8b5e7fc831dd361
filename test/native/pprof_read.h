/* A pprof profile (gzip-compressed protobuf) decoded for the writer tests; cmocka asserts each step. */
#ifndef TEST_PPROF_READ_H
#define TEST_PPROF_READ_H

#include "profile.pb-c.h"

#include <string.h>
#include <zlib.h>

static inline Perftools__Profiles__Profile *pprof_read(const char *gz, size_t len) {
    static uint8_t raw[1 << 16];
    z_stream z;
    memset(&z, 0, sizeof(z));
    assert_int_equal(inflateInit2(&z, 15 + 16), Z_OK);
    z.next_in = (uint8_t *)gz;
    z.avail_in = (uInt)len;
    z.next_out = raw;
    z.avail_out = sizeof(raw);
    assert_int_equal(inflate(&z, Z_FINISH), Z_STREAM_END);
    size_t size = sizeof(raw) - z.avail_out;
    inflateEnd(&z);
    Perftools__Profiles__Profile *pb = perftools__profiles__profile__unpack(NULL, size, raw);
    assert_non_null(pb);
    return pb;
}

#endif
