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
export type ProviderConfig = S['Provider'];
export type StartProviderResponse = S['ApplyStartResponse'];
export type NextAction = S['Next'];
export type Decision = S['DecisionResponse'];
export type ResponseCode = S['ResponseCode'];
export type PaymentPlan = S['PaymentPlan'];
export type FieldError = S['FieldError'];
export type ApiErrorBody = S['Error'];
export type ErrorCode = S['Error']['code'];
export type Document = S['Document'];
export type ConsentInput = S['ConsentInput'];
export type SubmitRequest = S['SubmitRequest'];
export type Applicant = S['Applicant'];
export type ESignRequest = S['ESignRequest'];
export type ProviderApplicationState = S['ProviderApplicationState'];
export type DisclosureKind = 'prequalification' | 'application' | 'esign';
