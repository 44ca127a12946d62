package site

import (
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Handler serves a built site from out for previewing (`ashyams serve`): a file by its path,
// a directory by its index.html, and anything else, dotfiles and directories without an index
// included, as 404.html with status 404, the way a static host would.
func Handler(out string) http.Handler {
	files := http.FileServer(http.Dir(out))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		p := path.Clean("/" + r.URL.Path)
		if !servable(out, p) {
			notFound(w, r, out)
			return
		}
		files.ServeHTTP(w, r)
	})
}

// servable reports whether the clean URL path p names a file, or a directory with an
// index.html, in out, with no dot-named segment.
func servable(out, p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return false
		}
	}
	fp := filepath.Join(out, filepath.FromSlash(p))
	st, err := os.Stat(fp)
	if err != nil {
		return false
	}
	if st.IsDir() {
		st, err = os.Stat(filepath.Join(fp, "index.html"))
		return err == nil && !st.IsDir()
	}
	return true
}

func notFound(w http.ResponseWriter, r *http.Request, out string) {
	b, err := os.ReadFile(filepath.Join(out, notFoundPage))
	if err != nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(http.StatusNotFound)
	if r.Method != http.MethodHead {
		_, _ = w.Write(b)
	}
}
