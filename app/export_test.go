package app

import "github.com/valyala/fasthttp"

// RequestConfig exposes requestConfig to the external tests.
func (a *App) RequestConfig(h *fasthttp.RequestHeader) fasthttp.RequestConfig {
	return a.requestConfig(h)
}
