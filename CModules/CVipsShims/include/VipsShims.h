// Non-variadic wrappers around the libvips calls Saessak uses: Swift cannot call C variadic functions.
#ifndef SAESSAK_VIPS_SHIMS_H
#define SAESSAK_VIPS_SHIMS_H

#include <stddef.h>

typedef struct _VipsImage VipsImage;

/// Starts libvips once per process; returns 0 on success.
int saessak_vips_start(void);

/// 1 when the loader `loader` ("jpegload", "pngload", "webpload", "heifload") takes the file, else 0. Only that
/// loader looks at the file: libvips' own search for a loader asks each it has, OpenSlide's first, whose detection
/// opens the file with libtiff and SQLite.
int saessak_vips_is_a(const char *loader, const char *path);

/// The libvips version ("8.14.1").
const char *saessak_vips_version(void);

/// 1 when libvips runs code compiled at run time (ORC) for its vector paths; Saessak turns them off at the start.
int saessak_vips_vectors_enabled(void);

/// 1 when libvips has the operation `nickname` ("heifload", "jpegsave"), else 0: what it was built with.
int saessak_vips_has_operation(const char *nickname);

/// Opens a file with the loader `loader` and no other, lazily (header only until pixels are needed); NULL on
/// failure. `fail_on_truncated` makes later pixel reads fail on damaged data instead of filling it in.
VipsImage *saessak_vips_open(const char *path, const char *loader, int fail_on_truncated);

int saessak_vips_width(VipsImage *image);
int saessak_vips_height(VipsImage *image);

/// A metadata field as text ("exif-ifd2-DateTimeOriginal"…); NULL when absent. Free with saessak_vips_free.
char *saessak_vips_field(VipsImage *image, const char *name);

/// An integer metadata field ("orientation"); returns 0 and sets *out when present.
int saessak_vips_int_field(VipsImage *image, const char *name, int *out);

/// The factor (1, 2, 4 or 8) a JPEG of image_width×image_height is shrunk by as it is decoded for a thumbnail fitting
/// width×height: the largest that leaves at least 1.5× to the final resize.
int saessak_vips_jpeg_shrink(int image_width, int image_height, int width, int height);

/// Shrink-on-load thumbnail fitting width×height (auto-rotated by EXIF orientation), converted to sRGB; fails on
/// truncated or damaged data.
/// `attention_crop` fills the box exactly, keeping the most interesting part. NULL on failure. A JPEG or PNG is
/// opened with `loader` and no other; a WebP or HEIF, and a JPEG cropped, by libvips' `vips_thumbnail` (its own
/// shrink-on-load for them, after its search for a loader).
VipsImage *saessak_vips_thumbnail(const char *path, const char *loader, int width, int height, int attention_crop);

/// Encodes without metadata (EXIF, XMP, ICC stripped). Returns 0 on success; free *buffer with saessak_vips_free.
int saessak_vips_save_jpeg(VipsImage *image, int quality, void **buffer, size_t *length);
int saessak_vips_save_webp(VipsImage *image, int quality, void **buffer, size_t *length);
/// A baseline (not progressive) JPEG for print, without metadata and with 4:4:4 chroma; as saessak_vips_save_jpeg.
int saessak_vips_save_print_jpeg(VipsImage *image, int quality, void **buffer, size_t *length);

void saessak_vips_release(VipsImage *image);
void saessak_vips_free(void *pointer);

/// The last libvips error message, cleared by the call; never NULL. Free with saessak_vips_free.
char *saessak_vips_take_error(void);

#endif
