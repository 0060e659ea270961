package httpapi_test

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// BenchmarkHello is the yardstick: a hello-world handler over real HTTP.
func BenchmarkHello(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"hello":"world"}`))
	}))
	defer srv.Close()
	benchGet(b, srv, srv.URL+"/", "")
}

// BenchmarkAuthenticatedCall is the hot path of every screen: a call with
// a live session (session read, throttled touch, cached location) on SQLite.
func BenchmarkAuthenticatedCall(b *testing.B) {
	h := newHarness(b, storetest.SQLite(b), config{})
	sid := h.start(b)
	benchGet(b, h.srv, h.srv.URL+"/api/v1/locations/current", sid)
}

func benchGet(b *testing.B, srv *httptest.Server, url, sid string) {
	client := srv.Client()
	client.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req, _ := http.NewRequest("GET", url, nil)
			if sid != "" {
				req.Header.Set("X-Web-Session-Id", sid)
			}
			resp, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				b.Errorf("status %d", resp.StatusCode)
				return
			}
		}
	})
}

// BenchmarkAcceptRepeat is a lender step asked again with its
// Idempotency-Key (a double tap, a retry) on SQLite: the step found done
// and its recorded answer written, straight to the handler.
func BenchmarkAcceptRepeat(b *testing.B) {
	h := newHarness(b, storetest.SQLite(b), config{})
	const key = "synchrony_standard"
	sid := h.start(b)
	want(b, h.prequalify(b, sid, key, testkit.Applicant("Approve", "123450714")), 200, "")
	code := confirmFirstPlan(b, h, sid, key)
	body := []byte(`{"providerPlanCode":"` + code + `"}`)
	accept := func() *httptest.ResponseRecorder {
		r := httptest.NewRequest("POST", "/api/v1/providers/"+key+"/acceptOffer", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("X-Web-Session-Id", sid)
		r.Header.Set("Idempotency-Key", "accept-bench")
		w := httptest.NewRecorder()
		h.handler.ServeHTTP(w, r)
		return w
	}
	if w := accept(); w.Code != 200 {
		b.Fatalf("accept: %d %s", w.Code, w.Body)
	}
	b.ReportAllocs()
	for b.Loop() {
		if w := accept(); w.Code != 200 {
			b.Fatalf("repeat: %d %s", w.Code, w.Body)
		}
	}
}
