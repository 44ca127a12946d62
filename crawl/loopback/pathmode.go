package loopback

// Path mode (replay.py's): /<host>/<path> answered from root/<host>/<path>, rewritten.
import (
	"bytes"
	"encoding/json"
	"io/fs"
	"strings"
)

var schemes = []string{"https://", "http://"}

// Rewrite maps "https://<host>/<path>" (or http://) to this server's path-mode URL when <host>
// is in the root; any other string is returned unchanged.
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

// RewriteText rewrites b's host URLs as served bodies are (b is not modified).
func (s *Server) RewriteText(b []byte) []byte {
	return s.rewrite(s.Hosts(), bytes.Clone(b))
}

// Bytes returns what path mode answers for "/<host>/<path>" without rules; ok is false for a 404.
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

// fixIndexDigests recomputes manifest_sha256 for manifests rewriting changed, only where the
// original matched.
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
