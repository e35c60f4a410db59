//go:build unix

package pagecache

import (
	"os"
	"syscall"
)

// mapHeader maps the start of the -shm file read-only and shared, as SQLite's own
// connections do: reading the WAL-index header is then a copy from memory, not a pread
// per request. nil when it cannot (the caller reads the file instead).
func mapHeader(f *os.File) []byte {
	st, err := f.Stat()
	if err != nil || st.Size() < shmMapped {
		return nil // not yet the size SQLite gives it: a page past the end would fault
	}
	m, err := syscall.Mmap(int(f.Fd()), 0, shmMapped, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil
	}
	return m
}

func unmapHeader(m []byte) { _ = syscall.Munmap(m) }
