// The FTS5 tokenizer behind Saessak's Korean search.
#ifndef SAESSAK_SEARCH_TOKENIZER_H
#define SAESSAK_SEARCH_TOKENIZER_H

/// Registers the tokenizer "saessak" on an open SQLite connection (`db` is a `sqlite3 *`); returns an SQLite
/// result code. Every connection that reads or writes the search index must register it first.
int saessak_search_register(void *db);

#endif
