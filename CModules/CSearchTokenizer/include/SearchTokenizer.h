// The FTS5 tokenizer and ranking function behind Saessak's Korean search.
#ifndef SAESSAK_SEARCH_TOKENIZER_H
#define SAESSAK_SEARCH_TOKENIZER_H

/// Registers the tokenizer "saessak" and the ranking function `saessak_rank(index, weight…)` on an open SQLite
/// connection (`db` is a `sqlite3 *`); returns an SQLite result code. Every connection that reads or writes the
/// search index must register them first.
int saessak_search_register(void *db);

/// Tokenizes a document's text as the index does, without an index: `token(context, flags, token, length, start,
/// end)` is called for each token, with flags 1 (FTS5_TOKEN_COLOCATED) for a token at the previous one's position.
/// Returns an SQLite result code. Safe to call from several threads.
int saessak_search_tokenize(const char *text, int length, void *context, int (*token)(void *, int, const char *, int, int, int));

#endif
