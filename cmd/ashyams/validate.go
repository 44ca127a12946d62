package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/DreamWeave-MP/ashyams-go/catalog/protocol"
	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
	"github.com/DreamWeave-MP/ashyams-go/crawl/guard"
	"github.com/DreamWeave-MP/ashyams-go/crawl/refresh"
)

func init() {
	register(command{name: "validate", summary: "check site indexes and manifests (files or URLs) against the DreamWeave protocol", run: runValidate})
}

// Verdicts, one per document (the words the text output and --json use).
const (
	validateVerdictValid       = "valid"
	validateVerdictInvalid     = "invalid"
	validateVerdictRefused     = "refused by crawler policy"
	validateVerdictNewer       = "speaks a newer protocol"
	validateVerdictNotDW       = "not a DreamWeave document"
	validateVerdictUnreadable  = "unreadable"
	validateVerdictUnreachable = "unreachable"
	validateVerdictURLRefused  = "refused" // the guard would not fetch the URL (scheme, SSRF)
)

// validateResult is one document's result, as --json prints it.
type validateResult struct {
	Source   string             `json:"source"`
	Kind     string             `json:"kind,omitempty"` // "index" or "project" when known
	Verdict  string             `json:"verdict"`
	Valid    bool               `json:"valid"`
	Error    string             `json:"error,omitempty"` // why a document could not be read
	Findings []protocol.Finding `json:"findings"`
	// Note says what was not checked beside the document, and why (a site index whose
	// manifests the crawler would not read).
	Note string `json:"note,omitempty"`
}

// validateSleep is the crawler's wait before re-reading a site whose manifest's digest did not
// match (nil: the crawler's own timer); tests replace it so that no test waits.
var validateSleep func(ctx context.Context, d time.Duration) error

// runValidate is `ashyams validate [--json] [--allow-loopback] FILE-OR-URL...` (flags may also
// follow the documents). Each document is read (a file, at most 16 MiB; or a URL through the
// crawler's guarded client, crawl/guard), validated with catalog/protocol.Decode, and reported:
// every finding with its JSON pointer and rule, then a one-line verdict. A manifest validated
// alone has no expected project id; given together with a site index, it is also checked
// against the index entry that points at it, as the crawler does (validateTogether). A site
// index given as a URL also has every manifest it lists read and checked as the crawler reads
// them (validateSite). Results go to stdout (a document's problems are findings,
// not errors of the command); usage errors to stderr as "ashyams validate: ...". Exit 0 when
// every document is valid, 1 otherwise, 2 for usage errors.
func runValidate(e *env, args []string) int {
	fs := newFlags(e, "validate", "FILE-OR-URL...")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	loop := fs.Bool("allow-loopback", false, "admit 127.0.0.0/8 and ::1 for URLs (local drills only)")
	var sources []string
	rest := args
	for {
		if rc := parseFlags(fs, rest); rc >= 0 {
			return rc
		}
		if fs.NArg() == 0 {
			break
		}
		sources = append(sources, fs.Arg(0))
		rest = fs.Args()[1:]
	}
	if len(sources) == 0 {
		e.errorf("validate", "at least one file or URL is required")
		fs.Usage()
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var client *guard.Client
	results := make([]validateResult, 0, len(sources))
	bodies := make([][]byte, 0, len(sources))
	for _, src := range sources {
		var b []byte
		var err error
		if validateIsURL(src) {
			if client == nil {
				client = guard.New(guard.Options{AllowLoopback: *loop})
			}
			b, err = validateFetch(ctx, client, src)
		} else {
			b, err = readDocumentFile(src)
		}
		r := validateDocument(src, b, err)
		results = append(results, r)
		bodies = append(bodies, b)
		if validateIsURL(src) && r.Kind == protocol.DocIndex {
			site, sbodies, err := validateSite(ctx, src, *loop, sources)
			if err != nil {
				e.errorf("validate", "%v", err)
				return 1
			}
			if len(site) == 0 && r.Valid {
				results[len(results)-1].Note = "no manifest was read"
			}
			if len(site) > 0 && site[0].Source == src { // the site's own verdict on its index
				results[len(results)-1].Note = site[0].Note
				site, sbodies = site[1:], sbodies[1:]
			}
			results = append(results, site...)
			bodies = append(bodies, sbodies...)
		}
	}
	validateTogether(results, bodies)
	if *asJSON {
		b, err := json.MarshalIndent(struct {
			Documents []validateResult `json:"documents"`
		}{results}, "", "  ")
		if err != nil {
			e.errorf("validate", "%v", err)
			return 1
		}
		// Publisher text (problems quoting documents) may carry C1 controls and bidi overrides.
		e.stdout.Write(termtext.JSON(append(b, '\n')))
	} else {
		for _, r := range results {
			printValidateResult(e.stdout, r)
		}
	}
	for _, r := range results {
		if !r.Valid {
			return 1
		}
	}
	return 0
}

func validateIsURL(s string) bool { return strings.Contains(s, "://") }

// readDocumentFile reads a regular file of at most protocol.MaxDocumentBytes bytes. Anything
// else is refused before a byte is read: a FIFO, device, socket or directory gives a
// *notRegularError (a FIFO would block and /dev/zero never ends), and a file of more than the
// limit a *fileTooLargeError. It reads limit+1 bytes at most, to tell "more than" from "exactly".
func readDocumentFile(path string) ([]byte, error) {
	st, err := os.Stat(path) // stat first: opening a FIFO for reading blocks until a writer comes
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &notRegularError{What: store.FileKind(st.Mode())}
	}
	// O_NONBLOCK: should the path become a FIFO between Stat and Open, the open still returns,
	// and the check on the open file below refuses it. Regular files ignore the flag.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &notRegularError{What: store.FileKind(st.Mode())}
	}
	b, err := io.ReadAll(io.LimitReader(f, protocol.MaxDocumentBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > protocol.MaxDocumentBytes {
		return nil, &fileTooLargeError{Size: max(st.Size(), int64(len(b)))}
	}
	return b, nil
}

// notRegularError is a path that is not a regular file; What says what it is ("a named pipe
// (FIFO)", "a character device", ...).
type notRegularError struct{ What string }

func (e *notRegularError) Error() string {
	return e.What + ", not a regular file: validate reads only regular files (a pipe or device can block or never end)"
}

// fileTooLargeError is a file of more than protocol.MaxDocumentBytes; Size is its size in bytes.
type fileTooLargeError struct{ Size int64 }

func (e *fileTooLargeError) Error() string {
	return fmt.Sprintf("%s (the file is %d bytes)", protocol.TooLargeReason, e.Size)
}

// validateFetch GETs a URL through the guarded client; anything but HTTP 200 is an error.
func validateFetch(ctx context.Context, c *guard.Client, u string) ([]byte, error) {
	resp, err := c.Get(ctx, guard.Request{URL: u, Accept: "application/json", MaxBytes: protocol.MaxDocumentBytes})
	if err != nil {
		return nil, err
	}
	if resp.Status != 200 {
		return nil, fmt.Errorf("GET %s: HTTP %d", resp.URL, resp.Status)
	}
	return resp.Body, nil
}

// validate turns a read result into a validateResult.
func validateDocument(src string, b []byte, readErr error) validateResult {
	v := validateResult{Source: src, Findings: []protocol.Finding{}}
	if readErr != nil {
		var ge *guard.Error
		var ftl *fileTooLargeError
		switch {
		case errors.As(readErr, &ge) && ge.Kind == guard.KindTooLarge:
			// In the same words as a file: the limit once, then how it was found out.
			v.Verdict = validateVerdictRefused
			v.Error = fmt.Sprintf("%s (%s)", protocol.TooLargeReason, ge.HowTooLarge())
			return v
		case errors.As(readErr, &ftl):
			v.Verdict = validateVerdictRefused
		case ge != nil && (ge.Kind == guard.KindRefused || ge.Kind == guard.KindAddress):
			v.Verdict = validateVerdictURLRefused
		case validateIsURL(src):
			v.Verdict = validateVerdictUnreachable
		default:
			v.Verdict = validateVerdictUnreadable
		}
		v.Error = readErr.Error()
		return v
	}
	d, fs := protocol.Decode(b)
	if d != nil {
		v.Kind = d.Kind
	}
	if fs != nil {
		v.Findings = fs
	}
	switch {
	case len(fs) == 0:
		v.Verdict, v.Valid = validateVerdictValid, true
	case protocol.IsRefused(fs):
		v.Verdict = validateVerdictRefused
	default:
		v.Verdict = findingsVerdict(fs)
	}
	return v
}

// findingsVerdict is the verdict on a document with findings fs that the crawler read.
func findingsVerdict(fs []protocol.Finding) string {
	switch {
	case protocol.IsNewerProtocol(fs):
		return validateVerdictNewer
	case protocol.IsNotDreamWeave(fs):
		return validateVerdictNotDW
	}
	return validateVerdictInvalid
}

// printValidateResult writes each finding as "SOURCE: POINTER [RULE] MESSAGE", then the verdict
// line "SOURCE: VERDICT ...". Everything printed goes through protocol.Printable (Finding.String
// does it for findings): a path, a redirect target or a publisher's key cannot carry a raw
// newline or terminal escape into a terminal or CI log.
func printValidateResult(w io.Writer, v validateResult) {
	v.Source, v.Error = protocol.Printable(v.Source), protocol.Printable(v.Error)
	for _, f := range v.Findings {
		fmt.Fprintf(w, "%s: %s\n", v.Source, f)
	}
	what := map[string]string{protocol.DocIndex: "site index", protocol.DocProject: "project manifest"}[v.Kind]
	switch v.Verdict {
	case validateVerdictValid:
		fmt.Fprintf(w, "%s: valid %s\n", v.Source, what)
	case validateVerdictInvalid:
		n := plural(len(v.Findings), "finding")
		if what == "" {
			what = "document"
		}
		fmt.Fprintf(w, "%s: invalid %s (%s)\n", v.Source, what, n)
	case validateVerdictUnreadable, validateVerdictUnreachable, validateVerdictURLRefused:
		fmt.Fprintf(w, "%s: %s: %s\n", v.Source, v.Verdict, v.Error)
	case validateVerdictRefused:
		if v.Error != "" {
			fmt.Fprintf(w, "%s: %s: %s\n", v.Source, v.Verdict, v.Error)
		} else {
			fmt.Fprintf(w, "%s: %s\n", v.Source, protocol.TooLargeMessage)
		}
	default: // newer protocol, not DreamWeave: the finding above says which field
		fmt.Fprintf(w, "%s: %s\n", v.Source, v.Verdict)
	}
	if v.Note != "" {
		fmt.Fprintf(w, "%s: %s\n", v.Source, protocol.Printable(v.Note))
	}
}

// validateSite reads the site whose index is at indexURL as the crawler does
// (refresh.Inspect: the same guard, limits and digest rule; its Manifests hold every finding) and gives a result for every
// manifest its index lists, in the index's order, with the bytes the findings are of. A
// manifest also given on the command line (given) is left to that argument. When the crawler
// would read no manifest of the site (its index cannot be used, or discovery did not reach it),
// the first result is the index's, carrying the reason as its Note.
func validateSite(ctx context.Context, indexURL string, loop bool, given []string) ([]validateResult, [][]byte, error) {
	sc, err := refresh.Inspect(ctx, indexURL, refresh.Options{AllowLoopback: loop, Sleep: validateSleep})
	if err != nil {
		return nil, nil, err
	}
	if !sc.OK() {
		why := "its manifests were not read: the crawler reads no manifest of a site it cannot use"
		if sc.Origin != nil && sc.Origin.Problem != nil {
			why += " (" + store.OriginHealthLabel(sc.Origin.Health) + ": " + *sc.Origin.Problem + ")"
		}
		return []validateResult{{Source: indexURL, Note: why}}, [][]byte{nil}, nil
	}
	var out []validateResult
	var bodies [][]byte
	for _, m := range sc.Manifests {
		if slices.Contains(given, m.URL) {
			continue
		}
		v := validateResult{Source: m.URL, Kind: protocol.DocProject, Findings: []protocol.Finding{}}
		switch {
		case m.Problem != "" && m.Health == store.ClaimRefused:
			v.Verdict, v.Error = validateVerdictRefused, m.Problem
		case m.Problem != "":
			v.Verdict, v.Error = validateVerdictUnreachable, m.Problem
		case len(m.Findings) == 0:
			v.Verdict, v.Valid = validateVerdictValid, true
		default:
			v.Findings, v.Verdict = m.Findings, findingsVerdict(m.Findings)
		}
		out = append(out, v)
		bodies = append(bodies, nil) // checked against its entry already
	}
	return out, bodies, nil
}

// ruleNotListed: a manifest given with site indexes none of whose entries points at it; the
// crawler reads only manifests an index entry points at.
const ruleNotListed = "not-listed"

// togetherConsequence is what the crawler records for a finding of a check between documents,
// appended to its message: the verdicts of crawl/refresh for the same rules.
var togetherConsequence = map[string]string{
	protocol.RuleManifestSHA256: ": the crawler records the claim as " + store.HealthLabel(store.ClaimInconsistent) + " and keeps the last good data",
	protocol.RuleIDMatch:        ": the crawler records the claim as " + store.HealthLabel(store.ClaimInvalid),
}

// validateTogether checks each readable manifest given together with one or more readable site
// indexes against the index entry that points at it, with the crawler's own check
// (protocol.ValidateForEntry): its bytes must hash to the entry's manifest_sha256 (rule
// manifest-sha256) and its project.id must equal the entry's id (rule id-match). An entry
// points at a manifest given as a URL when its manifest URL, resolved against the index's URL,
// is that URL; at a manifest given as a file when the entry's manifest URL path ends with the
// file's path relative to the directory of an index given as a file ("projects/x.json" next to
// dreamweave.json matches https://site.example/mods/projects/x.json). A manifest no given index
// points at is a finding too (rule not-listed). Findings are added to the manifest's result,
// which becomes invalid. Without an index, nothing changes: a manifest alone is validated alone.
func validateTogether(results []validateResult, bodies [][]byte) {
	var indexes []givenIndex
	for i, r := range results {
		if r.Kind != protocol.DocIndex || bodies[i] == nil {
			continue
		}
		if d, _ := protocol.Decode(bodies[i]); d != nil && d.Index != nil {
			indexes = append(indexes, givenIndex{r.Source, d.Index})
		}
	}
	if len(indexes) == 0 {
		return
	}
	for i := range results {
		r := &results[i]
		if r.Kind != protocol.DocProject || bodies[i] == nil {
			continue
		}
		if d, _ := protocol.Decode(bodies[i]); d == nil || d.Manifest == nil {
			continue // findings already say why it is not a manifest the crawler could accept
		}
		add := checkTogether(indexes, r.Source, bodies[i])
		if len(add) > 0 {
			r.Findings = append(r.Findings, add...)
			if r.Valid {
				r.Valid, r.Verdict = false, validateVerdictInvalid
			}
		}
	}
}

// givenIndex is a site index given on the command line: where it was read, and its entries.
type givenIndex struct {
	src string
	ix  *protocol.Index
}

// checkTogether is the findings of the manifest read from src against the entry of a given
// index that points at it best (pointsAt), or a not-listed finding when none does.
func checkTogether(indexes []givenIndex, src string, body []byte) []protocol.Finding {
	var (
		found  bool
		from   string
		at     int
		entry  protocol.IndexEntry
		bestSz = -1
	)
	for _, x := range indexes {
		for n, e := range x.ix.Projects {
			if sz := pointsAt(x.src, e.Manifest, src); sz > bestSz {
				found, from, at, entry, bestSz = true, x.src, n, e, sz
			}
		}
	}
	if !found {
		var srcs []string
		for _, x := range indexes {
			srcs = append(srcs, x.src)
		}
		return []protocol.Finding{{Rule: ruleNotListed, Message: fmt.Sprintf("no entry of the site index %s points at this manifest: the crawler reads only manifests an index entry points at", strings.Join(srcs, ", "))}}
	}
	_, fs := protocol.ValidateForEntry(body, entry, fmt.Sprintf("%s /projects/%d", from, at))
	var add []protocol.Finding
	for _, f := range fs {
		if c, ok := togetherConsequence[f.Rule]; ok { // the document's own findings are in already
			f.Message += c
			add = append(add, f)
		}
	}
	return add
}

// pointsAt is how well an index entry's manifest URL names the manifest given as src: -1 when it
// does not, else the length of what matched (the longest match wins). indexSrc is where the
// index was read from (a URL or a file). URLs compare in store.CanonicalURL's spelling, as the
// crawler compares them, so a host's case or a dot segment does not hide the entry.
func pointsAt(indexSrc, manifestURL, src string) int {
	if validateIsURL(src) {
		if validateIsURL(indexSrc) {
			if base, err := url.Parse(indexSrc); err == nil {
				if ref, err := base.Parse(manifestURL); err == nil && store.CanonicalURL(ref.String()) == store.CanonicalURL(src) {
					return len(src)
				}
			}
		}
		if store.CanonicalURL(manifestURL) == store.CanonicalURL(src) {
			return len(src)
		}
		return -1
	}
	if validateIsURL(indexSrc) {
		return -1 // a file is matched only against an index file's directory
	}
	u, err := url.Parse(manifestURL)
	dir, derr := filepath.Abs(filepath.Dir(indexSrc))
	file, ferr := filepath.Abs(src)
	if err != nil || derr != nil || ferr != nil {
		return -1
	}
	rel, err := filepath.Rel(dir, file)
	if err != nil || strings.HasPrefix(rel, "..") {
		return -1
	}
	rel = "/" + filepath.ToSlash(rel)
	if strings.HasSuffix(u.Path, rel) {
		return len(rel)
	}
	return -1
}
