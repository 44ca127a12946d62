package site

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store/statetest"
)

// The budget of every generated HTML page, at any size of network: its bytes gzipped (-9)
// and its elements as a browser's DOM holds them.
const (
	pageGzipBudget     = 100_000
	pageElementsBudget = 1_500
)

// BenchmarkPageBounds builds the varied network (statetest.Varied) of 10,000 claims and
// holds every HTML page to the budget: it prints, by page kind, the pages and the largest
// one (gzip bytes and elements, and its path), then the offenders by kind, and fails when
// there is one. It also reports the site's bytes per claim, every file counted, and prints
// where they go (sizeTable). It asserts sizes, not time.
//
//	go test ./site -run '^$' -bench BenchmarkPageBounds -benchtime 1x -timeout 60m
//
// ASHYAMS_BENCH_SIZES chooses other sizes; ASHYAMS_BENCH_DIR keeps the state (varied-N) and
// the last site built (bounds-N/public) between runs.
func BenchmarkPageBounds(b *testing.B) {
	for _, n := range benchSizes(b, 10_000) {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			dir, keep := os.Getenv("ASHYAMS_BENCH_DIR"), true
			if dir == "" {
				dir, keep = b.TempDir(), false
			}
			state := filepath.Join(dir, fmt.Sprintf("varied-%d", n), "state")
			out := filepath.Join(dir, fmt.Sprintf("bounds-%d", n), "public")
			if _, err := os.Stat(filepath.Join(state, "network.json")); err != nil || !keep {
				_ = os.RemoveAll(state)
				statetest.Varied(b, state, n)
			}
			for i := 0; i < b.N; i++ {
				_ = os.RemoveAll(out)
				if _, err := Build(Options{State: state, Out: out}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			pages, err := measurePages(out)
			if err != nil {
				b.Fatal(err)
			}
			table, offenders := boundsTable(pages)
			kinds, err := sizeByKind(out)
			if err != nil {
				b.Fatal(err)
			}
			fmt.Printf("%d claims, the largest page of each kind:\n%s\n%s", n, table, sizeTable(kinds))
			b.ReportMetric(float64(kinds[""].bytes)/float64(n), "bytes/claim")
			b.ReportMetric(float64(len(offenders)), "over-budget")
			if len(offenders) > 0 {
				b.Errorf("%d pages over %d gzip bytes or %d elements:\n%s", len(offenders), pageGzipBudget, pageElementsBudget, strings.Join(offenders, "\n"))
			}
		})
	}
}

// pageSize is one HTML page's path, gzip -9 bytes and elements.
type pageSize struct {
	path           string
	gzip, elements int
}

// measurePages measures every .html file under out.
func measurePages(out string) ([]pageSize, error) {
	var pages []pageSize
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".html" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		buf.Reset()
		zw.Reset(&buf)
		if _, err := zw.Write(b); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		doc, err := html.Parse(bytes.NewReader(b))
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		pages = append(pages, pageSize{filepath.ToSlash(rel), buf.Len(), countElements(doc)})
		return nil
	})
	return pages, err
}

func countElements(n *html.Node) int {
	c := 0
	if n.Type == html.ElementNode {
		c = 1
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c += countElements(ch)
	}
	return c
}

// boundsTable is, by page kind (boundsKind), the pages and the largest by gzip bytes and by
// elements, as a Markdown table; and the pages over budget, each "kind: path (bytes, elements)".
func boundsTable(pages []pageSize) (string, []string) {
	type kindMax struct {
		n            int
		byGzip, byEl pageSize
	}
	kinds := map[string]*kindMax{}
	var offenders []string
	for _, p := range pages {
		k := boundsKind(p.path)
		m := kinds[k]
		if m == nil {
			m = &kindMax{}
			kinds[k] = m
		}
		m.n++
		if p.gzip > m.byGzip.gzip {
			m.byGzip = p
		}
		if p.elements > m.byEl.elements {
			m.byEl = p
		}
		if p.gzip > pageGzipBudget || p.elements > pageElementsBudget {
			offenders = append(offenders, fmt.Sprintf("%s: %s (%d gzip bytes, %d elements)", k, p.path, p.gzip, p.elements))
		}
	}
	names := make([]string, 0, len(kinds))
	for k := range kinds {
		names = append(names, k)
	}
	sort.Slice(names, func(i, j int) bool { return kinds[names[i]].byGzip.gzip > kinds[names[j]].byGzip.gzip })
	var s strings.Builder
	s.WriteString("| page kind | pages | largest, gzip | most elements |\n|---|---|---|---|\n")
	for _, k := range names {
		m := kinds[k]
		fmt.Fprintf(&s, "| `%s` | %d | %.1f KB (%d elements) | %d (%.1f KB) |\n", k, m.n,
			float64(m.byGzip.gzip)/1000, m.byGzip.elements, m.byEl.elements, float64(m.byEl.gzip)/1000)
	}
	sort.Strings(offenders)
	return s.String(), offenders
}

var (
	uuidSeg  = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	siteSeg  = regexp.MustCompile(`^[a-z0-9-]+-[0-9a-f]{8}$`)
	eventSeg = regexp.MustCompile(`^[0-9a-f]{20}$`)
)

// boundsKind is a page's path with what varies from page to page of one kind named instead:
// "projects/<project>/<site>/", "origins/page/<n>/", "browse/tag-<tag>/".
func boundsKind(rel string) string {
	segs := strings.Split(strings.TrimSuffix(rel, "index.html"), "/")
	for i, s := range segs {
		switch {
		case s == "":
		case i > 0 && segs[i-1] == "page":
			segs[i] = "<n>"
		case i > 0 && segs[i-1] == "capabilities" && s != "page":
			segs[i] = "<capability>"
		case strings.HasPrefix(s, "tag-"):
			segs[i] = "tag-<tag>"
		case uuidSeg.MatchString(s):
			segs[i] = "<project>"
		case eventSeg.MatchString(s):
			segs[i] = "<event>"
		case siteSeg.MatchString(s):
			segs[i] = "<site>"
		}
	}
	return strings.Join(segs, "/")
}
