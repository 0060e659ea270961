package main

import (
	"cmp"
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/testkit"
)

// TestJourneyStatementsUseAnIndex walks a patient through the whole flow on
// SQLite and then asks SQLite how it runs every statement the server sent,
// the background work's included (store.DB.QueryPlans): none may read a
// whole table, save the small ones. It keeps an index dropped as unused
// (store/migrations/0021_indexes.sql) from being one a step needed after
// all.
func TestJourneyStatementsUseAnIndex(t *testing.T) {
	m := startMain(t, filepath.Join(t.TempDir(), "chairside.db"))
	c := &testkit.Client{Base: m.URL(), HTTP: http.DefaultClient}
	if err := c.CompleteFlow(demo.EntityKey, "123456789", testkit.SignaturePNG(t)); err != nil {
		t.Fatal(err)
	}
	plans, err := m.store.QueryPlans(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(plans) < 20 {
		t.Fatalf("%d statements planned, want the journey's (at least 20)", len(plans))
	}
	for q, lines := range plans {
		tables := tablesOf(q)
		for _, line := range lines {
			name, scans := wholeTableRead(line)
			if table := cmp.Or(tables[name], name); scans && !small[table] {
				t.Errorf("reads all of %s (%q):\n%s", table, line, q)
			}
		}
	}
}

// small are what a plan may read whole: SQLite's row of no table, tables
// that stay small, and partial indexes that hold only work still to do.
// The sign-in throttle keeps a day; funding polls are the cases waiting for
// their funding, each gone once funded; flow_tokens_sealed_expires holds
// the links whose names are not purged yet.
var small = map[string]bool{
	"CONSTANT": true, "sign_in_throttle": true, "funding_polls": true,
	"flow_tokens_sealed_expires": true,
}

// wholeTableRead reads a line of SQLite's query plan: "SCAN t" reads every
// row of t, which is the statement's name for a table (its alias, if it
// gave one), and "SCAN t USING [COVERING] INDEX i" every entry of i (then
// answered as i). "SCAN n-ROW VALUES CLAUSE" is a VALUES list; SEARCH
// reads only what an index finds.
func wholeTableRead(line string) (name string, scans bool) {
	rest, ok := strings.CutPrefix(line, "SCAN ")
	if !ok || strings.HasSuffix(rest, "-ROW VALUES CLAUSE") {
		return "", false
	}
	if _, index, found := strings.Cut(rest, " INDEX "); found {
		index, _, _ = strings.Cut(index, " ")
		return index, true
	}
	name, _, _ = strings.Cut(rest, " ")
	return name, true
}

// aliased finds "FROM table alias" and "JOIN table alias" in our SQL.
var aliased = regexp.MustCompile(`(?i)\b(?:FROM|JOIN)\s+([a-z_]+)\s+(?:AS\s+)?([a-z_]+)\b`)

// tablesOf answers the tables q names by an alias, by alias.
func tablesOf(q string) map[string]string {
	tables := map[string]string{}
	for _, m := range aliased.FindAllStringSubmatch(q, -1) {
		tables[m[2]] = m[1]
	}
	return tables
}
