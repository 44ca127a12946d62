package refresh

import (
	"context"
	"errors"
	"maps"
	"net"
	"net/netip"
	"strings"
	"syscall"
	"testing"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/crawl/loopback"
)

// refusedDial fails every connection as a machine without a network does.
func refusedDial(ctx context.Context, network, addr string) (net.Conn, error) {
	return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ENETUNREACH}
}

// noNames is a resolver with no answer for any name (no DNS server reachable).
type noNames struct{}

func (noNames) LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error) {
	return nil, &net.DNSError{Err: "server misbehaving", Name: host, IsTemporary: true}
}

// closedURL is a loopback URL whose port nothing listens on.
func closedURL(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + ln.Addr().String() + "/mods/"
	ln.Close()
	return u
}

// TestUnreachableWorldRecordsNothing: when two or more sources are enrolled and no server
// answered any request of any discovery (no connection, no name resolved), the refresh records
// nothing: every byte of the state stays, network.json included, and Run returns an
// *UnreachableError naming each source and the likely cause, with no summary to commit.
func TestUnreachableWorldRecordsNothing(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		opt  func(*Options)
		urls func(l *lab) []string
	}{
		{"connections fail", func(o *Options) { o.Dial = refusedDial }, func(l *lab) []string {
			return []string{l.source(tplDir), l.source(iniDir)}
		}},
		{"nothing listens", nil, func(l *lab) []string { return []string{closedURL(t), closedURL(t), l.source(tplDir)} }},
		{"names do not resolve", func(o *Options) { o.Resolver = noNames{} }, func(l *lab) []string {
			return []string{"http://dreamweave-mp.github.io/DreamWeave-Mod-Template/", "http://lanterns.example/"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLab(t)
			urls := tc.urls(l)
			l.refresh(l.source(tplDir), l.source(iniDir)) // a state with data to keep
			before := snapshotFiles(t, l.state)
			if tc.name == "nothing listens" {
				l.srv.Close() // the lab's own site goes too
			}
			l.opt = tc.opt
			sum, err := Run(context.Background(), l.options(urls...))
			var ue *UnreachableError
			if !errors.As(err, &ue) {
				t.Fatalf("err = %v (%T); want an *UnreachableError", err, err)
			}
			if sum != nil {
				t.Errorf("summary %+v; want none (nothing was recorded to commit)", sum)
			}
			if len(ue.Failures) != len(urls) {
				t.Errorf("failures %q; want one per source (%d)", ue.Failures, len(urls))
			}
			for _, u := range urls {
				if !strings.Contains(err.Error(), "\n  "+u+": ") {
					t.Errorf("the error does not name %s:\n%v", u, err)
				}
			}
			if !strings.Contains(err.Error(), "this machine's own network") || !strings.Contains(err.Error(), "nothing was recorded") {
				t.Errorf("the error does not name the likely cause and what was kept:\n%v", err)
			}
			after := snapshotFiles(t, l.state)
			if !maps.EqualFunc(before, after, func(a, b []byte) bool { return string(a) == string(b) }) {
				for _, p := range sortedPaths(after) {
					if string(before[p]) != string(after[p]) {
						t.Errorf("%s changed", p)
					}
				}
				t.Fatalf("the state changed: %d files before, %d after", len(before), len(after))
			}
		})
	}
}

// TestOneSiteOutageIsRecorded: the world counts as unreachable only when nothing answered at
// all. One source alone that cannot be reached, one of two, or every source answering with an
// error are facts about those sources, recorded as before.
func TestOneSiteOutageIsRecorded(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		setup func(l *lab) []string
	}{
		{"the only source", func(l *lab) []string {
			l.opt = func(o *Options) { o.Dial = refusedDial }
			return []string{l.source(tplDir)}
		}},
		{"one of two", func(l *lab) []string { return []string{l.source(tplDir), closedURL(t)} }},
		{"every server answers 503", func(l *lab) []string {
			l.rules(loopback.Rule{Path: ".", Status: 503})
			return []string{l.source(tplDir), l.source(iniDir)}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l := newLab(t)
			l.refresh(l.source(tplDir), l.source(iniDir))
			urls := tc.setup(l)
			sum := l.refresh(urls...)
			failed := 0
			for _, u := range urls {
				s := l.sourceRecord(u)
				if s.LastAttempt != sum.StartedAt {
					t.Errorf("source %s not recorded by this refresh (last_attempt %s, refresh %s)", u, s.LastAttempt, sum.StartedAt)
				}
				if s.Health == store.SourceUnreachable {
					failed++
				}
			}
			if failed == 0 {
				t.Errorf("no source recorded unreachable")
			}
		})
	}
}
