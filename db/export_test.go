package db

import "database/sql"

// StmtOf is the statement p holds now (nil before its first Scan).
func StmtOf(p *Prepared) *sql.Stmt {
	if on := p.prepared.Load(); on != nil {
		return on.stmt
	}
	return nil
}

var DollarPlaceholders = dollarPlaceholders
