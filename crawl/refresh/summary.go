package refresh

import (
	"fmt"
	"sort"
	"strings"

	"github.com/DreamWeave-MP/ashyams-go/catalog/store"
	"github.com/DreamWeave-MP/ashyams-go/catalog/termtext"
)

// Summary is what one refresh did. Problems counts facts by kind; Failures lists each once.
type Summary struct {
	StartedAt string // the refresh's start time (network.json observed_at)
	Sources   int    // enrolled sources read
	SitesRead int    // site indexes read and valid (a 304 counts: the held bytes stand)
	Fetched   int    // manifest downloads made (a 304 is none; a re-read counts again)
	Unchanged int    // listed claims whose advertised digest equals the held manifest's
	Accepted  int    // manifests that passed every check and replaced or joined the held ones
	Events    int    // events written
	// EventsKnown counts transitions whose event (same facts, same store.EventID) already exists.
	EventsKnown   int
	Problems      map[string]int
	Failures      []string
	HealthChanges []store.HealthChange // as written to network.json
	// Removed lists the sites removed (FORMATS section 1.11), one line each; events stay.
	Removed     []string
	Warnings    []string           // said loudly at the end (on Progress)
	Interrupted *store.Interrupted // what network.json records of a refresh cut short; nil when finished
}

// String is the summary as a commit message, every line through termtext.Line.
func (s *Summary) String() string {
	var b strings.Builder
	stopped := ""
	if x := s.Interrupted; x != nil {
		stopped = " INTERRUPTED (" + x.Reason + ")"
	}
	fmt.Fprintf(&b, "refresh %s%s: %s, %s read, %s fetched, %d unchanged, %d accepted, %s",
		s.StartedAt, stopped, plural(s.Sources, "source"), plural(s.SitesRead, "site"),
		plural(s.Fetched, "manifest"), s.Unchanged, s.Accepted, plural(s.Events, "event"))
	if s.EventsKnown > 0 {
		fmt.Fprintf(&b, " (%s already recorded)", plural(s.EventsKnown, "event"))
	}
	b.WriteString("\n")
	if x := s.Interrupted; x != nil {
		b.WriteString("\n")
		for _, l := range InterruptedLines(x) {
			b.WriteString(termtext.Line(l) + "\n")
		}
	}
	if h := healthWords(s.HealthChanges); h != "" {
		b.WriteString("\nHealth: " + h + "\n")
	}
	if len(s.Removed) > 0 {
		b.WriteString("\n")
		for _, l := range s.Removed {
			b.WriteString(termtext.Line(l) + "\n")
		}
	}
	if len(s.Problems) > 0 {
		b.WriteString("\nProblems by kind:\n")
		for _, k := range sortedKeys(s.Problems) {
			b.WriteString(termtext.Line(fmt.Sprintf("  %s: %d", kindLabel(k), s.Problems[k])) + "\n")
		}
	}
	if len(s.Failures) > 0 {
		b.WriteString("\n")
		for _, f := range s.Failures {
			b.WriteString(termtext.Line("- "+f) + "\n")
		}
	}
	return b.String()
}

// kindLabel is a Summary.Problems key in the health words.
func kindLabel(k string) string {
	if h, ok := strings.CutPrefix(k, "site "); ok {
		return "site " + store.OriginHealthLabel(h)
	}
	return store.HealthLabel(k)
}

// healthWords says what changed health, claims then sites: "2 claims became origin
// unavailable, 1 claim recovered, 1 site became unreachable".
func healthWords(hs []store.HealthChange) string {
	var parts []string
	for _, sites := range []bool{false, true} {
		one := "claim"
		if sites {
			one = "site"
		}
		became := map[string]int{}
		recovered, first := 0, 0
		for _, h := range hs {
			if (h.Project == "") != sites {
				continue
			}
			good := h.After == store.ClaimCurrent || h.After == store.OriginHealthy
			switch {
			case h.Before == "":
				first++
			case good:
				recovered++
			default:
				became[h.After]++
			}
		}
		for _, after := range sortedKeys(became) {
			label := store.HealthLabel(after)
			if sites {
				label = store.OriginHealthLabel(after)
			}
			parts = append(parts, plural(became[after], one)+" became "+label)
		}
		if recovered > 0 {
			parts = append(parts, plural(recovered, one)+" recovered")
		}
		if first > 0 {
			parts = append(parts, plural(first, one)+" first seen")
		}
	}
	return strings.Join(parts, ", ")
}

// plural is "1 word" or "N words".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// labelled joins a health label and a problem, unless the problem already says the label.
func labelled(label, problem string) string {
	p, l := strings.ToLower(problem), strings.ToLower(label)
	switch {
	case problem == "":
		return label
	case label == "", strings.Contains(p, l):
		return problem
	}
	return label + ": " + problem
}

// fact is one thing the summary reports.
type fact struct {
	kind    string   // the Summary.Problems key
	site    string   // origin id ("" for a source fact)
	project string   // claim and image facts
	source  string   // source facts
	label   string   // the health's words
	what    string   // the problem
	sources []string // site facts: the enrolled sources that failed with it
}

func siteFact(site, health, problem string, srcs []string) fact {
	return fact{kind: "site " + health, site: site, label: store.OriginHealthLabel(health), what: problem, sources: srcs}
}

func claimFact(site, project, kind, label, problem string) fact {
	return fact{kind: kind, site: site, project: project, label: label, what: problem}
}

func sourceFact(u, kind, label, problem string) fact {
	return fact{kind: kind, source: u, label: label, what: problem}
}

func (f fact) line() string {
	switch {
	case f.source != "":
		return "source " + f.source + ": " + labelled(f.label, f.what)
	case f.kind == "image":
		return "card image of " + f.project + " at " + f.site + ": " + f.what
	case f.project != "":
		return "claim " + f.project + " at " + f.site + ": " + labelled(f.label, f.what)
	}
	return "site " + f.site + ": " + labelled(f.label, f.what)
}

// ledger gathers facts into the summary's lines: one per site failure, per group of claims
// failing alike at one site, per source or image.
type ledger struct {
	sites   map[string][]fact     // site -> its failures
	covered map[string]int        // site -> claims its failure made stale
	groups  map[groupKey][]string // claims failing alike at one site -> projects
	others  []string
}

func (l *ledger) add(f fact) {
	switch {
	case f.source != "" || f.kind == "image":
		l.others = append(l.others, f.line())
	case f.project != "":
		key := groupKey{f.kind, f.site, f.label, f.what}
		l.groups[key] = append(l.groups[key], f.project)
	default:
		l.sites[f.site] = append(l.sites[f.site], f)
	}
}

type groupKey struct{ kind, site, label, what string }

func (l *ledger) lines() []string {
	out := append([]string(nil), l.others...)
	for site, fs := range l.sites {
		for _, f := range fs {
			line := f.line()
			if n := l.covered[site]; n > 0 {
				line += fmt.Sprintf(" [%s kept as last seen, marked origin unavailable]", plural(n, "claim"))
			}
			if len(f.sources) > 0 {
				line += " [enrolled as " + strings.Join(f.sources, ", ") + "]"
			}
			out = append(out, line)
		}
	}
	for key, projects := range l.groups {
		sort.Strings(projects)
		if len(projects) == 1 {
			out = append(out, claimFact(key.site, projects[0], key.kind, key.label, key.what).line())
			continue
		}
		out = append(out, fmt.Sprintf("%d claims at %s: %s (%s)", len(projects), key.site, labelled(key.label, key.what), strings.Join(projects, ", ")))
	}
	sort.Strings(out)
	return out
}

// InterruptedLines says what a refresh cut short did not read, one line each.
func InterruptedLines(x *store.Interrupted) []string {
	if x.Unknown {
		return []string{"Interrupted: " + x.Reason + ". What it read is not recorded: a record whose last_attempt is older than the refresh's start was not read."}
	}
	out := []string{fmt.Sprintf("Interrupted at %s (%s): %s not read, %s not read, %s partly read; what was not read keeps its previous records (their last_attempt is older), and the next refresh reads it.",
		x.At, x.Reason, plural(len(x.SourcesNotRead), "source"), plural(len(x.SitesNotRead), "site"), plural(len(x.SitesPartlyRead), "site"))}
	for _, u := range x.SourcesNotRead {
		out = append(out, "  source not read: "+u)
	}
	for _, site := range x.SitesNotRead {
		out = append(out, "  site not read: "+site)
	}
	for _, p := range x.SitesPartlyRead {
		l := "  site partly read: " + p.Site
		if len(p.Projects) > 0 {
			l += " (" + plural(len(p.Projects), "claim") + " not read: " + strings.Join(p.Projects, ", ") + ")"
		} else {
			l += " (every claim read; its publication issues not updated)"
		}
		out = append(out, l)
	}
	return out
}
