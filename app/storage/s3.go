package storage

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"
)

// S3 stores files in a bucket of an S3-compatible service (AWS S3, MinIO, Garage, R2…),
// so that several instances share one set of uploads.
type S3 struct {
	Client *minio.Client
	Bucket string
	Prefix string // optional folder inside the bucket ("" or ending in "/")
}

// partSize is the multipart chunk size: objects up to this size go up in one PUT.
const partSize = 64 << 20

// ParseS3URL reads s3://ACCESS:SECRET@HOST[:PORT]/BUCKET[/PREFIX]?secure=false&region=R.
// secure defaults to true (HTTPS). Access key and secret may be percent-encoded.
func ParseS3URL(raw string) (endpoint, access, secret, bucket, prefix, region string, secure bool, err error) {
	u, perr := url.Parse(raw)
	if perr != nil || u.Scheme != "s3" || u.Host == "" {
		err = fmt.Errorf("expected s3://ACCESS:SECRET@HOST:PORT/BUCKET[?secure=false]")
		return
	}
	endpoint = u.Host
	if h, p, serr := net.SplitHostPort(u.Host); serr == nil {
		if _, cerr := strconv.Atoi(p); cerr != nil || h == "" {
			err = fmt.Errorf("bad host:port %q", u.Host)
			return
		}
	}
	if u.User != nil {
		access = u.User.Username()
		secret, _ = u.User.Password()
	}
	path := strings.Trim(u.Path, "/")
	bucket, prefix, _ = strings.Cut(path, "/")
	if bucket == "" {
		err = fmt.Errorf("the bucket is missing: s3://ACCESS:SECRET@HOST:PORT/BUCKET")
		return
	}
	if prefix != "" {
		if !ValidKey(prefix) {
			err = fmt.Errorf("bad folder %q inside the bucket", prefix)
			return
		}
		prefix += "/"
	}
	secure = true
	q := u.Query()
	if v := q.Get("secure"); v != "" {
		b, perr := strconv.ParseBool(v)
		if perr != nil {
			err = fmt.Errorf("secure=%q: want true or false", v)
			return
		}
		secure = b
	}
	region = q.Get("region")
	return
}

// NewS3 connects to the bucket named by raw (see ParseS3URL), creating it when missing,
// and fails when the service cannot be reached within 10 seconds.
func NewS3(ctx context.Context, raw string) (*S3, error) {
	endpoint, access, secret, bucket, prefix, region, secure, err := ParseS3URL(raw)
	if err != nil {
		return nil, err
	}
	client, err := minio.New(endpoint, &minio.Options{
		Creds:  credentials.NewStaticV4(access, secret, ""),
		Secure: secure,
		Region: region,
	})
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	ok, err := client.BucketExists(ctx, bucket)
	if err != nil {
		return nil, fmt.Errorf("reach bucket %q at %s: %w", bucket, endpoint, err)
	}
	if !ok {
		if err := client.MakeBucket(ctx, bucket, minio.MakeBucketOptions{Region: region}); err != nil {
			return nil, fmt.Errorf("create bucket %q: %w", bucket, err)
		}
	}
	return &S3{Client: client, Bucket: bucket, Prefix: prefix}, nil
}

func (s *S3) name(key string) (string, error) {
	if !ValidKey(key) {
		return "", fmt.Errorf("storage: invalid key %q", key)
	}
	return s.Prefix + key, nil
}

// Put uploads r; the length is taken from r when it can seek, else parts are streamed.
func (s *S3) Put(ctx context.Context, key string, r io.Reader, contentType string) error {
	name, err := s.name(key)
	if err != nil {
		return err
	}
	size := int64(-1)
	if sk, ok := r.(io.Seeker); ok {
		cur, err1 := sk.Seek(0, io.SeekCurrent)
		end, err2 := sk.Seek(0, io.SeekEnd)
		if err1 == nil && err2 == nil {
			if _, err := sk.Seek(cur, io.SeekStart); err != nil {
				return err
			}
			size = end - cur
		}
	}
	if size < 0 {
		// Length unknown: spool to a temporary file so that the upload is one plain PUT
		// with a known length (streamed multipart uploads with chunk signatures are not
		// understood by every S3-compatible service).
		tmp, err := os.CreateTemp("", "meritmark-s3-*")
		if err != nil {
			return err
		}
		defer os.Remove(tmp.Name())
		defer tmp.Close()
		if size, err = io.Copy(tmp, r); err != nil {
			return err
		}
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return err
		}
		r = tmp
	}
	if contentType == "" {
		contentType = "application/octet-stream"
	}
	_, err = s.Client.PutObject(ctx, s.Bucket, name, r, size, minio.PutObjectOptions{ContentType: contentType, PartSize: partSize})
	return err
}

// Open returns the object's content, or ErrNotFound. The object is read after Open
// returns, often after ctx is done (a handler's response streams it once the handler has
// returned and its request's context is cancelled), so the transfer runs on a context that
// keeps ctx's values but not its cancellation; closing the reader ends it.
func (s *S3) Open(ctx context.Context, key string) (io.ReadCloser, error) {
	name, err := s.name(key)
	if err != nil {
		return nil, ErrNotFound
	}
	octx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	obj, err := s.Client.GetObject(octx, s.Bucket, name, minio.GetObjectOptions{})
	if err != nil {
		cancel()
		return nil, mapS3(err)
	}
	// GetObject is lazy: Stat makes the request, so a missing key is reported here.
	if _, err := obj.Stat(); err != nil {
		obj.Close()
		cancel()
		return nil, mapS3(err)
	}
	return &object{Object: obj, cancel: cancel}, nil
}

// object is an opened S3 object whose Close also ends its transfer's context.
type object struct {
	*minio.Object
	cancel context.CancelFunc
}

func (o *object) Close() error {
	err := o.Object.Close()
	o.cancel()
	return err
}

// Delete removes the object; a missing key is not an error.
func (s *S3) Delete(ctx context.Context, key string) error {
	name, err := s.name(key)
	if err != nil {
		return err
	}
	err = s.Client.RemoveObject(ctx, s.Bucket, name, minio.RemoveObjectOptions{})
	if errors.Is(mapS3(err), ErrNotFound) {
		return nil
	}
	return err
}

// List returns the keys starting with prefix.
func (s *S3) List(ctx context.Context, prefix string) ([]string, error) {
	var keys []string
	for obj := range s.Client.ListObjects(ctx, s.Bucket, minio.ListObjectsOptions{Prefix: s.Prefix + prefix, Recursive: true}) {
		if obj.Err != nil {
			return nil, obj.Err
		}
		keys = append(keys, strings.TrimPrefix(obj.Key, s.Prefix))
	}
	return keys, nil
}

func mapS3(err error) error {
	if err == nil {
		return nil
	}
	switch minio.ToErrorResponse(err).Code {
	case "NoSuchKey", "NoSuchObject", "NotFound":
		return ErrNotFound
	}
	return err
}
