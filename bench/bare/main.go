// Command bare is the limit a cached page can approach: a bare fasthttp server sending,
// for each path, the very bytes (status, headers and body, identity and gzip) that a
// Meritmark instance sent for it when the server started. bench/http.sh runs it beside
// Meritmark and prints Meritmark's ratio to it.
//
// Usage: go run ./bench/bare -addr 127.0.0.1:PORT -from http://127.0.0.1:MMPORT PATH...
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"

	"github.com/valyala/fasthttp"
)

// answer is what Meritmark sent for a path in one coding.
type answer struct {
	status  int
	headers [][2]string
	body    []byte
}

// perRequest are the headers fasthttp writes itself (Date, Server, Content-Length) or
// that describe the connection.
var perRequest = map[string]bool{"Date": true, "Server": true, "Content-Length": true, "Connection": true, "Keep-Alive": true}

func capture(url, encoding string) (answer, error) {
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Accept-Encoding", encoding) // as set, Go's client does not decode the body
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		return answer{}, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return answer{}, err
	}
	a := answer{status: res.StatusCode, body: body}
	for k, vs := range res.Header {
		if !perRequest[k] {
			for _, v := range vs {
				a.headers = append(a.headers, [2]string{k, v})
			}
		}
	}
	return a, nil
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8090", "listen address")
	from := flag.String("from", "", "the Meritmark base URL whose answers are served")
	flag.Parse()
	if *from == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: bare -addr HOST:PORT -from URL PATH...")
		os.Exit(2)
	}
	plain := map[string]answer{}
	gzip := map[string]answer{}
	for _, p := range flag.Args() {
		var err error
		if plain[p], err = capture(*from+p, "identity"); err != nil {
			log.Fatal(err)
		}
		if gzip[p], err = capture(*from+p, "gzip"); err != nil {
			log.Fatal(err)
		}
	}
	handler := func(ctx *fasthttp.RequestCtx) {
		as := plain
		if bytes.Contains(ctx.Request.Header.Peek("Accept-Encoding"), []byte("gzip")) {
			as = gzip
		}
		a, ok := as[string(ctx.Path())]
		if !ok {
			ctx.SetStatusCode(fasthttp.StatusNotFound)
			return
		}
		ctx.SetStatusCode(a.status)
		for _, h := range a.headers {
			ctx.Response.Header.Set(h[0], h[1])
		}
		ctx.SetBody(a.body)
	}
	s := &fasthttp.Server{Handler: handler, NoDefaultServerHeader: true}
	log.Fatal(s.ListenAndServe(*addr))
}
