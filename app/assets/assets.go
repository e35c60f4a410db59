// Package assets serves the embedded static files (/static/*) and reads the build
// manifest. Hashed build files are cached for a year; their brotli and gzip copies are made
// by the build (esbuild.config.mjs), those of other text files once at start.
package assets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"mime"
	"path"
	"strings"
	"sync"

	"github.com/gofiber/fiber/v3"

	"meritmark/app/web"
	"meritmark/static"
)

// Manifest reads static/dist/manifest.json.
func Manifest() (web.Assets, error) {
	var a web.Assets
	b, err := fs.ReadFile(static.FS, "dist/manifest.json")
	if err != nil {
		return a, errors.New("static/dist/manifest.json missing: run `make assets` before building")
	}
	err = json.Unmarshal(b, &a)
	return a, err
}

type file struct {
	body, gz, br []byte
	ctype, etag  string
	immutable    bool
}

// Handler serves /static/* from the embedded files.
func Handler() fiber.Handler {
	var mu sync.RWMutex
	cache := map[string]*file{}
	load := func(name string) *file {
		mu.RLock()
		f, ok := cache[name]
		mu.RUnlock()
		if ok {
			return f
		}
		body, err := fs.ReadFile(static.FS, name)
		if err != nil || strings.HasSuffix(name, "/") {
			f = nil
		} else {
			sum := sha256.Sum256(body)
			f = &file{body: body, etag: `"` + hex.EncodeToString(sum[:8]) + `"`, immutable: strings.HasPrefix(name, "dist/") && name != "dist/manifest.json"}
			f.ctype = mime.TypeByExtension(path.Ext(name))
			if f.ctype == "" {
				f.ctype = "application/octet-stream"
			}
			// the build writes name.br and name.gz beside each compressible file of dist/
			if br, err := fs.ReadFile(static.FS, name+".br"); err == nil && len(br) < len(body) {
				f.br = br
			}
			if gz, err := fs.ReadFile(static.FS, name+".gz"); err == nil && len(gz) < len(body) {
				f.gz = gz
			}
			switch path.Ext(name) {
			case ".js", ".css", ".svg", ".json", ".txt", ".html":
				if f.gz != nil {
					break
				}
				var buf bytes.Buffer
				zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
				zw.Write(body)
				zw.Close()
				if buf.Len() < len(body) {
					f.gz = buf.Bytes()
				}
			}
		}
		mu.Lock()
		cache[name] = f
		mu.Unlock()
		return f
	}
	return func(c fiber.Ctx) error {
		name := strings.TrimPrefix(c.Path(), "/static/")
		if name == "" || strings.Contains(name, "..") || strings.HasPrefix(name, ".") {
			return web.NotFound("Not found.")
		}
		f := load(name)
		if f == nil {
			return web.NotFound("Not found.")
		}
		c.Set("Content-Type", f.ctype)
		c.Set("ETag", f.etag)
		c.Set("Vary", "Accept-Encoding")
		if f.immutable {
			c.Set("Cache-Control", "public, max-age=31536000, immutable")
		} else {
			c.Set("Cache-Control", "public, max-age=3600")
		}
		if c.Get("If-None-Match") == f.etag {
			return c.SendStatus(fiber.StatusNotModified)
		}
		// (middleware.Compress takes an encoding suffix off If-None-Match and puts it back)
		switch enc := web.RequestEncoding(c); {
		case enc == web.Brotli && f.br != nil:
			return sendEncoded(c, f, f.br, "br")
		case enc != web.Identity && f.gz != nil:
			return sendEncoded(c, f, f.gz, "gzip")
		}
		return c.Send(f.body)
	}
}

func sendEncoded(c fiber.Ctx, f *file, body []byte, token string) error {
	c.Set("Content-Encoding", token)
	c.Set("ETag", f.etag[:len(f.etag)-1]+"-"+token+`"`)
	return c.Send(body)
}
