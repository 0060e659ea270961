import { flow } from '@/stores/flow';

/** withProgress shows a waiting message over the page while fn runs. */
export async function withProgress<T>(message: string, fn: () => Promise<T>): Promise<T> {
  flow.setProgress(message);
  try {
    return await fn();
  } finally {
    flow.setProgress(null);
  }
}
