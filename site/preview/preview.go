// Package preview serves a built site over HTTP the way its host serves it, for `ashyams serve`
// and `ashyams demo --serve`: under the path of its base URL, directories by their index.html,
// anything else as the 404 page.
package preview

import (
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/site/internal/sitedir"
)

// Handler serves a built site from out for previewing (`ashyams serve`), mounted under the
// path of the base URL the site was built for (its marker's base_url; "/" when none is
// recorded), the way its host serves it: see HandlerAt.
func Handler(out string) http.Handler {
	base, err := sitedir.BaseURL(out)
	if err != nil {
		base = ""
	}
	return HandlerAt(out, sitedir.BasePath(base))
}

// HandlerAt serves the site in out under the URL path root ("/ashyams-go/" or "/"), the
// way its host serves it: a file by its path below root, a directory by its index.html, and
// anything else, dotfiles and directories without an index included, as 404.html with status
// 404. root without its final slash redirects to root. Pages link to each other relatively,
// and the 404 page root-relatively under root, so every page works as published.
//
// Paths outside root are answered as if root were "/" too, so an address printed for the
// site's root (`ashyams demo` prints one) still works; this cannot hide a link that would
// break on the host, because check-site refuses root-relative links outside the base path.
func HandlerAt(out, root string) http.Handler {
	if !strings.HasPrefix(root, "/") {
		root = "/" + root
	}
	if !strings.HasSuffix(root, "/") {
		root += "/"
	}
	root = sitedir.CanonPath(root)
	// Request paths arrive decoded ("/my index/"); root is escaped ("/my%20index/").
	decRoot, err := url.PathUnescape(root)
	if err != nil {
		decRoot = root
	}
	files := http.FileServer(http.Dir(out))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		if root != "/" && r.URL.Path == strings.TrimSuffix(decRoot, "/") {
			http.Redirect(w, r, root, http.StatusFound)
			return
		}
		rest, ok := strings.CutPrefix(r.URL.Path, decRoot)
		if !ok {
			rest = strings.TrimPrefix(r.URL.Path, "/")
		}
		p := path.Clean("/" + rest)
		if strings.HasSuffix(rest, "/") && p != "/" {
			p += "/" // a directory asked for as one: no redirect
		}
		if !servable(out, p) {
			notFound(w, r, out)
			return
		}
		r2 := new(http.Request)
		*r2 = *r
		r2.URL = new(url.URL)
		*r2.URL = *r.URL
		r2.URL.Path = p
		r2.URL.RawPath = ""
		files.ServeHTTP(w, r2)
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

// notFound answers with the site's 404 page, status 404 (net/http's own when there is none).
func notFound(w http.ResponseWriter, r *http.Request, out string) {
	b, err := os.ReadFile(filepath.Join(out, sitedir.NotFoundPage))
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
