package flow

import (
	"bytes"
	"strconv"
	"testing"
)

// counted counts its encodings.
type counted struct {
	N     int `json:"n"`
	calls *int
}

func (c counted) MarshalJSON() ([]byte, error) {
	*c.calls++
	return []byte(`{"n":` + strconv.Itoa(c.N) + `}`), nil
}

// TestStepAnswerEncodesOnce: a step's answer is encoded once, for its
// record; its JSON is then the recorded slice itself, for the first
// request (value known) and a repeat (value decoded only when asked for).
// An answer changed after its record is encoded from its value.
func TestStepAnswerEncodesOnce(t *testing.T) {
	calls := 0
	v := &counted{N: 1, calls: &calls}
	body, err := encodeAnswer(v)
	if err != nil || calls != 1 {
		t.Fatalf("record: %s, %v, %d encodings", body, err, calls)
	}
	first := recorded(body, v)
	for range 2 {
		got, err := first.JSON()
		if err != nil || &got[0] != &body[0] || len(got) != len(body) {
			t.Fatalf("first answer: %s, %v: not the recorded slice", got, err)
		}
	}
	if calls != 1 {
		t.Fatalf("the first answer was encoded again: %d encodings", calls)
	}

	repeat := recorded[counted](body, nil)
	if got, _ := repeat.JSON(); &got[0] != &body[0] {
		t.Fatal("the repeat's answer is not the recorded slice")
	}
	if repeat.value != nil {
		t.Fatal("the repeat was decoded to be written")
	}
	if got, err := repeat.Value(); err != nil || got.N != 1 {
		t.Fatalf("the repeat's value: %+v, %v", got, err)
	}

	changed := *v
	changed.N = 2
	first.change(&changed)
	if got, err := first.JSON(); err != nil || !bytes.Equal(got, []byte(`{"n":2}`)) || calls != 2 {
		t.Fatalf("a changed answer: %s, %v, %d encodings", got, err, calls)
	}
}
