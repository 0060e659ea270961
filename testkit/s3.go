package testkit

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

// S3Env is what a process needs to reach FakeS3: keys (any will do) and no
// AWS_CA_BUNDLE, which Litestream's S3 client cannot take (backup.Client).
var S3Env = []string{"AWS_ACCESS_KEY_ID=test", "AWS_SECRET_ACCESS_KEY=test", "AWS_CA_BUNDLE="}

// SetS3Env sets S3Env in this process for the test.
func SetS3Env(t *testing.T) {
	for _, kv := range S3Env {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
}

// FakeS3 starts an S3-compatible server in memory with one bucket and
// answers a backup replica's URL on it (docs/operations.md, "Backups").
func FakeS3(t testing.TB) string {
	t.Helper()
	be := s3mem.New()
	if err := be.CreateBucket("practice"); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(gofakes3.New(be).Server())
	t.Cleanup(srv.Close)
	return "s3://practice/chairside?endpoint=" + srv.URL + "&region=us-east-1"
}
