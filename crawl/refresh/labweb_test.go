package refresh

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/corpustest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// generatedLab stands in for the lab's two corpus sites when ../shared is absent: the same
// hosts, paths, project ids, names and channels, Candlelight and Tallow as corpustest's
// fixtures, each index advertising the digests of the bytes served.
func generatedLab(t testing.TB) map[string][]byte {
	t.Helper()
	const base = "https://" + host + "/"
	files := map[string][]byte{}
	site := func(dir, name string, projects ...corpustest.Doc) {
		url := base + dir[len(host)+1:] + "/"
		files[dir+"/index.html"] = fmt.Appendf(nil, `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>%s</title>
</head>
<body>
  <a href="%sdreamweave.json">not a discovery signal: body links are never read</a>
</body>
</html>
`, name, url)
		var entries []any
		for _, m := range projects {
			p := m.Project
			id := p["id"].(string)
			b := labJSON(t, m)
			files[manifestPath(dir, id)] = b
			heads := map[string]string{}
			for ch, h := range m.Channels {
				heads[ch] = h.(map[string]any)["version"].(string)
			}
			entries = append(entries, map[string]any{
				"id": id, "name": p["name"], "summary": p["summary"], "type": p["type"], "status": "active",
				"page": p["links"].(map[string]any)["page"], "manifest": url + "dreamweave/projects/" + id + ".json",
				"manifest_sha256": store.Digest(b), "updated": "2026-09-30", "channels": heads,
			})
		}
		files[dir+"/dreamweave.json"] = labJSON(t, corpustest.Doc{SchemaVersion: "2", Document: "index", Generator: "generated lab",
			Site: map[string]any{"name": name, "url": url}, Projects: entries})
	}
	site(tplDir, "DreamWeave Mod Template", corpustest.Manifest(corpustest.Fixtures["candlelight.json"]),
		corpustest.Manifest(corpustest.Fixtures["tallow.json"]))
	site(iniDir, "dream-ini", corpustest.Manifest(corpustest.Project{ID: iniProj, Name: "dream-ini", Type: "tool",
		Summary: "Import Morrowind.ini into openmw.cfg.", Page: base + "dream-ini/home/", Versions: []string{"1.0.2-dev.0", "1.0.1", "1.0.0"}}))
	return files
}

// labJSON is v as a publisher writes it: indented, "key": value.
func labJSON(t testing.TB, v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}
