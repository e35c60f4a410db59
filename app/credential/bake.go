package credential

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
)

// Baking (OB 3.0 §5.3.1): a PNG badge image carries the credential in an iTXt chunk whose
// keyword is "openbadgecredential", uncompressed, with the compact JWT as its text. One
// image holds at most one credential.

// BakeKeyword is the iTXt keyword of a baked credential.
const BakeKeyword = "openbadgecredential"

var pngSignature = []byte("\x89PNG\r\n\x1a\n")

// ErrNotPNG is answered for data that is not a PNG.
var ErrNotPNG = errors.New("not a PNG image")

// ErrNotBaked is answered for a PNG without a credential.
var ErrNotBaked = errors.New("the image carries no Open Badges credential")

type chunk struct {
	typ  string
	data []byte
}

func readChunks(img []byte) ([]chunk, error) {
	if !bytes.HasPrefix(img, pngSignature) {
		return nil, ErrNotPNG
	}
	var out []chunk
	r := bytes.NewReader(img[len(pngSignature):])
	for {
		var hdr [8]byte
		if _, err := io.ReadFull(r, hdr[:]); err != nil {
			return nil, ErrNotPNG
		}
		n := binary.BigEndian.Uint32(hdr[:4])
		if int64(n) > int64(r.Len()) {
			return nil, ErrNotPNG
		}
		data := make([]byte, n)
		if _, err := io.ReadFull(r, data); err != nil {
			return nil, ErrNotPNG
		}
		var crc [4]byte
		if _, err := io.ReadFull(r, crc[:]); err != nil {
			return nil, ErrNotPNG
		}
		h := crc32.NewIEEE()
		h.Write(hdr[4:8])
		h.Write(data)
		if h.Sum32() != binary.BigEndian.Uint32(crc[:]) {
			return nil, ErrNotPNG
		}
		out = append(out, chunk{typ: string(hdr[4:8]), data: data})
		if string(hdr[4:8]) == "IEND" {
			return out, nil
		}
	}
}

func writeChunk(w *bytes.Buffer, typ string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	w.WriteString(typ)
	w.Write(data)
	h := crc32.NewIEEE()
	h.Write([]byte(typ))
	h.Write(data)
	binary.BigEndian.PutUint32(n[:], h.Sum32())
	w.Write(n[:])
}

// itxt returns the keyword and text of an uncompressed iTXt chunk.
func itxt(data []byte) (keyword, text string, ok bool) {
	i := bytes.IndexByte(data, 0)
	if i < 1 || len(data) < i+3 {
		return "", "", false
	}
	keyword = string(data[:i])
	if data[i+1] != 0 { // compressed: we never write it; not ours to read
		return keyword, "", false
	}
	rest := data[i+3:]
	j := bytes.IndexByte(rest, 0) // language tag
	if j < 0 {
		return keyword, "", false
	}
	rest = rest[j+1:]
	k := bytes.IndexByte(rest, 0) // translated keyword
	if k < 0 {
		return keyword, "", false
	}
	return keyword, string(rest[k+1:]), true
}

// Bake returns img with jwt in an "openbadgecredential" iTXt chunk (replacing any there).
func Bake(img []byte, jwt string) ([]byte, error) {
	chunks, err := readChunks(img)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(img) + len(jwt) + 64)
	b.Write(pngSignature)
	for _, c := range chunks {
		if c.typ == "iTXt" {
			if kw, _, _ := itxt(c.data); kw == BakeKeyword {
				continue
			}
		}
		if c.typ == "IEND" {
			data := make([]byte, 0, len(BakeKeyword)+5+len(jwt))
			data = append(data, BakeKeyword...)
			data = append(data, 0, 0, 0) // NUL, compression flag 0, method 0
			data = append(data, 0, 0)    // empty language tag, empty translated keyword
			data = append(data, jwt...)
			writeChunk(&b, "iTXt", data)
		}
		writeChunk(&b, c.typ, c.data)
	}
	return b.Bytes(), nil
}

// Unbake returns the credential baked in img.
func Unbake(img []byte) (string, error) {
	chunks, err := readChunks(img)
	if err != nil {
		return "", err
	}
	for _, c := range chunks {
		if c.typ == "iTXt" {
			if kw, text, ok := itxt(c.data); kw == BakeKeyword && ok {
				return text, nil
			}
		}
	}
	return "", ErrNotBaked
}
