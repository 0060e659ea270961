/*
 * The browser tests' two servers: the test server (env test, demo offices)
 * and a server in env prod set up as an operator would for a real practice
 * (playwright.config.ts starts both; README.md, "Running it for a real
 * practice").
 */
export const PORT = Number(process.env.E2E_PORT ?? 18931);
export const PROD_PORT = PORT + 1;
/** Maple Street Dental of examples/offices.yaml. */
export const PROD_ENTITY_KEY = '4815162342000001';
/** The office's first manager, added from the command line (its role's default). */
export const PROD_STAFF = { email: 'manager@maplestreet.example', password: 'maple street office manager' };
