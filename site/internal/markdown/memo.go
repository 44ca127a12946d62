package markdown

import (
	"html/template"
	"strings"
	"sync"
)

// Memo is one build's rendered Markdown: each distinct text is converted and sanitized once
// and shared by every page that shows it (a release's notes appear on its claim page twice,
// and identical notes across claims are common). Safe for concurrent use by the page
// renders. It belongs to one build, so it holds only the texts of the state that build
// renders and is dropped with it; a later build starts empty.
//
// A memo holds one rendering, its render function: md and each item of mdItems render
// alike (Markdown), so the text alone is the key.
type Memo struct {
	render func(string) template.HTML

	mu   sync.RWMutex
	done map[string]*mdEntry
}

// mdEntry is one text's rendering, computed once by whichever page asks first; pages asking
// meanwhile wait for it.
type mdEntry struct {
	once sync.Once
	html template.HTML
}

// NewMemo is an empty memo of render (nil: Markdown).
func NewMemo(render func(string) template.HTML) *Memo {
	if render == nil {
		render = Markdown
	}
	return &Memo{render: render, done: map[string]*mdEntry{}}
}

// Markdown is the memo's rendering of src: what render(src) returned the first time src was
// asked for. A blank src is "" without a lookup (most optional fields are empty).
func (m *Memo) Markdown(src string) template.HTML {
	if strings.TrimSpace(src) == "" {
		return ""
	}
	m.mu.RLock()
	e := m.done[src]
	m.mu.RUnlock()
	if e == nil {
		m.mu.Lock()
		if e = m.done[src]; e == nil {
			e = new(mdEntry)
			m.done[src] = e
		}
		m.mu.Unlock()
	}
	e.once.Do(func() { e.html = m.render(src) })
	return e.html
}

// Items is Items through the memo.
func (m *Memo) Items(items []string) []template.HTML { return renderItems(items, m.Markdown) }
