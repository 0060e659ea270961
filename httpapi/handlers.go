package httpapi

import (
	"context"
	"net/http"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/locale"
)

// Handlers: decode → service → encode. Nothing here decides anything.

// languageChoice is what a start from a link says of the patient's
// language (docs/languages.md): LanguageChosen false means the request's
// Accept-Language is only the browser's, so an office with a language of its
// own has its form answered in that one, the language the app will speak.
// Left out, the request's language is answered, as for every other call.
type languageChoice struct {
	LanguageChosen *bool `json:"languageChosen,omitempty"`
}

// startBody is the body of POST /flow/start.
type startBody struct {
	flow.StartRequest
	languageChoice
}

// keyStartBody is the body of a start by the entity key in the path.
type keyStartBody struct {
	flow.StartOptions
	languageChoice
}

func (h *Handler) flowStart(w http.ResponseWriter, r *http.Request) {
	var req startBody
	if !h.body(w, r, &req, false) {
		return
	}
	resp, err := h.svc.Start(r.Context(), req.StartRequest)
	h.answerStart(w, r, resp, err, req.languageChoice)
}

// startAgainRequest is the body of POST /flow/start/again.
type startAgainRequest struct {
	PreviousSessionID string `json:"previousSessionId"`
}

func (h *Handler) flowStartAgain(w http.ResponseWriter, r *http.Request) {
	var req startAgainRequest
	if !h.body(w, r, &req, false) {
		return
	}
	resp, err := h.svc.StartAgain(r.Context(), req.PreviousSessionID)
	h.answerStart(w, r, resp, err, languageChoice{})
}

func (h *Handler) flowStartToken(w http.ResponseWriter, r *http.Request) {
	var choice languageChoice
	if !h.body(w, r, &choice, true) {
		return
	}
	resp, err := h.svc.StartByToken(r.Context(), r.PathValue("token"))
	h.answerStart(w, r, resp, err, choice)
}

func (h *Handler) flowStartEntityKey(w http.ResponseWriter, r *http.Request) {
	var req keyStartBody
	if !h.body(w, r, &req, true) {
		return
	}
	resp, err := h.svc.StartByEntityKey(r.Context(), r.PathValue("entityKey"), req.StartOptions)
	h.answerStart(w, r, resp, err, req.languageChoice)
}

func (h *Handler) flowRestart(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	if !h.body(w, r, &empty{}, true) {
		return
	}
	resp, err := h.svc.Restart(r.Context(), c)
	h.answerStart(w, r, resp, err, languageChoice{})
}

func (h *Handler) flowFinish(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	if !h.body(w, r, &empty{}, true) {
		return
	}
	outcome, ok := finishOutcomes[r.PathValue("outcome")]
	if !ok {
		h.writeError(w, r, chairside.Errorf(chairside.ENOTFOUND, "Unknown outcome."))
		return
	}
	resp, err := h.svc.Finish(r.Context(), c, outcome)
	h.answer(w, r, resp, err)
}

func (h *Handler) applyStart(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	if !h.body(w, r, &empty{}, true) {
		return
	}
	resp, err := h.svc.ApplyStart(r.Context(), c, r.PathValue("providerKey"), r.URL.Query().Get("mode"))
	if resp != nil {
		localizeForm(languageOf(r), resp)
	}
	h.answer(w, r, resp, err)
}

// answerStart answers a new or restarted session with its first form in
// the language its app will speak (languageChoice), and says which.
func (h *Handler) answerStart(w http.ResponseWriter, r *http.Request, resp *flow.StartResponse, err error, choice languageChoice) {
	if resp != nil {
		lang := locale.ForNewSession(languageOf(r), resp.Location.Language, choice.LanguageChosen)
		resp.Language = string(lang)
		if resp.Form != nil {
			localizeForm(lang, resp.Form)
		}
	}
	h.answer(w, r, resp, err)
}

// localizeForm puts what a patient reads of a form flow built in English
// (labels, hints, choices, rule messages) into lang: the request's, as
// writeError does for error messages, or a new session's (answerStart;
// docs/languages.md).
func localizeForm(lang locale.Language, f *flow.ApplyStartResponse) {
	locale.Fields(lang, f.Fields, f.FieldGroupRules)
}

func (h *Handler) submit(op string) authedFunc {
	return func(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
		var req flow.SubmitRequest
		if !h.body(w, r, &req, false) {
			return
		}
		resp, err := h.svc.Submit(r.Context(), c, r.PathValue("providerKey"), op, &req)
		h.answer(w, r, resp, err)
	}
}

func (h *Handler) plans(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	var req flow.PlansRequest
	if !h.body(w, r, &req, false) {
		return
	}
	resp, err := h.svc.PlansFor(r.Context(), c, r.PathValue("providerKey"), &req)
	h.answer(w, r, resp, err)
}

func (h *Handler) selectPlan(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	if !h.body(w, r, &empty{}, true) {
		return
	}
	resp, err := h.svc.SelectPlan(r.Context(), c, r.PathValue("providerKey"), r.PathValue("providerPlanCode"))
	h.answer(w, r, resp, err)
}

func (h *Handler) confirmPlan(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	if !h.body(w, r, &empty{}, true) {
		return
	}
	resp, err := h.svc.ConfirmPlan(r.Context(), c, r.PathValue("providerKey"), r.PathValue("providerPlanCode"))
	h.answer(w, r, resp, err)
}

func (h *Handler) esign(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	var req flow.ESignRequest
	if !h.bodyN(w, r, h.opts.ESignMaxBytes, &req, false) {
		return
	}
	resp, err := h.svc.ESign(r.Context(), c, r.PathValue("providerKey"), &req)
	h.answer(w, r, resp, err)
}

func (h *Handler) disclosures(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	resp, err := h.svc.Disclosures(r.Context(), c, r.PathValue("providerKey"), r.URL.Query().Get("kind"))
	h.answer(w, r, resp, err)
}

func (h *Handler) terms(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	resp, err := h.svc.Terms(r.Context(), c, r.PathValue("providerKey"))
	h.answer(w, r, resp, err)
}

func (h *Handler) validate(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	var req flow.ValidateRequest
	if !h.body(w, r, &req, false) {
		return
	}
	resp, err := h.svc.Validate(r.Context(), c, &req)
	if resp != nil {
		resp.FieldErrors = locale.FieldErrors(languageOf(r), resp.FieldErrors)
	}
	h.answer(w, r, resp, err)
}

func (h *Handler) currentLocation(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	resp, err := h.svc.CurrentLocation(r.Context(), c)
	h.answer(w, r, resp, err)
}

// clientLog writes one structured error report of the browser's to the
// server log: a level, a code and a route, nothing typed by a person. It
// needs a live session (so the log cannot be filled by anyone on the
// internet) and is limited per session (logLimiter) and to LogMaxBytes.
func (h *Handler) clientLog(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	if ok, wait := h.logLimiter.allow(c.Session.ID); !ok {
		err := chairside.Errorf(chairside.ERATELIMITED, "Too many log lines from this session. Please wait a moment.")
		err.RetryAfter = wait
		h.writeError(w, r, err)
		return
	}
	var req flow.LogRequest
	if !h.bodyN(w, r, LogMaxBytes, &req, false) {
		return
	}
	if err := h.svc.ClientLog(r.Context(), c, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// amounts answers the application's treatment amount and insurance as
// they stand, read again by a browser told amount_changed.
func (h *Handler) amounts(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	resp, err := h.svc.Amounts(r.Context(), c)
	h.answer(w, r, resp, err)
}

func (h *Handler) progress(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	resp, err := h.svc.Progress(r.Context(), c)
	h.answer(w, r, resp, err)
}

func (h *Handler) plansPresented(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	var req flow.PlansPresentedRequest
	if !h.body(w, r, &req, false) {
		return
	}
	if err := h.svc.PlansPresented(r.Context(), c, &req); err != nil {
		h.writeError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h *Handler) applyTestCase(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
	if !h.body(w, r, &empty{}, true) {
		return
	}
	resp, err := h.svc.ApplyTestCase(r.Context(), c, r.PathValue("id"))
	h.answer(w, r, resp, err)
}

func (h *Handler) version(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, versionResponse{Version: chairside.Version, Commit: chairside.Commit, Env: h.opts.Env})
}

func (h *Handler) openAPI(w http.ResponseWriter, r *http.Request) {
	if len(h.opts.OpenAPI) == 0 {
		h.writeError(w, r, chairside.Errorf(chairside.ENOTFOUND, "The API description is not available."))
		return
	}
	w.Header().Set("Content-Type", "application/yaml")
	_, _ = w.Write(h.opts.OpenAPI)
}

// lenderCall answers a call on one lender of the caller's waterfall: its
// JSON body decoded strictly (optional or not), the service asked, its
// answer written. The lender steps and reads are all this shape.
func lenderCall[Req, Resp any](h *Handler, optional bool, fn func(context.Context, *flow.Caller, string, *Req) (Resp, error)) authedFunc {
	return func(w http.ResponseWriter, r *http.Request, c *flow.Caller) {
		var req Req
		if !h.body(w, r, &req, optional) {
			return
		}
		resp, err := fn(r.Context(), c, r.PathValue("providerKey"), &req)
		h.answer(w, r, resp, err)
	}
}

// lenderAction is lenderCall for the calls that take no body (an empty
// one, or {}, is accepted).
func lenderAction[Resp any](h *Handler, fn func(context.Context, *flow.Caller, string) (Resp, error)) authedFunc {
	return lenderCall(h, true, func(ctx context.Context, c *flow.Caller, key string, _ *empty) (Resp, error) {
		return fn(ctx, c, key)
	})
}
