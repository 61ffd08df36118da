#include "VipsShims.h"

#include <pthread.h>
#include <string.h>
#include <vips/vips.h>
#include <vips/vector.h>

static pthread_once_t start_once = PTHREAD_ONCE_INIT;
static int start_result = -1;

static void start(void) {
    start_result = VIPS_INIT("saessak");
    if (start_result != 0) return;
    // A home server: keep libvips' caches small and its threads few.
    vips_cache_set_max(0);
    vips_concurrency_set(2);
    // No run-time compiled vector code (ORC): Debian 12's liborc 0.4.33 gives a compiled program's code memory back
    // without taking the lock it allocates under, so two thumbnails made at once can corrupt its list and crash the
    // server (a segfault in orc_code_allocate_codemem about one Day One import in twenty; a C program making small
    // thumbnails on four threads crashed in one run of four). libvips' C paths make the same
    // pictures, rounded a little differently (at most 2 levels of 255 apart in a trial).
    vips_vector_set_enabled(FALSE);
    // libvips builds its table of operation classes on first lookup, and that is not thread-safe: look once here.
    vips_foreign_find_load("saessak-warm-up.jpg");
    vips_error_clear();
    VipsImage *warm = vips_image_new();
    g_object_unref(warm);
}

int saessak_vips_start(void) {
    pthread_once(&start_once, start);
    return start_result;
}

int saessak_vips_is_a(const char *loader, const char *path) { return vips_foreign_is_a(loader, path) ? 1 : 0; }

const char *saessak_vips_version(void) { return vips_version_string(); }

int saessak_vips_vectors_enabled(void) { return vips_vector_isenabled() ? 1 : 0; }

int saessak_vips_has_operation(const char *nickname) { return vips_type_find("VipsOperation", nickname) != 0; }

/// The file through `loader` alone, read sequentially, decoded at 1/`shrink` of its size (a JPEG's 2, 4 or 8).
static VipsImage *load(const char *path, const char *loader, VipsFailOn fail_on, int shrink) {
    VipsImage *image = NULL;
    int failed = shrink > 1 ? vips_call(loader, path, &image, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on,
                                        "shrink", shrink, NULL)
                            : vips_call(loader, path, &image, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on", fail_on, NULL);
    return failed ? NULL : image;
}

VipsImage *saessak_vips_open(const char *path, const char *loader, int fail_on_truncated) {
    return load(path, loader, fail_on_truncated ? VIPS_FAIL_ON_TRUNCATED : VIPS_FAIL_ON_NONE, 1);
}

int saessak_vips_width(VipsImage *image) { return vips_image_get_width(image); }
int saessak_vips_height(VipsImage *image) { return vips_image_get_height(image); }

char *saessak_vips_field(VipsImage *image, const char *name) {
    if (vips_image_get_typeof(image, name) == 0) return NULL;
    char *text = NULL;
    if (vips_image_get_as_string(image, name, &text) != 0) return NULL;
    return text;
}

int saessak_vips_int_field(VipsImage *image, const char *name, int *out) {
    if (vips_image_get_typeof(image, name) != G_TYPE_INT) return -1;
    return vips_image_get_int(image, name, out);
}

int saessak_vips_jpeg_shrink(int image_width, int image_height, int width, int height) {
    if (image_width <= 0 || image_height <= 0 || width <= 0 || height <= 0) return 1;
    // The box is fitted either way round (the EXIF orientation may turn the picture): the smaller shrink of the two.
    double upright = VIPS_MIN((double)width / image_width, (double)height / image_height);
    double turned = VIPS_MIN((double)width / image_height, (double)height / image_width);
    double scale = VIPS_MAX(upright, turned);
    if (scale >= 1) return 1;
    double factor = 1 / scale;
    for (int shrink = 8; shrink > 1; shrink /= 2) {
        if (factor >= shrink * 1.5) return shrink;
    }
    return 1;
}

/// A thumbnail of an image opened (and perhaps shrunk on load) by the caller, which it releases.
static VipsImage *thumbnail_of(VipsImage *image, int width, int height, int attention_crop) {
    VipsImage *thumbnail = NULL;
    int failed = vips_thumbnail_image(image, &thumbnail, width, "height", height, "size", VIPS_SIZE_DOWN, "crop",
                                      attention_crop ? VIPS_INTERESTING_ATTENTION : VIPS_INTERESTING_NONE, NULL);
    g_object_unref(image);
    return failed ? NULL : thumbnail;
}

/// libvips 8.14 shrinks a JPEG on load only while a factor of 2 is left to its final resize: a 1200×900 photo
/// fitted in 320 px (3.75×) is decoded whole. libjpeg's scaled decoding is a filtered reduction, not a block
/// average, so 1.5× left to the Lanczos resize is enough: the same photo is decoded at 600×450, and a check of an
/// imported photo costs a sixth less (docs/photos.md). A fitted (uncropped) JPEG: its header read first for the factor.
static VipsImage *jpeg_thumbnail(const char *path, const char *loader, int width, int height) {
    VipsImage *header = load(path, loader, VIPS_FAIL_ON_TRUNCATED, 1);
    if (header == NULL) return NULL;
    int shrink = saessak_vips_jpeg_shrink(vips_image_get_width(header), vips_image_get_height(header), width, height);
    if (shrink == 1) return thumbnail_of(header, width, height, 0);
    g_object_unref(header);
    VipsImage *shrunk = load(path, loader, VIPS_FAIL_ON_TRUNCATED, shrink);
    return shrunk == NULL ? NULL : thumbnail_of(shrunk, width, height, 0);
}

VipsImage *saessak_vips_thumbnail(const char *path, const char *loader, int width, int height, int attention_crop) {
    VipsImage *thumbnail = NULL;
    if (strcmp(loader, "jpegload") == 0 && !attention_crop) {
        thumbnail = jpeg_thumbnail(path, loader, width, height);
    } else if (strcmp(loader, "pngload") == 0) {
        // PNG has no shrink-on-load: the whole image is decoded either way.
        VipsImage *image = load(path, loader, VIPS_FAIL_ON_TRUNCATED, 1);
        thumbnail = image == NULL ? NULL : thumbnail_of(image, width, height, attention_crop);
    } else if (vips_thumbnail(path, &thumbnail, width, "height", height, "size", VIPS_SIZE_DOWN, "crop",
                              attention_crop ? VIPS_INTERESTING_ATTENTION : VIPS_INTERESTING_NONE, "fail_on",
                              VIPS_FAIL_ON_TRUNCATED, NULL) != 0) {
        thumbnail = NULL;
    }
    if (thumbnail == NULL) return NULL;
    if (vips_image_get_interpretation(thumbnail) == VIPS_INTERPRETATION_sRGB) return thumbnail;
    VipsImage *srgb = NULL;
    int failed = vips_colourspace(thumbnail, &srgb, VIPS_INTERPRETATION_sRGB, NULL);
    g_object_unref(thumbnail);
    return failed ? NULL : srgb;
}

int saessak_vips_save_jpeg(VipsImage *image, int quality, void **buffer, size_t *length) {
    return vips_jpegsave_buffer(image, buffer, length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE,
                                "interlace", TRUE, NULL);
}

int saessak_vips_save_print_jpeg(VipsImage *image, int quality, void **buffer, size_t *length) {
    return vips_jpegsave_buffer(image, buffer, length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE,
                                "subsample_mode", VIPS_FOREIGN_SUBSAMPLE_OFF, NULL);
}

int saessak_vips_save_webp(VipsImage *image, int quality, void **buffer, size_t *length) {
    return vips_webpsave_buffer(image, buffer, length, "Q", quality, "strip", TRUE, NULL);
}

void saessak_vips_release(VipsImage *image) {
    if (image) g_object_unref(image);
}

void saessak_vips_free(void *pointer) { g_free(pointer); }

char *saessak_vips_take_error(void) {
    char *message = g_strdup(vips_error_buffer());
    vips_error_clear();
    return message;
}
