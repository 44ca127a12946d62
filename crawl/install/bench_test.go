package install

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/crawl/install/installtest"
)

// benchNetwork publishes 20 projects of 1 GiB in all (each a stored archive of four 12.8 MiB
// files) and returns the plan link adding them all and the archives' URLs and total size.
func benchNetwork(b *testing.B) (*installtest.Network, string, []string, int64) {
	const mods, files, size = 20, 4, (1 << 30) / 20 / 4
	n := installtest.New(b)
	r := rand.New(rand.NewPCG(1, 2))
	var ps []installtest.Project
	var add string
	for i := range mods {
		p := installtest.Project{ID: installtest.ID(100 + i), Name: fmt.Sprintf("Big %d", i), Version: "1.0"}
		c := installtest.Component{ID: "main", Path: ".", Files: map[string]string{}, Content: []string{"Big.esp"}}
		for f := range files {
			buf := make([]byte, size)
			for j := 0; j < len(buf); j += 8 {
				v := r.Uint64()
				for k := 0; k < 8 && j+k < len(buf); k++ {
					buf[j+k] = byte(v >> (8 * k))
				}
			}
			name := fmt.Sprintf("Textures/t%d.dds", f)
			if f == 0 {
				name = "Big.esp"
			}
			c.Files[name] = string(buf)
		}
		p.Components = []installtest.Component{c}
		ps = append(ps, p)
		add += "," + p.ID
	}
	n.Publish(ps...)
	var urls []string
	var total int64
	for _, p := range ps {
		urls = append(urls, n.URL+"pub/"+p.ID+"/"+fmt.Sprintf("Big-%s-1.0.zip", p.Name[4:]))
	}
	for _, u := range urls {
		resp, err := http.Head(u)
		if err != nil || resp.StatusCode != 200 {
			b.Fatalf("%s: %v %v", u, err, resp)
		}
		total += resp.ContentLength
	}
	return n, n.Link("add=" + add[1:]), urls, total
}

// BenchmarkInstall1GB installs 20 mods of 1 GiB in all from loopback (a fresh mods folder and
// cache each time), against BenchmarkReadAndHash1GB, the bound: reading and hashing the same
// bytes once. Then a second install of the same plan, into a fresh mods folder from the warm
// cache and into the same one, must download nothing.
func BenchmarkInstall1GB(b *testing.B) {
	n, link, urls, total := benchNetwork(b)
	run := func(b *testing.B, o Options) {
		c, err := Install(context.Background(), link, o)
		if err == nil {
			_, err = c.Apply(context.Background())
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	fresh := func(b *testing.B) Options {
		root := b.TempDir()
		return Options{Mods: filepath.Join(root, "mods"), Cache: filepath.Join(root, "cache"), AllowLoopback: true}
	}
	b.Run("read-and-hash-once", func(b *testing.B) {
		b.SetBytes(total)
		for range b.N {
			for _, u := range urls {
				resp, err := http.Get(u)
				if err != nil {
					b.Fatal(err)
				}
				h := sha256.New()
				io.Copy(h, resp.Body)
				resp.Body.Close()
			}
		}
	})
	b.Run("install", func(b *testing.B) {
		b.SetBytes(total)
		for range b.N {
			b.StopTimer()
			o := fresh(b)
			b.StartTimer()
			run(b, o)
		}
	})
	b.Run("again", func(b *testing.B) {
		o := fresh(b)
		run(b, o)
		n.Requests()
		b.SetBytes(total)
		b.ResetTimer()
		for range b.N {
			b.StopTimer()
			o2 := fresh(b)
			o2.Cache = o.Cache
			b.StartTimer()
			run(b, o2) // another mods folder, the warm cache
			run(b, o)  // the same mods folder: nothing to do
		}
		b.StopTimer()
		if d := n.Downloads(); d != 0 {
			b.Fatalf("the second install downloaded %d files", d)
		}
	})
}
