import Testing

@testable import PostgresStore

/// A migration is sent a statement at a time: split at semicolons, but not inside quotes, comments or `$$` bodies.
@Suite struct MigrationStatementsTests {
    @Test func semicolonsInsideQuotesCommentsAndFunctionBodiesStay() {
        let sql = """
            CREATE TABLE a (b text DEFAULT 'x;y'); -- a comment; with a semicolon
            CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE a SET b = 'z'; -- inside
                RETURN NULL;
            END $$;
            DROP TABLE "c;d";
            """
        let statements = PostgresSchema.statements(sql)
        #expect(statements.count == 3)
        #expect(statements[0] == "CREATE TABLE a (b text DEFAULT 'x;y')")
        #expect(statements[1].hasPrefix("CREATE FUNCTION f()") && statements[1].hasSuffix("END $$"))
        #expect(statements[1].contains("RETURN NULL;"))
        #expect(statements[2] == #"DROP TABLE "c;d""#)
    }

    @Test func everyMigrationSplitsIntoStatementsThatEndWhereTheyShould() {
        for migration in PostgresSchema.migrations {
            for statement in PostgresSchema.statements(migration.sql) {
                #expect(statement.components(separatedBy: "$$").count % 2 == 1, "\(migration.name): \(statement.prefix(60))")
            }
        }
    }
}
