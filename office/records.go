package office

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/pms"
)

// An office's own records (docs/practice-records.md): the manager connects
// the office's practice-management system with the key the practice made
// for Chairside; the desk then finds the patient it invites there, and
// their saved treatment plans.

// RecordsView is what the office's screens show of its connection; never
// the key itself, only its last characters.
type RecordsView struct {
	// Available: this server can connect offices (it has Chairside's
	// developer key).
	Available bool       `json:"available"`
	Connected bool       `json:"connected"`
	System    string     `json:"system,omitempty"`
	PostOn    string     `json:"postOn,omitempty"`
	State     string     `json:"state,omitempty"`
	Detail    string     `json:"detail,omitempty"`
	CheckedAt *time.Time `json:"checkedAt,omitempty"`
	KeyEnd    string     `json:"keyEnd,omitempty"`
}

// RecordsRequest connects the office: the customer key the practice made
// for Chairside in Open Dental, and when payments are posted.
type RecordsRequest struct {
	CustomerKey string `json:"customerKey"`
	PostOn      string `json:"postOn"`
}

// Records answers the office's connection.
func (s *Service) Records(ctx context.Context, c *Caller) (*RecordsView, error) {
	v := &RecordsView{Available: s.Bridge != nil}
	conn, err := s.store.RecordsConnection(ctx, c.Location.ID)
	if chairside.ErrorCode(err) == chairside.ENOTFOUND {
		return v, nil
	} else if err != nil {
		return nil, err
	}
	return s.recordsView(conn), nil
}

func (s *Service) recordsView(conn *chairside.RecordsConnection) *RecordsView {
	at := conn.CheckedAt
	end := conn.CustomerKey
	if len(end) > 4 {
		end = end[len(end)-4:]
	}
	return &RecordsView{Available: s.Bridge != nil, Connected: true, System: conn.System, PostOn: conn.PostOn, State: conn.State,
		Detail: conn.Detail, CheckedAt: &at, KeyEnd: end}
}

// ConnectRecords checks the key with the practice's system and, when it
// works, keeps it (sealed) for the office. A key the system refuses is
// not kept: the manager is told what to check.
func (s *Service) ConnectRecords(ctx context.Context, c *Caller, req RecordsRequest) (*RecordsView, error) {
	if s.Bridge == nil {
		return nil, chairside.Errorf(chairside.ECONFLICT, "This server cannot connect practice records yet: its operator must set Chairside's Open Dental developer key.")
	}
	req.CustomerKey = strings.TrimSpace(req.CustomerKey)
	var fe []chairside.FieldError
	if req.CustomerKey == "" || len(req.CustomerKey) > 100 || strings.ContainsAny(req.CustomerKey, " /\t\r\n") {
		fe = append(fe, chairside.FieldError{Field: "customerKey", Message: "Enter the customer key Open Dental made for Chairside (Setup, Advanced Setup, API)."})
	}
	if req.PostOn != chairside.RecordsPostSigned && req.PostOn != chairside.RecordsPostFunded {
		fe = append(fe, chairside.FieldError{Field: "postOn", Message: "Choose when the payment goes on the patient's ledger."})
	}
	if len(fe) > 0 {
		return nil, &chairside.Error{Code: chairside.EINVALID, Message: "Please check the connection's details.", FieldErrors: fe}
	}
	// Created on the service's clock, the one money facts are dated by:
	// only facts from then on are posted (store.RecordsCandidates).
	now := s.Now().UTC()
	conn := &chairside.RecordsConnection{LocationID: c.Location.ID, System: chairside.RecordsOpenDental, CustomerKey: req.CustomerKey,
		PostOn: req.PostOn, State: chairside.RecordsConnected, CheckedAt: now, CreatedAt: now}
	cctx, cancel := context.WithTimeout(ctx, recordsTimeout)
	defer cancel()
	if err := s.Bridge(conn).Check(cctx); err != nil {
		if errors.Is(err, pms.ErrRefused) {
			return nil, &chairside.Error{Code: chairside.EINVALID, Message: "Open Dental refused this key.", FieldErrors: []chairside.FieldError{{Field: "customerKey",
				Message: "Open Dental refused this key. Check that the API is enabled and this key is listed and enabled in Open Dental (Setup, Advanced Setup, API)."}}}
		}
		return nil, recordsError(err)
	}
	if err := s.store.SaveRecordsConnection(ctx, conn); err != nil {
		return nil, err
	}
	s.did(ctx, c, chairside.AuditRecordsConnected, fmt.Sprintf("connected Open Dental (key ending %s), posting when %s", s.recordsView(conn).KeyEnd, req.PostOn))
	return s.recordsView(conn), nil
}

// DisconnectRecords forgets the office's connection and its key.
func (s *Service) DisconnectRecords(ctx context.Context, c *Caller) error {
	if err := s.store.DeleteRecordsConnection(ctx, c.Location.ID); err != nil {
		return err
	}
	s.did(ctx, c, chairside.AuditRecordsDisconnected, "disconnected the practice records")
	return nil
}

// recordsTimeout bounds one call to the practice's system from a screen:
// the desk is waiting.
const recordsTimeout = 15 * time.Second

// bridge answers the office's connected system; ECONFLICT when none.
func (s *Service) bridge(ctx context.Context, c *Caller) (pms.Bridge, error) {
	if s.Bridge == nil {
		return nil, chairside.Errorf(chairside.ECONFLICT, "Practice records are not set up on this server.")
	}
	conn, err := s.store.RecordsConnection(ctx, c.Location.ID)
	if chairside.ErrorCode(err) == chairside.ENOTFOUND {
		return nil, chairside.Errorf(chairside.ECONFLICT, "Your office has not connected Open Dental yet: your office manager can, under Practice records.")
	} else if err != nil {
		return nil, err
	}
	return s.Bridge(conn), nil
}

// FindRecordPatients searches the office's system for the patient the
// desk is inviting: by chart number, or last name with a first name or a
// date of birth. Each search is in the audit log (it reads health
// records).
func (s *Service) FindRecordPatients(ctx context.Context, c *Caller, q pms.Query) ([]pms.Patient, error) {
	q.ID, q.LastName, q.FirstName = strings.TrimSpace(q.ID), strings.TrimSpace(q.LastName), strings.TrimSpace(q.FirstName)
	if q.ID == "" && len(q.LastName) < 2 {
		return nil, &chairside.Error{Code: chairside.EINVALID, Message: "Enter a chart number, or at least two letters of the last name.",
			FieldErrors: []chairside.FieldError{{Field: "lastName", Message: "Enter a chart number, or at least two letters of the last name."}}}
	}
	if q.Birthdate != "" {
		if _, err := time.Parse(time.DateOnly, q.Birthdate); err != nil {
			return nil, &chairside.Error{Code: chairside.EINVALID, Message: "Enter the date of birth as a date.",
				FieldErrors: []chairside.FieldError{{Field: "birthdate", Message: "Enter the date of birth as a date."}}}
		}
	}
	var found []pms.Patient
	if err := s.withBridge(ctx, c, func(ctx context.Context, b pms.Bridge) (err error) {
		found, err = b.FindPatients(ctx, q)
		return err
	}); err != nil {
		return nil, err
	}
	s.did(ctx, c, chairside.AuditRecordsSearched, fmt.Sprintf("searched the practice records: %d patient(s) found", len(found)))
	return found, nil
}

// RecordPatient is a patient of the office's system with their saved
// treatment plans, each with its sums (the patient's share is what an
// invitation proposes to finance).
type RecordPatient struct {
	Patient pms.Patient  `json:"patient"`
	Plans   []RecordPlan `json:"plans"`
}

// RecordPlan is a saved treatment plan and its sums.
type RecordPlan struct {
	pms.TreatmentPlan
	Totals pms.Totals `json:"totals"`
}

// FindRecordPatient reads one patient of the office's system and their
// saved treatment plans.
func (s *Service) FindRecordPatient(ctx context.Context, c *Caller, id string) (*RecordPatient, error) {
	var p *pms.Patient
	var plans []pms.TreatmentPlan
	if err := s.withBridge(ctx, c, func(ctx context.Context, b pms.Bridge) (err error) {
		if p, err = b.Patient(ctx, id); err != nil {
			return err
		}
		plans, err = b.TreatmentPlans(ctx, id)
		return err
	}); err != nil {
		return nil, err
	}
	out := &RecordPatient{Patient: *p, Plans: []RecordPlan{}}
	for _, tp := range plans {
		out.Plans = append(out.Plans, RecordPlan{TreatmentPlan: tp, Totals: tp.Totals()})
	}
	s.did(ctx, c, chairside.AuditRecordsViewed, "read a patient's record and treatment plans (chart "+id+")")
	return out, nil
}

// withBridge calls the office's system from a screen, within the time a
// desk waits, and answers its failure in staff's words.
func (s *Service) withBridge(ctx context.Context, c *Caller, fn func(context.Context, pms.Bridge) error) error {
	b, err := s.bridge(ctx, c)
	if err != nil {
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, recordsTimeout)
	defer cancel()
	if err := fn(cctx, b); err != nil {
		return s.recordsFailed(ctx, c, err)
	}
	return nil
}

// recordsFailed records how the system answered when it refused the key
// (the manager's screen then says so) and answers the error in staff's
// words.
func (s *Service) recordsFailed(ctx context.Context, c *Caller, err error) error {
	if errors.Is(err, pms.ErrRefused) {
		if serr := s.store.SetRecordsState(ctx, c.Location.ID, chairside.RecordsRefused, "Open Dental refused Chairside's key.", s.Now().UTC()); serr != nil {
			s.log.ErrorContext(ctx, "records state", "err", serr.Error())
		}
	}
	return recordsError(err)
}

// recordsError is a bridge's error in staff's words.
func recordsError(err error) error {
	switch {
	case errors.Is(err, pms.ErrRefused):
		return chairside.Errorf(chairside.ECONFLICT, "Open Dental refused Chairside's key. Your office manager can check it under Practice records.")
	case errors.Is(err, pms.ErrNotFound):
		return chairside.Errorf(chairside.ENOTFOUND, "Open Dental has no such patient.")
	case errors.Is(err, pms.ErrInvalid):
		return chairside.Errorf(chairside.EBADREQUEST, "Open Dental refused the request.")
	case errors.Is(err, pms.ErrUnavailable), errors.Is(err, context.DeadlineExceeded):
		return chairside.Errorf(chairside.ELENDER, "Open Dental did not answer. Check that the practice's eConnector is running, then try again.")
	}
	return err
}

// recordPrefill reads again the patient an invitation is made for, from
// the office's system, for the patient's form: their date of birth and
// address, and their id there (nil without one). The browser's copy is
// not trusted for either.
func (s *Service) recordPrefill(ctx context.Context, c *Caller, id string) (*chairside.RecordPrefill, error) {
	if id == "" {
		return nil, nil
	}
	var p *pms.Patient
	if err := s.withBridge(ctx, c, func(ctx context.Context, b pms.Bridge) (err error) {
		p, err = b.Patient(ctx, id)
		return err
	}); err != nil {
		return nil, err
	}
	zip := p.ZIP
	if len(zip) > 5 {
		zip = zip[:5]
	}
	return &chairside.RecordPrefill{PatientID: p.ID, Birthdate: p.Birthdate, Address1: p.Address, Address2: p.Address2, City: p.City,
		State: p.State, ZIP: zip}, nil
}
