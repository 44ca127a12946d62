package guard

import (
	"errors"
	"fmt"
	"time"
)

// RefusedError is a URL the guard will not fetch (seeds/crawler.txt, "Hostile input"; SSRF
// protection): a scheme other than http/https, userinfo in the URL, a malformed URL or host, or
// (AddressGuard true) an address the address guard refuses, literal or resolved.
type RefusedError struct {
	URL          string // the refused URL, password redacted
	Reason       string // why, in words, naming the address or the part of the URL
	AddressGuard bool   // true when an address (literal or resolved) was refused
	Hop          int    // 0: the requested URL; n: the URL the n-th redirect pointed to
	From         string // for Hop > 0: the URL that redirected here
	Status       int    // for Hop > 0: the redirect's HTTP status
	Hops         []Hop  // the redirects followed before the refusal (Hop of them)
	// Loopback is true when the refused address is one --allow-loopback admits (127.0.0.0/8,
	// ::1): a local drill run without the flag.
	Loopback bool
}

func (e *RefusedError) Error() string {
	what := "refused"
	if e.AddressGuard {
		what = "refused by the address guard"
	}
	if e.Hop > 0 {
		return fmt.Sprintf("redirect %d (HTTP %d from %s) to %s %s: %s", e.Hop, e.Status, e.From, e.URL, what, e.Reason)
	}
	return fmt.Sprintf("%s %s: %s", e.URL, what, e.Reason)
}

// TooLargeError is a response body over the byte limit: refused by crawler policy, never
// "invalid" (seeds/crawler.txt, "Resource limits"). Either Content-Length announced it
// (ContentLength > Limit, nothing read) or reading stopped after Limit bytes (Decoded says the
// count was of gzip-decoded bytes).
type TooLargeError struct {
	URL           string
	Limit         int64 // bytes
	ContentLength int64 // as announced; -1 when absent
	Announced     bool  // true when refused from Content-Length alone, before reading the body
	Decoded       bool  // true when the body was gzip-encoded and decoded bytes were counted
}

func (e *TooLargeError) Error() string {
	how := "reading stopped at the limit"
	switch {
	case e.Announced:
		how = fmt.Sprintf("Content-Length announced %d bytes; nothing read", e.ContentLength)
	case e.Decoded:
		how = "reading stopped at the limit, counting gzip-decoded bytes"
	case e.ContentLength >= 0:
		how = fmt.Sprintf("reading stopped at the limit although Content-Length claimed %d bytes", e.ContentLength)
	}
	return fmt.Sprintf("%s: refused by crawler policy: the response is over the %s limit (%s)", e.URL, FormatBytes(e.Limit), how)
}

// TimeoutError is a request that did not finish within Options.Timeout; the one deadline
// covers resolving, connecting, every redirect and the whole body.
type TimeoutError struct {
	URL     string // the URL being fetched when time ran out
	Timeout time.Duration
}

func (e *TimeoutError) Error() string {
	return fmt.Sprintf("%s: timed out after %s (one deadline covers connecting, redirects and the body)", e.URL, e.Timeout)
}

// RedirectError is a redirect the guard cannot follow: more hops than Options.MaxRedirects, or a
// Location header that is missing or not a URL.
type RedirectError struct {
	URL    string // the URL that answered with the redirect
	Hop    int    // the redirect's number, from 1
	Status int    // the redirect's HTTP status
	Reason string
	Hops   []Hop // the redirects followed before this one (Hop-1 of them), for the trail
}

func (e *RedirectError) Error() string {
	return fmt.Sprintf("redirect %d from %s: %s", e.Hop, e.URL, e.Reason)
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

// FollowedError is a fetch that failed after following redirects, for a reason that carries no
// hops of its own (a network error, a timeout, a body over the limit): Err, wrapped, says why,
// and Hops are the redirects followed before it, so the discovery trail can record every URL
// tried (SPEC section 1: "each URL tried and what came back").
type FollowedError struct {
	Hops []Hop
	Err  error
}

func (e *FollowedError) Error() string { return e.Err.Error() }
func (e *FollowedError) Unwrap() error { return e.Err }

// HopsOf returns the redirects a failed or finished fetch followed before its error, from a
// RefusedError, a RedirectError or a FollowedError anywhere in err's chain; nil if none.
func HopsOf(err error) []Hop {
	var re *RefusedError
	var rd *RedirectError
	var fe *FollowedError
	switch {
	case errors.As(err, &re):
		return re.Hops
	case errors.As(err, &rd):
		return rd.Hops
	case errors.As(err, &fe):
		return fe.Hops
	}
	return nil
}
