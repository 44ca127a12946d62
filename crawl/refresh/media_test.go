package refresh

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/jpegscan/jpegscantest"
	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

// candleImage is Candlelight's featured image, as the lab serves it.
const candleImage = tplDir + "/home/media/dusk-over-balmora.webp"

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	img.Set(0, 0, color.RGBA{R: 200, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// hugePNG is a 1x1 PNG whose header claims w x h pixels (CRC fixed): decoding it would allocate
// gigabytes, so the dimension limit must be applied from the header alone.
func hugePNG(t *testing.T, w, h uint32) []byte {
	b := pngBytes(t, 1, 1)
	ihdr := b[8+8 : 8+8+13] // signature, then length+type, then the IHDR data
	binary.BigEndian.PutUint32(ihdr[0:4], w)
	binary.BigEndian.PutUint32(ihdr[4:8], h)
	binary.BigEndian.PutUint32(b[8+8+13:], crc32.ChecksumIEEE(b[8+4:8+8+13]))
	return b
}

func TestDrillCardImage(t *testing.T) {
	t.Parallel()
	webp, err := os.ReadFile("testdata/gopher.webp")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		body   []byte
		ext    string   // cached file's extension; "" when refused
		words  []string // the media problem
		limits func(*Options)
	}{
		{"webp", webp, "webp", nil, nil},
		{"png served under a .webp name: the bytes decide", pngBytes(t, 4, 3), "png", nil, nil},
		{"dimensions over the limit, read from the header", hugePNG(t, 100000, 100000), "",
			[]string{"refused by crawler policy", "100000×100000 pixels"}, nil},
		{"over the byte limit", pngBytes(t, 64, 64), "",
			[]string{"refused by crawler policy", "over the 100 bytes limit"}, func(o *Options) { o.MaxImageBytes = 100 }},
		{"not an image", []byte("<html>nope</html>"), "", []string{"is not an image this index reads"}, nil},
		{"corrupt after a good header", pngBytes(t, 4, 3)[:60], "", []string{"does not decode as png"}, nil},
		{"a JPEG of 3,000 scans, refused before decoding", jpegscantest.Progressive(4096, 4096, 3000), "",
			[]string{"refused by crawler policy", "the JPEG has 3001 scans; the limit is 64"}, nil},
		{"a progressive JPEG within the scan limit", jpegscantest.Progressive(64, 64, 20), "jpg", nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			l := newLab(t)
			l.opt = tc.limits
			l.set(candleImage, tc.body)
			src := l.source(tplDir)
			sum := l.refresh(src)
			c := l.claim(candle, tplDir)
			wantClaim(t, c, store.ClaimCurrent) // an image never fails a claim or a refresh
			if c.Media == nil || c.Media.URL != l.url(candleImage) || !strings.HasPrefix(c.Media.Alt, "Warm lantern light") {
				t.Fatalf("media %+v", c.Media)
			}
			if tc.ext != "" {
				want := "media/" + store.Digest(tc.body) + "." + tc.ext
				if c.Media.File == nil || *c.Media.File != want || c.Media.Problem != nil {
					t.Fatalf("media file %v (problem %s), want %s", c.Media.File, deref(c.Media.Problem), want)
				}
				got, err := store.Open(l.state).ReadBytes(want)
				if err != nil || !bytes.Equal(got, tc.body) {
					t.Fatalf("cached image: %v", err)
				}
			} else {
				if c.Media.File != nil || c.Media.Problem == nil || !c.Media.Definitive {
					t.Fatalf("media %+v: want a definitive problem and no file", c.Media)
				}
				for _, w := range tc.words {
					if !strings.Contains(*c.Media.Problem, w) {
						t.Errorf("media problem %q lacks %q", *c.Media.Problem, w)
					}
				}
				if sum.Problems["image"] != 1 {
					t.Errorf("summary counts %d image problems", sum.Problems["image"])
				}
			}
			// Unchanged URL, cached file or recorded problem, unchanged manifest: not fetched again.
			l.srv.ResetRequests()
			l.refresh(src)
			if n := l.requestsFor("dusk-over-balmora"); n != 0 {
				t.Errorf("the card image was fetched again %d times", n)
			}
			if tc.ext != "" {
				// The cached file goes missing (images are left out of a copy of the state): no
				// reason to refuse the refresh, which fetches it again.
				if err := os.Remove(store.Open(l.state).Path(*c.Media.File)); err != nil {
					t.Fatal(err)
				}
				l.srv.ResetRequests()
				l.refresh(src)
				if n := l.requestsFor("dusk-over-balmora"); n != 1 {
					t.Errorf("the missing card image was fetched %d times, want once", n)
				}
				again := l.claim(candle, tplDir)
				if again.Media == nil || again.Media.File == nil || *again.Media.File != *c.Media.File || again.Media.Problem != nil {
					t.Errorf("media after the repair %+v", again.Media)
				}
				if got, err := store.Open(l.state).ReadBytes(*c.Media.File); err != nil || !bytes.Equal(got, tc.body) {
					t.Errorf("the cached image is not back: %v", err)
				}
			}
		})
	}
}

func TestPickImage(t *testing.T) {
	t.Parallel()
	m := &protocol.Manifest{Project: protocol.Project{Media: []protocol.Media{
		{Kind: "video", URL: "v", Featured: true},
		{Kind: "image", URL: "first"},
		{Kind: "image", URL: "featured", Featured: true},
	}}}
	if got := pickImage(m); got == nil || got.URL != "featured" {
		t.Errorf("picked %+v, want the featured image", got)
	}
	m.Project.Media[2].Featured = false
	if got := pickImage(m); got == nil || got.URL != "first" {
		t.Errorf("picked %+v, want the first image (a video is never picked)", got)
	}
	m.Project.Media = m.Project.Media[:1]
	if got := pickImage(m); got != nil {
		t.Errorf("picked %+v from videos only", got)
	}
}

// A card image cut off by the site's time budget on a first sighting is recorded as a problem
// naming the budget, as a timeout is (not left null, unexplained); the claim stays current and
// the refresh succeeds.
func TestDrillCardImageCutByTheSiteBudget(t *testing.T) {
	l := newLab(t)
	bs := newBudgets()
	l.opt = func(o *Options) { o.SiteBudget, o.budget = 300*time.Millisecond, bs.start }
	l.set(candleImage, pngBytes(t, 4, 3))
	l.rules(loopback.Rule{Path: "dusk-over-balmora", Delay: time.Minute})
	l.setIntercept(func(w http.ResponseWriter, r *http.Request) bool {
		if strings.Contains(r.URL.Path, "dusk-over-balmora") {
			bs.expire(l.site(tplDir)) // the budget ends once the slow image is asked for
		}
		return false
	})
	src := l.source(tplDir)
	sum := l.refresh(src)
	c := l.claim(candle, tplDir)
	wantClaim(t, c, store.ClaimCurrent)
	want := "the card image was not read: the site's time budget (300ms) ran out"
	if c.Media == nil || c.Media.URL != l.url(candleImage) || c.Media.File != nil || deref(c.Media.Problem) != want {
		t.Fatalf("media %+v (problem %s); want the budget named", c.Media, func() string {
			if c.Media == nil {
				return "<no media>"
			}
			return deref(c.Media.Problem)
		}())
	}
	line := "card image of " + candle + " at " + l.site(tplDir) + ": " + want
	if sum.Problems["image"] != 1 || !contains(sum.Failures, line) {
		t.Errorf("problems %v, failures %q; want %q", sum.Problems, sum.Failures, line)
	}
}

// A card image that failed to be read (HTTP 503 while a deploy settles, a network error, a
// timeout, a time budget) says nothing about the image: it is tried again on the next refresh,
// once per refresh, though the manifest is unchanged, and cached once it is served. A
// definitive refusal of the image itself is remembered (TestDrillCardImage).
func TestDrillCardImageTransientFailureIsRetried(t *testing.T) {
	t.Parallel()
	l := newLab(t)
	img := pngBytes(t, 4, 3)
	l.set(candleImage, img)
	l.rules(loopback.Rule{Path: "dusk-over-balmora", Status: 503})
	src := l.source(tplDir)
	l.refresh(src)
	c := l.claim(candle, tplDir)
	if c.Media == nil || c.Media.File != nil || !strings.Contains(deref(c.Media.Problem), "HTTP 503") || c.Media.Definitive {
		t.Fatalf("media after a 503: %+v", c.Media)
	}
	// Still 503: tried again, exactly once, the problem describes the last attempt.
	l.srv.ResetRequests()
	sum := l.refresh(src)
	if n := l.requestsFor("dusk-over-balmora"); n != 1 {
		t.Errorf("the failed image was requested %d times by the next refresh, want 1", n)
	}
	if sum.Problems["image"] != 1 {
		t.Errorf("summary counts %d image problems, want the 503 again", sum.Problems["image"])
	}
	// Served now: the next refresh caches it, the one after does not fetch it again.
	l.rules()
	l.srv.ResetRequests()
	l.refresh(src)
	c = l.claim(candle, tplDir)
	want := "media/" + store.Digest(img) + ".png"
	if n := l.requestsFor("dusk-over-balmora"); n != 1 || c.Media == nil || deref(c.Media.File) != want || c.Media.Problem != nil {
		t.Fatalf("after the image is served: %d requests, media %+v (problem %s)", n, c.Media, deref(c.Media.Problem))
	}
	if c.Ingested() != store.Digest(l.served(manifestPath(tplDir, candle))) {
		t.Errorf("the manifest changed under the drill")
	}
	l.srv.ResetRequests()
	l.refresh(src)
	if n := l.requestsFor("dusk-over-balmora"); n != 0 {
		t.Errorf("a cached image was fetched again %d times", n)
	}
}

// Which failures are retried: a server error, 408 and 429 are about the server now (tried again
// on the next refresh); a 404 is the site's answer about the URL (remembered until the
// manifest changes, like an image over a limit).
func TestCardImageStatusRetryRule(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		status  int
		retried bool
	}{{503, true}, {500, true}, {429, true}, {408, true}, {404, false}, {410, false}, {403, false}} {
		l := newLab(t)
		l.set(candleImage, pngBytes(t, 4, 3))
		l.rules(loopback.Rule{Path: "dusk-over-balmora", Status: tc.status})
		src := l.source(tplDir)
		l.refresh(src)
		if c := l.claim(candle, tplDir); c.Media == nil || c.Media.Definitive == tc.retried {
			t.Errorf("HTTP %d: media %+v", tc.status, c.Media)
		}
		l.srv.ResetRequests()
		l.refresh(src)
		if n := l.requestsFor("dusk-over-balmora"); (n == 1) != tc.retried || n > 1 {
			t.Errorf("HTTP %d: %d requests on the next refresh, retried %v", tc.status, n, tc.retried)
		}
	}
}
