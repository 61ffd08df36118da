#include "PrintShims.h"

#include <cairo/cairo-pdf.h>
#include <cairo/cairo.h>
#include <pango/pangocairo.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct SaessakPrint {
    cairo_surface_t *surface;
    cairo_t *cr;
    PangoFontMap *font_map;
    PangoContext *context;
    int page;
    char error[256];
};

struct SaessakText {
    PangoLayout *layout;
    int count;
    double *tops, *bottoms, *baselines, *lefts;
};

static int failed(SaessakPrint *print) {
    if (print->error[0]) return 1;
    cairo_status_t status = cairo_status(print->cr);
    if (status == CAIRO_STATUS_SUCCESS) status = cairo_surface_status(print->surface);
    if (status == CAIRO_STATUS_SUCCESS) return 0;
    snprintf(print->error, sizeof print->error, "%s", cairo_status_to_string(status));
    return 1;
}

SaessakPrint *saessak_print_open(const char *path, double width, double height) {
    SaessakPrint *print = calloc(1, sizeof *print);
    if (!print) abort();
    print->surface = cairo_pdf_surface_create(path, width, height);
    print->cr = cairo_create(print->surface);
    print->page = 1;
    // A font map and context of the document's own (Pango's default font map is per thread), laid out at 72 dpi so
    // that a Pango point is a PDF point, with neither hinting nor rounding: positions are those of the outlines.
    print->font_map = pango_cairo_font_map_new();
    print->context = pango_font_map_create_context(print->font_map);
    pango_cairo_context_set_resolution(print->context, 72);
    cairo_font_options_t *options = cairo_font_options_create();
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
    pango_cairo_context_set_font_options(print->context, options);
    cairo_font_options_destroy(options);
    pango_context_set_round_glyph_positions(print->context, FALSE);
    failed(print);
    return print;
}

const char *saessak_print_error(SaessakPrint *print) { return failed(print) ? print->error : NULL; }

void saessak_print_metadata(SaessakPrint *print, const char *title, const char *author, const char *creator) {
    if (title) cairo_pdf_surface_set_metadata(print->surface, CAIRO_PDF_METADATA_TITLE, title);
    if (author) cairo_pdf_surface_set_metadata(print->surface, CAIRO_PDF_METADATA_AUTHOR, author);
    if (creator) cairo_pdf_surface_set_metadata(print->surface, CAIRO_PDF_METADATA_CREATOR, creator);
}

int saessak_print_outline(SaessakPrint *print, int parent, const char *name) {
    char link[32];
    snprintf(link, sizeof link, "page=%d", print->page);
    return cairo_pdf_surface_add_outline(print->surface, parent, name, link, 0);
}

void saessak_print_next_page(SaessakPrint *print) {
    cairo_show_page(print->cr);
    print->page += 1;
}

int saessak_print_close(SaessakPrint *print) {
    cairo_destroy(print->cr);
    cairo_surface_finish(print->surface);
    int status = print->error[0] || cairo_surface_status(print->surface) != CAIRO_STATUS_SUCCESS;
    cairo_surface_destroy(print->surface);
    g_object_unref(print->context);
    g_object_unref(print->font_map);
    free(print);
    return status;
}

void saessak_print_rectangle(SaessakPrint *print, double x, double y, double width, double height, double red,
                             double green, double blue) {
    cairo_set_source_rgb(print->cr, red, green, blue);
    cairo_rectangle(print->cr, x, y, width, height);
    cairo_fill(print->cr);
}

void saessak_print_polyline(SaessakPrint *print, const double *xy, int count, double line_width, double red,
                            double green, double blue, int dashed) {
    if (count < 2) return;
    cairo_t *cr = print->cr;
    cairo_save(cr);
    cairo_set_source_rgb(cr, red, green, blue);
    cairo_set_line_width(cr, line_width);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    if (dashed) {
        double dash[] = {2.0, 2.0};
        cairo_set_dash(cr, dash, 2, 0);
    }
    cairo_move_to(cr, xy[0], xy[1]);
    for (int i = 1; i < count; i++) cairo_line_to(cr, xy[2 * i], xy[2 * i + 1]);
    cairo_stroke(cr);
    cairo_restore(cr);
}

int saessak_print_jpeg(SaessakPrint *print, const void *jpeg, size_t length, int pixel_width, int pixel_height,
                       double x, double y, double width, double height) {
    if (pixel_width <= 0 || pixel_height <= 0 || length == 0) return 1;
    // The surface only carries the JPEG (its pixels stay untouched, zero pages): the PDF surface embeds the attached
    // bytes instead of encoding pixels.
    cairo_surface_t *image = cairo_image_surface_create(CAIRO_FORMAT_RGB24, pixel_width, pixel_height);
    if (cairo_surface_status(image) != CAIRO_STATUS_SUCCESS) {
        cairo_surface_destroy(image);
        return 1;
    }
    unsigned char *copy = malloc(length);
    if (!copy) abort();
    memcpy(copy, jpeg, length);
    if (cairo_surface_set_mime_data(image, CAIRO_MIME_TYPE_JPEG, copy, length, free, copy) != CAIRO_STATUS_SUCCESS) {
        free(copy);
        cairo_surface_destroy(image);
        return 1;
    }
    cairo_t *cr = print->cr;
    cairo_save(cr);
    cairo_translate(cr, x, y);
    cairo_scale(cr, width / pixel_width, height / pixel_height);
    cairo_set_source_surface(cr, image, 0, 0);
    cairo_paint(cr);
    cairo_restore(cr);
    cairo_surface_destroy(image);
    return failed(print);
}

SaessakText *saessak_text_new(SaessakPrint *print, const char *markup, const char *font, double width, int align,
                              double spacing) {
    PangoAttrList *attributes = NULL;
    char *plain = NULL;
    if (!pango_parse_markup(markup, -1, 0, &attributes, &plain, NULL, NULL)) return NULL;
    PangoLayout *layout = pango_layout_new(print->context);
    pango_layout_set_text(layout, plain, -1);
    pango_layout_set_attributes(layout, attributes);
    pango_attr_list_unref(attributes);
    g_free(plain);
    PangoFontDescription *description = pango_font_description_from_string(font);
    pango_layout_set_font_description(layout, description);
    pango_font_description_free(description);
    pango_layout_set_width(layout, pango_units_from_double(width));
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_alignment(layout, align == 1 ? PANGO_ALIGN_CENTER : align == 2 ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
    pango_layout_set_justify(layout, align == 3);
    if (spacing > 0) pango_layout_set_line_spacing(layout, (float)spacing);

    SaessakText *text = calloc(1, sizeof *text);
    if (!text) abort();
    text->layout = layout;
    text->count = pango_layout_get_line_count(layout);
    text->tops = calloc((size_t)text->count + 1, sizeof(double));
    text->bottoms = calloc((size_t)text->count + 1, sizeof(double));
    text->baselines = calloc((size_t)text->count + 1, sizeof(double));
    text->lefts = calloc((size_t)text->count + 1, sizeof(double));
    if (!text->tops || !text->bottoms || !text->baselines || !text->lefts) abort();
    PangoLayoutIter *iter = pango_layout_get_iter(layout);
    int line = 0;
    do {
        if (line >= text->count) break;
        PangoRectangle logical;
        pango_layout_iter_get_line_extents(iter, NULL, &logical);
        text->tops[line] = pango_units_to_double(logical.y);
        text->bottoms[line] = pango_units_to_double(logical.y + logical.height);
        text->lefts[line] = pango_units_to_double(logical.x);
        text->baselines[line] = pango_units_to_double(pango_layout_iter_get_baseline(iter));
        line += 1;
    } while (pango_layout_iter_next_line(iter));
    pango_layout_iter_free(iter);
    text->count = line;
    return text;
}

int saessak_text_line_count(SaessakText *text) { return text->count; }

double saessak_text_line_top(SaessakText *text, int line) {
    return line >= 0 && line < text->count ? text->tops[line] : 0;
}

double saessak_text_line_bottom(SaessakText *text, int line) {
    return line >= 0 && line < text->count ? text->bottoms[line] : 0;
}

double saessak_text_height(SaessakText *text) {
    PangoRectangle logical;
    pango_layout_get_extents(text->layout, NULL, &logical);
    return pango_units_to_double(logical.height);
}

double saessak_text_width(SaessakText *text) {
    PangoRectangle logical;
    pango_layout_get_extents(text->layout, NULL, &logical);
    return pango_units_to_double(logical.width);
}

int saessak_text_unknown_glyphs(SaessakText *text) { return pango_layout_get_unknown_glyphs_count(text->layout); }

void saessak_text_draw(SaessakPrint *print, SaessakText *text, int first, int end, double x, double y, double red,
                       double green, double blue) {
    if (first < 0 || first >= text->count) return;
    if (end > text->count) end = text->count;
    cairo_t *cr = print->cr;
    cairo_set_source_rgb(cr, red, green, blue);
    double origin = text->tops[first];
    for (int line = first; line < end; line++) {
        cairo_move_to(cr, x + text->lefts[line], y + text->baselines[line] - origin);
        pango_cairo_show_layout_line(cr, pango_layout_get_line_readonly(text->layout, line));
    }
}

void saessak_text_free(SaessakText *text) {
    if (!text) return;
    g_object_unref(text->layout);
    free(text->tops);
    free(text->bottoms);
    free(text->baselines);
    free(text->lefts);
    free(text);
}
