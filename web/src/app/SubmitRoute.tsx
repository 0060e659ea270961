import { SubmitPage } from '@/features/results/SubmitPage';
import { runSubmission } from './submissions';

/** SubmitRoute is every transient submit route: the results' submit screen running the operation the app wires for it. */
export function SubmitRoute() {
  return <SubmitPage run={runSubmission} />;
}
