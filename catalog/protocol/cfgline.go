package protocol

import (
	"fmt"
	"strings"
)

// A client writes some manifest values into lines of a player's files (installation.md):
// openmw.cfg data=, content=, groundcover=, fallback-archive= and fallback= lines,
// settings.cfg sections and "key = value" lines, and SHA256SUMS lines. cfgLines refuses
// (RuleConfigLine) every value no line holds safely, so the crawler and validate agree.

// cfgKind is what a value becomes on its line.
type cfgKind int

const (
	cfgPath        cfgKind = iota // a path relative to the component's folder
	cfgName                       // a file name: one segment of a path
	cfgCategory                   // a settings.cfg [category]
	cfgKey                        // a settings.cfg key, before " = "
	cfgFallbackKey                // a fallback key, before the comma
	cfgText                       // a value running to the end of its line
)

// lineBreaks names the characters some reader of a line ends it at.
var lineBreaks = map[rune]string{'\n': "line feed", '\r': "carriage return", '\v': "vertical tab",
	'\f': "form feed", 0x85: "next line (NEL)", 0x2028: "line separator", 0x2029: "paragraph separator"}

// cfgFault is why v cannot be written as kind, "" when it can.
func cfgFault(kind cfgKind, v string) string {
	for _, r := range v {
		if name, ok := lineBreaks[r]; ok {
			return fmt.Sprintf("it holds %U (%s), where a line ends", r, name)
		}
		if r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f {
			return fmt.Sprintf("it holds the control character %U", r)
		}
	}
	t := strings.TrimSpace(v)
	switch kind {
	case cfgCategory:
		if strings.Contains(v, "]") {
			return "a ] ends the [category] header"
		}
	case cfgKey:
		switch {
		case strings.Contains(v, "="):
			return "an = ends the key"
		case strings.HasPrefix(t, "#"), strings.HasPrefix(t, "["):
			return "a line starting with " + t[:1] + " is not a setting"
		}
	case cfgFallbackKey:
		if strings.Contains(v, ",") {
			return "a comma ends the key"
		}
	case cfgPath, cfgName:
		return pathFault(kind, v)
	}
	if t == "" && kind != cfgText {
		return "it is blank"
	}
	return ""
}

// pathFault is why v cannot be a relative path (or, as cfgName, a file name), "" when it can.
func pathFault(kind cfgKind, v string) string {
	seps := func(r rune) bool { return r == '/' || r == '\\' }
	switch {
	case strings.IndexFunc(v, seps) == 0:
		return "it is an absolute path, where the protocol declares a relative one"
	case len(v) >= 2 && v[1] == ':' && ('a' <= v[0]|0x20 && v[0]|0x20 <= 'z'):
		return "it starts with a drive letter, where the protocol declares a relative path"
	case kind == cfgName && strings.IndexFunc(v, seps) > 0:
		return "a file name cannot hold / or \\"
	case kind == cfgName && (v == "." || v == ".."):
		return "it names a folder, not a file"
	}
	for _, s := range strings.FieldsFunc(v, seps) {
		if s == ".." {
			return "a .. segment leads outside the mod's folder"
		}
	}
	return ""
}

// cfgLines checks release i's values that go on a line of a player's files.
func (fs *findings) cfgLines(r *Release, i int, project string) {
	report := func(ptr, why string) {
		fs.add(ptr, RuleConfigLine, "%s of project %q cannot go on a line of %s: %s", fieldLabel(ptr), pub(project), cfgFile(ptr), why)
	}
	check := func(ptr string, kind cfgKind, v string) {
		if why := cfgFault(kind, v); why != "" {
			report(ptr, why)
		}
	}
	each := func(ptr string, kind cfgKind, vs []string) {
		for k, v := range vs {
			check(fmt.Sprintf("%s/%d", ptr, k), kind, v)
		}
	}
	rp := Pointer("releases", i)
	for j, c := range r.Components {
		check(Pointer("releases", i, "components", j, "path"), cfgPath, c.Path)
	}
	for j, a := range r.Artifacts {
		check(Pointer("releases", i, "artifacts", j, "filename"), cfgName, a.Filename)
	}
	o := r.OpenMWExtension()
	if o == nil {
		return
	}
	op := rp + "/extensions/openmw"
	each(op+"/requires_content", cfgName, o.RequiresContent)
	for j, s := range o.Settings {
		sp := fmt.Sprintf("%s/settings/%d", op, j)
		check(sp+"/category", cfgCategory, s.Category)
		check(sp+"/key", cfgKey, s.Key)
		check(sp+"/value", cfgText, s.Value)
	}
	for _, id := range sortedKeys(o.Components) {
		c, cp := o.Components[id], op+Pointer("components", id)
		each(cp+"/data_directories", cfgPath, c.DataDirectories)
		each(cp+"/fallback_archives", cfgPath, c.FallbackArchives)
		each(cp+"/content_files", cfgName, c.ContentFiles)
		each(cp+"/groundcover_files", cfgName, c.GroundcoverFiles)
		each(cp+"/requires_content", cfgName, c.RequiresContent)
		for _, k := range sortedKeys(c.FallbackEntries) {
			fp := cp + Pointer("fallback_entries", k)
			if why := cfgFault(cfgFallbackKey, k); why != "" {
				report(fp, "the key: "+why)
			}
			if why := cfgFault(cfgText, c.FallbackEntries[k]); why != "" {
				report(fp, "the value: "+why)
			}
		}
	}
}

func cfgFile(ptr string) string {
	switch {
	case strings.Contains(ptr, "/artifacts/"):
		return "SHA256SUMS"
	case strings.Contains(ptr, "/openmw/settings/"):
		return "settings.cfg"
	}
	return "openmw.cfg"
}
