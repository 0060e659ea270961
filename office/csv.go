package office

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/chairside/chairside"
)

// csvHeader names the export's columns: the list's, nothing more.
var csvHeader = []string{"Started", "Patient first name", "Patient last name", "Status", "Where", "Treatment amount",
	"Lenders and answers", "Approved amount", "Plan lender", "Monthly payment", "Months", "APR", "Promotional APR", "Signed", "Completed", "Finished"}

// ExportCSV writes the day's rows of f as CSV, times in the filter's time
// zone, and records the export. Cells a spreadsheet would run as a formula
// start with an apostrophe (OWASP's advice on CSV injection): a patient's
// name is typed by the patient.
func (s *Service) ExportCSV(ctx context.Context, c *Caller, f Filter, w io.Writer) error {
	list, err := s.List(ctx, c, f)
	if err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	for _, r := range list.Applications {
		if err := cw.Write(csvRecord(r, f.Zone)); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	s.did(ctx, c, chairside.AuditExportCSV, fmt.Sprintf("day %s, %d rows", f.Day, len(list.Applications)))
	return nil
}

// CSVFileName is the export's file name.
func CSVFileName(c *Caller, f Filter) string {
	return "chairside-" + c.Location.EntityKey + "-" + f.Day + ".csv"
}

func csvRecord(r *Row, zone *time.Location) []string {
	const at = "2006-01-02 15:04"
	var lenders []string
	for _, l := range r.Lenders {
		answer := l.ResponseCode
		if answer == "" {
			answer = "no answer yet"
		}
		lenders = append(lenders, l.LenderName+": "+answer)
	}
	rec := []string{r.CreatedAt.In(zone).Format(at), r.FirstName, r.LastName, r.Status, r.ExperienceType,
		chairside.Dollars(r.PurchaseAmountCents), strings.Join(lenders, "; "), "", "", "", "", "", "", yesNo(r.Signed), yesNo(r.Completed), ""}
	if r.ApprovedAmountCents > 0 {
		rec[7] = chairside.Dollars(r.ApprovedAmountCents)
	}
	if p := r.Plan; p != nil {
		rec[8], rec[9], rec[10] = p.LenderName, chairside.Dollars(p.MonthlyAmountCents), strconv.Itoa(p.DurationMonths)
		rec[11], rec[12] = percent(p.APR), percent(p.PromoAPR)
	}
	if r.FinishedAt != nil {
		rec[15] = r.FinishedAt.In(zone).Format(at)
	}
	return safeCells(rec)
}

// safeCells defuses the cells that a spreadsheet would read as a formula.
func safeCells(rec []string) []string {
	for i, v := range rec {
		if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
			rec[i] = "'" + v
		}
	}
	return rec
}

func percent(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) + "%" }

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
