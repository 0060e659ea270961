package chairside

// Document is something shown to a patient: disclosures, an agreement, the
// e-sign consent. SHA256 is the hash of exactly Content, recorded with every
// consent so the record proves what was shown even after a template changes.
type Document struct {
	ID          string `json:"id"`
	Version     string `json:"version"`
	Title       string `json:"title"`
	ContentType string `json:"contentType"` // text/html or text/plain
	Content     string `json:"content"`
	SHA256      string `json:"sha256"`
	URL         string `json:"url,omitempty"`
}
