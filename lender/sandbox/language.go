package sandbox

import (
	"github.com/chairside/chairside"
	"github.com/chairside/chairside/locale"
)

// The sandbox stands for real lenders, which write what a patient reads
// (documents, plans, what a pending application waits for) in the
// language the call asks for (Accept-Language over HTTP, the request's
// Language in process). It speaks English and Spanish; the Spanish texts are in
// spanish.go. Messages of errors are not here: they are translated on the
// way out, like every server message (package locale).

// language is the language the sandbox answers a call in: Spanish when
// the request asks for it, else English, the lenders' own.
func language(lang string) locale.Language {
	if locale.Language(lang) == locale.Spanish {
		return locale.Spanish
	}
	return locale.English
}

// words is a short text a patient reads, in English and in Spanish.
type words struct{ en, es string }

// in answers the text in lang, English for any language but Spanish.
func (w words) in(lang locale.Language) string {
	if lang == locale.Spanish && w.es != "" {
		return w.es
	}
	return w.en
}

// stipulationWords say what a stipulation asks of the patient: by pending
// reason, and for the Snap checking account and the identity quiz by the
// stipulation's type.
var stipulationWords = map[string]words{
	"identity_verification": {
		en: "The lender needs to confirm your identity.",
		es: "El prestamista necesita confirmar su identidad.",
	},
	"verify_email": {
		en: "Confirm your email address with the link the lender sent you.",
		es: "Confirme su correo electrónico con el enlace que le envió el prestamista.",
	},
	"esign": {
		en: "Sign the loan agreement to finish.",
		es: "Firme el contrato del préstamo para terminar.",
	},
	"bank_verification": {
		en: "The lender needs to confirm your checking account.",
		es: "El prestamista necesita confirmar su cuenta de cheques.",
	},
	"additional_documents_needed": {
		en: "The lender needs a document from you, such as a pay stub.",
		es: "El prestamista necesita que usted le envíe un documento, como un talón de pago.",
	},
	ReasonIncome: {
		en: "The lender needs your verified yearly income before taxes.",
		es: "El prestamista necesita confirmar su ingreso anual antes de impuestos.",
	},
	"bank_account": {
		en: "Add the checking account your pay goes into; lease payments come from it.",
		es: "Agregue la cuenta de cheques en la que recibe su sueldo; de ella salen los pagos del arrendamiento.",
	},
	chairside.StipulationIdentityQuiz: {
		en: "Answer a few questions so the lender can confirm it is you.",
		es: "Responda algunas preguntas para que el prestamista pueda confirmar que es usted.",
	},
}
