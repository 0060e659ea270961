// Types of the Chairside API (/api/v1), taken from the contract: schema.d.ts
// is generated from api/openapi.yaml by `npm run gen:api` (run before every
// build), so these names never drift from the server.
import type { components } from './schema';

type S = components['schemas'];

export type ApplyMode = S['ApplyMode'];
export type ApplicantType = 'primary' | 'joint';
export type ExperienceType = S['ExperienceType'];
export type FinishOutcome = 'completed' | 'canceled' | 'pending' | 'timeout';

export type Session = S['SessionInfo'];
export type SessionProperties = S['SessionProperties'];
export type Location = S['LocationInfo'];
export type CurrentLocation = S['CurrentLocation'];
export type WaterfallStep = S['WaterfallStep'];
export type StartFlowResponse = S['StartResponse'];
export type FieldOption = S['Option'];
export type Rule = S['Rule'];
export type FieldRules = Record<string, Rule | undefined>;
export type FieldDefinition = S['FieldDefinition'];
export type FieldGroupRule = S['FieldGroupRule'];
export type LenderConfig = S['Provider'];
export type StartLenderResponse = S['ApplyStartResponse'];
export type NextAction = S['Next'];
export type Decision = S['DecisionResponse'];
export type DecisionProgress = S['DecisionProgress'];
export type ResponseCode = S['ResponseCode'];
export type PaymentPlan = S['PaymentPlan'];
export type FieldError = S['FieldError'];
export type ApiErrorBody = S['Error'];
/**
 * The error codes the server answers, from the contract (in_flight: 409 with
 * Retry-After, the same lender step is being processed right now).
 */
export type ErrorCode = S['Error']['code'];
/** Every code ApiError may carry: the server's, plus the client's own for failures without an answer. */
export type ClientErrorCode = ErrorCode | 'network' | 'bad_response' | 'unknown';

/** The known codes at run time (reports to the server name only these; any other is "unknown"). */
export const KNOWN_ERROR_CODES = [
  'validation_error',
  'bad_request',
  'consent_required',
  'session_invalid',
  'forbidden',
  'csrf',
  'resource_not_found',
  'conflict',
  'in_flight',
  'amount_changed',
  'payload_too_large',
  'unsupported_media_type',
  'idempotency_mismatch',
  'rate_limited',
  'daily_limit',
  'session_limit',
  'lender_unavailable',
  'internal',
  'network',
  'bad_response',
  'unknown',
] as const satisfies readonly ClientErrorCode[];

/** Compiles only while every code of the contract is in KNOWN_ERROR_CODES (the list must grow with schema.d.ts). */
type UnlistedErrorCode = Exclude<ClientErrorCode, (typeof KNOWN_ERROR_CODES)[number]>;
export const EVERY_ERROR_CODE_LISTED: [UnlistedErrorCode] extends [never] ? true : UnlistedErrorCode = true;

export function isKnownErrorCode(code: string): code is ClientErrorCode {
  return (KNOWN_ERROR_CODES as readonly string[]).includes(code);
}
export type Document = S['Document'];
export type ZipPlace = S['ZipPlace'];
export type ConsentInput = S['ConsentInput'];
export type SubmitRequest = S['SubmitRequest'];
export type Applicant = S['Applicant'];
export type ESignRequest = S['ESignRequest'];
export type ProviderApplicationState = S['ProviderApplicationState'];
/** The body of POST /log: a level, a code and a route pattern (clientDateTime optional), nothing else. */
export type LogRequest = S['LogRequest'];
export type DisclosureKind = 'prequalification' | 'application' | 'esign';

/*
 * Credit-limit change, documents, help and glossary (docs/behaviour.md,
 * "Credit-limit change" and "Help and documents").
 */
/** GET …/account/terms: the existing revolving account's limits, the treatment amount, the most the lender allows, and the account's terms. */
export type AccountTerms = S['AccountTerms'];
/** POST …/account/change-credit-limit. */
export type CreditLimitChangeRequest = S['CreditLimitChangeRequest'];
/** The lender's answer to a credit-limit change. */
export type CreditLimitChangeResponse = S['CreditLimitChangeResult'];
/** The documents pages' names (GET /documents/{doc}). */
export type DocumentName = S['DocumentName'];
export type Faq = S['Faq'];
/** GET /help/faqs. */
export type FaqList = S['HelpFaqs'];
export type GlossaryEntry = S['GlossaryEntry'];
/** GET /help/glossary and /help/glossary/search. */
export type Glossary = S['HelpGlossary'];
