#include "VipsShims.h"

#include <pthread.h>
#include <string.h>
#include <vips/vips.h>

static pthread_once_t start_once = PTHREAD_ONCE_INIT;
static int start_result = -1;

static void start(void) {
    start_result = VIPS_INIT("saessak");
    if (start_result != 0) return;
    // A home server: keep libvips' caches small and its threads few.
    vips_cache_set_max(0);
    vips_concurrency_set(2);
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

const char *saessak_vips_loader(const char *path) { return vips_foreign_find_load(path); }

const char *saessak_vips_version(void) { return vips_version_string(); }

int saessak_vips_has_operation(const char *nickname) { return vips_type_find("VipsOperation", nickname) != 0; }

VipsImage *saessak_vips_open(const char *path, int fail_on_truncated) {
    return vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
                                    fail_on_truncated ? VIPS_FAIL_ON_TRUNCATED : VIPS_FAIL_ON_NONE, NULL);
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

/// libvips 8.14 shrinks a JPEG on load only while a factor of 2 is left to its final resize: a 1200×900 photo
/// fitted in 320 px (3.75×) is decoded whole. libjpeg's scaled decoding is a filtered reduction, not a block
/// average, so 1.5× left to the Lanczos resize is enough: the same photo is decoded at 600×450, and a check of an
/// imported photo costs a sixth less (docs/photos.md). A fitted (uncropped) JPEG only; anything else is libvips'.
static VipsImage *jpeg_thumbnail(const char *path, int width, int height) {
    const char *loader = vips_foreign_find_load(path);
    if (loader == NULL) {
        vips_error_clear();
        return NULL;
    }
    if (strcmp(loader, "VipsForeignLoadJpegFile") != 0) return NULL;
    VipsImage *header = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
                                                 VIPS_FAIL_ON_TRUNCATED, NULL);
    if (header == NULL) {
        vips_error_clear();
        return NULL;
    }
    int shrink = saessak_vips_jpeg_shrink(vips_image_get_width(header), vips_image_get_height(header), width, height);
    g_object_unref(header);
    if (shrink == 1) return NULL;
    VipsImage *shrunk = vips_image_new_from_file(path, "access", VIPS_ACCESS_SEQUENTIAL, "fail_on",
                                                 VIPS_FAIL_ON_TRUNCATED, "shrink", shrink, NULL);
    if (shrunk == NULL) {
        vips_error_clear();
        return NULL;
    }
    VipsImage *thumbnail = NULL;
    int failed = vips_thumbnail_image(shrunk, &thumbnail, width, "height", height, "size", VIPS_SIZE_DOWN, NULL);
    g_object_unref(shrunk);
    if (failed) {
        vips_error_clear();
        return NULL;
    }
    return thumbnail;
}

VipsImage *saessak_vips_thumbnail(const char *path, int width, int height, int attention_crop) {
    VipsImage *thumbnail = attention_crop ? NULL : jpeg_thumbnail(path, width, height);
    if (thumbnail == NULL &&
        vips_thumbnail(path, &thumbnail, width, "height", height, "size", VIPS_SIZE_DOWN, "crop",
                       attention_crop ? VIPS_INTERESTING_ATTENTION : VIPS_INTERESTING_NONE, "fail_on",
                       VIPS_FAIL_ON_TRUNCATED, NULL) != 0) {
        return NULL;
    }
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
