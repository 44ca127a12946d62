package refresh

import (
	"bytes"
	"context"
	"net"
	"net/netip"
	"path/filepath"
	"strings"
	"testing"
)

// mapResolver answers names from a table.
type mapResolver map[string]string

func (m mapResolver) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	if a, ok := m[host]; ok {
		return []netip.Addr{netip.MustParseAddr(a)}, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

// When every source fails, the refresh ends with a loud warning (and still succeeds); when every
// failure was a loopback address refused for want of --allow-loopback, it says that too. When
// no server answered at all (no name resolved, no connection), nothing is recorded instead:
// TestUnreachableWorldRecordsNothing.
func TestWarningWhenEverySourceFails(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		resolver mapResolver
		urls     []string
		want     []string
	}{
		{"loopback refused", mapResolver{"a.test": "127.0.0.1", "b.test": "127.0.0.2"}, []string{"http://a.test/", "http://b.test/x/"},
			[]string{"every source failed; is the network reachable?", "every source was refused as a loopback address: did you mean --allow-loopback?"}},
		{"loopback and private", mapResolver{"a.test": "127.0.0.1", "b.test": "10.0.0.1"}, []string{"http://a.test/", "http://b.test/"},
			[]string{"every source failed; is the network reachable?"}},
		{"one source works", nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var o Options
			if tc.resolver == nil {
				l := newLab(t)
				o = l.options(l.source(tplDir), "http://127.0.0.1:1/")
			} else {
				o = options(filepath.Join(t.TempDir(), "state"), &sleeper{}, tc.urls...)
				o.AllowLoopback, o.Resolver = false, tc.resolver
			}
			var progress bytes.Buffer
			o.Progress = &progress
			sum, err := Run(context.Background(), o)
			if err != nil {
				t.Fatalf("every source failing failed the refresh: %v", err)
			}
			if strings.Join(sum.Warnings, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("warnings %q, want %q", sum.Warnings, tc.want)
			}
			var tail []string
			for _, w := range tc.want {
				tail = append(tail, "refresh: WARNING: "+w+"\n")
			}
			if got := progress.String(); !strings.HasSuffix(got, strings.Join(tail, "")) || strings.Count(got, "WARNING") != len(tc.want) {
				t.Errorf("progress ends:\n%s", got[max(0, len(got)-300):])
			}
		})
	}
}
