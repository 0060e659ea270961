package flow

import (
	"encoding/json"
	"fmt"
)

// StepAnswer is the answer of a lender step (step.go): its JSON, encoded
// once, when the step's lender call is recorded, and the value for callers
// in Go. The HTTP layer writes the JSON as it is, to the first request and
// to every repeat alike, so an answer is neither encoded a second time for
// the first request nor decoded and encoded again for a repeat.
//
// Where the answer given is not the record — the lender's steps still open
// are added after it (withOpenSteps), a fresh quiz after a failed attempt,
// a credit limit change the lender did not answer — the value is kept
// alone and encoded when written, as any other answer.
type StepAnswer[T any] struct {
	body  []byte // the JSON as recorded; nil when the value is not the record
	value *T     // nil for a repeat until Value decodes body
	// written is the value this very request recorded (the first
	// request's); nil for a repeat, whose record may be older than what
	// the database holds now.
	written *T
}

// recorded is the answer whose JSON body the step's lender call holds; v,
// when not nil, is the value body was encoded from (the first request's).
// A nil body is an answer not recorded: v alone.
func recorded[T any](body []byte, v *T) *StepAnswer[T] {
	return &StepAnswer[T]{body: body, value: v, written: v}
}

// notRecorded is an answer that is not the record: encoded when written.
func notRecorded[T any](v *T) *StepAnswer[T] {
	return &StepAnswer[T]{value: v}
}

// encodeAnswer is the one encoding of lender step answers: for the record
// and for an answer that is not the record alike. It is encoding/json, as
// the HTTP layer encodes every other answer, so that an answer written from
// the record is byte for byte the one the value would have given.
func encodeAnswer(v any) ([]byte, error) {
	return json.Marshal(v)
}

// Value answers the answer's value, decoding a repeat's recorded JSON the
// first time it is asked for. It is for reading: the JSON stays what was
// recorded whatever is done to the value.
func (a *StepAnswer[T]) Value() (*T, error) {
	if a.value == nil {
		var v T
		if err := json.Unmarshal(a.body, &v); err != nil {
			return nil, fmt.Errorf("flow: recorded answer: %w", err)
		}
		a.value = &v
	}
	return a.value, nil
}

// JSON answers the answer's JSON, without a trailing newline: the bytes of
// the record as they are, or the value encoded when it is not the record.
// The bytes may be the record's own: they must not be changed.
func (a *StepAnswer[T]) JSON() ([]byte, error) {
	if a.body != nil {
		return a.body, nil
	}
	return encodeAnswer(a.value)
}

// MarshalJSON encodes the answer as its JSON wherever it is encoded.
func (a *StepAnswer[T]) MarshalJSON() ([]byte, error) {
	return a.JSON()
}

// change gives the answer a value that is not the record's (the record's
// with something added), which is then encoded when written.
func (a *StepAnswer[T]) change(v *T) {
	a.value, a.body = v, nil
}
