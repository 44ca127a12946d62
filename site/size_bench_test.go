package site

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
)

// BenchmarkSiteSize builds the site of a synthetic state (synthState) of 10,000 claims once and
// reports what it weighs on its host: bytes per claim (every page, feed, JSON file and asset
// counted), the whole site in MB and its files, and prints a table of where the bytes go, by
// page kind. GitHub Pages publishes at most 1 GB, so 50,000 claims fit when a claim costs at
// most 20,000 bytes. It measures and asserts nothing; the build time is BenchmarkBuild10k's.
//
//	go test ./site -run '^$' -bench BenchmarkSiteSize -benchtime 1x -timeout 60m
//
// ASHYAMS_BENCH_SIZES (e.g. "1000") chooses other sizes; ASHYAMS_BENCH_DIR keeps the states
// between runs (BenchmarkPlayerPages's, written when missing) and the last site built
// (size-N/public), to look at.
func BenchmarkSiteSize(b *testing.B) {
	sizes := benchSizes(b, 10_000)
	for _, n := range sizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir, keep := os.Getenv("ASHYAMS_BENCH_DIR"), true
			if dir == "" {
				dir, keep = b.TempDir(), false
			}
			state := filepath.Join(dir, fmt.Sprintf("synth-%d", n), "state")
			out := filepath.Join(dir, fmt.Sprintf("size-%d", n), "public")
			if _, err := os.Stat(filepath.Join(state, "network.json")); err != nil || !keep {
				_ = os.RemoveAll(state)
				synthState(b, state, n)
			}
			var kinds map[string]*kindSize
			for i := 0; i < b.N; i++ {
				_ = os.RemoveAll(out)
				if _, err := Build(Options{State: state, Out: out}); err != nil {
					b.Fatal(err)
				}
				var err error
				if kinds, err = sizeByKind(out); err != nil {
					b.Fatal(err)
				}
			}
			total := kinds[""]
			b.ReportMetric(float64(total.bytes)/float64(n), "bytes/claim")
			b.ReportMetric(float64(total.bytes)/1e6, "MB")
			b.ReportMetric(float64(total.files), "files")
			fmt.Printf("%d claims:\n%s", n, sizeTable(kinds)) // b.Log would cut the table at ten lines
		})
	}
}

// benchSizes is the numbers of claims a benchmark builds: ASHYAMS_BENCH_SIZES ("1000,10000")
// when set, else def.
func benchSizes(b *testing.B, def ...int) []int {
	s := os.Getenv("ASHYAMS_BENCH_SIZES")
	if s == "" {
		return def
	}
	var sizes []int
	for _, f := range strings.Split(s, ",") {
		var n int
		if _, err := fmt.Sscan(f, &n); err != nil || n <= 0 {
			b.Fatalf("ASHYAMS_BENCH_SIZES: %q is not a number of claims", f)
		}
		sizes = append(sizes, n)
	}
	return sizes
}

// kindSize is the bytes and files of one kind of page or file.
type kindSize struct {
	bytes int64
	files int
}

// sizeByKind adds up the regular files under out by pageKind; the key "" is the whole site.
func sizeByKind(out string) (map[string]*kindSize, error) {
	kinds := map[string]*kindSize{"": {}}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(out, p)
		if err != nil {
			return err
		}
		for _, k := range []string{pageKind(filepath.ToSlash(rel)), ""} {
			if kinds[k] == nil {
				kinds[k] = &kindSize{}
			}
			kinds[k].bytes += info.Size()
			kinds[k].files++
		}
		return nil
	})
	return kinds, err
}

// pageKind names what the file at rel (slash path under the output root) is, for sizeTable.
func pageKind(rel string) string {
	parts := strings.Split(rel, "/")
	switch {
	case parts[0] == "projects" && len(parts) > 1 && parts[1] == "page":
		return "project list pages"
	case parts[0] == "projects" && len(parts) == 4 && parts[3] == "index.html":
		return "claim pages"
	case parts[0] == "projects" && len(parts) == 3 && parts[2] == "index.html":
		return "project pages"
	case parts[0] == "projects" && len(parts) == 3 && parts[2] == "updates.xml":
		return "project feeds"
	case parts[0] == "projects":
		return "project list pages"
	case parts[0] == "updates" && len(parts) == 3 && store.IsEventID(parts[1]):
		return "event pages"
	case parts[0] == "updates":
		return "update lists"
	case parts[0] == "network-data" && len(parts) > 2: // a file's parts: network-data/find/*.js
		return "`" + parts[0] + "/" + parts[1] + "/`"
	case parts[0] == "network-data" || parts[0] == "schemas":
		return "`" + rel + "`"
	case parts[0] == "browse", parts[0] == "dependencies", parts[0] == "origins", parts[0] == "capabilities",
		parts[0] == "releases", parts[0] == "plan", parts[0] == "health":
		return map[string]string{"browse": "browse lists", "dependencies": "dependency pages", "origins": "site pages",
			"capabilities": "capability pages", "releases": "release lists", "plan": "plan page", "health": "health page"}[parts[0]]
	case strings.HasPrefix(parts[0], "sitemap"):
		return "sitemaps"
	}
	return "the rest"
}

// sizeTable is kinds as a Markdown table, largest first: MB, files, and each kind's share.
func sizeTable(kinds map[string]*kindSize) string {
	var names []string
	for k := range kinds {
		if k != "" {
			names = append(names, k)
		}
	}
	sort.Slice(names, func(i, j int) bool {
		if a, b := kinds[names[i]].bytes, kinds[names[j]].bytes; a != b {
			return a > b
		}
		return names[i] < names[j]
	})
	var s strings.Builder
	s.WriteString("| | MB | files |\n|---|---|---|\n")
	for _, k := range append(names, "") {
		label := k
		if k == "" {
			label = "**whole site**"
		}
		fmt.Fprintf(&s, "| %s | %.1f | %d |\n", label, float64(kinds[k].bytes)/1e6, kinds[k].files)
	}
	return s.String()
}
