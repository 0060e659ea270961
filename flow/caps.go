package flow

import (
	"context"
	"time"

	"github.com/chairside/chairside"
)

// reservePull takes a credit pull from the session's allowance and from
// the SSN's allowance for the day (docs/exactly-once.md, "Credit-pull
// caps"), inside the claim transaction: a claim refused for any reason
// takes nothing, and parallel claims cannot pass a cap together. ssnIndex
// is the application's SSNIndex as the store set it. Over the session's
// cap answers session_limit, over the SSN's daily_limit: each a 429 of its
// own, so the patient is told to ask the office, or to come back tomorrow,
// rather than to wait a minute as for rate_limited.
func (s *Service) reservePull(ctx context.Context, tx Store, sess *chairside.Session, ssnIndex string, now time.Time) error {
	// Both reservations leave with the claim's other writes; the first
	// refused one is the batch's answer, so the session's cap speaks first.
	if err := tx.TakePull(ctx, "session:"+sess.ID, s.opts.SessionPullCap, func() error {
		s.log.Warn("session pull cap reached", "session", SessionHash(sess.ID))
		return &chairside.Error{Code: chairside.ESESSIONLIMIT, Message: "Too many applications in this session. Please ask the office for help.", RetryAfter: time.Hour}
	}); err != nil {
		return err
	}
	day := now.UTC().Format(time.DateOnly)
	return tx.TakePull(ctx, "ssn:"+ssnIndex+":"+day, s.opts.DailySSNCap, func() error {
		s.log.Warn("daily SSN cap reached", "session", SessionHash(sess.ID))
		tomorrow := now.UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
		return &chairside.Error{Code: chairside.EDAILYLIMIT, Message: "Too many applications for this person today. Please try again tomorrow or ask the office for help.", RetryAfter: tomorrow.Sub(now)}
	})
}
