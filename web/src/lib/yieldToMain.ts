/**
 * yieldToMain answers a promise that settles in a later task: what follows
 * an await of it runs after the browser has had the chance to paint and to
 * handle input, so a long piece of work cut there is two shorter tasks.
 */
export function yieldToMain(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
