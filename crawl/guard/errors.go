package guard

import (
	"errors"
	"fmt"
	"time"
)

// Kind is what a failed fetch ran into. The zero Kind is no guard failure at all (KindOf of an
// error that holds no *Error).
type Kind uint8

// The kinds of a failed fetch. KindRefused, KindAddress, KindTooLarge and KindRedirect are
// refusals by crawler policy (seeds/crawler.txt, "Hostile input" and "Resource limits"): facts
// about the URL or the document, not outages.
const (
	_ Kind = iota
	// KindRefused is a URL the guard will not fetch: a scheme other than http/https, user info,
	// a malformed URL, host or port.
	KindRefused
	// KindAddress is an address the address guard refuses (SSRF protection), literal in the URL
	// or resolved from its name.
	KindAddress
	// KindTooLarge is a body over the byte limit: refused by crawler policy, never "invalid".
	KindTooLarge
	// KindTimeout is a request that did not finish within Options.Timeout, the one deadline
	// covering resolving, connecting, every redirect and the whole body.
	KindTimeout
	// KindRedirect is a redirect the guard does not follow: more hops than
	// Options.MaxRedirects, or a Location header that is missing or not a URL.
	KindRedirect
	// KindNetwork is any other failure to get an answer: resolving, connecting, TLS, HTTP, or
	// reading or decoding the body. Cause says which.
	KindNetwork
	// KindCanceled is a request abandoned because the caller's context ended first (a budget,
	// an interrupt): Cause is context.Cause of that context, so the caller can tell its own
	// deadline from the site's slowness.
	KindCanceled
)

// Error is every failure of Client.Get, and CheckURL's and CheckAddr's refusals: what kind, for
// which URL, after which redirects, and the facts its words need. Error() is the one full
// sentence for it; Words gives the short forms a trail or a sentence about the URL uses.
type Error struct {
	Kind Kind
	// URL is the URL the failure is about, user info redacted: the refused URL, the one that
	// answered the redirect not followed, or the one being fetched when the failure came. ""
	// for CheckAddr (an address on its own).
	URL string
	// Hops are the redirects followed before the failure, in order, so a discovery trail can
	// record every URL tried (SPEC section 1: "each URL tried and what came back"). A refusal
	// with hops is of the URL the last hop pointed to; a KindRedirect is redirect len(Hops)+1.
	Hops []Hop
	// Reason says why, in words naming the address or the part of the URL (KindRefused,
	// KindAddress) or what is wrong with the redirect (KindRedirect).
	Reason string
	// Loopback (KindAddress) is true when the refused address is one --allow-loopback admits
	// (127.0.0.0/8, ::1): a local drill run without the flag.
	Loopback bool
	// Status (KindRedirect) is the HTTP status of the redirect not followed.
	Status int
	// Limit (KindTooLarge) is the byte limit; ContentLength the body length announced, -1 when
	// absent. Announced is true when Content-Length alone refused the body (nothing read);
	// Decoded when the body was gzip-encoded and decoded bytes were counted.
	Limit         int64
	ContentLength int64
	Announced     bool
	Decoded       bool
	// Timeout (KindTimeout) is the deadline that ran out; Stalled says a download's body
	// brought no byte for that long (Request.Stream).
	Timeout time.Duration
	Stalled bool
	// Transport (KindNetwork, KindTimeout) is true when the fetch failed before it had a
	// connection to the host: resolving the name, connecting, or the TLS handshake. No server
	// answered at all, so the failure may be the crawler's own network as much as the site.
	Transport bool
	// Cause (KindNetwork, KindCanceled) is the underlying error; Unwrap returns it.
	Cause error
}

// Error is the failure as one sentence naming the URL: what state records and terminals show.
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

// Refusal reports whether the guard refused the URL, its address, its redirect or its size
// (crawler policy) rather than failing to get an answer.
func (k Kind) Refusal() bool {
	return k == KindRefused || k == KindAddress || k == KindTooLarge || k == KindRedirect
}

// Form is which short form Words gives.
type Form uint8

const (
	// Outcome follows the URL in a discovery trail step: "refused by crawler policy: over the
	// 16 MiB limit".
	Outcome Form = iota
	// Predicate follows a subject and the URL in a sentence: "is over the 16 MiB limit
	// (refused by crawler policy)".
	Predicate
)

// Words says a failed fetch in the short form f, without the URL (the caller names it). A
// *Error anywhere in err's chain is said by its kind; any other error as a failure to reach
// the URL, in its wrapped error's words. A network failure after redirects names the URL that
// failed, since it is not the one the caller asked for.
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

// IsTransport reports whether the *Error in err's chain is a fetch that never had a
// connection to the host (Error.Transport): nothing answered, not even with an error.
func IsTransport(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Transport
}

// KindOf returns the Kind of the *Error in err's chain; 0 when there is none.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return 0
}

// HopsOf returns the redirects a failed fetch followed before its error (the *Error in err's
// chain); nil if none.
func HopsOf(err error) []Hop {
	var e *Error
	if errors.As(err, &e) {
		return e.Hops
	}
	return nil
}

// FormatBytes writes a byte count the way crawler policy states limits: "16 MiB", "512 KiB",
// otherwise "1000 bytes".
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

// HowTooLarge says how a KindTooLarge body was found to be over the limit: announced by
// Content-Length (nothing read) or read up to the limit, counting gzip-decoded bytes when the
// body was encoded (seeds/crawler.txt, "Resource limits"). It is the one wording of that fact,
// used by Error and by any caller that names the limit in its own words first.
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
