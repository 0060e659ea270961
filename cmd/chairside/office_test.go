package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/officefile"
)

// TestOfficeImportThenServeProd: the sample office file of the repository
// imports into a fresh database, which `serve -env prod` then starts on and
// serves the office; importing it again updates it instead of adding one.
func TestOfficeImportThenServeProd(t *testing.T) {
	db, keyFile := filepath.Join(t.TempDir(), "c.db"), filepath.Join(t.TempDir(), "keys.json")
	sample := filepath.Join("..", "..", "examples", "offices.yaml")
	for _, want := range []string{"created", "updated"} {
		var out bytes.Buffer
		if err := run(context.Background(), []string{"office", "import", "-db", db, "-key-file", keyFile, sample}, &out, io.Discard); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "Imported 1 office from "+sample) || !strings.Contains(out.String(), want+"  4815162342000001") {
			t.Errorf("import said:\n%s", out.String())
		}
	}
	list := officeList(t, db, keyFile)
	if strings.Count(list, "\n") != 2 || !strings.Contains(list, "4815162342000001  Maple Street Dental  OR     "+
		"synchrony_standard(primary) → fortiva_standard(secondary,auto) → snap_standard(tertiary,auto)\n") {
		t.Errorf("office list:\n%s", list)
	}

	m := prodMain(db, keyFile)
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("prod start after an import: %v", err)
	}
	defer m.Close()
	resp, err := http.Post(m.URL()+"/api/v1/flow/start/entity-keys/4815162342000001", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("the imported office answered %d", resp.StatusCode)
	}
}

// TestOfficeImportAllOrNothing: a file whose last office is wrong changes
// nothing — not even the good offices before it — and the error names the
// file, the line and the office. The demo file is refused: a real database
// must not hold the demo offices.
func TestOfficeImportAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	db, keyFile := filepath.Join(dir, "c.db"), filepath.Join(t.TempDir(), "keys.json")
	good, err := os.ReadFile(filepath.Join("..", "..", "examples", "offices.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	bad := string(good) + `- entityKey: "4815162342000002"
  name: Lake Country Dental
  state: WI
  waterfall:
    - { providerKey: foo_standard, role: primary, applyMode: prequalify }
`
	file := filepath.Join(dir, "offices.yaml")
	if err := os.WriteFile(file, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	err = run(context.Background(), []string{"office", "import", file, "-db", db, "-key-file", keyFile}, io.Discard, io.Discard)
	line := strings.Count(string(good), "\n") + 5 // the bad office's step
	want := fmt.Sprintf(`%s:%d: office "Lake Country Dental": lender "foo_standard" is not a lender Chairside knows`, file, line)
	if err == nil || !strings.Contains(err.Error(), "nothing was imported") || !strings.Contains(err.Error(), want) {
		t.Fatalf("import of a bad file: %v\nwant it to name %s", err, want)
	}
	if list := officeList(t, db, keyFile); !strings.HasPrefix(list, "No offices yet") {
		t.Errorf("a refused import left offices:\n%s", list)
	}

	demoFile := filepath.Join("..", "..", "demo", "offices.yaml")
	err = run(context.Background(), []string{"office", "import", "-db", db, "-key-file", keyFile, demoFile}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), demoFile+`:9: office "Bright Smile Dental": entity key `+demo.EntityKey+" belongs to a demo office") {
		t.Fatalf("import of the demo file: %v", err)
	}
	if list := officeList(t, db, keyFile); !strings.HasPrefix(list, "No offices yet") {
		t.Errorf("the demo file was imported:\n%s", list)
	}
}

// TestOfficeListSortsByName: the demo offices, seeded by a test run, are
// listed by name with their waterfalls.
func TestOfficeListSortsByName(t *testing.T) {
	db, keyFile := filepath.Join(t.TempDir(), "c.db"), filepath.Join(t.TempDir(), "keys.json")
	startMainAt(t, db, keyFile).Close()
	lines := strings.Split(strings.TrimSuffix(officeList(t, db, keyFile), "\n"), "\n")
	if len(lines) != 1+len(demo.Locations()) || !strings.HasPrefix(lines[0], "ENTITY KEY") {
		t.Fatalf("office list:\n%s", strings.Join(lines, "\n"))
	}
	locs := demo.Locations()
	slices.SortFunc(locs, func(a, b chairside.Location) int { return strings.Compare(a.Name, b.Name) })
	for i, l := range locs {
		if !strings.HasPrefix(lines[i+1], l.EntityKey+"  "+l.Name+"  ") ||
			!strings.HasSuffix(lines[i+1], "  "+officefile.Describe(l.Waterfall)) {
			t.Errorf("line %d is %q, want %s %s … %s", i+1, lines[i+1], l.EntityKey, l.Name, officefile.Describe(l.Waterfall))
		}
	}
}

func officeList(t *testing.T, db, keyFile string) string {
	t.Helper()
	var out bytes.Buffer
	if err := run(context.Background(), []string{"office", "list", "-db", db, "-key-file", keyFile}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
