// See include/SQLiteGuard.h. sqlite3_db_config is variadic, which Swift cannot call: hence this file.
#include "SQLiteGuard.h"

#include <sqlite3.h>

int saessak_sqlite_harden(void *handle, int max_value_bytes) {
    sqlite3 *db = handle;
    static const int off[] = {
        SQLITE_DBCONFIG_TRUSTED_SCHEMA, SQLITE_DBCONFIG_ENABLE_TRIGGER, SQLITE_DBCONFIG_ENABLE_VIEW,
        SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, SQLITE_DBCONFIG_ENABLE_FKEY,
    };
    for (unsigned i = 0; i < sizeof off / sizeof off[0]; i++) {
        int now = -1;
        int rc = sqlite3_db_config(db, off[i], 0, &now);
        if (rc != SQLITE_OK) return rc;
        if (now != 0) return SQLITE_ERROR;
    }
    int defensive = -1;
    int rc = sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, &defensive);
    if (rc != SQLITE_OK) return rc;
    if (defensive != 1) return SQLITE_ERROR;
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, max_value_bytes);
    sqlite3_limit(db, SQLITE_LIMIT_SQL_LENGTH, 100000);
    sqlite3_limit(db, SQLITE_LIMIT_COLUMN, 500);
    sqlite3_limit(db, SQLITE_LIMIT_EXPR_DEPTH, 100);
    sqlite3_limit(db, SQLITE_LIMIT_COMPOUND_SELECT, 10);
    sqlite3_limit(db, SQLITE_LIMIT_FUNCTION_ARG, 8);
    sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);
    sqlite3_limit(db, SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 100);
    sqlite3_limit(db, SQLITE_LIMIT_VARIABLE_NUMBER, 500);
    sqlite3_limit(db, SQLITE_LIMIT_TRIGGER_DEPTH, 1);
    return SQLITE_OK;
}

int64_t saessak_sqlite_heap_limit(int64_t bytes) {
    return sqlite3_hard_heap_limit64(bytes);
}

int saessak_sqlite_memory_statistics(int on) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}
