package loopback

// Path mode (replay.py's): /<host>/<path> answered from root/<host>/<path>, each host's
// https:// and http:// URLs in .json and .html bodies rewritten to this server, and a site
// index's digests recomputed for the manifests rewriting changed.

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"strings"
)

// schemes are the URL schemes path mode rewrites.
var schemes = []string{"https://", "http://"}

// Rewrite maps a real URL "https://<host>/<path>" (or http://) to this server's path-mode
// "http://127.0.0.1:<port>/<host>/<path>" when <host> is in the root; any other string is
// returned unchanged.
func (s *Server) Rewrite(u string) string {
	for _, h := range s.Hosts() {
		for _, sch := range schemes {
			if p := sch + h + "/"; strings.HasPrefix(u, p) {
				return s.base + h + "/" + u[len(p):]
			}
			if u == sch+h {
				return s.base + h + "/"
			}
		}
	}
	return u
}

// RewriteText rewrites b's "https://<host>/" and "http://<host>/" URLs to this server's path
// mode, as served bodies are (for a sources.toml of real URLs). b is not modified.
func (s *Server) RewriteText(b []byte) []byte {
	return s.rewrite(s.Hosts(), bytes.Clone(b))
}

// Bytes returns what the server answers in path mode for a URL path ("/<host>/<path>")
// without rules: the file, rewritten and digest-fixed when it is .json or .html. ok is false
// when no file answers (a 404).
func (s *Server) Bytes(urlPath string) (body []byte, ok bool) {
	body, _, ok = s.file(urlPath, true)
	return body, ok
}

func (s *Server) rewrite(hosts []string, data []byte) []byte {
	for _, h := range hosts {
		for _, sch := range schemes {
			data = bytes.ReplaceAll(data, []byte(sch+h+"/"), []byte(s.base+h+"/"))
		}
	}
	return data
}

// fixIndexDigests recomputes manifest_sha256 for manifests whose bytes changed by rewriting,
// only where the original manifest matched the original advertised digest.
func (s *Server) fixIndexDigests(root fs.FS, hosts []string, raw, data []byte) []byte {
	var doc struct {
		Document string            `json:"document"`
		Projects []json.RawMessage `json:"projects"`
	}
	if json.Unmarshal(raw, &doc) != nil || doc.Document != "index" {
		return data
	}
	for _, pr := range doc.Projects {
		var e struct {
			Manifest       *string `json:"manifest"`
			ManifestSHA256 *string `json:"manifest_sha256"`
		}
		if json.Unmarshal(pr, &e) != nil || e.Manifest == nil || e.ManifestSHA256 == nil {
			continue
		}
		url, old := *e.Manifest, *e.ManifestSHA256
		for _, h := range hosts {
			prefix := ""
			for _, sch := range schemes {
				if strings.HasPrefix(url, sch+h+"/") {
					prefix = sch + h + "/"
				}
			}
			if prefix == "" {
				continue
			}
			mp := localPath(root, "/"+h+"/"+url[len(prefix):])
			if mp == "" {
				break
			}
			mraw, err := fs.ReadFile(root, mp)
			if err != nil || hexSHA(mraw) != old {
				break // a real mismatch stays a mismatch
			}
			data = bytes.ReplaceAll(data, []byte(old), []byte(hexSHA(s.rewrite(hosts, mraw))))
			break
		}
	}
	return data
}
