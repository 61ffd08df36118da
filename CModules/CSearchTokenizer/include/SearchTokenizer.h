// The FTS5 tokenizer and ranking function behind Saessak's Korean search.
#ifndef SAESSAK_SEARCH_TOKENIZER_H
#define SAESSAK_SEARCH_TOKENIZER_H

/// Registers the tokenizer "saessak" and the ranking function `saessak_rank(index, weight…)` on an open SQLite
/// connection (`db` is a `sqlite3 *`); returns an SQLite result code. Every connection that reads or writes the
/// search index must register them first.
int saessak_search_register(void *db);

#endif
