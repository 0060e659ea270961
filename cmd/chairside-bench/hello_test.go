package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// The durable yardstick answers only once its event is in the store, on
// both engines, and hello-world serves beside it.
func TestYardstickWritesOneEventACall(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		srv := httptest.NewServer(yardstickMux(db))
		defer srv.Close()
		for i := range 3 {
			resp, err := http.Post(srv.URL+"/event", "application/json", nil)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("POST /event %d: status %d", i, resp.StatusCode)
			}
			events, err := db.ListEvents(context.Background(), yardstickSession)
			if err != nil {
				t.Fatal(err)
			}
			if len(events) != i+1 {
				t.Fatalf("after %d answers: %d events", i+1, len(events))
			}
		}
		resp, err := http.Get(srv.URL + "/")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET /: status %d", resp.StatusCode)
		}
	})
}

// Without a database there is no durable write to measure.
func TestYardstickWithoutDatabase(t *testing.T) {
	srv := httptest.NewServer(yardstickMux(nil))
	defer srv.Close()
	resp, err := http.Post(srv.URL+"/event", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode == http.StatusOK {
		t.Fatal("POST /event answered 200 without a database")
	}
}
