// Printing a book with Cairo (its PDF surface) and Pango (HarfBuzz shaping, line breaking, font fallback): a small
// C surface for Swift. Units are PostScript points (1/72 inch) throughout; y grows downwards from the page's top.
#ifndef SAESSAK_PRINT_SHIMS_H
#define SAESSAK_PRINT_SHIMS_H

#include <stddef.h>

typedef struct SaessakPrint SaessakPrint;
typedef struct SaessakText SaessakText;

/// A PDF at `path` whose pages are `width` × `height` points. Never NULL; check saessak_print_error.
SaessakPrint *saessak_print_open(const char *path, double width, double height);

/// NULL while all is well, else what went wrong (cairo's words). Owned by the print.
const char *saessak_print_error(SaessakPrint *print);

/// The document's title, author and creator (the PDF's Info dictionary).
void saessak_print_metadata(SaessakPrint *print, const char *title, const char *author, const char *creator);

/// A bookmark in the PDF's outline pointing at the current page; returns its id (parent 0 is the top level).
int saessak_print_outline(SaessakPrint *print, int parent, const char *name);

/// Ends the current page; drawing goes on on a new one.
void saessak_print_next_page(SaessakPrint *print);

/// Finishes the file and frees everything; returns 0 when the PDF was written whole.
int saessak_print_close(SaessakPrint *print);

/// A filled rectangle in RGB (0…1).
void saessak_print_rectangle(SaessakPrint *print, double x, double y, double width, double height, double red,
                             double green, double blue);

/// An open polyline through `count` points (`xy` holds x0, y0, x1, y1, …).
void saessak_print_polyline(SaessakPrint *print, const double *xy, int count, double line_width, double red,
                            double green, double blue, int dashed);

/// A JPEG (baseline or progressive, sRGB or greyscale) of `pixel_width` × `pixel_height` placed into the rectangle.
/// The PDF holds the JPEG's own bytes (DCTDecode): nothing is decoded or recompressed here.
/// Returns 0 when placed.
int saessak_print_jpeg(SaessakPrint *print, const void *jpeg, size_t length, int pixel_width, int pixel_height,
                       double x, double y, double width, double height);

/// Pango markup laid out `width` points wide in `font` (a Pango font description: "Noto Serif CJK KR 10.5").
/// `align`: 0 left, 1 centre, 2 right, 3 justified. `spacing`: line height as a factor of the font's (0 = the
/// font's own). NULL when the markup does not parse.
SaessakText *saessak_text_new(SaessakPrint *print, const char *markup, const char *font, double width, int align,
                              double spacing);

int saessak_text_line_count(SaessakText *text);

/// Where line `line` begins and ends, measured from the top of the text.
double saessak_text_line_top(SaessakText *text, int line);
double saessak_text_line_bottom(SaessakText *text, int line);

/// The text's ink-independent size: its height and the width of its widest line.
double saessak_text_height(SaessakText *text);
double saessak_text_width(SaessakText *text);

/// How many characters no font had a glyph for (drawn as boxes).
int saessak_text_unknown_glyphs(SaessakText *text);

/// Draws lines first..<end with the top of line `first` at (x, y), in RGB.
void saessak_text_draw(SaessakPrint *print, SaessakText *text, int first, int end, double x, double y, double red,
                       double green, double blue);

void saessak_text_free(SaessakText *text);

#endif
