package office

import (
	"slices"
	"time"

	"github.com/chairside/chairside"
)

// Filter picks the rows of one day, in the time zone of the office's
// screen, and optionally one status.
type Filter struct {
	Day      string // YYYY-MM-DD
	Zone     *time.Location
	From, To time.Time // the day's bounds, To excluded
	Status   string
}

// ParseFilter reads the list's query: day (today when ""), tz (an IANA
// name, UTC when "") and status ("" for all). Anything else answers
// bad_request.
func ParseFilter(day, tz, status string, now time.Time) (Filter, error) {
	f := Filter{Status: status, Zone: time.UTC}
	if tz != "" {
		loc := chairside.TimeZone(tz)
		if loc == nil {
			return f, chairside.Errorf(chairside.EBADREQUEST, "tz must be a time zone such as America/Chicago.")
		}
		f.Zone = loc
	}
	if status != "" && !slices.Contains(RowStatuses, status) {
		return f, chairside.Errorf(chairside.EBADREQUEST, "status must be one of the list's statuses.")
	}
	start := now.In(f.Zone)
	if day != "" {
		d, err := time.ParseInLocation("2006-01-02", day, f.Zone)
		if err != nil {
			return f, chairside.Errorf(chairside.EBADREQUEST, "day must be a date such as 2026-11-25.")
		}
		start = d
	}
	f.From = time.Date(start.Year(), start.Month(), start.Day(), 0, 0, 0, 0, f.Zone)
	f.To = f.From.AddDate(0, 0, 1) // 23 or 25 hours on the days clocks change
	f.Day = f.From.Format("2006-01-02")
	return f, nil
}
