package flow

import (
	"context"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

type cachedLocation struct {
	loc     *chairside.Location
	fetched time.Time
}

// location returns the location by id, from the cache when fresh.
func (s *Service) location(ctx context.Context, id string) (*chairside.Location, error) {
	return s.cachedLocation(ctx, s.locs, id, s.store.FindLocationByID)
}

// locationByEntityKey returns the location with an entity key, from the
// cache when fresh (the same short staleness as location).
func (s *Service) locationByEntityKey(ctx context.Context, entityKey string) (*chairside.Location, error) {
	return s.cachedLocation(ctx, s.locsByEK, entityKey, s.store.FindLocationByEntityKey)
}

// cachedLocation answers the location cache holds under key when it is
// younger than locationTTL, else finds it, and caches it under key and
// under its id.
func (s *Service) cachedLocation(ctx context.Context, cache map[string]cachedLocation, key string,
	find func(context.Context, string) (*chairside.Location, error)) (*chairside.Location, error) {
	now := time.Now() // cache age is wall-clock, independent of the injected clock
	s.locMu.Lock()
	c, ok := cache[key]
	s.locMu.Unlock()
	if ok && now.Sub(c.fetched) < locationTTL {
		return c.loc, nil
	}
	loc, err := find(ctx, key)
	if err != nil {
		return nil, err
	}
	s.locMu.Lock()
	cache[key] = cachedLocation{loc: loc, fetched: now}
	s.locs[loc.ID] = cachedLocation{loc: loc, fetched: now}
	s.locMu.Unlock()
	return loc, nil
}

// CurrentLocation answers the caller's location with its waterfall.
func (s *Service) CurrentLocation(ctx context.Context, c *Caller) (*CurrentLocation, error) {
	loc, err := s.location(ctx, c.Session.LocationID)
	if err != nil {
		return nil, err
	}
	// Each step carries its effective role (a role= modifier of its key
	// wins), so the browser knows which acknowledgements apply.
	steps := make([]chairside.WaterfallStep, len(loc.Waterfall))
	for i, st := range loc.Waterfall {
		st.Role = catalogue.EffectiveRole(st)
		steps[i] = st
	}
	return &CurrentLocation{LocationInfo: locationInfo(loc), Waterfall: steps}, nil
}

func locationInfo(loc *chairside.Location) LocationInfo {
	return LocationInfo{
		Name:      loc.Name,
		State:     loc.State,
		GroupID:   loc.GroupID,
		BrandName: loc.BrandName,
		BrandLogo: loc.BrandLogo,
		Language:  loc.Language,
	}
}
