package system

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"gopkg.in/yaml.v3"

	"meritmark/app/model"
	"meritmark/app/session"
	"meritmark/app/storage/s3test"
)

// composeSettings reads the deployment kit: compose.yaml must run two instances from
// deploy/meritmark.env beside PostgreSQL, an S3 server and a proxy; the settings of
// deploy/meritmark.env are answered for the processes to use.
func composeSettings(t *testing.T) map[string]string {
	t.Helper()
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, "compose.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var compose struct {
		Services map[string]struct {
			Image       string            `yaml:"image"`
			EnvFile     []string          `yaml:"env_file"`
			Environment map[string]string `yaml:"environment"`
			Healthcheck map[string]any    `yaml:"healthcheck"`
		} `yaml:"services"`
	}
	if err := yaml.Unmarshal(raw, &compose); err != nil {
		t.Fatalf("compose.yaml: %v", err)
	}
	for _, name := range []string{"app1", "app2", "postgres", "s3", "proxy"} {
		if _, ok := compose.Services[name]; !ok {
			t.Fatalf("compose.yaml has no %s service", name)
		}
	}
	for _, name := range []string{"app1", "app2"} {
		s := compose.Services[name]
		if !slices.Contains(s.EnvFile, "deploy/meritmark.env") || s.Environment["DATABASE_URL"] == "" || !strings.HasPrefix(s.Environment["MERITMARK_STORAGE_URL"], "s3://") {
			t.Fatalf("compose.yaml: %s does not take the shared settings, PostgreSQL and S3: %+v", name, s)
		}
	}
	for name, s := range compose.Services {
		if s.Image != "" && (!strings.Contains(s.Image, ":") || strings.HasSuffix(s.Image, ":latest")) && name != "app1" && name != "app2" {
			t.Fatalf("compose.yaml: %s's image %q is not pinned", name, s.Image)
		}
	}
	f, err := os.Open(filepath.Join(root, "deploy", "meritmark.env"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.Contains(v, "${") {
			t.Fatalf("deploy/meritmark.env: %q is not KEY=VALUE", line)
		}
		env[k] = v
	}
	return env
}

// balancer is the load balancer of the test: round robin over the instances whose /readyz
// answers 200 (checked every 100 ms, as Caddy's health_uri does), retrying a request that
// could not reach an instance on the next one.
type balancer struct {
	URL      string
	backends []*url.URL
	healthy  []atomic.Bool
	next     atomic.Int64
	srv      *http.Server
}

func newBalancer(t *testing.T, addr string, instances ...*instance) *balancer {
	t.Helper()
	b := &balancer{URL: "http://" + addr, healthy: make([]atomic.Bool, len(instances))}
	for _, in := range instances {
		u, _ := url.Parse(in.URL)
		b.backends = append(b.backends, u)
	}
	stop := make(chan struct{})
	go func() {
		client := &http.Client{Timeout: 500 * time.Millisecond}
		for {
			for i, u := range b.backends {
				res, err := client.Get(u.String() + "/readyz")
				b.healthy[i].Store(err == nil && res.StatusCode == http.StatusOK)
				if err == nil {
					res.Body.Close()
				}
			}
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	b.srv = &http.Server{Handler: b}
	go func() { _ = b.srv.Serve(ln) }()
	t.Cleanup(func() { close(stop); b.srv.Close() })
	return b
}

func (b *balancer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	for try := 0; try < len(b.backends)*2; try++ {
		i := int(b.next.Add(1)) % len(b.backends)
		if !b.healthy[i].Load() {
			continue
		}
		var failed bool
		p := &httputil.ReverseProxy{
			Rewrite: func(pr *httputil.ProxyRequest) {
				pr.SetURL(b.backends[i])
				pr.SetXForwarded()
				pr.Out.Host = pr.In.Host
			},
			ErrorHandler: func(http.ResponseWriter, *http.Request, error) { failed = true },
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := &bufferedWriter{header: http.Header{}}
		p.ServeHTTP(rec, r)
		if failed {
			continue // could not reach it: the next one (nginx's proxy_next_upstream error)
		}
		for k, v := range rec.header {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.status)
		_, _ = w.Write(rec.body.Bytes())
		return
	}
	http.Error(w, "no healthy instance", http.StatusBadGateway)
}

type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (w *bufferedWriter) Header() http.Header         { return w.header }
func (w *bufferedWriter) Write(p []byte) (int, error) { return w.body.Write(p) }
func (w *bufferedWriter) WriteHeader(s int)           { w.status = s }

// TestDeployTopologyAsProcesses runs compose.yaml's site as processes, from the settings of
// deploy/meritmark.env: two instances on one PostgreSQL, uploads on a real S3 server, a
// load balancer in front. Through the balancer a member uploads a document and downloads it
// from both instances; then one instance is stopped with SIGTERM (a rolling restart) while
// requests keep coming: none fails, it exits 0, and once restarted it serves again.
func TestDeployTopologyAsProcesses(t *testing.T) {
	requirePostgres(t)
	shared := composeSettings(t)
	proxyAddr := freeAddr(t)
	st := &store{URL: newPostgresDB(t)}
	s3 := s3test.URL(t)
	secret := func() string { return s3test.RandHex(24) }
	key, hmac := secret(), secret()
	vars := func() map[string]string {
		v := map[string]string{}
		for k, val := range shared {
			v[k] = val
		}
		// what differs from the containers: addresses on this machine, the balancer trusted
		v["MERITMARK_BASE_URL"] = "http://" + proxyAddr
		v["MERITMARK_TRUSTED_PROXIES"] = "127.0.0.1"
		v["MERITMARK_SHUTDOWN_DELAY"] = "1s"
		v["DATABASE_URL"] = st.URL
		v["MERITMARK_STORAGE_URL"] = s3
		v["MERITMARK_SECRET_KEY"] = key
		v["MERITMARK_SECRET_OAUTH_HMAC"] = hmac
		v["MERITMARK_DATA_DIR"] = t.TempDir()
		return v
	}
	start := time.Now()
	A, B := launch(t, "A", vars()), launch(t, "B", vars())
	var wg sync.WaitGroup
	for _, in := range []*instance{A, B} {
		wg.Add(1)
		go func(in *instance) { defer wg.Done(); in.waitReadyNoFatal(60 * time.Second) }(in)
	}
	wg.Wait()
	if !A.ready || !B.ready {
		t.Fatalf("not ready:\n%s\n%s", A.logs.tail(20), B.logs.tail(20))
	}
	t.Logf("two instances on PostgreSQL and S3 ready %s after start", time.Since(start).Round(time.Millisecond))
	lb := newBalancer(t, proxyAddr, A, B)
	d := st.open(t)
	for deadline := time.Now().Add(10 * time.Second); ; {
		if res, err := http.Get(lb.URL + "/readyz"); err == nil && res.StatusCode == 200 {
			res.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the balancer found no ready instance")
		}
		time.Sleep(50 * time.Millisecond)
	}

	member := addUser(t, d, "member@deploy.test", "", model.RoleUser)
	badge := addBadge(t, d, "Site Reliability", model.TypeProof, 1900)
	front := &instance{t: t, Name: "balancer", URL: lb.URL}
	token := signedIn(t, d, member, A).sessionCookie(A)
	doc := bigPDF(1 << 20)
	docURL := submitted(t, front, token, badge.ID, doc)
	for i := 0; i < 4; i++ { // round robin: both instances serve it from the bucket
		if status, got := download(t, front, docURL, token); status != 200 || !bytes.Equal(got, doc) {
			t.Fatalf("download %d through the balancer: %d, %d of %d bytes", i, status, len(got), len(doc))
		}
	}

	// a rolling restart of A while requests keep coming
	var sent, failed atomic.Int64
	var failures sync.Map
	stop := make(chan struct{})
	var load sync.WaitGroup
	for w := 0; w < 3; w++ {
		load.Add(1)
		go func(w int) {
			defer load.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				path := []string{"/", "/badges", docURL}[w]
				req, _ := http.NewRequest("GET", lb.URL+path, nil)
				req.AddCookie(&http.Cookie{Name: session.CookieName, Value: token})
				res, err := http.DefaultClient.Do(req)
				sent.Add(1)
				if err != nil {
					failed.Add(1)
					failures.Store(err.Error(), true)
					continue
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode >= 500 {
					failed.Add(1)
					failures.Store(fmt.Sprintf("%s: %d", path, res.StatusCode), true)
				}
			}
		}(w)
	}
	time.Sleep(300 * time.Millisecond)
	if err := A.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-A.done:
	case <-time.After(30 * time.Second):
		t.Fatal("A did not exit within 30 s of SIGTERM")
	}
	if code := A.cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("A exited %d:\n%s", code, A.logs.tail(20))
	}
	A.restart()
	A.waitReady(60 * time.Second)
	time.Sleep(500 * time.Millisecond) // the balancer sees it again
	close(stop)
	load.Wait()
	if failed.Load() > 0 {
		var list []string
		failures.Range(func(k, _ any) bool { list = append(list, k.(string)); return true })
		t.Fatalf("%d of %d requests failed during the rolling restart: %s", failed.Load(), sent.Load(), strings.Join(list, "; "))
	}
	t.Logf("rolling restart of one instance: %d requests through the balancer, none failed", sent.Load())
	if !lb.healthy[0].Load() {
		t.Fatal("the restarted instance is not back behind the balancer")
	}
}
