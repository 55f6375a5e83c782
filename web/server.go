package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"strconv"
	"time"
)

//go:embed assets
var assets embed.FS

//go:embed templates/*.html
var templateFiles embed.FS

var templates = template.Must(template.New("").Funcs(template.FuncMap{
	"add": func(a, b int) int { return a + b },
}).ParseFS(templateFiles, "templates/*.html"))

// route is one entry of the view's route table.
type route struct {
	pattern string // net/http ServeMux pattern
	doc     string // what it serves
	handler http.HandlerFunc
}

// routes is the view's route table: every page and asset it serves.
func (s *Server) routes() []route {
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded directory exists: a build error otherwise
	}
	files := http.StripPrefix("/assets/", http.FileServerFS(static))
	return []route{
		{"GET /{$}", "the start page (the ranking unless Options.Start says otherwise)", s.start},
		{"GET /rank", "the ranking, each entry linking to its line: the diagnosis where one is given, by=metric the single metric's", s.rankPage},
		{"GET /source", "the source colored by Tarantula; sel=FILE:LINE selects a line and shows its slices", s.sourcePage},
		{"GET /graph", "the graph of a slice (sel, dir) or of flow output (of=flow)", s.graphPage},
		{"GET /graph.svg", "the graph itself, rendered by Graphviz's dot", s.graphSVG},
		{"GET /flow", "the flow graph's outputs and what they depend on", s.flowPage},
		{"GET /mine", "every function's mined invariants and observed types", s.minePage},
		{"GET /guide", "the guided path: top suspicious statements, then the failure's dependencies", s.guidePage},
		{"GET /assets/", "embedded style sheet and script", files.ServeHTTP},
	}
}

// Handler returns the view's HTTP handler. It answers loopback clients
// only when local is true.
func (s *Server) Handler(local bool) http.Handler {
	mux := http.NewServeMux()
	for _, r := range s.routes() {
		mux.Handle(r.pattern, r.handler)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if local && !loopbackClient(req.RemoteAddr) {
			http.Error(w, "permission denied: the view answers this machine only", http.StatusForbidden)
			return
		}
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		mux.ServeHTTP(w, req)
	})
}

// loopbackClient reports whether a request's remote address is on this
// machine.
func loopbackClient(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ErrNotLoopback is returned by Listen for an address that is not on the
// loopback interface when any addresses are not allowed.
var ErrNotLoopback = errors.New("not a loopback address: traces may contain secrets (the values the program computed); bind another address only on purpose")

// Listen checks addr ("localhost:8080", ":8080", "127.0.0.1:0"; an empty
// host is localhost, an empty or zero port any free port) and listens on
// it. Unless any is true, it refuses hosts that are not loopback: a name
// other than localhost, or an IP address outside 127.0.0.0/8 and ::1.
func Listen(addr string, any bool) (net.Listener, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("-http %q: want HOST:PORT: %w", addr, err)
	}
	if host == "" {
		host = "localhost"
	}
	if port == "" {
		port = "0"
	}
	if _, err := strconv.ParseUint(port, 10, 16); err != nil {
		return nil, fmt.Errorf("-http %q: bad port %q", addr, port)
	}
	if !any && !loopbackHost(host) {
		return nil, fmt.Errorf("-http %q: %w", addr, ErrNotLoopback)
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, port))
	if err != nil {
		return nil, fmt.Errorf("listen: %w", err)
	}
	return ln, nil
}

// loopbackHost reports whether host names the loopback interface.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Serve serves the view on ln until ctx is done, then shuts the server
// down. The handler answers loopback clients only when ln is on a
// loopback address.
func (s *Server) Serve(ctx context.Context, ln net.Listener) error {
	local := false
	if a, ok := ln.Addr().(*net.TCPAddr); ok {
		local = a.IP.IsLoopback()
	}
	srv := &http.Server{Handler: s.Handler(local), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return fmt.Errorf("serve: %w", err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			return fmt.Errorf("shutdown: %w", err)
		}
		return nil
	}
}

// URL returns the address to open for a listener.
func URL(ln net.Listener) string {
	return "http://" + ln.Addr().String() + "/"
}
