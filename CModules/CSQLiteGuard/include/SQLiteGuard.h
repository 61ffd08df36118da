// Opening a SQLite file that came from outside (an uploaded iPhotoDiary store) without trusting it, and the
// process-wide settings of SQLite that the C API sets through variadic functions, which Swift cannot call.
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

/// Turns SQLite's count of the memory it holds on or off for this whole process (`SQLITE_CONFIG_MEMSTATUS`). The count
/// takes one process-wide mutex at every allocation and free, which the connections of a busy server contend for;
/// `sqlite3_hard_heap_limit64` needs it. Only before SQLite's first use (else SQLITE_MISUSE, 21). Returns a result code.
int saessak_sqlite_memory_statistics(int on);

#endif
