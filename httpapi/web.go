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
type webApp struct {
	fsys  fs.FS
	index []byte // nil when the web app is not built
}

func newWebApp(fsys fs.FS) *webApp {
	w := &webApp{fsys: fsys}
	if fsys != nil {
		if b, err := fs.ReadFile(fsys, "index.html"); err == nil {
			w.index = b
		}
	}
	return w
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
	_, _ = w.Write(a.index)
}
