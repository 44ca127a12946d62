package guard

import (
	"errors"
	"fmt"
	"time"
)

// Kind is what a failed fetch ran into; 0 is no guard failure.
type Kind uint8

// The kinds of a failed fetch. KindRefused, KindAddress, KindTooLarge and KindRedirect are
// refusals by crawler policy (seeds/crawler.txt, "Hostile input", "Resource limits").
const (
	_ Kind = iota
	// KindRefused: a scheme other than http/https, user info, a malformed URL, host or port.
	KindRefused
	// KindAddress: an address the address guard refuses, literal or resolved.
	KindAddress
	// KindTooLarge: a body over the byte limit.
	KindTooLarge
	// KindTimeout: Options.Timeout ran out.
	KindTimeout
	// KindRedirect: more hops than Options.MaxRedirects, or a Location missing or not a URL.
	KindRedirect
	// KindNetwork: any other failure to get an answer (resolve, connect, TLS, HTTP, body).
	KindNetwork
	// KindCanceled: the caller's context ended first; Cause is its context.Cause, so the
	// caller can tell its own deadline from the site's slowness.
	KindCanceled
)

// Error is every failure of Client.Get and refusal of CheckURL and CheckAddr: Error() is the
// full sentence, Words the short forms.
type Error struct {
	Kind Kind
	// URL is the URL the failure is about, user info redacted; "" for CheckAddr.
	URL string
	// Hops are the redirects followed before the failure, for the discovery trail (SPEC
	// section 1); a KindRedirect is redirect len(Hops)+1.
	Hops   []Hop
	Reason string // why (KindRefused, KindAddress, KindRedirect)
	// Loopback (KindAddress): --allow-loopback would admit the address.
	Loopback bool
	Status   int // KindRedirect: the HTTP status of the redirect not followed
	// KindTooLarge: limit and announced length (-1: none); Announced when Content-Length
	// alone refused it, Decoded when gzip-decoded bytes were counted.
	Limit         int64
	ContentLength int64
	Announced     bool
	Decoded       bool
	// KindTimeout: the deadline; Stalled when a download brought no byte for that long.
	Timeout time.Duration
	Stalled bool
	// Transport (KindNetwork, KindTimeout): no connection was made, so the fault may be ours.
	Transport bool
	Cause     error // KindNetwork, KindCanceled: the underlying error
}

// Error is the failure as one sentence naming the URL.
func (e *Error) Error() string {
	switch e.Kind {
	case KindRefused, KindAddress:
		what := "refused"
		if e.Kind == KindAddress {
			what = "refused by the address guard"
		}
		switch {
		case len(e.Hops) > 0:
			last := e.Hops[len(e.Hops)-1]
			return fmt.Sprintf("redirect %d (HTTP %d from %s) to %s %s: %s", len(e.Hops), last.Status, last.From, e.URL, what, e.Reason)
		case e.URL == "": // CheckAddr: the address names itself
			return e.Reason
		}
		return fmt.Sprintf("%s %s: %s", e.URL, what, e.Reason)
	case KindTooLarge:
		return fmt.Sprintf("%s: refused by crawler policy: the response is over the %s limit (%s)", e.URL, FormatBytes(e.Limit), e.HowTooLarge())
	case KindTimeout:
		if e.Stalled {
			return fmt.Sprintf("%s: no data for %s; the download was abandoned", e.URL, e.Timeout)
		}
		return fmt.Sprintf("%s: timed out after %s (one deadline covers connecting, redirects and the body)", e.URL, e.Timeout)
	case KindRedirect:
		return fmt.Sprintf("redirect %d from %s: %s", len(e.Hops)+1, e.URL, e.Reason)
	case KindCanceled:
		return fmt.Sprintf("GET %s: not finished: %v", e.URL, e.Cause)
	}
	return fmt.Sprintf("GET %s: %v", e.URL, e.Cause)
}

// Unwrap returns the Cause (nil for refusals, limits and timeouts).
func (e *Error) Unwrap() error { return e.Cause }

// Refusal reports whether k is a refusal by crawler policy, not a failure to get an answer.
func (k Kind) Refusal() bool {
	return k == KindRefused || k == KindAddress || k == KindTooLarge || k == KindRedirect
}

// Form is which short form Words gives.
type Form uint8

const (
	Outcome   Form = iota // after the URL in a trail: "refused by crawler policy: over the 16 MiB limit"
	Predicate             // after subject and URL: "is over the 16 MiB limit (refused by crawler policy)"
)

// Words says a failed fetch in form f without the URL; a non-*Error is a failure to reach it.
// A network failure after redirects names the URL that failed.
func Words(err error, f Form) string {
	var e *Error
	if !errors.As(err, &e) {
		if inner := errors.Unwrap(err); inner != nil {
			err = inner
		}
		return unreachable(err.Error(), f)
	}
	pick := func(outcome, predicate string) string {
		if f == Predicate {
			return predicate
		}
		return outcome
	}
	switch e.Kind {
	case KindRefused:
		return pick("", "was ") + "refused: " + e.Reason
	case KindAddress:
		return pick("", "was ") + "refused by the address guard: " + e.Reason
	case KindTooLarge:
		limit := FormatBytes(e.Limit)
		return pick("refused by crawler policy: over the "+limit+" limit", "is over the "+limit+" limit (refused by crawler policy)")
	case KindTimeout:
		if e.Stalled {
			return fmt.Sprintf("stalled: no data for %s", e.Timeout)
		}
		return fmt.Sprintf("timed out after %s", e.Timeout)
	case KindRedirect:
		return pick(fmt.Sprintf("redirect (HTTP %d) not followed: ", e.Status), "redirected in a way the crawler does not follow: ") + e.Reason
	}
	if len(e.Hops) > 0 || e.Cause == nil {
		return unreachable(e.Error(), f)
	}
	return unreachable(e.Cause.Error(), f)
}

func unreachable(why string, f Form) string {
	if f == Predicate {
		return "could not be reached: " + why
	}
	return "unreachable: " + why
}

// IsTransport reports whether err's *Error never had a connection (Error.Transport).
func IsTransport(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Transport
}

// KindOf returns the Kind of err's *Error; 0 when there is none.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

// HopsOf returns the redirects followed before err's *Error; nil if none.
func HopsOf(err error) []Hop {
	var e *Error
	if errors.As(err, &e) {
		return e.Hops
	}
	return nil
}

// FormatBytes writes a byte count as policy states limits: "16 MiB", "512 KiB", "1000 bytes".
func FormatBytes(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	case n == 1:
		return "1 byte"
	}
	return fmt.Sprintf("%d bytes", n)
}

// HowTooLarge says how a KindTooLarge body was found over the limit: the one wording of it.
func (e *Error) HowTooLarge() string {
	switch {
	case e.Announced:
		return fmt.Sprintf("Content-Length announced %d bytes; nothing read", e.ContentLength)
	case e.Decoded:
		return "reading stopped at the limit, counting gzip-decoded bytes"
	case e.ContentLength >= 0:
		return fmt.Sprintf("reading stopped at the limit although Content-Length claimed %d bytes", e.ContentLength)
	}
	return "reading stopped at the limit"
}
