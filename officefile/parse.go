package officefile

import (
	"fmt"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/locale"
	"github.com/chairside/chairside/messaging"
)

// The fields of an office and of a waterfall step, as in the Location's
// JSON (chairside.Location); any other field is a problem.
var (
	officeFields = []string{"entityKey", "name", "state", "groupId", "brandName", "brandLogo", "language", "textSender", "purchaserEnabled", "waterfall", "help", "groupHelp"}
	stepFields   = []string{"providerKey", "role", "applyMode", "autoSubmit"}
)

// maxName bounds an office's name, shown on the patient's screens.
const maxName = 100

// parser collects a file's offices and problems.
type parser struct {
	file     string
	offices  []Office
	problems []Problem
	keys     map[string]keyUse // entity key → where it was first given
	groups   map[string]keyUse // group id → the office that gave its groupHelp
}

type keyUse struct {
	office string
	line   int
}

func (p *parser) problem(line int, office, text string) {
	p.problems = append(p.problems, Problem{File: p.file, Line: line, Office: office, Text: text})
}

// office reads and checks the i-th entry of the list.
func (p *parser) office(i int, n *yaml.Node) {
	label := officeLabel(n, i)
	f := p.fields(n, label, "an office", officeFields)
	if f == nil {
		return
	}
	var l chairside.Location
	var line int
	l.EntityKey, line = p.str(f, "entityKey", label)
	switch first, dup := p.keys[l.EntityKey]; {
	case l.EntityKey == "":
		p.problem(n.Line, label, "entityKey is missing: every office needs its 16-digit entity key")
	case len(l.EntityKey) != 16 || strings.Trim(l.EntityKey, "0123456789") != "":
		p.problem(line, label, fmt.Sprintf("entity key %q is not 16 digits", l.EntityKey))
	case dup:
		p.problem(line, label, fmt.Sprintf("entity key %s is already office %q's (line %d)", l.EntityKey, first.office, first.line))
	default:
		p.keys[l.EntityKey] = keyUse{office: label, line: line}
	}
	l.Name, line = p.str(f, "name", label)
	if l.Name == "" {
		p.problem(n.Line, label, "name is missing: the office's name is shown to its patients")
	} else if len(l.Name) > maxName || strings.ContainsAny(l.Name, "\r\n\t") {
		p.problem(line, label, fmt.Sprintf("the name must be at most %d characters on one line", maxName))
	}
	l.State, line = p.str(f, "state", label)
	state := l.State
	if !catalogue.ValidState(l.State) {
		state = "" // no lender can be checked against it
		if l.State == "" {
			p.problem(n.Line, label, "state is missing: give the office's state as two capital letters, such as CA")
		} else {
			p.problem(line, label, fmt.Sprintf("state %q is not one of the 50 states or DC (two capital letters, such as CA)", l.State))
		}
	}
	l.GroupID, _ = p.str(f, "groupId", label)
	l.BrandName, _ = p.str(f, "brandName", label)
	l.BrandLogo, line = p.str(f, "brandLogo", label)
	if l.BrandLogo != "" && !strings.HasPrefix(l.BrandLogo, "/") && !strings.HasPrefix(l.BrandLogo, "https://") {
		p.problem(line, label, "brandLogo must be a path served with the web app (/logos/…) or an https:// address")
	}
	var lang string
	lang, line = p.str(f, "language", label)
	if lang != "" {
		if l2, ok := locale.Parse(lang); ok && string(l2) == lang {
			l.Language = lang
		} else {
			p.problem(line, label, fmt.Sprintf("language %q is not one we speak: en or es", lang))
		}
	}
	l.TextSender, line = p.str(f, "textSender", label)
	if l.TextSender != "" {
		if _, err := messaging.ParseSender(l.TextSender); err != nil {
			p.problem(line, label, "textSender: "+err.Error())
		}
	}
	l.PurchaserEnabled = p.flag(f, "purchaserEnabled", label)
	l.Waterfall = p.waterfall(f["waterfall"], n.Line, label, state)
	o := Office{Location: l, Line: n.Line, Help: []*chairside.HelpOverride{}}
	if v := f["help"]; v != nil {
		o.Help = p.help(v, label, "help")
	}
	if v := f["groupHelp"]; v != nil {
		o.GroupHelp = p.groupHelp(v, label, l.GroupID)
	}
	p.offices = append(p.offices, o)
}

// groupHelp reads the help content of an office's group: the group must be
// named, and only one office of the file may give its content.
func (p *parser) groupHelp(v *yaml.Node, label, group string) []*chairside.HelpOverride {
	if group == "" {
		p.problem(v.Line, label, "groupHelp needs the office's groupId: it is the content of every office of that group")
		return nil
	}
	if first, dup := p.groups[group]; dup {
		p.problem(v.Line, label, fmt.Sprintf("the help of group %q is already given by office %q (line %d)", group, first.office, first.line))
		return nil
	}
	p.groups[group] = keyUse{office: label, line: v.Line}
	return p.help(v, label, "groupHelp")
}

// waterfall reads and checks an office's lenders (catalogue.CheckStep), and
// that none is listed twice.
func (p *parser) waterfall(v *yaml.Node, officeLine int, label, state string) []chairside.WaterfallStep {
	if v == nil {
		p.problem(officeLine, label, "waterfall is missing: list the office's lenders, the first with role primary")
		return nil
	}
	if v.Kind != yaml.SequenceNode || len(v.Content) == 0 {
		p.problem(v.Line, label, "the waterfall must list at least one lender, the first with role primary")
		return nil
	}
	var steps []chairside.WaterfallStep
	listed := map[string]int{} // lender → line
	for i, n := range v.Content {
		f := p.fields(n, label, "a waterfall step", stepFields)
		if f == nil {
			continue
		}
		var st chairside.WaterfallStep
		var line int
		st.LenderKey, line = p.str(f, "providerKey", label)
		st.Role, _ = p.str(f, "role", label)
		st.ApplyMode, _ = p.str(f, "applyMode", label)
		if a := f["autoSubmit"]; a != nil && a.Decode(&st.AutoSubmit) != nil {
			p.problem(a.Line, label, fmt.Sprintf("autoSubmit must be true or false, not %q", a.Value))
		}
		base, _ := catalogue.ParseKey(st.LenderKey)
		switch prev, twice := listed[base]; {
		case st.LenderKey == "":
			p.problem(n.Line, label, "a waterfall step has no providerKey (the lender, such as synchrony_standard)")
		case st.Role == "":
			p.problem(n.Line, label, fmt.Sprintf("lender %q has no role (primary for the first lender)", base))
		case st.ApplyMode == "":
			p.problem(n.Line, label, fmt.Sprintf("lender %q has no applyMode (full, prequalify or prescreen)", base))
		case twice:
			p.problem(line, label, fmt.Sprintf("lender %q is listed twice (also on line %d)", base, prev))
		default:
			if msg := catalogue.CheckStep(i, st, state); msg != "" {
				p.problem(line, label, msg)
			}
		}
		listed[base] = line
		steps = append(steps, st)
	}
	return steps
}

// fields answers a mapping's values by field name, reporting a node that
// is not a mapping, and unknown and repeated fields; nil when n is not a
// mapping.
func (p *parser) fields(n *yaml.Node, label, what string, known []string) map[string]*yaml.Node {
	if n.Kind != yaml.MappingNode {
		p.problem(n.Line, label, fmt.Sprintf("%s must be a set of fields (%s)", what, strings.Join(known, ", ")))
		return nil
	}
	out := map[string]*yaml.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch {
		case !slices.Contains(known, k.Value):
			p.problem(k.Line, label, fmt.Sprintf("%q is not a field of %s (they are %s)", k.Value, what, strings.Join(known, ", ")))
		case out[k.Value] != nil:
			p.problem(k.Line, label, fmt.Sprintf("%s is given twice", k.Value))
		default:
			out[k.Value] = v
		}
	}
	return out
}

// str answers a text field and its line: "" when it is absent or empty.
func (p *parser) str(f map[string]*yaml.Node, key, label string) (string, int) {
	v := f[key]
	switch {
	case v == nil:
		return "", 0
	case v.Kind != yaml.ScalarNode:
		p.problem(v.Line, label, fmt.Sprintf("%s must be a single value, not a list or a set of fields", key))
		return "", v.Line
	case v.Tag == "!!null":
		return "", v.Line
	}
	return strings.TrimSpace(v.Value), v.Line
}

// flag answers a true-or-false field: false when it is absent, a problem
// when it is anything else (a misspelt true would otherwise be false).
func (p *parser) flag(f map[string]*yaml.Node, key, label string) bool {
	var b bool
	if v := f[key]; v != nil && v.Decode(&b) != nil {
		p.problem(v.Line, label, fmt.Sprintf("%s must be true or false, not %q", key, v.Value))
	}
	return b
}

// officeLabel names the i-th office in messages: by its name, else its
// entity key, else its place in the list.
func officeLabel(n *yaml.Node, i int) string {
	var key string
	for j := 0; n.Kind == yaml.MappingNode && j+1 < len(n.Content); j += 2 {
		k, v := n.Content[j], n.Content[j+1]
		if v.Kind != yaml.ScalarNode || strings.TrimSpace(v.Value) == "" {
			continue
		}
		switch k.Value {
		case "name":
			return strings.TrimSpace(v.Value)
		case "entityKey":
			key = strings.TrimSpace(v.Value)
		}
	}
	if key != "" {
		return key
	}
	return fmt.Sprintf("number %d", i+1)
}
