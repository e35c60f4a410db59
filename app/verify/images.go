package verify

import (
	"crypto/sha256"
	"encoding/hex"
	"sync"

	"golang.org/x/sync/singleflight"
)

// imageCache keeps drawn images; concurrent requests for one image draw it once.
type imageCache struct {
	mu     sync.Mutex
	m      map[string][]byte
	max    int
	flight singleflight.Group
}

// make returns the image under k, drawing it with draw when missing.
func (c *imageCache) make(k string, draw func() ([]byte, error)) ([]byte, error) {
	if b := c.get(k); b != nil {
		return b, nil
	}
	v, err, _ := c.flight.Do(k, func() (any, error) {
		if b := c.get(k); b != nil {
			return b, nil
		}
		b, err := draw()
		if err != nil {
			return nil, err
		}
		c.put(k, b)
		return b, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]byte), nil
}

func newImageCache(max int) *imageCache { return &imageCache{m: map[string][]byte{}, max: max} }

func (c *imageCache) get(k string) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

func (c *imageCache) put(k string, b []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= c.max {
		n := 0
		for k := range c.m {
			delete(c.m, k)
			if n++; n > c.max/4 {
				break
			}
		}
	}
	c.m[k] = b
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:8])
}
