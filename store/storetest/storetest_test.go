package storetest_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

func TestEachGivesEmptySeparateStores(t *testing.T) {
	var names []string
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		names = append(names, db.Engine())
		list, err := db.ListLocations(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 0 {
			t.Fatalf("store not empty: %v", list)
		}
	})
	if len(names) == 0 || names[0] != store.SQLite {
		t.Fatalf("engines run: %v", names)
	}
}

func TestOpenListsEngines(t *testing.T) {
	engines := storetest.Open(t)
	if len(engines) == 0 || engines[0].Name != store.SQLite {
		t.Fatalf("Open = %v", engines)
	}
	for _, e := range engines {
		if e.DB == nil || e.Keys == nil || e.DSN == "" {
			t.Fatalf("incomplete engine %+v", e)
		}
	}
}

// TestHelperUnreachable is run by TestUnreachablePostgres in a child
// process whose CHAIRSIDE_TEST_POSTGRES points nowhere.
func TestHelperUnreachable(t *testing.T) {
	if os.Getenv("STORETEST_HELPER") != "1" {
		t.Skip("helper for TestUnreachablePostgres")
	}
	storetest.Postgres(t)
	t.Log("REACHED-AFTER-POSTGRES")
}

func TestUnreachablePostgres(t *testing.T) {
	run := func(require string) (string, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperUnreachable$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "STORETEST_HELPER=1",
			"CHAIRSIDE_TEST_POSTGRES=postgres://postgres:secretpw@127.0.0.1:1/none?sslmode=disable&connect_timeout=1",
			"CHAIRSIDE_REQUIRE_POSTGRES="+require)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := run("")
	if err != nil || !strings.Contains(out, "--- SKIP") || strings.Contains(out, "REACHED-AFTER-POSTGRES") {
		t.Fatalf("without CHAIRSIDE_REQUIRE_POSTGRES: want a skip, got err %v:\n%s", err, out)
	}
	out, err = run("1")
	if err == nil || !strings.Contains(out, "--- FAIL") || !strings.Contains(out, "PostgreSQL required") {
		t.Fatalf("with CHAIRSIDE_REQUIRE_POSTGRES=1: want a failure, got err %v:\n%s", err, out)
	}
	if strings.Contains(out, "secretpw") {
		t.Fatalf("message shows the password:\n%s", out)
	}
}
