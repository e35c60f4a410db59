package backup

import (
	"bufio"
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"io"

	"golang.org/x/crypto/scrypt"
)

// An encrypted backup: the magic line, a 16-byte salt, then chunks. Each chunk is a 4-byte
// big-endian length and an AES-256-GCM box of up to chunkSize plain bytes; the key comes
// from the passphrase by scrypt (N 2^15, r 8, p 1), the nonce is the chunk's number, and
// the additional data says whether it is the last chunk, so a file cut short or with
// chunks reordered does not open.
const (
	magic     = "MERITMARK-BACKUP-ENC1\n"
	chunkSize = 64 << 10
)

// ErrPassphrase is answered when the passphrase does not open a backup (or it was altered).
var ErrPassphrase = errors.New("the passphrase does not open this backup, or the file was altered")

func key(passphrase string, salt []byte) (cipher.AEAD, error) {
	k, err := scrypt.Key([]byte(passphrase), salt, 1<<15, 8, 1, 32)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(k)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

func nonce(a cipher.AEAD, n uint64) []byte {
	b := make([]byte, a.NonceSize())
	binary.BigEndian.PutUint64(b[len(b)-8:], n)
	return b
}

func ad(last bool) []byte {
	if last {
		return []byte("last")
	}
	return []byte("more")
}

// sealer encrypts what is written to it into w, chunk by chunk.
type sealer struct {
	w    io.Writer
	aead cipher.AEAD
	buf  []byte
	n    uint64
}

func newSealer(w io.Writer, passphrase string) (*sealer, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return nil, err
	}
	a, err := key(passphrase, salt)
	if err != nil {
		return nil, err
	}
	if _, err := io.WriteString(w, magic); err != nil {
		return nil, err
	}
	if _, err := w.Write(salt); err != nil {
		return nil, err
	}
	return &sealer{w: w, aead: a, buf: make([]byte, 0, chunkSize)}, nil
}

func (s *sealer) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		// a full chunk is sealed only once more follows, so that the last one is known
		if len(s.buf) == chunkSize {
			if err := s.flush(false); err != nil {
				return 0, err
			}
		}
		k := copy(s.buf[len(s.buf):chunkSize], p)
		s.buf = s.buf[:len(s.buf)+k]
		p = p[k:]
	}
	return total, nil
}

func (s *sealer) flush(last bool) error {
	box := s.aead.Seal(nil, nonce(s.aead, s.n), s.buf, ad(last))
	s.n++
	s.buf = s.buf[:0]
	var size [4]byte
	binary.BigEndian.PutUint32(size[:], uint32(len(box)))
	if _, err := s.w.Write(size[:]); err != nil {
		return err
	}
	_, err := s.w.Write(box)
	return err
}

func (s *sealer) Close() error { return s.flush(true) }

// sniff tells an encrypted backup by its magic line; the reader answered starts where the
// salt does (encrypted) or at the beginning (not).
func sniff(r io.Reader) (io.Reader, bool, error) {
	br := bufio.NewReader(r)
	head, err := br.Peek(len(magic))
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil, false, err
	}
	if bytes.Equal(head, []byte(magic)) {
		_, _ = br.Discard(len(magic))
		return br, true, nil
	}
	return br, false, nil
}

// opener decrypts a sealed stream.
type opener struct {
	r    io.Reader
	aead cipher.AEAD
	buf  []byte
	n    uint64
	done bool
}

func newOpener(r io.Reader, passphrase string) (io.Reader, error) {
	salt := make([]byte, 16)
	if _, err := io.ReadFull(r, salt); err != nil {
		return nil, errors.New("the encrypted backup is cut short")
	}
	a, err := key(passphrase, salt)
	if err != nil {
		return nil, err
	}
	return &opener{r: r, aead: a}, nil
}

func (o *opener) Read(p []byte) (int, error) {
	for len(o.buf) == 0 {
		if o.done {
			return 0, io.EOF
		}
		var size [4]byte
		if _, err := io.ReadFull(o.r, size[:]); err != nil {
			return 0, errors.New("the encrypted backup is cut short")
		}
		n := binary.BigEndian.Uint32(size[:])
		if n > chunkSize+uint32(o.aead.Overhead()) {
			return 0, ErrPassphrase
		}
		box := make([]byte, n)
		if _, err := io.ReadFull(o.r, box); err != nil {
			return 0, errors.New("the encrypted backup is cut short")
		}
		plain, err := o.aead.Open(nil, nonce(o.aead, o.n), box, ad(false))
		if err != nil {
			if plain, err = o.aead.Open(nil, nonce(o.aead, o.n), box, ad(true)); err != nil {
				return 0, ErrPassphrase
			}
			o.done = true
		}
		o.n++
		o.buf = plain
	}
	k := copy(p, o.buf)
	o.buf = o.buf[k:]
	return k, nil
}
