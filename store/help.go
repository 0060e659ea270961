package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chairside/chairside"
)

// ReplaceHelpOverrides replaces every help override of a scope (a location
// or a group) with overrides, in one transaction (or the caller's Batch).
func (db *DB) ReplaceHelpOverrides(ctx context.Context, scope, scopeID string, overrides []*chairside.HelpOverride) error {
	return db.Batch(ctx, func(tx *DB) error {
		if _, err := tx.exec(ctx, `DELETE FROM help_overrides WHERE scope = ? AND scope_id = ?`, scope, scopeID); err != nil {
			return fmt.Errorf("store: replace help: %w", err)
		}
		for _, o := range overrides {
			if err := tx.insertHelp(ctx, scope, scopeID, o); err != nil {
				return err
			}
		}
		return nil
	})
}

func (db *DB) insertHelp(ctx context.Context, scope, scopeID string, o *chairside.HelpOverride) error {
	o.Scope, o.ScopeID = scope, scopeID
	o.UpdatedAt = db.stamp(o.UpdatedAt)
	faqs, glossary, err := "", "", error(nil)
	if o.Content.FAQs != nil {
		faqs, err = jsonText(o.Content.FAQs)
	}
	if err == nil && o.Content.Glossary != nil {
		glossary, err = jsonText(o.Content.Glossary)
	}
	if err != nil {
		return fmt.Errorf("store: replace help: %w", err)
	}
	_, err = db.exec(ctx, `INSERT INTO help_overrides (scope, scope_id, language, faqs, glossary, updated_at) VALUES (?, ?, ?, ?, ?, ?)`,
		scope, scopeID, o.Language, faqs, glossary, millis(o.UpdatedAt))
	return insertError(err, "replace help", "This language is given twice.", "")
}

func jsonText(v any) (string, error) {
	buf, err := json.Marshal(v)
	return string(buf), err
}

// ListHelpOverrides answers the help overrides of a location and of its
// group: at most a few rows, read on each help call so an import reaches
// every server at once (the caller caches what it builds from them).
func (db *DB) ListHelpOverrides(ctx context.Context, locationID, groupID string) ([]*chairside.HelpOverride, error) {
	return queryAll(ctx, db, "list help", scanHelp, `SELECT scope, scope_id, language, faqs, glossary, updated_at FROM help_overrides
		WHERE (scope = 'location' AND scope_id = ?) OR (scope = 'group' AND scope_id = ? AND scope_id <> '')
		ORDER BY scope, language`, locationID, groupID)
}

func scanHelp(s scanner) (*chairside.HelpOverride, error) {
	var (
		o              chairside.HelpOverride
		faqs, glossary string
		updated        int64
	)
	if err := s.Scan(&o.Scope, &o.ScopeID, &o.Language, &faqs, &glossary, &updated); err != nil {
		return nil, err
	}
	o.UpdatedAt = fromMillis(updated)
	if faqs != "" {
		if err := json.Unmarshal([]byte(faqs), &o.Content.FAQs); err != nil {
			return nil, fmt.Errorf("help faqs: %w", err)
		}
	}
	if glossary != "" {
		if err := json.Unmarshal([]byte(glossary), &o.Content.Glossary); err != nil {
			return nil, fmt.Errorf("help glossary: %w", err)
		}
	}
	return &o, nil
}
