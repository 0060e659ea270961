import type { components } from '@/lib/api/schema';
import { officeCall } from './http';

/*
 * Where this server's backup of its database stands (api/openapi.yaml,
 * /office/backup): managers only, for the banner of the office's frame
 * (BackupBanner). Any other staff member is refused (403).
 */

export type OfficeBackup = components['schemas']['OfficeBackup'];

export async function getBackup(): Promise<OfficeBackup> {
  return (await officeCall<OfficeBackup>('GET', '/office/backup'))!;
}
