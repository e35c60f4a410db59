package db

import (
	"database/sql"
	"time"
)

// StmtOf is the statement p holds now (nil before its first Scan).
func StmtOf(p *Prepared) *sql.Stmt {
	if on := p.prepared.Load(); on != nil {
		return on.stmt
	}
	return nil
}

var DollarPlaceholders = dollarPlaceholders

var Writes = writes

// OpenGated opens a SQLite file's pool behind a write gate with the given turn timeout.
func OpenGated(path string, timeout time.Duration) (*sql.DB, error) {
	return openGated(SQLiteDSN(path), timeout)
}
