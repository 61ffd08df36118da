#include "VipsShims.h"

#include <malloc.h>
#include <pthread.h>
#include <string.h>
#include <vips/vips.h>

static pthread_once_t start_once = PTHREAD_ONCE_INIT;
static int start_result = -1;

static void start(void) {
    // glibc gives every thread its own malloc arena; with libvips' worker threads that multiplies the resident
    // memory of a small server for no gain. Two arenas keep uploads of 24 MP photos well under 200 MB.
    mallopt(M_ARENA_MAX, 2);
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

VipsImage *saessak_vips_thumbnail(const char *path, int width, int height, int attention_crop) {
    VipsImage *thumbnail = NULL;
    if (vips_thumbnail(path, &thumbnail, width, "height", height, "size", VIPS_SIZE_DOWN, "crop",
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
