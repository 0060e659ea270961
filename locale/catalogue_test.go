package locale_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/locale"
	"github.com/chairside/chairside/validate"
)

// The packages whose messages reach a patient: validation, the journey's
// steps, the application's fields, the sandbox lender's field errors and
// the API's own answers.
var patientPackages = []string{"validate", "flow", "catalogue", "lender/sandbox", "httpapi"}

// patientCodes are the error codes whose message the browser may show a
// patient; the others (bad_request, not found, …) answer a program's
// mistake and stay in English.
var patientCodes = map[string]bool{
	"EINVALID": true, "ECONSENT": true, "ECONFLICT": true, "EINFLIGHT": true, "EAMOUNT": true, "ERATELIMITED": true, "EDAILYLIMIT": true, "ESESSIONLIMIT": true, "ELENDER": true,
}

// notMessages are strings the scan finds that are parts of messages, not
// messages: each whole message they build is checked by its own test.
var notMessages = map[string]string{
	"%s and %s": "validate's list of allowed characters; TestCharacterMessagesHaveSpanish checks each list",
}

var verb = regexp.MustCompile(`%[-+# 0-9.]*[dsqv]`)

// TestEveryPatientMessageHasSpanish reads the source of the patient's
// packages and fails for each message they can raise that the catalogue
// cannot translate: a Msg constant, a Message field, a patient-facing
// error's format, or a message formatted or built in package validate.
func TestEveryPatientMessageHasSpanish(t *testing.T) {
	messages := map[string]string{} // message → where
	for _, dir := range patientPackages {
		for msg, where := range sourceMessages(t, filepath.Join("..", dir)) {
			messages[msg] = where
		}
	}
	if len(messages) < 40 {
		t.Fatalf("found only %d messages: the scan is broken", len(messages))
	}
	var missing []string
	for msg, where := range messages {
		if _, part := notMessages[msg]; !part && !locale.Has(msg) {
			missing = append(missing, where+": "+strconv.Quote(msg))
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("%d messages have no Spanish (locale/es.go):\n%s", len(missing), strings.Join(missing, "\n"))
	}
}

// TestEveryFieldHasSpanish asks every lender's fields, in every apply mode,
// for Spanish labels, hints, choices and messages.
func TestEveryFieldHasSpanish(t *testing.T) {
	seen := map[string]bool{}
	check := func(where, s string) {
		if s != "" && !seen[s] && !locale.Has(s) {
			seen[s] = true
			t.Errorf("%s: %q has no Spanish", where, s)
		}
	}
	for _, p := range catalogue.All() {
		for _, mode := range []string{chairside.ModeFull, chairside.ModePrequalify, chairside.ModePrescreen} {
			defs, groups, err := catalogue.Fields(p.Key, mode)
			if err != nil {
				t.Fatal(err)
			}
			defs = append(defs, catalogue.PurchaseAmount())
			for _, d := range defs {
				check(d.ID, d.Label)
				check(d.ID, d.Hint)
				for _, r := range d.Rules {
					check(d.ID, r.Message)
					for _, o := range r.Options {
						if d.ID != "addressState" && d.ID != "idState" { // state names are names
							check(d.ID, o.Label)
						}
					}
				}
			}
			for _, g := range groups {
				check(g.ID, g.Message)
			}
		}
	}
}

// TestCharacterMessagesHaveSpanish breaks the character rule of every field
// that has one and checks the whole message, its list of allowed characters
// included, comes out in Spanish.
func TestCharacterMessagesHaveSpanish(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	checked := 0
	for _, d := range catalogue.AllFields() {
		if _, ok := d.Rules[chairside.RuleValidChars]; !ok {
			continue
		}
		value := "~"
		if r, ok := d.Rules[chairside.RuleMinLength]; ok && r.Min != nil && *r.Min > 1 {
			value += strings.Repeat("a", int(*r.Min)-1)
		}
		en := validate.Field(d, value, now)
		if !strings.HasPrefix(en, "These characters are not allowed") {
			t.Fatalf("%s: %q is not the character rule's message", d.ID, en)
		}
		es := locale.T(locale.Spanish, en)
		if !strings.HasPrefix(es, "No se permiten estos caracteres: ~. Use solo ") || strings.Contains(es, "letters") {
			t.Errorf("%s: %q came out as %q", d.ID, en, es)
		}
		checked++
	}
	if checked < 4 {
		t.Fatalf("only %d fields have a character rule", checked)
	}
}

func sourceMessages(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		// A package that moved must move here too, or its messages go unchecked.
		t.Fatalf("%s has no Go files: patientPackages names a package that is not there", dir)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		add := func(n ast.Node, e ast.Expr) {
			if msg := template(e); msg != "" && msg != "%s" {
				out[msg] = fset.Position(n.Pos()).String()
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if strings.HasPrefix(id.Name, "Msg") && i < len(n.Values) {
						add(n, n.Values[i])
					}
				}
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && k.Name == "Message" {
					add(n, n.Value)
				}
			case *ast.CallExpr:
				switch fn := callee(n.Fun); {
				case (fn == "chairside.Errorf" || fn == "errorf") && len(n.Args) >= 2 && patientCodes[lastPart(n.Args[0])]:
					add(n, n.Args[1])
				case fn == "fmt.Sprintf" && filepath.Base(dir) == "validate" && len(n.Args) >= 1:
					add(n, n.Args[0])
				case fn == "msg" && filepath.Base(dir) == "validate" && len(n.Args) == 2:
					add(n, n.Args[1])
				}
			case *ast.ReturnStmt:
				// validate's checks answer messages built from a label or a value.
				if b, ok := firstResult(n).(*ast.BinaryExpr); ok && filepath.Base(dir) == "validate" {
					add(n, b)
				}
			}
			return true
		})
	}
	return out
}

// template turns a message expression into the catalogue's form: literal
// text kept, every value (a variable, a call, a verb such as %d) as %s.
func template(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "%s"
		}
		s, err := strconv.Unquote(e.Value)
		if err != nil {
			return ""
		}
		return verb.ReplaceAllString(s, "%s")
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			return template(e.X) + template(e.Y)
		}
	case *ast.ParenExpr:
		return template(e.X)
	}
	return "%s"
}

func firstResult(r *ast.ReturnStmt) ast.Expr {
	if len(r.Results) == 0 {
		return nil
	}
	return r.Results[0]
}

func callee(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); ok {
			return x.Name + "." + e.Sel.Name
		}
	}
	return ""
}

func lastPart(e ast.Expr) string {
	if s, ok := e.(*ast.SelectorExpr); ok {
		return s.Sel.Name
	}
	if id, ok := e.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}
