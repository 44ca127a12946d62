package render

import (
	"bytes"
	"encoding/xml"
)

// IndexName is the index's display name.
const IndexName = "AsHyAmS"

// XMLEscape writes s escaped as XML text.
func XMLEscape(buf *bytes.Buffer, s string) {
	_ = xml.EscapeText(buf, []byte(s))
}
