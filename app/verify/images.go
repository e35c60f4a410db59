package verify

import (
	"crypto/sha256"
	"encoding/hex"

	"meritmark/app/credential"
)

// imageCache keeps drawn images; concurrent requests for one image draw it once.
type imageCache = credential.ImageCache

func newImageCache(max int) *imageCache { return credential.NewImageCache(max) }

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}
