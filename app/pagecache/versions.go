package pagecache

import (
	"context"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/uptrace/bun"

	mmdb "meritmark/db"
)

// Channel is the PostgreSQL notification channel Bump notifies, at the bumping
// transaction's commit, with "scope:version" payloads.
const Channel = "meritmark_pages"

// How a request learns the versions without reading page_versions (versions):
//
//   - PostgreSQL: each instance keeps a LISTEN connection on Channel (Watch). While it is
//     listening, the versions live in memory: read once when the connection (re)starts
//     listening, raised by every notification (and by this instance's own writes as soon
//     as they commit, Advance), re-read every second as a safety net. The moment the
//     connection fails, requests go back to reading page_versions (as without a
//     connection) until it listens again and the versions are read afresh.
//   - SQLite (one file, any number of processes): per request the cache reads the 48-byte
//     WAL-index header from the -shm file, which every commit of any connection (of this
//     process or another) changes; only then are the versions read again (sqliteWatch).
//
// Without either (Watch not called on PostgreSQL), every request reads page_versions.
type watch struct {
	on     bool
	dsn    string
	live   atomic.Bool // the in-memory versions are kept in step by the LISTEN connection
	gen    atomic.Int64
	mu     sync.Mutex // guards raising v (atomics for the readers)
	v      [nScopes]atomic.Int64
	cancel context.CancelFunc
	start  sync.Once
	done   chan struct{}

	sqlite sqliteWatch
}

// Watch makes the cache keep the versions in memory, on PostgreSQL through a LISTEN
// connection to dsn (the database's URL); on SQLite dsn is not used. Call Close to stop.
func (pc *Cache) Watch(dsn string) { pc.w.on, pc.w.dsn = true, dsn }

// Close stops the LISTEN connection (and the SQLite watch's connection).
func (pc *Cache) Close() {
	pc.w.start.Do(func() {}) // a Watch never started stays stopped
	if pc.w.cancel != nil {
		pc.w.cancel()
		<-pc.w.done
	}
	pc.w.sqlite.close()
}

// Live reports whether requests take the versions from memory (no database read): on
// PostgreSQL while the LISTEN connection listens.
func (pc *Cache) Live() bool {
	if pc.DB != nil && mmdb.EngineOf(pc.DB) == mmdb.SQLite {
		return pc.w.on
	}
	return pc.w.live.Load()
}

func (pc *Cache) startWatch() {
	pc.w.start.Do(func() {
		if pc.w.dsn == "" || pc.DB == nil || mmdb.EngineOf(pc.DB) != mmdb.Postgres {
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		pc.w.cancel = cancel
		pc.w.done = make(chan struct{})
		go func() {
			defer close(pc.w.done)
			mmdb.Listen(ctx, pc.w.dsn, Channel, mmdb.Listener{
				Ready: func(ctx context.Context) error {
					if err := pc.refresh(ctx); err != nil {
						return err
					}
					slog.Info("pagecache: listening for page changes")
					return nil
				},
				Notify: pc.notified,
				Lost: func(err error) {
					pc.w.live.Store(false)
					pc.w.gen.Add(1)
					slog.Warn("pagecache: the notification connection failed; reading versions per request until it is back", "err", err)
				},
				Idle: func(ctx context.Context) { _ = pc.refresh(ctx) },
			})
			pc.w.live.Store(false)
		}()
	})
}

// versions are the current versions: from memory while they are kept in step, else read.
func (pc *Cache) versions(ctx context.Context) (Versions, error) {
	if pc.w.on && pc.DB != nil {
		if mmdb.EngineOf(pc.DB) == mmdb.SQLite {
			return pc.w.sqlite.current(ctx, pc.DB)
		}
		pc.startWatch()
		if pc.w.live.Load() {
			return pc.memory(), nil
		}
	}
	return pc.reader.read(ctx)
}

// held are the versions when they can be had without the database (in memory, or on
// SQLite an unchanged WAL-index header), else false: the caller then goes the way that
// reads them under the request's deadline.
func (pc *Cache) held() (Versions, bool) {
	if !pc.w.on || pc.DB == nil {
		return Versions{}, false
	}
	if mmdb.EngineOf(pc.DB) == mmdb.SQLite {
		return pc.w.sqlite.peek()
	}
	pc.startWatch()
	if pc.w.live.Load() {
		return pc.memory(), true
	}
	return Versions{}, false
}

func (pc *Cache) memory() Versions {
	var v Versions
	for i := range v {
		v[i] = pc.w.v[i].Load()
	}
	return v
}

// raise moves the in-memory versions up to v (versions only grow: notifications and
// reads arriving out of order cannot move them back).
func (pc *Cache) raise(v Versions) {
	pc.w.mu.Lock()
	defer pc.w.mu.Unlock()
	for i, n := range v {
		if n > pc.w.v[i].Load() {
			pc.w.v[i].Store(n)
		}
	}
}

// refresh reads the versions into memory and, unless the connection failed meanwhile,
// serves them from memory from now on.
func (pc *Cache) refresh(ctx context.Context) error {
	gen := pc.w.gen.Load()
	v, err := Read(ctx, pc.DB)
	if err != nil {
		return err
	}
	pc.raise(v)
	if pc.w.gen.Load() == gen {
		pc.w.live.Store(true)
	}
	return nil
}

// notified takes a "scope:version" payload.
func (pc *Cache) notified(payload string) {
	name, num, ok := strings.Cut(payload, ":")
	n, err := strconv.ParseInt(num, 10, 64)
	if s, known := scopeByName[name]; ok && err == nil && known {
		var v Versions
		v[s] = n
		pc.raise(v)
		return
	}
	// a payload this version does not know: read the versions afresh, from the database
	// meanwhile
	pc.w.live.Store(false)
	ctx, cancel := context.WithTimeout(context.Background(), 5e9)
	defer cancel()
	_ = pc.refresh(ctx)
}

// Advance brings the in-memory versions up to date right after this instance committed
// a write that bumped some (the notification of it may come a moment later).
func (pc *Cache) Advance(ctx context.Context) {
	if !pc.w.live.Load() {
		return
	}
	if v, err := Read(ctx, pc.DB); err == nil {
		pc.raise(v)
	} else {
		pc.w.live.Store(false) // unknown: read per request until the next refresh
		pc.w.gen.Add(1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 5e9)
			defer cancel()
			_ = pc.refresh(ctx)
		}()
	}
}

// sqliteWatch learns, on SQLite, whether any connection (of this process or another)
// committed since it last read the versions: the first copy of the WAL-index header at
// the start of the -shm file changes with every commit (its change counter, frame count
// and salts), and reading its 48 bytes is one pread. The watch keeps a connection of its
// own open, so the -shm file stays the live one (and, mapped, never shrinks under the
// mapping: SQLite truncates it only when its last connection closes). Without a -shm file (not WAL) it asks
// `PRAGMA data_version` on that connection per request instead.
type sqliteWatch struct {
	mu     sync.Mutex
	conn   *bun.Conn
	shm    *os.File
	mem    []byte // the header's page of shm, mapped (nil: read with pread)
	hdr    [48]byte
	dv     int64
	v      Versions
	ok     bool
	closed bool
}

func (w *sqliteWatch) current(ctx context.Context, d *bun.DB) (Versions, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return Read(ctx, d)
	}
	if w.conn == nil {
		if err := w.open(ctx, d); err != nil {
			return Versions{}, err
		}
	}
	var hdr [48]byte
	var dv int64
	if w.shm != nil {
		if !w.header(&hdr) {
			w.drop()
			return Read(ctx, d)
		}
		if w.ok && hdr == w.hdr {
			return w.v, nil
		}
	} else {
		if err := w.conn.QueryRowContext(ctx, "PRAGMA data_version").Scan(&dv); err != nil {
			w.drop()
			return Versions{}, err
		}
		if w.ok && dv == w.dv {
			return w.v, nil
		}
	}
	// read after the header (or data_version): a commit between them shows next time
	v, err := Read(ctx, w.conn)
	if err != nil {
		w.drop()
		return Versions{}, err
	}
	w.v, w.hdr, w.dv, w.ok = v, hdr, dv, true
	return w.v, nil
}

// peek answers the versions when no connection committed since they were read.
func (w *sqliteWatch) peek() (Versions, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.shm == nil || !w.ok {
		return Versions{}, false
	}
	var hdr [48]byte
	if !w.header(&hdr) || hdr != w.hdr {
		return Versions{}, false
	}
	return w.v, true
}

// shmMapped is how much of the -shm file is mapped: its first page, which holds the
// header (SQLite grows the file in 32 KB regions).
const shmMapped = 4096

// header reads the WAL-index header's first copy into hdr. A read that races a commit
// may mix old and new bytes; it can equal the old header only while that commit is still
// being published, and the request is then answered as one that came just before it
// (as with a pread, which is no more atomic against the writer's memory).
func (w *sqliteWatch) header(hdr *[48]byte) bool {
	if w.mem != nil {
		copy(hdr[:], w.mem[:len(hdr)])
		return true
	}
	n, err := w.shm.ReadAt(hdr[:], 0)
	return err == nil && n == len(hdr)
}

// open takes the watch's connection and opens the database's -shm file.
func (w *sqliteWatch) open(ctx context.Context, d *bun.DB) error {
	c, err := d.Conn(ctx)
	if err != nil {
		return err
	}
	w.conn, w.ok = &c, false
	var mode string
	if err := c.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || !strings.EqualFold(mode, "wal") {
		return nil
	}
	var seq int
	var name, file string
	if err := c.QueryRowContext(ctx, "PRAGMA database_list").Scan(&seq, &name, &file); err != nil || file == "" {
		return nil
	}
	if f, err := os.Open(file + "-shm"); err == nil {
		w.shm, w.mem = f, mapHeader(f)
	}
	return nil
}

func (w *sqliteWatch) drop() {
	if w.conn != nil {
		_ = w.conn.Close()
	}
	if w.mem != nil {
		unmapHeader(w.mem)
	}
	if w.shm != nil {
		_ = w.shm.Close()
	}
	w.conn, w.shm, w.mem, w.ok = nil, nil, nil, false
}

func (w *sqliteWatch) close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.drop()
	w.closed = true
}
