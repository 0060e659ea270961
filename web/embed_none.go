//go:build !webdist

package web

import (
	"embed"
	"io/fs"
)

// empty is a valid file system with no files in it.
var empty embed.FS

// Dist returns an empty file system: this binary was built without the web
// app (no "webdist" tag).
func Dist() fs.FS { return empty }
