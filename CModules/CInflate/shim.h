// zlib's raw inflate (ZIP's deflate members) for Sources/Importers' archive reader; Debian's zlib1g-dev.
#include <zlib.h>

/// inflateInit2 is a macro: a raw deflate stream (no zlib header), the largest window.
static inline int saessak_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -MAX_WBITS);
}
