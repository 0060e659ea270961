package main

import (
	"slices"
	"testing"
	"time"
)

// The closed loop is measured in rounds beside the durable write
// (closedRounds); the report adds them up into one run.
func TestMeasuredAddMergesRounds(t *testing.T) {
	a := measured{res: &loadResult{Calls: 2, ElapsedMS: 10, Latencies: []int64{5, 40}, ByCall: map[string][]int64{"POST plans": {5, 40}}}, cpu: 2 * time.Millisecond, mallocs: 10}
	b := measured{res: &loadResult{Calls: 3, ElapsedMS: 20, Latencies: []int64{1, 7, 90}, ByCall: map[string][]int64{"POST plans": {7}, "GET disclosures": {1, 90}}}, cpu: 4 * time.Millisecond, mallocs: 5}
	sum := measured{}.add(a).add(b)
	if sum.res.Calls != 5 || sum.res.ElapsedMS != 30 || sum.cpu != 6*time.Millisecond || sum.mallocs != 15 {
		t.Fatalf("sum: %+v, res %+v", sum, sum.res)
	}
	if !slices.Equal(sum.res.Latencies, []int64{1, 5, 7, 40, 90}) {
		t.Fatalf("latencies %v, want all five sorted", sum.res.Latencies)
	}
	if !slices.Equal(sum.res.ByCall["POST plans"], []int64{5, 7, 40}) || !slices.Equal(sum.res.ByCall["GET disclosures"], []int64{1, 90}) {
		t.Fatalf("by call %v", sum.res.ByCall)
	}
	if got := sum.cpuPerCall(); got != 1200*time.Microsecond {
		t.Fatalf("CPU a call %s, want 1.2ms", got)
	}
	// The rounds are not changed by the sum.
	if len(a.res.Latencies) != 2 || len(a.res.ByCall["POST plans"]) != 2 {
		t.Fatalf("a changed: %+v", a.res)
	}
}
