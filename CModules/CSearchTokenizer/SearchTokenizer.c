// An FTS5 tokenizer for Korean diaries, wrapping SQLite's own unicode61.
//
// Korean attaches particles to nouns (아기가, 아기를, 아기랑) and spaces words freely (백일잔치 / 백일 잔치), so
// whole-word tokens never match a bare noun. This tokenizer indexes every syllable of Hangul (and of Han, kana and
// compatibility jamo) as a one-syllable token, and every pair of neighbouring syllables as a two-syllable token
// at the same position (FTS5_TOKEN_COLOCATED). Syllables separated only by spaces or tabs are neighbours too.
//
// A query of two or more syllables becomes the phrase of its pairs ("백일잔치" → 백일 일잔 잔치), which matches any
// text containing those syllables in a row; a one-syllable query is its own token. Pairs keep the posting lists
// short; single syllables make one-syllable queries possible at all.
//
// Everything else (Latin letters, digits) is unicode61's: case-folded and stripped of diacritics. Emoji become
// tokens of their own (unicode61 of SQLite 3.40 treats some as separators and others as letters).
//
// Changing what this emits changes the index: a schema migration must then rebuild it ('rebuild').

#include "SearchTokenizer.h"

#include <math.h>
#include <pthread.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    fts5_tokenizer inner_methods;
    Fts5Tokenizer *inner;
} Tokenizer;

/// One call of xTokenize: where the text is, where tokens go, and the syllable waiting for its neighbour.
typedef struct {
    const char *text;
    int query;  // FTS5_TOKENIZE_QUERY: only pairs (or a lone syllable) are asked for
    void *context;
    int (*emit)(void *, int, const char *, int, int, int);
    int consumed;  // end of the last inner token handled; emoji between tokens are searched after it

    int pending;  // a syllable is held until its neighbour is known
    int pending_start, pending_end;
    int run_paired;  // the current run has emitted a pair (queries only)
} Walk;

static int decode(const unsigned char *s, int length, int *width) {
    unsigned char c = s[0];
    int cp, n;
    if (c < 0x80) { *width = 1; return c; }
    if ((c & 0xE0) == 0xC0) { cp = c & 0x1F; n = 2; }
    else if ((c & 0xF0) == 0xE0) { cp = c & 0x0F; n = 3; }
    else if ((c & 0xF8) == 0xF0) { cp = c & 0x07; n = 4; }
    else { *width = 1; return 0xFFFD; }
    if (n > length) { *width = 1; return 0xFFFD; }
    for (int i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80) { *width = 1; return 0xFFFD; }
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    *width = n;
    return cp;
}

/// Scripts written without reliable word breaks, indexed by syllable.
static int is_syllable(int cp) {
    return (cp >= 0xAC00 && cp <= 0xD7A3)     // Hangul syllables
        || (cp >= 0x1100 && cp <= 0x11FF)     // Hangul jamo
        || (cp >= 0x3131 && cp <= 0x318E)     // Hangul compatibility jamo (ㅋㅋ)
        || (cp >= 0x3040 && cp <= 0x30FF)     // kana
        || (cp >= 0x3400 && cp <= 0x4DBF)     // Han, extension A
        || (cp >= 0x4E00 && cp <= 0x9FFF)     // Han
        || (cp >= 0xF900 && cp <= 0xFAFF)     // Han compatibility
        || (cp >= 0x20000 && cp <= 0x2FA1F);  // Han, supplementary planes
}

static int is_emoji(int cp) {
    if (cp >= 0x1F3FB && cp <= 0x1F3FF) return 0;  // skin-tone modifiers belong to the emoji before them
    return (cp >= 0x1F000 && cp <= 0x1FAFF) || (cp >= 0x2600 && cp <= 0x27BF) || (cp >= 0x2300 && cp <= 0x23FF)
        || (cp >= 0x2B00 && cp <= 0x2BFF);
}

static int only_blanks(const char *s, int from, int to) {
    for (int i = from; i < to; i++) {
        if (s[i] != ' ' && s[i] != '\t') return 0;
    }
    return 1;
}

/// The held syllable meets no neighbour: it stands alone (documents always index it; queries only when the run
/// had a single syllable).
static int flush(Walk *walk) {
    if (!walk->pending) return SQLITE_OK;
    walk->pending = 0;
    if (walk->query && walk->run_paired) return SQLITE_OK;
    return walk->emit(walk->context, 0, walk->text + walk->pending_start, walk->pending_end - walk->pending_start,
        walk->pending_start, walk->pending_end);
}

static int syllable(Walk *walk, int start, int end) {
    int rc = SQLITE_OK;
    if (walk->pending && only_blanks(walk->text, walk->pending_end, start)) {
        char pair[8];
        int first = walk->pending_end - walk->pending_start, second = end - start;
        memcpy(pair, walk->text + walk->pending_start, first);
        memcpy(pair + first, walk->text + start, second);
        if (walk->query) {
            rc = walk->emit(walk->context, 0, pair, first + second, walk->pending_start, end);
            walk->run_paired = 1;
        } else {
            rc = walk->emit(walk->context, 0, walk->text + walk->pending_start, first, walk->pending_start,
                walk->pending_end);
            if (rc == SQLITE_OK) {
                rc = walk->emit(walk->context, FTS5_TOKEN_COLOCATED, pair, first + second, walk->pending_start, end);
            }
        }
    } else {
        rc = flush(walk);
        walk->run_paired = 0;
    }
    walk->pending = 1;
    walk->pending_start = start;
    walk->pending_end = end;
    return rc;
}

/// A token of other letters or digits, lower-cased as ASCII (unicode61's folding is used where it applies).
static int word(Walk *walk, const char *folded, int length, int start, int end) {
    int rc = flush(walk);
    if (rc != SQLITE_OK || length == 0) return rc;
    if (folded) return walk->emit(walk->context, 0, folded, length, start, end);
    char small[64];
    char *lowered = length <= (int)sizeof small ? small : malloc(length);
    if (!lowered) return SQLITE_NOMEM;
    for (int i = 0; i < length; i++) {
        char c = walk->text[start + i];
        lowered[i] = (c >= 'A' && c <= 'Z') ? (char)(c + 32) : c;
    }
    rc = walk->emit(walk->context, 0, lowered, length, start, end);
    if (lowered != small) free(lowered);
    return rc;
}

/// Emoji in the text between two inner tokens (where unicode61 saw separators).
static int gap(Walk *walk, int from, int to) {
    const unsigned char *s = (const unsigned char *)walk->text;
    for (int i = from; i < to;) {
        int width, cp = decode(s + i, to - i, &width);
        if (is_emoji(cp)) {
            int rc = flush(walk);
            if (rc == SQLITE_OK) rc = walk->emit(walk->context, 0, walk->text + i, width, i, i + width);
            if (rc != SQLITE_OK) return rc;
        }
        i += width;
    }
    return SQLITE_OK;
}

static int inner_token(void *context, int flags, const char *token, int length, int start, int end) {
    (void)flags;
    Walk *walk = context;
    int rc = gap(walk, walk->consumed, start);
    if (rc != SQLITE_OK) return rc;
    walk->consumed = end;

    // Plain ASCII is the common case outside Korean: unicode61's folded token as it is.
    int ascii = 1;
    for (int i = start; i < end && ascii; i++) ascii = (unsigned char)walk->text[i] < 0x80;
    int mixed = 0;
    const unsigned char *s = (const unsigned char *)walk->text;
    if (!ascii) {
        for (int i = start; i < end && !mixed;) {
            int width, cp = decode(s + i, end - i, &width);
            mixed = is_syllable(cp) || is_emoji(cp);
            i += width;
        }
    }
    if (!mixed) return word(walk, token, length, start, end);

    // Syllables, emoji and words inside one unicode61 token ("3월에", "아기🥰"): split by kind.
    int word_start = -1;
    for (int i = start; i < end && rc == SQLITE_OK;) {
        int width, cp = decode(s + i, end - i, &width);
        int kind = is_syllable(cp) ? 1 : is_emoji(cp) ? 2 : 0;
        if (kind != 0 && word_start >= 0) {
            rc = word(walk, NULL, i - word_start, word_start, i);
            word_start = -1;
        }
        if (rc != SQLITE_OK) break;
        if (kind == 1) rc = syllable(walk, i, i + width);
        else if (kind == 2) rc = gap(walk, i, i + width);
        else if (word_start < 0) word_start = i;
        i += width;
    }
    if (rc == SQLITE_OK && word_start >= 0) rc = word(walk, NULL, end - word_start, word_start, end);
    return rc;
}

static int tokenize(Fts5Tokenizer *instance, void *context, int flags, const char *text, int length,
    int (*emit)(void *, int, const char *, int, int, int))
{
    Tokenizer *tokenizer = (Tokenizer *)instance;
    Walk walk = {
        .text = text, .query = (flags & FTS5_TOKENIZE_QUERY) != 0,
        .context = context, .emit = emit,
    };
    int rc = tokenizer->inner_methods.xTokenize(tokenizer->inner, &walk, flags, text, length, inner_token);
    if (rc == SQLITE_OK) rc = gap(&walk, walk.consumed, length);
    if (rc == SQLITE_OK) rc = flush(&walk);
    return rc;
}

static int create(void *api_pointer, const char **arguments, int count, Fts5Tokenizer **out) {
    (void)arguments;
    (void)count;
    fts5_api *api = api_pointer;
    Tokenizer *tokenizer = calloc(1, sizeof *tokenizer);
    if (!tokenizer) return SQLITE_NOMEM;
    void *inner_data = NULL;
    int rc = api->xFindTokenizer(api, "unicode61", &inner_data, &tokenizer->inner_methods);
    static const char *inner_arguments[] = {"remove_diacritics", "2"};
    if (rc == SQLITE_OK) rc = tokenizer->inner_methods.xCreate(inner_data, inner_arguments, 2, &tokenizer->inner);
    if (rc != SQLITE_OK) {
        free(tokenizer);
        return rc;
    }
    *out = (Fts5Tokenizer *)tokenizer;
    return SQLITE_OK;
}

static void destroy(Fts5Tokenizer *instance) {
    Tokenizer *tokenizer = (Tokenizer *)instance;
    tokenizer->inner_methods.xDelete(tokenizer->inner);
    free(tokenizer);
}

// Ranking: Okapi BM25 with b = 0 (no length normalisation), k1 = 1.2, and a weight per column.
//
// FTS5's own bm25() normalises by document length, and reading each matching row's length costs a lookup per row:
// ranking the 40 % of a 100,000-entry diary that contains 아기 took 20 ms. Diary entries are of similar length, and
// the saturation of k1 already keeps a long entry from winning by repetition, so Saessak ranks without lengths.
// The IDF of a phrase is computed once per query, and only for phrases that score (the family filter's does not);
// a common phrase's rows are estimated from a sample rather than all counted.

typedef struct {
    int phrases;
    double *idf;  // per phrase; NAN until needed
} RankData;

/// Counts the rows of a phrase for its IDF. A common phrase is sampled: after `enough` rows the count is
/// extrapolated over the table from the share of document IDs covered (IDs are dense: one per entry or memo).
typedef struct {
    sqlite3_int64 hits, enough, first, last;
} Count;

static int count_row(const Fts5ExtensionApi *api, Fts5Context *fts, void *user) {
    Count *count = user;
    sqlite3_int64 rowid = api->xRowid(fts);
    if (count->hits == 0) count->first = rowid;
    count->last = rowid;
    return ++count->hits >= count->enough ? SQLITE_DONE : SQLITE_OK;
}

/// Rows of the table holding the phrase: counted, or estimated from a sample of the first `enough` (2,048).
static int document_frequency(const Fts5ExtensionApi *api, Fts5Context *fts, int phrase, sqlite3_int64 rows,
    double *out)
{
    Count count = {0, 2048, 0, 0};
    int rc = api->xQueryPhrase(fts, phrase, &count, count_row);
    if (rc != SQLITE_OK && rc != SQLITE_DONE) return rc;
    double frequency = (double)count.hits;
    if (count.hits >= count.enough) {
        sqlite3_int64 first = count.first < count.last ? count.first : count.last;
        sqlite3_int64 last = count.first < count.last ? count.last : count.first;
        double covered = (double)(last - first + 1) / (double)(rows > 0 ? rows : 1);
        if (covered > 0 && covered < 1) frequency /= covered;
        if (frequency > rows) frequency = (double)rows;
    }
    *out = frequency;
    return SQLITE_OK;
}

static void rank(const Fts5ExtensionApi *api, Fts5Context *fts, sqlite3_context *result, int argc,
    sqlite3_value **argv)
{
    const double k1 = 1.2;
    int rc = SQLITE_OK;
    RankData *data = api->xGetAuxdata(fts, 0);
    if (!data) {
        int phrases = api->xPhraseCount(fts);
        data = sqlite3_malloc64(sizeof *data + (sqlite3_uint64)phrases * sizeof(double));
        if (!data) {
            sqlite3_result_error_nomem(result);
            return;
        }
        data->phrases = phrases;
        data->idf = (double *)&data[1];
        for (int i = 0; i < phrases; i++) data->idf[i] = NAN;
        rc = api->xSetAuxdata(fts, data, sqlite3_free);
        if (rc != SQLITE_OK) {
            sqlite3_result_error_code(result, rc);
            return;
        }
    }

    double stack[16];
    double *frequency = data->phrases <= 16 ? stack : sqlite3_malloc64((sqlite3_uint64)data->phrases * sizeof(double));
    if (!frequency) {
        sqlite3_result_error_nomem(result);
        return;
    }
    for (int i = 0; i < data->phrases; i++) frequency[i] = 0;
    int instances = 0;
    rc = api->xInstCount(fts, &instances);
    for (int i = 0; i < instances && rc == SQLITE_OK; i++) {
        int phrase, column, offset;
        rc = api->xInst(fts, i, &phrase, &column, &offset);
        if (rc == SQLITE_OK) frequency[phrase] += column < argc ? sqlite3_value_double(argv[column]) : 1.0;
    }

    double score = 0;
    for (int i = 0; i < data->phrases && rc == SQLITE_OK; i++) {
        if (frequency[i] <= 0) continue;
        if (isnan(data->idf[i])) {
            sqlite3_int64 rows = 0;
            double hits = 0;
            rc = api->xRowCount(fts, &rows);
            if (rc == SQLITE_OK) rc = document_frequency(api, fts, i, rows, &hits);
            // As FTS5's bm25: a phrase in more than half the rows still counts a little.
            double idf = log((rows - hits + 0.5) / (hits + 0.5));
            data->idf[i] = idf > 1e-6 ? idf : 1e-6;
        }
        score += data->idf[i] * frequency[i] * (k1 + 1) / (frequency[i] + k1);
    }
    if (frequency != stack) sqlite3_free(frequency);
    if (rc == SQLITE_OK) sqlite3_result_double(result, -score);  // ascending order puts the best first, as bm25()
    else sqlite3_result_error_code(result, rc);
}

int saessak_search_register(void *db) {
    fts5_api *api = NULL;
    sqlite3_stmt *statement = NULL;
    int rc = sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL);
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", NULL);
    sqlite3_step(statement);
    rc = sqlite3_finalize(statement);
    if (rc != SQLITE_OK) return rc;
    if (!api || api->iVersion < 2) return SQLITE_ERROR;
    fts5_tokenizer methods = {create, destroy, tokenize};
    rc = api->xCreateTokenizer(api, "saessak", api, &methods, NULL);
    if (rc == SQLITE_OK) rc = api->xCreateFunction(api, "saessak_rank", NULL, rank, NULL);
    return rc;
}

// Tokenizing without an index: what another engine's token table holds (PostgreSQL). unicode61 lives in SQLite's
// FTS5, so one in-memory connection, opened once, lends its tokenizer API; each call makes its own tokenizer.

static sqlite3 *lender = NULL;
static fts5_api *lender_api = NULL;
static pthread_once_t lender_once = PTHREAD_ONCE_INIT;

static void open_lender(void) {
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX, NULL) != SQLITE_OK) {
        sqlite3_close(db);
        return;
    }
    fts5_api *api = NULL;
    sqlite3_stmt *statement = NULL;
    if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &statement, NULL) == SQLITE_OK) {
        sqlite3_bind_pointer(statement, 1, (void *)&api, "fts5_api_ptr", NULL);
        sqlite3_step(statement);
    }
    sqlite3_finalize(statement);
    if (!api || api->iVersion < 2) {
        sqlite3_close(db);
        return;
    }
    lender = db;
    lender_api = api;
}

int saessak_search_tokenize(const char *text, int length, void *context, int (*token)(void *, int, const char *, int, int, int)) {
    pthread_once(&lender_once, open_lender);
    if (!lender_api) return SQLITE_ERROR;
    Fts5Tokenizer *instance = NULL;
    int rc = create(lender_api, NULL, 0, &instance);
    if (rc != SQLITE_OK) return rc;
    rc = tokenize(instance, context, FTS5_TOKENIZE_DOCUMENT, text, length, token);
    destroy(instance);
    return rc;
}
