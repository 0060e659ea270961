// Package odsim is a stand-in for Open Dental's REST API, for development
// and tests, in the binary as the lender simulator is: a small seeded
// practice (patients, saved treatment plans with their procedures) and a
// ledger of payments, behind the calls Chairside makes, with the faults a
// real practice's connection shows — slow answers, 5xx, a revoked key
// (401), and a payment that is written but whose answer is lost.
//
// Its answers mimic Open Dental's conventions: PascalCase fields, dates
// yyyy-MM-dd, and money sometimes as a number and sometimes as a string.
package odsim

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Keys of the stand-in inside `chairside serve -messaging-standins`: the
// developer key is the server's own, the customer key the one a manager
// types to connect an office (docs/running.md).
const (
	StandinDeveloperKey = "CHAIRSIDEDEVKEY0"
	StandinCustomerKey  = "CHAIRSIDESTANDIN"
)

// Patient is a seeded patient.
type Patient struct {
	PatNum                        int
	FName, LName, MiddleI         string
	Birthdate                     string
	Address, City, State, Zip     string
	WirelessPhone, HmPhone, Email string
	Language                      string
	TxtMsgOk                      string
	Plans                         []Plan
	EstBalance                    float64
}

// Plan is a saved treatment plan.
type Plan struct {
	TreatPlanNum int
	Heading      string
	Signed       bool
	Procedures   []Procedure
}

// Procedure is a line of a plan, in dollars as Open Dental keeps them.
type Procedure struct {
	ProcCode, Descript                             string
	FeeAmt, PriInsAmt, SecInsAmt, PatAmt, Discount float64
}

// Payment is a payment on the ledger.
type Payment struct {
	PayNum    int    `json:"PayNum"`
	PatNum    int    `json:"PatNum"`
	PayAmt    string `json:"PayAmt"`
	PayDate   string `json:"PayDate"`
	DateEntry string `json:"DateEntry"`
	CheckNum  string `json:"CheckNum"`
	PayNote   string `json:"PayNote"`
}

// Sim is the stand-in: one practice, its two keys.
type Sim struct {
	DeveloperKey, CustomerKey string

	mu       sync.Mutex
	patients []*Patient
	payments []Payment
	nextPay  int
	revoked  bool
	slow     time.Duration
	fail5xx  int           // the next n calls answer 500
	loseNext int           // the next n payment posts are written, their answers lost
	hold     time.Duration // how long a payment post's answer waits after the write
	calls    map[string]int
	now      func() time.Time
}

// New is a stand-in with the seeded practice (Seed).
func New(developerKey, customerKey string) *Sim {
	return &Sim{DeveloperKey: developerKey, CustomerKey: customerKey, patients: Seed(), nextPay: 9001,
		calls: map[string]int{}, now: time.Now}
}

// Seed is the practice: four patients, three with saved plans.
func Seed() []*Patient {
	return []*Patient{
		{PatNum: 15, FName: "Maria", LName: "Lopez", MiddleI: "J", Birthdate: "1984-03-09", Address: "1200 Maple Street", City: "Portland",
			State: "OR", Zip: "97205", WirelessPhone: "(503) 555-0142", Email: "maria.lopez@example.com", Language: "spa", TxtMsgOk: "Yes",
			Plans: []Plan{{TreatPlanNum: 301, Heading: "Crowns and root canal", Procedures: []Procedure{
				{ProcCode: "D3330", Descript: "Root canal, molar", FeeAmt: 1450, PriInsAmt: 725, PatAmt: 725},
				{ProcCode: "D2740", Descript: "Crown, porcelain", FeeAmt: 1600, PriInsAmt: 500, SecInsAmt: 100, PatAmt: 1000},
				{ProcCode: "D2950", Descript: "Core buildup", FeeAmt: 325, PriInsAmt: 162.5, PatAmt: 142.5, Discount: 20},
			}}, {TreatPlanNum: 302, Heading: "Whitening (not covered)", Procedures: []Procedure{
				{ProcCode: "D9972", Descript: "External bleaching", FeeAmt: 450, PatAmt: 450},
			}}}},
		{PatNum: 16, FName: "James", LName: "Okafor", Birthdate: "1971-11-30", Address: "88 Alder Ave", City: "Beaverton", State: "OR",
			Zip: "97005", WirelessPhone: "5035550187", Email: "j.okafor@example.com", Language: "", TxtMsgOk: "Unknown",
			Plans: []Plan{{TreatPlanNum: 305, Heading: "Implant", Signed: true, Procedures: []Procedure{
				{ProcCode: "D6010", Descript: "Implant body", FeeAmt: 3200, PriInsAmt: 1000, PatAmt: 2200},
			}}}},
		{PatNum: 17, FName: "Ana", LName: "Lopez", Birthdate: "2009-06-01", Address: "1200 Maple Street", City: "Portland", State: "OR",
			Zip: "97205", HmPhone: "5035550100", Language: "spa", TxtMsgOk: "No"},
		// The sandbox lenders approve a patient named Approve: a whole
		// journey from the record to the ledger (web/e2e/records.spec.ts).
		{PatNum: 18, FName: "Pat", LName: "Approve", Birthdate: "1979-08-14", Address: "410 Cedar Lane", City: "San Diego", State: "CA",
			Zip: "92101", WirelessPhone: "6195550188", Email: "pat.approve@example.com", Language: "eng", TxtMsgOk: "Yes",
			Plans: []Plan{{TreatPlanNum: 310, Heading: "Bridge, three units", Procedures: []Procedure{
				{ProcCode: "D6240", Descript: "Pontic, porcelain", FeeAmt: 1400, PriInsAmt: 560, PatAmt: 840},
				{ProcCode: "D6750", Descript: "Retainer crown (two)", FeeAmt: 2800, PriInsAmt: 1120, PatAmt: 1680},
			}}}},
	}
}

// Revoke makes every call answer 401 (the practice disabled the key),
// until Restore.
func (s *Sim) Revoke() { s.set(func() { s.revoked = true }) }

// Restore undoes Revoke.
func (s *Sim) Restore() { s.set(func() { s.revoked = false }) }

// Slow delays every answer by d (0: none).
func (s *Sim) Slow(d time.Duration) { s.set(func() { s.slow = d }) }

// Fail makes the next n calls answer 500.
func (s *Sim) Fail(n int) { s.set(func() { s.fail5xx = n }) }

// LoseAnswers makes the next n payment posts write the payment and then
// drop the connection without an answer.
func (s *Sim) LoseAnswers(n int) { s.set(func() { s.loseNext = n }) }

// HoldAnswers makes payment posts write the payment, then wait d before
// answering: a caller killed meanwhile never hears of it (0: at once).
func (s *Sim) HoldAnswers(d time.Duration) { s.set(func() { s.hold = d }) }

func (s *Sim) set(fn func()) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fn()
}

// Payments answers the ledger's payments of a patient.
func (s *Sim) Payments(patNum int) []Payment {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Payment
	for _, p := range s.payments {
		if p.PatNum == patNum {
			out = append(out, p)
		}
	}
	return out
}

// Calls answers how often a call ("POST /payments") was made.
func (s *Sim) Calls(call string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.calls[call]
}

var idPath = regexp.MustCompile(`^/patients/(\d+)$`)

// ServeHTTP serves the API under its own root (/patients …): mount it
// with http.StripPrefix under the path a client's base URL names.
func (s *Sim) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	authorized := r.Header.Get("Authorization") == "ODFHIR "+s.DeveloperKey+"/"+s.CustomerKey
	s.mu.Lock()
	s.calls[r.Method+" "+r.URL.Path]++
	slow := s.slow
	authorized = authorized && !s.revoked
	fail := authorized && s.fail5xx > 0 // a refused key spends no failure
	if fail {
		s.fail5xx--
	}
	s.mu.Unlock()
	if slow > 0 {
		select {
		case <-time.After(slow):
		case <-r.Context().Done():
			return
		}
	}
	switch {
	case !authorized:
		http.Error(w, "Invalid or disabled API key.", http.StatusUnauthorized)
		return
	case fail:
		http.Error(w, "Error: the eConnector did not respond.", http.StatusInternalServerError)
		return
	}
	q := r.URL.Query()
	switch m := idPath.FindStringSubmatch(r.URL.Path); {
	case r.Method == http.MethodGet && r.URL.Path == "/patients/Simple":
		s.answer(w, http.StatusOK, s.simple())
	case r.Method == http.MethodGet && r.URL.Path == "/patients":
		s.answer(w, http.StatusOK, s.search(q.Get("LName"), q.Get("FName"), q.Get("Birthdate")))
	case r.Method == http.MethodGet && m != nil:
		n, _ := strconv.Atoi(m[1])
		if p := s.patient(n); p != nil {
			s.answer(w, http.StatusOK, patientJSON(p))
		} else {
			http.Error(w, "Patient not found.", http.StatusNotFound)
		}
	case r.Method == http.MethodGet && r.URL.Path == "/treatplans":
		s.answer(w, http.StatusOK, s.plans(q.Get("PatNum"), q.Get("TPStatus")))
	case r.Method == http.MethodGet && r.URL.Path == "/proctps":
		s.answer(w, http.StatusOK, s.procedures(q.Get("TreatPlanNum")))
	case r.Method == http.MethodGet && r.URL.Path == "/payments":
		s.answer(w, http.StatusOK, s.listPayments(q.Get("PatNum"), q.Get("DateEntry")))
	case r.Method == http.MethodPost && r.URL.Path == "/payments":
		s.postPayment(w, r)
	default:
		http.Error(w, "Not found.", http.StatusNotFound)
	}
}

func (s *Sim) answer(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Sim) patient(n int) *Patient {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.patients {
		if p.PatNum == n {
			return p
		}
	}
	return nil
}

func (s *Sim) simple() []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []map[string]any{}
	for _, p := range s.patients {
		out = append(out, map[string]any{"PatNum": p.PatNum, "LName": p.LName, "FName": p.FName})
	}
	return out
}

// search matches the last name's start and, when given, the first
// name's start and the date of birth, as Open Dental's search does.
func (s *Sim) search(last, first, birth string) []map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []map[string]any{}
	for _, p := range s.patients {
		if last == "" || !strings.HasPrefix(strings.ToLower(p.LName), strings.ToLower(last)) ||
			(first != "" && !strings.HasPrefix(strings.ToLower(p.FName), strings.ToLower(first))) || (birth != "" && p.Birthdate != birth) {
			continue
		}
		out = append(out, patientJSON(p))
	}
	return out
}

// patientJSON is a patient as Open Dental answers it: a number for the
// id, the balance as a number, the text-message consent as a word.
func patientJSON(p *Patient) map[string]any {
	return map[string]any{"PatNum": p.PatNum, "LName": p.LName, "FName": p.FName, "MiddleI": p.MiddleI, "Birthdate": p.Birthdate,
		"Address": p.Address, "Address2": "", "City": p.City, "State": p.State, "Zip": p.Zip, "WirelessPhone": p.WirelessPhone,
		"HmPhone": p.HmPhone, "Email": p.Email, "Language": p.Language, "TxtMsgOk": p.TxtMsgOk, "Guarantor": p.PatNum,
		"EstBalance": p.EstBalance, "BalTotal": p.EstBalance, "ClinicNum": 0, "SSN": ""}
}

func (s *Sim) plans(patNum, status string) []map[string]any {
	n, _ := strconv.Atoi(patNum)
	p := s.patient(n)
	out := []map[string]any{}
	if p == nil || (status != "" && status != "Saved") {
		return out
	}
	for _, tp := range p.Plans {
		signed, date := "false", "0001-01-01 00:00:00"
		if tp.Signed {
			signed, date = "true", "2026-11-20 10:15:00"
		}
		out = append(out, map[string]any{"TreatPlanNum": tp.TreatPlanNum, "PatNum": p.PatNum, "Heading": tp.Heading,
			"TPStatus": "Saved", "isSigned": signed, "DateTSigned": date})
	}
	return out
}

// procedures answers a plan's lines with the fee as a number and the
// other amounts as strings, as Open Dental mixes them.
func (s *Sim) procedures(planNum string) []map[string]any {
	n, _ := strconv.Atoi(planNum)
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []map[string]any{}
	for _, p := range s.patients {
		for _, tp := range p.Plans {
			if tp.TreatPlanNum != n {
				continue
			}
			for _, l := range tp.Procedures {
				out = append(out, map[string]any{"TreatPlanNum": n, "PatNum": p.PatNum, "ProcCode": l.ProcCode, "Descript": l.Descript,
					"FeeAmt": l.FeeAmt, "PriInsAmt": dollars(l.PriInsAmt), "SecInsAmt": dollars(l.SecInsAmt), "PatAmt": dollars(l.PatAmt),
					"Discount": dollars(l.Discount)})
			}
		}
	}
	return out
}

func dollars(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

func (s *Sim) listPayments(patNum, day string) []Payment {
	n, _ := strconv.Atoi(patNum)
	out := []Payment{}
	for _, p := range s.Payments(n) {
		if day == "" || p.DateEntry == day {
			out = append(out, p)
		}
	}
	return out
}

// postPayment writes a payment; with a lost answer pending, it drops the
// connection after writing, as a network failure after the commit would.
func (s *Sim) postPayment(w http.ResponseWriter, r *http.Request) {
	var in struct {
		PatNum   json.Number `json:"PatNum"`
		PayAmt   string      `json:"PayAmt"`
		PayDate  string      `json:"PayDate"`
		CheckNum string      `json:"CheckNum"`
		PayNote  string      `json:"PayNote"`
	}
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<16)).Decode(&in); err != nil {
		http.Error(w, "PatNum, PayAmt and PayDate are required.", http.StatusBadRequest)
		return
	}
	n, _ := strconv.Atoi(in.PatNum.String())
	if s.patient(n) == nil {
		http.Error(w, "PatNum is invalid.", http.StatusBadRequest)
		return
	}
	if _, err := strconv.ParseFloat(in.PayAmt, 64); err != nil || in.PayDate == "" {
		http.Error(w, "PayAmt and PayDate are required.", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	p := Payment{PayNum: s.nextPay, PatNum: n, PayAmt: in.PayAmt, PayDate: in.PayDate, DateEntry: s.now().Format(time.DateOnly),
		CheckNum: in.CheckNum, PayNote: in.PayNote}
	s.nextPay++
	s.payments = append(s.payments, p)
	lose := s.loseNext > 0
	if lose {
		s.loseNext--
	}
	hold := s.hold
	s.mu.Unlock()
	if hold > 0 {
		select {
		case <-time.After(hold):
		case <-r.Context().Done():
			return
		}
	}
	if lose {
		if hj, ok := w.(http.Hijacker); ok {
			if conn, _, err := hj.Hijack(); err == nil {
				_ = conn.Close()
				return
			}
		}
		panic(http.ErrAbortHandler)
	}
	s.answer(w, http.StatusCreated, p)
}
