package store

import (
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/DreamWeave-MP/ashyams-go/schemas"
)

// The forms of the names a state holds: the build writes them into paths and fields.
var (
	// projectIDForm is the protocol's project id: a lowercase UUID (schemas, $defs uuid).
	projectIDForm = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
	// nameIDForm is SiteID's and SourceID's output (readableID).
	nameIDForm = regexp.MustCompile(`^([a-z0-9]+(-[a-z0-9]+)*-)?[0-9a-f]{8}$`)
	// eventIDForm is EventID's output: 20 lowercase hex digits.
	eventIDForm = regexp.MustCompile(`^[0-9a-f]{20}$`)
)

// IsProjectID reports whether s is a project id in the protocol's form (a lowercase UUID).
func IsProjectID(s string) bool { return projectIDForm.MatchString(s) }

// IsSiteID reports whether s has the form SiteID gives a site (and SourceID a source).
func IsSiteID(s string) bool { return len(s) <= maxSlug+9 && nameIDForm.MatchString(s) }

// IsEventID reports whether s has the form EventID gives an event.
func IsEventID(s string) bool { return eventIDForm.MatchString(s) }

// IsWebURL reports whether s is an absolute http or https URL with a host, the only URLs a
// record holds.
func IsWebURL(s string) bool {
	if !strings.HasPrefix(s, "http://") && !strings.HasPrefix(s, "https://") {
		return false
	}
	u, err := url.Parse(s)
	return err == nil && u.Host != ""
}

// Words for Check's problems about forms.
const (
	projectIDWords = "is not a project id (a lowercase UUID, the protocol's form)"
	siteIDWords    = "is not a site id (a slug, a hyphen and 8 hex digits, the naming rules' form)"
	eventIDWords   = "is not an event id (20 lowercase hex digits, the formula's form)"
	webURLWords    = "is not an absolute http(s) URL"
)

func (c *checker) checkForm(rel, field, v string, ok func(string) bool, words string) {
	if !ok(v) {
		c.add(BadValue, rel, "%s %q %s", field, v, words)
	}
}

func (c *checker) checkURLs(rel, field string, vs ...string) {
	for _, v := range vs {
		c.checkForm(rel, field, v, IsWebURL, webURLWords)
	}
}

var (
	manifestSchemaOnce sync.Once
	manifestSchema     *jsonschema.Schema
	manifestSchemaErr  error
)

// manifestSchemaProblem says how held manifest bytes fail the protocol's manifest schema, ""
// when they do not. Only the schema: a rule added later must not make every claim's last good
// data a problem.
func manifestSchemaProblem(b []byte) string {
	manifestSchemaOnce.Do(func() {
		manifestSchema, manifestSchemaErr = schemas.Compile(schemas.FS, schemas.Project)
	})
	if manifestSchemaErr != nil {
		return "cannot be checked against the project manifest schema: " + manifestSchemaErr.Error()
	}
	if err := schemas.Validate(manifestSchema, b); err != nil {
		return "does not match the project manifest schema: " + err.Error()
	}
	return ""
}
