package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
)

// QueryPlans answers, on SQLite, how SQLite runs every statement this
// store has prepared so far: each statement's text with the lines of its
// EXPLAIN QUERY PLAN. Every statement the store sends on SQLite is
// prepared once and kept (sql.go), so after a journey these are all the
// statements it sent. Tests hold them to an index each
// (docs/performance.md, "Indexes no query reads"); on PostgreSQL it
// answers nothing.
func (db *DB) QueryPlans(ctx context.Context) (map[string][]string, error) {
	plans := map[string][]string{}
	if db.engine != SQLite {
		return plans, nil
	}
	var texts []string
	db.sh.stmts.Range(func(k, _ any) bool {
		texts = append(texts, k.(stmtKey).sql)
		return true
	})
	for _, q := range texts {
		if _, ok := plans[q]; ok {
			continue
		}
		lines, err := queryPlan(ctx, db.rdb, q)
		if err != nil {
			return nil, fmt.Errorf("store: query plan of %q: %w", q, err)
		}
		plans[q] = lines
	}
	return plans, nil
}

// queryPlan answers the detail lines of q's EXPLAIN QUERY PLAN, its
// parameters all NULL: SQLite plans a statement before it binds values,
// so they do not change the plan.
func queryPlan(ctx context.Context, pool *sql.DB, q string) ([]string, error) {
	// Our SQL keeps "?" out of its literals (rebind), so each is a
	// parameter.
	args := make([]any, strings.Count(q, "?"))
	rows, err := pool.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var lines []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			return nil, err
		}
		lines = append(lines, detail)
	}
	return lines, rows.Err()
}
