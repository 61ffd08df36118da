// Opening a SQLite file that came from outside (an uploaded iPhotoDiary store) without trusting it.
#ifndef SAESSAK_SQLITE_GUARD_H
#define SAESSAK_SQLITE_GUARD_H

#include <stdint.h>

/// Hardens an open connection (`db` is a `sqlite3 *`) before anything is read through it: defensive mode on, the
/// schema untrusted (no function with side effects runs from it), triggers, views and extensions off, no ATTACH,
/// and limits on a value's length (`max_value_bytes`), a statement's length, columns and expression depth. Returns
/// an SQLite result code (SQLITE_OK, 0, when every setting took).
int saessak_sqlite_harden(void *db, int max_value_bytes);

/// Caps the memory SQLite may take in this whole process (`sqlite3_hard_heap_limit64`): for a process that does
/// nothing but read one untrusted file. Returns the previous limit.
int64_t saessak_sqlite_heap_limit(int64_t bytes);

#endif
