package unzip

import (
	"strings"
	"unicode/utf8"
)

// checkName says why an entry's name is refused ("" if not): empty, absolute (a leading "/",
// a drive letter), a backslash, an empty, "." or ".." segment, or a segment Windows cannot
// hold (device names, <>:"|?*, controls, a trailing dot or space, over 255 bytes). Names are
// UTF-8; a legacy code page is not guessed.
func checkName(name string) string {
	switch {
	case name == "" || name == "/":
		return "has no name"
	case !utf8.ValidString(name):
		return "is not valid UTF-8"
	case strings.HasPrefix(name, "/"):
		return "is an absolute path"
	case strings.Contains(name, "\\"):
		return "holds a backslash, which Windows reads as a folder separator"
	case len(name) >= 2 && name[1] == ':':
		return "starts with a drive letter"
	}
	for _, seg := range strings.Split(strings.TrimSuffix(name, "/"), "/") {
		switch {
		case seg == "..":
			return "has a \"..\" segment"
		case seg == "" || seg == ".":
			return "has an empty or \".\" segment"
		case len(seg) > 255:
			return "has a segment over 255 bytes"
		case strings.HasSuffix(seg, ".") || strings.HasSuffix(seg, " "):
			return "has a segment ending in a dot or a space, which Windows drops"
		case reserved(seg):
			return "has a segment Windows reserves for a device (" + seg + ")"
		}
		for _, r := range seg {
			if r < 0x20 || r == 0x7f || strings.ContainsRune(`<>:"|?*`, r) {
				return "has a character Windows cannot hold in a name"
			}
		}
	}
	return ""
}

// reserved reports whether seg is one of Windows' device names, alone or before an extension.
func reserved(seg string) bool {
	base, _, _ := strings.Cut(seg, ".")
	base = strings.ToUpper(strings.TrimRight(base, " "))
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) >= 4 && (base[:3] == "COM" || base[:3] == "LPT") {
		switch base[3:] {
		case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
			return true
		}
	}
	return false
}
