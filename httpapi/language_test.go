package httpapi_test

import (
	"context"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/testkit"
)

// TestAnswersInTheRequestLanguage: the words a patient reads that the
// server writes (field labels and hints, field errors, a refused step's
// summary) come in the language of Accept-Language, English otherwise;
// codes and field names never change (docs/languages.md).
func TestAnswersInTheRequestLanguage(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		sid := h.start(t)
		es := map[string]string{"Accept-Language": "es-MX,es;q=0.9,en;q=0.5"}

		var start flow.ApplyStartResponse
		res := h.do(t, req{method: "POST", path: "/apply/start/providers/synchrony_standard", session: sid, header: es})
		want(t, res, 200, "")
		res.into(t, &start)
		labels := map[string]string{}
		for _, f := range start.Fields {
			labels[f.ID] = f.Label
		}
		if labels["firstName"] != "Nombre" || labels["mobilePhone"] != "Teléfono celular" {
			t.Errorf("Spanish labels: %v", labels)
		}

		// A new session's first form speaks the same language.
		var first flow.StartResponse
		h.do(t, req{method: "POST", path: "/flow/start/entity-keys/" + EntityKey, header: es, body: map[string]any{}}).into(t, &first)
		if first.Form == nil {
			t.Fatal("the start answered no form")
		}
		startLabels := map[string]string{}
		for _, f := range first.Form.Fields {
			startLabels[f.ID] = f.Label
		}
		if startLabels["purchaseAmountCents"] != "Monto del tratamiento" || startLabels["firstName"] != "Nombre" {
			t.Errorf("the start's first form in Spanish: %v", startLabels)
		}

		var en flow.ApplyStartResponse
		h.do(t, req{method: "POST", path: "/apply/start/providers/synchrony_standard", session: sid}).into(t, &en)
		if en.Fields[0].Label == start.Fields[0].Label || en.Fields[0].ID != start.Fields[0].ID {
			t.Errorf("English %q and Spanish %q of field %s", en.Fields[0].Label, start.Fields[0].Label, en.Fields[0].ID)
		}

		bad := testkit.Applicant("Approve", "12345")
		bad.FirstName = ""
		m := want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, header: es, body: flow.SubmitRequest{
			Primary: bad, Consent: testkit.Ptr(h.consent(t, sid, "synchrony_standard", flow.DocPrequalification)),
		}}), 400, chairside.EINVALID)
		if m["message"] != "Revise los campos de abajo y corrija los errores." {
			t.Errorf("summary %q", m["message"])
		}
		got := map[string]string{}
		for _, fe := range m["fieldErrors"].([]any) {
			f := fe.(map[string]any)
			got[f["field"].(string)] = f["message"].(string)
		}
		if got["primary.firstName"] != "Campo obligatorio" || got["primary.ssn"] == "" || got["primary.ssn"] == "Invalid Field" {
			t.Errorf("Spanish field errors: %v", got)
		}

		v := want(t, h.do(t, req{method: "POST", path: "/validate", session: sid, header: es, body: map[string]any{
			"providerKey": "synchrony_standard", "applicationData": map[string]any{"primary": map[string]any{"ssn": "12"}}, "fieldIds": []string{"ssn"},
		}}), 200, "")
		if fe := v["fieldErrors"].([]any); len(fe) != 1 || fe[0].(map[string]any)["message"] != "Campo no válido" {
			t.Errorf("validate in Spanish: %v", v)
		}
	})
}

// TestZipPlace: a ZIP code's city and state for the form to fill in, from
// the list the ZIP-for-state check uses; a ZIP the list lacks is 404, a
// string that is not a ZIP 400, and a caller without a session 401.
func TestZipPlace(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		sid := h.start(t)
		m := want(t, h.do(t, req{method: "GET", path: "/zipCodes/92101", session: sid}), 200, "")
		if m["zipCode"] != "92101" || m["city"] != "San Diego" || m["state"] != "CA" {
			t.Errorf("92101: %v", m)
		}
		want(t, h.do(t, req{method: "GET", path: "/zipCodes/00601", session: sid}), 404, chairside.ENOTFOUND) // Puerto Rico
		want(t, h.do(t, req{method: "GET", path: "/zipCodes/9210", session: sid, noContract: true}), 400, chairside.EBADREQUEST)
		want(t, h.do(t, req{method: "GET", path: "/zipCodes/92101", noContract: true}), 401, chairside.EUNAUTHORIZED)
	})
}

// TestConsentRecordsTheLanguageShown: a patient reading in Spanish agrees
// to the Spanish soft-pull authorisation, and the consent says so; the
// English one, agreed to by a Spanish request, is refused as changed.
func TestConsentRecordsTheLanguageShown(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		es := map[string]string{"Accept-Language": "es"}
		sid := h.start(t)
		english := h.consent(t, sid, "synchrony_standard", flow.DocPrequalification)
		var doc chairside.Document
		res := h.do(t, req{method: "GET", path: "/providers/synchrony_standard/disclosures?kind=" + flow.DocPrequalification, session: sid, header: es})
		want(t, res, 200, "")
		res.into(t, &doc)
		if doc.Language != "es" || doc.ID != english.DocumentID || doc.SHA256 == english.DocumentSHA256 {
			t.Fatalf("Spanish document %s %s %s, English %s %s", doc.ID, doc.Language, doc.SHA256, english.DocumentID, english.DocumentSHA256)
		}
		submit := func(c flow.ConsentInput) *result {
			return h.do(t, req{method: "POST", path: "/providers/synchrony_standard/prequalify", session: sid, header: es, body: flow.SubmitRequest{
				Primary: testkit.Applicant("Approve", "123456780"), Consent: &c,
			}})
		}
		want(t, submit(english), 400, chairside.ECONSENT)
		want(t, submit(flow.ConsentInput{DocumentID: doc.ID, DocumentVersion: doc.Version, DocumentSHA256: doc.SHA256, Agreed: true}), 200, "")

		sess, err := h.db.FindSession(context.Background(), sha(sid))
		if err != nil {
			t.Fatal(err)
		}
		consents, err := h.db.ListConsents(context.Background(), sess.ApplicationID)
		if err != nil || len(consents) != 1 || consents[0].DocumentLanguage != "es" || consents[0].DocumentSHA256 != doc.SHA256 {
			t.Fatalf("consents %+v, %v", consents, err)
		}
	})
}

// TestStartAnswersTheFormInTheOfficesLanguage: a link's start that says
// the patient has chosen no language (languageChosen false) gets, at an
// office with a language of its own, the first form in that language, the
// one the app will speak, and the answer names it; a patient's own choice,
// or a start that says nothing of it, keeps the request's language.
func TestStartAnswersTheFormInTheOfficesLanguage(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const key = "1000200030009000"
		office := *mustLocation(t, h)
		office.ID, office.EntityKey, office.Language = "", key, "es"
		if err := h.db.CreateLocation(context.Background(), &office); err != nil {
			t.Fatal(err)
		}
		en := map[string]string{"Accept-Language": "en-US,en;q=0.9"}
		start := func(path string, body any) (string, string) {
			t.Helper()
			var s flow.StartResponse
			res := h.do(t, req{method: "POST", path: path, header: en, body: body})
			want(t, res, 200, "")
			res.into(t, &s)
			if s.Form == nil {
				t.Fatalf("%s: no form", path)
			}
			for _, f := range s.Form.Fields {
				if f.ID == "firstName" {
					return s.Language, f.Label
				}
			}
			t.Fatalf("%s: no first name", path)
			return "", ""
		}
		for _, c := range []struct {
			name, path  string
			body        any
			lang, label string
		}{
			{"not chosen, an office that speaks Spanish", "/flow/start/entity-keys/" + key, map[string]any{"languageChosen": false}, "es", "Nombre"},
			{"chosen", "/flow/start/entity-keys/" + key, map[string]any{"languageChosen": true}, "en", "First name"},
			{"not said", "/flow/start/entity-keys/" + key, map[string]any{}, "en", "First name"},
			{"in the body", "/flow/start", map[string]any{"entityKey": key, "languageChosen": false}, "es", "Nombre"},
			{"an office of no language of its own", "/flow/start/entity-keys/" + EntityKey, map[string]any{"languageChosen": false}, "en", "First name"},
		} {
			if lang, label := start(c.path, c.body); lang != c.lang || label != c.label {
				t.Errorf("%s: the form in %q (%q), want %q (%q)", c.name, lang, label, c.lang, c.label)
			}
		}
		// An office's flow token (a QR code) says it the same way.
		const tok = "tok_language_abcdefghijklmnopqrstuvwxyz"
		if err := h.db.CreateFlowToken(context.Background(), &chairside.FlowToken{Hash: chairside.HashSecret(tok), LocationID: office.ID,
			ExperienceType: chairside.ExperienceAtHome, ExpiresAt: h.clock.Now().Add(time.Hour), CreatedAt: h.clock.Now()}); err != nil {
			t.Fatal(err)
		}
		if lang, label := start("/flow/start/tokens/"+tok, map[string]any{"languageChosen": false}); lang != "es" || label != "Nombre" {
			t.Errorf("a token's start: the form in %q (%q)", lang, label)
		}
	})
}
