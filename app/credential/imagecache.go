package credential

import (
	"sync"

	"golang.org/x/sync/singleflight"
)

// ImageCache keeps drawn images in memory (at most max; a quarter is dropped when full);
// concurrent requests for one image draw it once.
type ImageCache struct {
	mu     sync.Mutex
	m      map[string][]byte
	max    int
	flight singleflight.Group
}

// NewImageCache makes a cache of at most max images.
func NewImageCache(max int) *ImageCache { return &ImageCache{m: map[string][]byte{}, max: max} }

// Make returns the image under k, drawing it with draw when missing.
func (c *ImageCache) Make(k string, draw func() ([]byte, error)) ([]byte, error) {
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

func (c *ImageCache) get(k string) []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k]
}

func (c *ImageCache) put(k string, b []byte) {
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
