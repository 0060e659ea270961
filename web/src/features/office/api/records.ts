import type { components } from '@/lib/api/schema';
import { officeCall } from './http';

/*
 * The office's own records (docs/practice-records.md): its connection to
 * Open Dental, and the patients and treatment plans found there.
 */

export type OfficeRecords = components['schemas']['OfficeRecords'];
export type OfficeRecordsRequest = components['schemas']['OfficeRecordsRequest'];
export type RecordPatient = components['schemas']['OfficeRecordPatient'];
export type RecordPatientDetail = components['schemas']['OfficeRecordPatientDetail'];
export type RecordPlan = RecordPatientDetail['plans'][number];

export async function getRecords(): Promise<OfficeRecords> {
  return (await officeCall<OfficeRecords>('GET', '/office/records'))!;
}

export async function connectRecords(body: OfficeRecordsRequest, csrf: string): Promise<OfficeRecords> {
  return (await officeCall<OfficeRecords>('PUT', '/office/records', body, csrf))!;
}

export async function disconnectRecords(csrf: string): Promise<void> {
  await officeCall<null>('DELETE', '/office/records', undefined, csrf);
}

/** RecordSearch finds patients by chart number, or by last name with the first name or date of birth. */
export interface RecordSearch {
  chart?: string;
  lastName?: string;
  firstName?: string;
  birthdate?: string;
}

export async function findRecordPatients(q: RecordSearch): Promise<RecordPatient[]> {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(q)) if (v) p.set(k, v);
  return (await officeCall<{ patients: RecordPatient[] }>('GET', `/office/records/patients?${p.toString()}`))!.patients;
}

export async function recordPatient(id: string): Promise<RecordPatientDetail> {
  return (await officeCall<RecordPatientDetail>('GET', `/office/records/patients/${encodeURIComponent(id)}`))!;
}
