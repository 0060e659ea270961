package httpapi

import (
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

// webApp serves the built single-page app: real files as they are, any
// other GET path as index.html so the app's router can take it, a missing
// /assets/ file as 404 (a stale hashed asset must not come back as HTML).
// /api/ paths never get here.
//
// A route family a patient lands on from outside may have a shell page of
// its own: start.html for /start/…, written by the web build (vite.config.ts,
// ENTRY_PAGES) with its first screens' code named as preloads.
type webApp struct {
	fsys  fs.FS
	index []byte            // nil when the web app is not built
	pages map[string][]byte // by the path's first segment
}

func newWebApp(fsys fs.FS) *webApp {
	w := &webApp{fsys: fsys, pages: map[string][]byte{}}
	if fsys == nil {
		return w
	}
	if b, err := fs.ReadFile(fsys, "index.html"); err == nil {
		w.index = b
	}
	names, _ := fs.Glob(fsys, "*.html")
	for _, n := range names {
		if n == "index.html" {
			continue
		}
		if b, err := fs.ReadFile(fsys, n); err == nil {
			w.pages[strings.TrimSuffix(n, ".html")] = b
		}
	}
	return w
}

// shell answers the app shell for a path: its family's page, or index.html.
func (a *webApp) shell(name string) []byte {
	first, _, _ := strings.Cut(name, "/")
	if p, ok := a.pages[first]; ok {
		return p
	}
	return a.index
}

// notBuilt is the page answered when the server runs without a web build
// (go test, or a binary built before the web app).
const notBuilt = "Chairside is running, but the web app is not built.\n" +
	"Build it (see the README) and restart the server. The API is at /api/v1.\n"

func (a *webApp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "Method not allowed.", http.StatusMethodNotAllowed)
		return
	}
	if a.index == nil {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte(notBuilt))
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name != "" && name != "index.html" {
		if st, err := fs.Stat(a.fsys, name); err == nil && !st.IsDir() {
			if strings.HasPrefix(name, "assets/") {
				// Vite names assets by content hash: cache them for good.
				w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			}
			w.Header().Add("Vary", "Accept-Encoding")
			ae := r.Header.Get("Accept-Encoding")
			for _, enc := range []struct{ token, ext string }{{"br", ".br"}, {"gzip", ".gz"}} {
				if !strings.Contains(ae, enc.token) {
					continue
				}
				if _, err := fs.Stat(a.fsys, name+enc.ext); err == nil {
					if ct := mime.TypeByExtension(path.Ext(name)); ct != "" {
						w.Header().Set("Content-Type", ct)
					}
					w.Header().Set("Content-Encoding", enc.token)
					http.ServeFileFS(w, r, a.fsys, name+enc.ext)
					return
				}
			}
			http.ServeFileFS(w, r, a.fsys, name)
			return
		}
		if strings.HasPrefix(name, "assets/") {
			http.NotFound(w, r)
			return
		}
	}
	// The app shell: always revalidated, so a new deploy is picked up.
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(a.shell(name))
}
