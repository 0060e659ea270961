package flow_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/locale"
	"github.com/chairside/chairside/store/storetest"
)

// TestDocumentsInSpanish: the documents pages answer in the request's
// language, ours and the lender's alike, and say which they are in; the
// rates sheet is printed in each language, accents kept.
func TestDocumentsInSpanish(t *testing.T) {
	f := newFixture(t, storetest.SQLite(t), flow.Options{})
	en := context.Background()
	es := locale.With(en, locale.Spanish)
	c := f.caller(t)

	ours, err := f.svc.Document(es, c.Session, "privacyNotice", "")
	if err != nil || ours.Language != "es" || !strings.Contains(ours.Content, "en Bright Smiles") || ours.Title != "Aviso de privacidad" {
		t.Fatalf("privacy notice in Spanish: %+v %v", ours, err)
	}
	if d, _ := f.svc.Document(es, nil, "privacy", ""); d.Language != "es" || !strings.Contains(d.Content, "el consultorio dental") {
		t.Errorf("privacy without a session: %+v", d)
	}
	if d, _ := f.svc.Document(en, c.Session, "privacyNotice", ""); d.Language != "en" || d.ID != ours.ID || d.SHA256 == ours.SHA256 {
		t.Errorf("privacy notice in English: %+v", d)
	}
	theirs, err := f.svc.Document(es, c.Session, "arbitration", "")
	if err != nil || theirs.Language != "es" || theirs.ID != "synchrony_standard/arbitration" || !strings.Contains(theirs.Content, "MUESTRA") {
		t.Fatalf("the lender's page in Spanish: %+v %v", theirs, err)
	}

	const sheet = "synchrony_standard-rates.pdf"
	enPDF, err1 := f.svc.DocumentPDF(en, sheet)
	esPDF, err2 := f.svc.DocumentPDF(es, sheet)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if !bytes.Contains(enPDF, []byte("(Synchrony Health Card rates)")) || !bytes.Contains(esPDF, []byte("(Tasas de Synchrony Health Card)")) ||
		!bytes.Contains(esPDF, []byte(`cr\351dito`)) {
		t.Errorf("rates sheets: the Spanish one came out as %.600s", esPDF)
	}
	if again, _ := f.svc.DocumentPDF(en, sheet); !bytes.Equal(again, enPDF) {
		t.Error("the English sheet changed once the Spanish one was printed")
	}
}
