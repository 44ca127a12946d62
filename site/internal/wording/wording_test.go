package wording

import "testing"

// TestIDNHost shows an internationalized host in punycode, however the URL spells it, and
// leaves plain ASCII hosts alone.
func TestIDNHost(t *testing.T) {
	const nexus = "xn--nxusmods-c8g.com" // nеxusmods.com, with a Cyrillic е
	for _, c := range []struct{ in, want string }{
		{"https://n\u0435xusmods.com/morrowind/mods/1", nexus},
		{"https://N\u0415XUSMODS.com/", nexus},
		{"https://n%D0%B5xusmods.com/x", nexus},
		{"http://n\u0435xusmods.com:8080/x", nexus},
		{"mailto:someone@n\u0435xusmods.com?subject=hi", nexus},
		{"https://xn--nxusmods-c8g.com/", nexus},
		{"https://mods.xn--nxusmods-c8g.com/", "mods." + nexus},
		{"https://caf\u00e9.example/", "xn--caf-dma.example"},
		{"https://nexusmods.com/morrowind", ""},
		{"mailto:someone@example.org", ""},
		{"https://127.0.0.1/", ""},
		{"not a url at all", ""},
		{"", ""},
	} {
		if got := IDNHost(c.in); got != c.want {
			t.Errorf("IDNHost(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestURLTextShowsPunycode: a link's visible text never spells a look-alike host in its
// letters; the port and the rest of the URL stay.
func TestURLTextShowsPunycode(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://n\u0435xusmods.com/morrowind/mods/1", "xn--nxusmods-c8g.com/morrowind/mods/1"},
		{"http://n\u0435xusmods.com:8080/a", "http://xn--nxusmods-c8g.com:8080/a"},
		{"https://nexusmods.com/morrowind", "nexusmods.com/morrowind"},
	} {
		if got := URLText(c.in); got != c.want {
			t.Errorf("URLText(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
