package engine

import (
	"encoding/json"
	"fmt"
)

// Plan is the plan of a request (plan.js compute, whose comment gives every field).
type Plan struct {
	Root     string    `json:"root"`    // the mods folder, in the player's OS form
	Claims   []Claim   `json:"install"` // the planned claims in load order
	Findings []Finding `json:"findings"`
	Asks     []Ask     `json:"asks"` // what the player chooses before the plan is complete
	// CFG holds the openmw.cfg lines; Base the base game's, for a file lacking them;
	// Settings the settings.cfg lines; Sums the SHA256SUMS lines.
	CFG      []Line `json:"cfg"`
	Base     []Line `json:"base"`
	Settings []Line `json:"settings"`
	Sums     []Line `json:"sums"`
	// Text is each of those as the plan page shows it, each claim's lines after a comment.
	Text struct {
		CFG      string `json:"cfg"`
		Base     string `json:"base"`
		Settings string `json:"settings"`
		Sums     string `json:"sums"`
	} `json:"text"`
}

// Line is one written line: text (no line end), the declaring claim ("" for the base game's
// and a category), whether it is the base game's, and whether no manifest orders it after the
// content= line before it.
type Line struct {
	Text       string `json:"text"`
	Key        string `json:"key"`
	Base       bool   `json:"base"`
	Undeclared bool   `json:"undeclared"`
}

// Claim is one planned claim as the installer reads it.
type Claim struct {
	Key     string `json:"key"` // "<project-id>/<site-id>"
	Project string `json:"project"`
	Site    string `json:"site"`
	Name    string `json:"name"`
	Version string `json:"version"`
	// Folder is the claim's folder under the mods folder; Path the two joined, as shown.
	Folder string `json:"folder"`
	Path   string `json:"path"`
	// Installs: the release has an openmw extension. Valid: its component selection is valid.
	// Refused: values the writer refused. Without all three it has no Components nor Lines.
	Installs bool `json:"installs"`
	// Requires are the keys of the planned claims it requires; Critical the release's
	// critical_extensions.
	Requires   []string    `json:"requires"`
	Critical   []string    `json:"critical_extensions"`
	Valid      bool        `json:"valid"`
	Refused    []Refusal   `json:"refused"`
	Components []Component `json:"components"` // the selected, in release order
	Artifacts  []Artifact  `json:"artifacts"`  // those whose SHA256SUMS line was taken
	Lines      []string    `json:"lines"`      // openmw.cfg lines, in file order
}

// Component is a selected component: id, path in the archive ("." its root), and the folder it
// is extracted to under the mods folder.
type Component struct {
	ID     string `json:"id"`
	Path   string `json:"path"`
	Folder string `json:"folder"`
}

// Artifact is one artifact to download (the protocol's artifacts page).
type Artifact struct {
	ID       string    `json:"id"`
	Format   string    `json:"format"`
	Filename string    `json:"filename"`
	Size     int64     `json:"size"`
	SHA256   string    `json:"sha256"`
	Platform *Platform `json:"platform"`
	Sources  []Source  `json:"sources"` // in the publisher's order
}

// Platform is a binary artifact's platform.
type Platform struct {
	OS      string `json:"os"`
	Arch    string `json:"arch"`
	Variant string `json:"variant"`
}

// Source is one place an artifact is published; Kind is "publisher" or "mirror".
type Source struct {
	URL  string `json:"url"`
	Kind string `json:"kind"`
	Name string `json:"name"`
}

// Finding is one finding of the plan (plan.js names each kind): the claim, the other claim,
// and for a refused value the field, value shown and reason. Raw is the whole finding.
type Finding struct {
	Kind   string          `json:"kind"`
	Key    string          `json:"key"`
	Other  string          `json:"other"`
	Field  string          `json:"field"`
	Value  string          `json:"value"`
	Reason string          `json:"reason"`
	Raw    json.RawMessage `json:"-"`
}

// UnmarshalJSON keeps the whole finding in Raw.
func (f *Finding) UnmarshalJSON(b []byte) error {
	type plain Finding
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*f = Finding(p)
	f.Raw = append(json.RawMessage{}, b...)
	return nil
}

// Ask is a choice the plan leaves to the player: "identity" (several sites publish Project),
// "capability" (several claims provide Capability) or "setting" (releases disagree on a
// settings.cfg value; Values holds each option's). Options are claim keys; By is the claim
// whose requirement asks, if any.
type Ask struct {
	Kind       string   `json:"kind"`
	By         string   `json:"by"`
	Project    string   `json:"project"`
	Capability string   `json:"capability"`
	Category   string   `json:"category"`
	Setting    string   `json:"setting"`
	Options    []string `json:"options"`
	Values     []string `json:"values"`
}

// Compute plans r over the claims added (AddPart; Parts says which r needs).
func (e *Engine) Compute(r Request) (*Plan, error) {
	b, err := json.Marshal(r.normal())
	if err != nil {
		return nil, err
	}
	var p Plan
	if err := e.callJSON(&p, "compute", string(b), e.opts.Shards); err != nil {
		return nil, err
	}
	return &p, nil
}

// write writes one line of kind (plan.js's writer, openmwcfg.js write) from v.
func (e *Engine) write(kind string, v map[string]string) (string, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var res struct {
		Text    string   `json:"text"`
		Refused *Refusal `json:"refused"`
	}
	if err := e.callJSON(&res, "write", kind, string(b)); err != nil {
		return "", err
	}
	if res.Refused != nil {
		return "", res.Refused
	}
	return res.Text, nil
}

// The line writer. Each returns one line without its end, or a *Refusal naming the field when
// a value cannot be written so OpenMW (or sha256sum) reads it back as given: a control
// character, an end space, "..", an absolute path where a relative one is due, a separator in
// a file name, "]" in a section, "=" in a key. root is absolute, POSIX or Windows; paths are
// written in its form.

// DataLine writes data="<root>/<folder>/<path>/<dir>", quoted and escaped as OpenMW reads it.
func (e *Engine) DataLine(root, folder, path, dir string) (string, error) {
	return e.write("data", map[string]string{"root": root, "folder": folder, "path": path, "dir": dir})
}

// ConfigLine writes config="<root>/<folder>/<path>".
func (e *Engine) ConfigLine(root, folder, path string) (string, error) {
	return e.write("config", map[string]string{"root": root, "folder": folder, "path": path})
}

// FileLine writes <kind>=<name> for kind "content", "groundcover" or "fallback-archive".
func (e *Engine) FileLine(kind, name string) (string, error) {
	if kind != "content" && kind != "groundcover" && kind != "fallback-archive" {
		return "", fmt.Errorf("no file line of kind %q", kind)
	}
	return e.write(kind, map[string]string{"name": name})
}

// FallbackLine writes fallback=<key>,<value>.
func (e *Engine) FallbackLine(key, value string) (string, error) {
	return e.write("fallback", map[string]string{"key": key, "value": value})
}

// CategoryLine writes a settings.cfg category, [<category>].
func (e *Engine) CategoryLine(category string) (string, error) {
	return e.write("category", map[string]string{"category": category})
}

// SettingLine writes a settings.cfg setting, <key> = <value>.
func (e *Engine) SettingLine(key, value string) (string, error) {
	return e.write("setting", map[string]string{"key": key, "value": value})
}

// SumLine writes a SHA256SUMS line, <sha256>  <filename>.
func (e *Engine) SumLine(sha256, filename string) (string, error) {
	return e.write("sum", map[string]string{"sha256": sha256, "filename": filename})
}

// Comment writes "# <text>", every control character in text escaped: never refused.
func (e *Engine) Comment(text string) (string, error) {
	return e.write("comment", map[string]string{"text": text})
}
